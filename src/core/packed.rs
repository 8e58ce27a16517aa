//! A dataset as compact bytes, read back a piece at a time: how a large file read by the
//! worker behind the page reaches the page without a task that grows with its size (a million
//! rows as JSON or as a link would hold the page's thread for seconds, and even copying all
//! the bytes into wasm memory at once takes a tenth of one).
//!
//! The bytes, little-endian: `KPD2`; n (u32); the class texts (count u32, then per class its
//! label i32 and its text as a u32 length and UTF-8); then the n points one after the other,
//! each as x and y (f64), the label (i32), the lengths of its coordinates' written text (two
//! u32; `u32::MAX` twice for a point with none) and that text. Every value crosses bit for bit
//! and every written text byte for byte; [`Unpacking::feed`] takes the bytes cut anywhere.

use crate::core::data::{Dataset, Point, Written};
use crate::core::error::Error;

const MAGIC: &[u8; 4] = b"KPD2";
const NONE: u32 = u32::MAX;
/// A point's bytes before its written text.
const ROW: usize = 8 + 8 + 4 + 4 + 4;

/// `data` as bytes (see the module's doc).
pub fn pack(data: &Dataset) -> Vec<u8> {
    let mut out = Vec::with_capacity(12 + 48 * data.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out.extend_from_slice(&(data.label_texts.len() as u32).to_le_bytes());
    for (label, text) in &data.label_texts {
        out.extend_from_slice(&label.to_le_bytes());
        out.extend_from_slice(&(text.len() as u32).to_le_bytes());
        out.extend_from_slice(text.as_bytes());
    }
    for (i, (p, label)) in data.points.iter().zip(&data.labels).enumerate() {
        out.extend_from_slice(&p[0].to_le_bytes());
        out.extend_from_slice(&p[1].to_le_bytes());
        out.extend_from_slice(&label.to_le_bytes());
        match data.written.get(i) {
            Some(Some([x, y])) => {
                out.extend_from_slice(&(x.len() as u32).to_le_bytes());
                out.extend_from_slice(&(y.len() as u32).to_le_bytes());
                out.extend_from_slice(x.as_bytes());
                out.extend_from_slice(y.as_bytes());
            }
            _ => {
                out.extend_from_slice(&NONE.to_le_bytes());
                out.extend_from_slice(&NONE.to_le_bytes());
            }
        }
    }
    out
}

/// Packed bytes being read back into a dataset, as they are fed in.
#[derive(Default)]
pub struct Unpacking {
    /// Bytes fed but not yet read (the start of a point or of the header).
    pending: Vec<u8>,
    /// How many points there are, once the header has been read.
    n: Option<usize>,
    data: Dataset,
}

fn damaged() -> Error {
    Error::Parameter("the packed points are damaged".into())
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

/// The f64 whose little-endian bytes start at `at` (also how the plane's points travel:
/// `core::plane::bits`).
pub(crate) fn f64_at(bytes: &[u8], at: usize) -> f64 {
    f64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

fn text_at(bytes: &[u8], from: usize, len: usize) -> Result<Box<str>, Error> {
    let text = std::str::from_utf8(&bytes[from..from + len]).map_err(|_| damaged())?;
    Ok(text.into())
}

impl Unpacking {
    pub fn new() -> Unpacking {
        Unpacking::default()
    }

    /// How many points the bytes hold (0 until the header has been fed).
    pub fn len(&self) -> usize {
        self.n.unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The share of points read so far, 0 to 1.
    pub fn fraction(&self) -> f64 {
        match self.n {
            Some(0) => 1.0,
            Some(n) => self.data.len() as f64 / n as f64,
            None => 0.0,
        }
    }

    /// Reads what `bytes` complete (they may end anywhere; the rest waits for the next).
    pub fn feed(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let joined;
        let bytes = if self.pending.is_empty() {
            bytes
        } else {
            self.pending.extend_from_slice(bytes);
            joined = std::mem::take(&mut self.pending);
            &joined[..]
        };
        let mut at = 0;
        if self.n.is_none() {
            match self.header(bytes)? {
                Some(used) => at = used,
                None => {
                    self.pending = bytes.to_vec();
                    return Ok(());
                }
            }
        }
        let n = self.len();
        while self.data.len() < n && bytes.len() - at >= ROW {
            let lengths = [u32_at(bytes, at + 20), u32_at(bytes, at + 24)];
            let text = if lengths == [NONE, NONE] {
                0
            } else {
                lengths[0] as usize + lengths[1] as usize
            };
            if bytes.len() - at < ROW + text {
                break;
            }
            let point: Point = [f64_at(bytes, at), f64_at(bytes, at + 8)];
            let label = i32::from_le_bytes(bytes[at + 16..at + 20].try_into().expect("4 bytes"));
            let written = if lengths == [NONE, NONE] {
                None
            } else {
                let (x, y) = (lengths[0] as usize, lengths[1] as usize);
                let texts: Written = [
                    text_at(bytes, at + ROW, x)?,
                    text_at(bytes, at + ROW + x, y)?,
                ];
                Some(texts)
            };
            // Room for every point's text at once: grown by doubling, the texts of a
            // million points would be copied whole, in one long step, several times.
            if written.is_some() && self.data.written.capacity() == 0 {
                self.data.written.reserve_exact(n);
            }
            self.data.push_written(point, label, written)?;
            at += ROW + text;
        }
        if self.data.len() == n && at < bytes.len() {
            return Err(damaged());
        }
        self.pending = bytes[at..].to_vec();
        Ok(())
    }

    /// Reads the header from the start of `bytes`: how many bytes it took, or `None` while it
    /// is not all there.
    fn header(&mut self, bytes: &[u8]) -> Result<Option<usize>, Error> {
        if bytes.len() < 12 {
            return Ok(None);
        }
        if &bytes[..4] != MAGIC {
            return Err(damaged());
        }
        let (n, classes) = (u32_at(bytes, 4) as usize, u32_at(bytes, 8));
        let mut at = 12;
        let mut texts = crate::core::labels::LabelTexts::new();
        for _ in 0..classes {
            if bytes.len() < at + 8 {
                return Ok(None);
            }
            let label = i32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
            let len = u32_at(bytes, at + 4) as usize;
            if bytes.len() < at + 8 + len {
                return Ok(None);
            }
            texts.insert(label, text_at(bytes, at + 8, len)?);
            at += 8 + len;
        }
        self.data.label_texts = texts;
        self.data.points.reserve(n);
        self.data.labels.reserve(n);
        self.n = Some(n);
        Ok(Some(at))
    }

    /// The dataset, once every point has been read.
    pub fn finish(self) -> Result<Dataset, Error> {
        match self.n {
            Some(n) if self.data.len() == n && self.pending.is_empty() => Ok(self.data),
            _ => Err(damaged()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Dataset {
        let mut data = Dataset::new();
        data.push_written([1.5, -0.0], 1, Some(["1.50".into(), "-0.000".into()]))
            .unwrap();
        data.push([0.1 + 0.2, 6.02e8], -1).unwrap();
        data.push_written([3.0, 4.0], 1, Some(["3".into(), "4e0".into()]))
            .unwrap();
        data.label_texts.insert(1, "+1".into());
        data.label_texts.insert(-1, "-1.0".into());
        data
    }

    #[test]
    fn packed_points_come_back_exactly_however_the_bytes_are_cut() {
        let data = sample();
        let bytes = pack(&data);
        for piece in [1, 2, 7, 13, bytes.len()] {
            let mut unpacking = Unpacking::new();
            for chunk in bytes.chunks(piece) {
                unpacking.feed(chunk).unwrap();
            }
            assert_eq!(unpacking.len(), 3);
            let back = unpacking.finish().unwrap();
            assert_eq!(back.labels, vec![1, -1, 1]);
            for (p, q) in back.points.iter().zip(&data.points) {
                assert_eq!(p.map(f64::to_bits), q.map(f64::to_bits));
            }
            assert_eq!(back.coordinate_text(0, 0), "1.50");
            assert_eq!(back.coordinate_text(0, 1), "-0.000");
            assert_eq!(back.coordinate_text(1, 0), "0.30000000000000004");
            assert_eq!(back.coordinate_text(2, 1), "4e0");
            assert_eq!(back.label_texts, data.label_texts);
            assert_eq!(back.to_csv(), data.to_csv());
        }
    }

    #[test]
    fn the_fraction_read_grows_to_one() {
        let bytes = pack(&sample());
        let mut unpacking = Unpacking::new();
        assert_eq!(unpacking.fraction(), 0.0);
        // The header, the first point (with its 10 bytes of text) and a part of the second.
        let first = 12 + 2 * 8 + 2 + 4 + ROW + 10;
        unpacking.feed(&bytes[..first + 5]).unwrap();
        assert!((unpacking.fraction() - 1.0 / 3.0).abs() < 1e-12);
        unpacking.feed(&bytes[first + 5..]).unwrap();
        assert_eq!(unpacking.fraction(), 1.0);
        assert!(Unpacking::new().finish().is_err());
    }

    #[test]
    fn damaged_bytes_are_a_message_not_a_panic() {
        let bytes = pack(&sample());
        for cut in [0, 3, 8, 20, bytes.len() - 1] {
            let mut unpacking = Unpacking::new();
            let result = unpacking
                .feed(&bytes[..cut])
                .and_then(|()| unpacking.finish());
            assert!(result.is_err(), "cut at {cut}");
        }
        let mut wrong = bytes.clone();
        wrong[0] = b'X';
        assert!(Unpacking::new().feed(&wrong).is_err());
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Unpacking::new().feed(&longer).is_err());
        // A length that runs past the end waits for more, and then is damage.
        let mut unpacking = Unpacking::new();
        let mut cut = bytes.clone();
        let row = 12 + 2 * 8 + 2 + 4;
        cut[row + 20..row + 24].copy_from_slice(&1000u32.to_le_bytes());
        unpacking.feed(&cut).unwrap();
        assert!(unpacking.finish().is_err());
    }
}
