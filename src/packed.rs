//! A dataset as compact bytes, and read back a slice of rows at a time: how a large file read
//! by the worker behind the page reaches the page without a task that grows with its size
//! (a million rows as JSON or as a link would hold the page's thread for seconds).
//!
//! The bytes, little-endian: `KPD1`; n (u32); the class texts (count u32, then per class its
//! label i32 and its text as a length-prefixed string); x and y of every point (2n f64); the
//! labels (n i32); for every point the end offsets (2n u32) of its coordinates' written text
//! in the text block that follows, `u32::MAX` twice for a point with none. Every value crosses
//! bit for bit, and every written text byte for byte.

use crate::data::{Dataset, Point, Written};
use crate::error::Error;

const MAGIC: &[u8; 4] = b"KPD1";
const NONE: u32 = u32::MAX;

/// `data` as bytes (see the module's doc).
pub fn pack(data: &Dataset) -> Vec<u8> {
    let n = data.len();
    let mut text = String::new();
    let mut ends = Vec::with_capacity(2 * n);
    for i in 0..n {
        match data.written.get(i) {
            Some(Some(written)) => {
                for axis in written.iter() {
                    text.push_str(axis);
                    ends.push(text.len() as u32);
                }
            }
            _ => ends.extend([NONE, NONE]),
        }
    }
    let mut out = Vec::with_capacity(8 + 24 * n + 8 * n + text.len() + 64);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(n as u32).to_le_bytes());
    let classes = data.label_texts.iter().collect::<Vec<_>>();
    out.extend_from_slice(&(classes.len() as u32).to_le_bytes());
    for (label, text) in classes {
        out.extend_from_slice(&label.to_le_bytes());
        out.extend_from_slice(&(text.len() as u32).to_le_bytes());
        out.extend_from_slice(text.as_bytes());
    }
    for p in &data.points {
        out.extend_from_slice(&p[0].to_le_bytes());
        out.extend_from_slice(&p[1].to_le_bytes());
    }
    for l in &data.labels {
        out.extend_from_slice(&l.to_le_bytes());
    }
    for e in &ends {
        out.extend_from_slice(&e.to_le_bytes());
    }
    out.extend_from_slice(text.as_bytes());
    out
}

/// Packed bytes being read back into a dataset, [`Unpacking::step`] by step.
pub struct Unpacking {
    bytes: Vec<u8>,
    n: usize,
    /// Where the points, the labels, the end offsets and the text block start.
    points_at: usize,
    labels_at: usize,
    ends_at: usize,
    text_at: usize,
    /// The end of the last written text read, and the next row to read.
    text_end: usize,
    next: usize,
    data: Dataset,
}

fn damaged() -> Error {
    Error::Parameter("the packed points are damaged".into())
}

/// The `N` bytes of `bytes` at `*at`, moving `*at` past them.
fn read<const N: usize>(bytes: &[u8], at: &mut usize) -> Result<[u8; N], Error> {
    let slice = bytes.get(*at..*at + N).ok_or_else(damaged)?;
    *at += N;
    Ok(slice.try_into().expect("N bytes"))
}

impl Unpacking {
    /// Starts reading `bytes`; fails when they are not packed points.
    pub fn new(bytes: Vec<u8>) -> Result<Unpacking, Error> {
        let mut at = 0;
        if &read::<4>(&bytes, &mut at)? != MAGIC {
            return Err(damaged());
        }
        let n = u32::from_le_bytes(read(&bytes, &mut at)?) as usize;
        let classes = u32::from_le_bytes(read(&bytes, &mut at)?);
        let mut data = Dataset::new();
        for _ in 0..classes {
            let label = i32::from_le_bytes(read(&bytes, &mut at)?);
            let len = u32::from_le_bytes(read(&bytes, &mut at)?) as usize;
            let text = bytes.get(at..at + len).ok_or_else(damaged)?;
            let text = std::str::from_utf8(text).map_err(|_| damaged())?;
            data.label_texts.insert(label, text.into());
            at += len;
        }
        let points_at = at;
        let labels_at = points_at + 16 * n;
        let ends_at = labels_at + 4 * n;
        let text_at = ends_at + 8 * n;
        if bytes.len() < text_at {
            return Err(damaged());
        }
        data.points.reserve(n);
        data.labels.reserve(n);
        data.written.reserve(n);
        Ok(Unpacking {
            bytes,
            n,
            points_at,
            labels_at,
            ends_at,
            text_at,
            text_end: 0,
            next: 0,
            data,
        })
    }

