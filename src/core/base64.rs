//! Bytes as text, in standard base64 (RFC 4648 §4, with padding): six bits to a character
//! from `A–Z a–z 0–9 + /`, four characters to three bytes, `=` filling the last group. Used
//! where bytes must travel inside text: a PNG in an SVG file, and the plane's points between
//! the worker and the page (their bits, so that every number arrives exactly as it left).

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `bytes` in base64.
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * k)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The bytes `text` encodes, or `None` when it is not base64 as [`encode`] writes it (a
/// length not a multiple of four, a character outside the alphabet, padding other than at
/// the end).
pub fn decode(text: &str) -> Option<Vec<u8>> {
    let text = text.as_bytes();
    if !text.len().is_multiple_of(4) {
        return None;
    }
    let pad = text.iter().rev().take_while(|&&c| c == b'=').count();
    if pad > 2 {
        return None;
    }
    let whole = if pad > 0 { text.len() - 4 } else { text.len() };
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    // Every group's bits or'ed together: one look at the end finds any character outside
    // the alphabet (its value has the high bit), and the loop stays a few table reads.
    let mut invalid = 0u8;
    for group in text[..whole].chunks_exact(4) {
        let [a, b, c, d] = [0, 1, 2, 3].map(|k| VALUE[group[k] as usize]);
        invalid |= a | b | c | d;
        let n = (u32::from(a) << 18) | (u32::from(b) << 12) | (u32::from(c) << 6) | u32::from(d);
        out.extend_from_slice(&n.to_be_bytes()[1..]);
    }
    if pad > 0 {
        let last = &text[whole..whole + 4 - pad];
        let mut n = 0u32;
        for (k, &c) in last.iter().enumerate() {
            invalid |= VALUE[c as usize];
            n |= u32::from(VALUE[c as usize] & 63) << (18 - 6 * k);
        }
        // The bits past the last byte are zero as `encode` writes them ("Zg==", not "Zh==").
        if n & (0xff_ffff >> (8 * (3 - pad))) != 0 {
            return None;
        }
        out.extend_from_slice(&n.to_be_bytes()[1..4 - pad]);
    }
    (invalid & 0x80 == 0).then_some(out)
}

/// Each character's six bits, and `0x80` for a character outside the alphabet.
const VALUE: [u8; 256] = {
    let mut table = [0x80; 256];
    let mut i = 0;
    while i < 64 {
        table[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 4648 §10's test vectors.
    const VECTORS: [(&str, &str); 7] = [
        ("", ""),
        ("f", "Zg=="),
        ("fo", "Zm8="),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ];

    #[test]
    fn encodes_as_rfc_4648_does() {
        for (plain, encoded) in VECTORS {
            assert_eq!(encode(plain.as_bytes()), encoded);
        }
    }

    #[test]
    fn decodes_as_rfc_4648_does() {
        for (plain, encoded) in VECTORS {
            assert_eq!(decode(encoded).as_deref(), Some(plain.as_bytes()));
        }
        // Both characters beyond the letters and digits.
        assert_eq!(decode("+/8=").as_deref(), Some(&[0xfb, 0xff][..]));
    }

    #[test]
    fn every_byte_round_trips() {
        let bytes: Vec<u8> = (0..=255).chain((0..=255).rev()).collect();
        for len in [0, 1, 2, 3, 254, 255, 512] {
            assert_eq!(decode(&encode(&bytes[..len])).unwrap(), &bytes[..len]);
        }
    }

    #[test]
    fn what_is_not_base64_is_refused() {
        for text in [
            "Zg=", "Zg", "Z===", "Zm9v!A==", "Zg==Zm9v", "Zm 9v", "Zm9v\n",
        ] {
            assert_eq!(decode(text), None, "{text:?}");
        }
    }
}
