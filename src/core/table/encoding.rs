//! A file's bytes decoded to text ([`decode`]): UTF-8, with or without a byte-order mark;
//! UTF-16 LE or BE with a byte-order mark (or without one, when every other byte of the start
//! is zero); anything else that is not valid UTF-8 is Windows-1252 (Latin-1 with the printable
//! 0x80–0x9F), as a browser reads such a file. A NUL or other control character (not tab, CR
//! or LF) means the file is not text: refused with its line number.

use super::lines;
use crate::core::error::Error;

/// Decodes a file's bytes (see the module docs for the rules). Fails, with the line, on a
/// file that is not text.
pub fn decode(bytes: &[u8]) -> Result<String, Error> {
    let text = if let Some(rest) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        String::from_utf8(rest.to_vec()).unwrap_or_else(|_| windows_1252(rest))
    } else if let Some(rest) = bytes.strip_prefix(&[0xFF, 0xFE]) {
        utf16(rest, u16::from_le_bytes)
    } else if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        utf16(rest, u16::from_be_bytes)
    } else if let Some(little) = utf16_without_mark(bytes) {
        if little {
            utf16(bytes, u16::from_le_bytes)
        } else {
            utf16(bytes, u16::from_be_bytes)
        }
    } else {
        match std::str::from_utf8(bytes) {
            Ok(text) => text.to_string(),
            Err(_) => windows_1252(bytes),
        }
    };
    if let Some(at) = text.find(|c: char| c.is_control() && !matches!(c, '\t' | '\n' | '\r')) {
        let c = text[at..].chars().next().unwrap_or_default();
        // The prefix ending with the character: its last line is the character's.
        let line = lines(&text[..at + c.len_utf8()]).count();
        return Err(Error::Csv {
            line,
            message: format!(
                "control character U+{:04X}: this is not a text file of points",
                c as u32
            ),
        });
    }
    Ok(text)
}

/// UTF-16 code units, two bytes each read by `unit`; an odd last byte and unpaired surrogates
/// become U+FFFD.
fn utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> String {
    let units = bytes.chunks(2).map(|pair| match pair {
        [a, b] => unit([*a, *b]),
        _ => 0xFFFD,
    });
    char::decode_utf16(units)
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect()
}

/// UTF-16 without a byte-order mark: `Some(true)` for little-endian when the odd bytes of
/// the first pairs are all zero and the even ones are not (ASCII text in UTF-16 LE),
/// `Some(false)` the other way round.
fn utf16_without_mark(bytes: &[u8]) -> Option<bool> {
    let start = &bytes[..bytes.len().min(200) & !1];
    if start.len() < 4 {
        return None;
    }
    let zero_at = |parity: usize| {
        start
            .iter()
            .skip(parity)
            .step_by(2)
            .filter(|&&b| b == 0)
            .count()
    };
    let half = start.len() / 2;
    match (zero_at(0), zero_at(1)) {
        (0, odd) if odd == half => Some(true),
        (even, 0) if even == half => Some(false),
        _ => None,
    }
}

/// Windows-1252: Latin-1 with printable characters at 0x80–0x9F (the five bytes it leaves
/// undefined map to the C1 controls, as the WHATWG encoding standard has it).
fn windows_1252(bytes: &[u8]) -> String {
    const HIGH: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž',
        '\u{8f}', '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}',
        'ž', 'Ÿ',
    ];
    bytes
        .iter()
        .map(|&b| match b {
            0x80..=0x9F => HIGH[(b - 0x80) as usize],
            _ => b as char,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_decode() {
        let utf16le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("é,1".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        assert_eq!(decode(&utf16le).unwrap(), "é,1");
        let utf16be: Vec<u8> = "a,1".encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(decode(&utf16be).unwrap(), "a,1");
        assert_eq!(decode(b"caf\xe9,\x80").unwrap(), "café,€");
        assert_eq!(decode(b"\xef\xbb\xbfx").unwrap(), "x");
        assert_eq!(
            decode(b"1,2,0\n\x00\x01").unwrap_err().to_string(),
            "line 2: control character U+0000: this is not a text file of points"
        );
    }
}