    /// How many rows the bytes hold.
    pub fn len(&self) -> usize {
        self.n
    }

    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The share of rows read so far, 0 to 1.
    pub fn fraction(&self) -> f64 {
        if self.n == 0 {
            1.0
        } else {
            self.next as f64 / self.n as f64
        }
    }

    /// Reads up to `rows` more rows; whether every row has been read.
    pub fn step(&mut self, rows: usize) -> Result<bool, Error> {
        let stop = self.next.saturating_add(rows).min(self.n);
        for i in self.next..stop {
            let mut at = self.points_at + 16 * i;
            let point: Point = [
                f64::from_le_bytes(read(&self.bytes, &mut at)?),
                f64::from_le_bytes(read(&self.bytes, &mut at)?),
            ];
            let mut at = self.labels_at + 4 * i;
            let label = i32::from_le_bytes(read(&self.bytes, &mut at)?);
            let mut at = self.ends_at + 8 * i;
            let ends = [
                u32::from_le_bytes(read(&self.bytes, &mut at)?),
                u32::from_le_bytes(read(&self.bytes, &mut at)?),
            ];
            let written = if ends == [NONE, NONE] {
                None
            } else {
                let mut texts = ["".into(), "".into()];
                for (axis, &end) in ends.iter().enumerate() {
                    let (from, to) = (self.text_at + self.text_end, self.text_at + end as usize);
                    let text = self.bytes.get(from..to).ok_or_else(damaged)?;
                    texts[axis] = std::str::from_utf8(text).map_err(|_| damaged())?.into();
                    self.text_end = end as usize;
                }
                Some(texts as Written)
            };
            self.data.push_written(point, label, written)?;
        }
        self.next = stop;
        Ok(stop == self.n)
    }

    /// The dataset, once every row has been read.
    pub fn finish(self) -> Result<Dataset, Error> {
        if self.next < self.n {
            return Err(damaged());
        }
        Ok(self.data)
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
    fn packed_points_come_back_exactly_in_any_steps() {
        let data = sample();
        for rows in [1, 2, 5, usize::MAX] {
            let mut unpacking = Unpacking::new(pack(&data)).unwrap();
            assert_eq!(unpacking.len(), 3);
            while !unpacking.step(rows).unwrap() {}
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
        let mut unpacking = Unpacking::new(pack(&sample())).unwrap();
        assert_eq!(unpacking.fraction(), 0.0);
        assert!(!unpacking.step(2).unwrap());
        assert!((unpacking.fraction() - 2.0 / 3.0).abs() < 1e-12);
        assert!(unpacking.step(2).unwrap());
        assert_eq!(unpacking.fraction(), 1.0);
    }

    #[test]
    fn damaged_bytes_are_a_message_not_a_panic() {
        let bytes = pack(&sample());
        for cut in [0, 3, 8, 20, bytes.len() - 1] {
            let result = Unpacking::new(bytes[..cut].to_vec()).and_then(|mut u| {
                u.step(10)?;
                u.finish()
            });
            assert!(result.is_err(), "cut at {cut}");
        }
        assert!(Unpacking::new(b"nope".to_vec()).is_err());
        let unread = Unpacking::new(bytes).unwrap();
        assert!(unread.finish().is_err());
    }
}
