//! The decoder against streams written by xz (tests/fixtures, made by make.sh): every kind of
//! symbol, three settings of the literal and position models, fed whole and a byte at a time;
//! a header that states the size; and damage of every kind reported, never a panic.
use kernel_playground_unpack::crc32::crc32;
use kernel_playground_unpack::lzma::{Damage, Decoder};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/fixtures/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect(name)
}

/// `packed` decoded with room for `capacity` bytes, fed `piece` bytes at a time.
fn unpack(packed: &[u8], piece: usize, capacity: usize) -> Result<Vec<u8>, Damage> {
    let mut decoder = Decoder::new(0, capacity);
    for (i, part) in packed.chunks(piece.max(1)).enumerate() {
        decoder.push(part);
        decoder.decode((i * piece + part.len()).min(packed.len()), false)?;
    }
    decoder.decode(packed.len(), true)?;
    assert!(decoder.finished());
    Ok(decoder.output().to_vec())
}

fn originals() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("text", fixture("text")),
        ("text-lp2", fixture("text")),
        ("text-lc4", fixture("text")),
        ("random", fixture("random")),
        ("far", fixture("far")),
        ("zeros", vec![0; 100_000]),
        ("empty", Vec::new()),
    ]
}

#[test]
fn every_fixture_unpacks_to_its_original_whole_and_a_byte_at_a_time() {
    for (name, original) in originals() {
        let packed = fixture(&format!("{name}.lzma"));
        for piece in [packed.len(), 100, 1] {
            let out =
                unpack(&packed, piece, original.len()).unwrap_or_else(|e| panic!("{name}: {e:?}"));
            assert!(out == original, "{name}, pieces of {piece}");
        }
        // Room to spare changes nothing: the end marker ends it.
        assert!(
            unpack(&packed, 64, original.len() + 1000).unwrap() == original,
            "{name}"
        );
    }
}

#[test]
fn a_header_that_states_the_size_stops_there() {
    for (name, original) in originals() {
        let mut packed = fixture(&format!("{name}.lzma"));
        packed[5..13].copy_from_slice(&(original.len() as u64).to_le_bytes());
        let out = unpack(&packed, 37, original.len()).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert!(out == original, "{name}");
    }
    // A stated size larger than the room: damaged.
    let mut packed = fixture("text.lzma");
    packed[5..13].copy_from_slice(&1_000_000u64.to_le_bytes());
    assert_eq!(unpack(&packed, 100, 15_239), Err(Damage("too long")));
}

#[test]
fn too_little_room_is_damage() {
    let packed = fixture("text.lzma");
    assert_eq!(
        unpack(&packed, 100, fixture("text").len() - 1),
        Err(Damage("too long"))
    );
}

#[test]
fn a_stream_cut_short_is_damage_wherever_it_is_cut() {
    let packed = fixture("far.lzma");
    let original = fixture("far");
    for end in [
        0,
        1,
        12,
        13,
        17,
        18,
        100,
        packed.len() / 2,
        packed.len() - 1,
    ] {
        assert!(
            unpack(&packed[..end], 50, original.len()).is_err(),
            "cut at {end}"
        );
    }
}

#[test]
fn a_changed_byte_never_panics_and_never_passes_the_check_with_other_bytes() {
    // What the page does: the decoder's damage, or the size and CRC it checks after. (The
    // coder's last bytes carry slack: a change there may decode to the same bytes.)
    let original = fixture("text");
    let packed = fixture("text.lzma");
    let expected = crc32(&original);
    let mut by_decoder = 0;
    for at in (0..packed.len()).filter(|at| !(1..5).contains(at)) {
        for flip in [0x01, 0x80, 0xff] {
            let mut changed = packed.clone();
            changed[at] ^= flip;
            match unpack(&changed, 64, original.len()) {
                Err(_) => by_decoder += 1,
                Ok(out) => assert!(
                    out == original || out.len() != original.len() || crc32(&out) != expected,
                    "byte {at} ^ {flip:#x}"
                ),
            }
        }
    }
    assert!(by_decoder > 0);
}

#[test]
fn more_bytes_than_announced_or_fewer_than_before_are_refused() {
    let packed = fixture("text.lzma");
    let mut decoder = Decoder::new(packed.len(), 20_000);
    decoder.input_mut().copy_from_slice(&packed);
    assert!(decoder.decode(100, false).is_ok());
    assert_eq!(
        decoder.decode(50, false),
        Err(Damage("more bytes than were announced"))
    );
    assert_eq!(
        decoder.decode(packed.len() + 1, false),
        Err(Damage("more bytes than were announced"))
    );
}
