//! A list of the plane's points as it travels between the worker and the page: the base64
//! ([`crate::core::base64`]) of each coordinate's eight bytes (IEEE 754 binary64,
//! little-endian), x then y, point after point. Every number arrives bit for bit as it left
//! (written in decimal, NaN and the infinities would become `null` and not read back), and
//! reading it back is a table lookup rather than the parsing of decimal text: at the size of
//! a boundary traced across a large window, that parsing took the page's thread about a
//! millisecond a frame on a slow phone. Used through `#[serde(with = "bits")]`.

use crate::core::base64;
use crate::core::data::Point;
use crate::core::packed::f64_at;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serializer};

/// Bytes a point takes.
const POINT_BYTES: usize = 16;

pub fn serialize<S: Serializer>(points: &[Point], to: S) -> Result<S::Ok, S::Error> {
    let mut bytes = Vec::with_capacity(points.len() * POINT_BYTES);
    for x in points.iter().flatten() {
        bytes.extend_from_slice(&x.to_le_bytes());
    }
    to.serialize_str(&base64::encode(&bytes))
}

pub fn deserialize<'de, D: Deserializer<'de>>(from: D) -> Result<Vec<Point>, D::Error> {
    let text = String::deserialize(from)?;
    let bytes = base64::decode(&text)
        .filter(|b| b.len() % POINT_BYTES == 0)
        .ok_or_else(|| D::Error::custom("a list of points that does not read back"))?;
    Ok(bytes
        .chunks_exact(POINT_BYTES)
        .map(|p| [f64_at(p, 0), f64_at(p, 8)])
        .collect())
}

#[cfg(test)]
mod tests {
    use crate::core::plane::{Curve, CurveKind, Scene};

    #[test]
    fn points_travel_bit_for_bit() {
        let odd = [
            [0.1 + 0.2, -0.0],
            [f64::MIN_POSITIVE / 3.0, f64::MAX],
            [f64::NAN, f64::NEG_INFINITY],
            [1e-300, -123456.789],
        ];
        let scene = Scene {
            points: odd.to_vec(),
            curves: vec![Curve {
                points: odd.iter().rev().copied().collect(),
                kind: CurveKind::Boundary,
                label: None,
            }],
            ..Scene::default()
        };
        let json = serde_json::to_string(&scene).unwrap();
        let back: Scene = serde_json::from_str(&json).unwrap();
        let bits = |points: &[[f64; 2]]| -> Vec<u64> {
            points.iter().flatten().map(|x| x.to_bits()).collect()
        };
        assert_eq!(bits(&back.points), bits(&odd));
        assert_eq!(bits(&back.curves[0].points), bits(&scene.curves[0].points));
        // Eight bytes a number, a third more as text: 4 points, 64 bytes, 88 characters.
        let written = json.split("\"points\":\"").nth(1).unwrap();
        assert_eq!(written.find('"'), Some(88), "{json}");
    }

    #[test]
    fn a_list_that_does_not_read_back_is_refused() {
        for points in ["\"Zm9v\"", "\"%%%%\"", "[[1.0,2.0]]"] {
            let json = format!(r#"{{"points":{points},"kind":"Boundary","label":null}}"#);
            assert!(serde_json::from_str::<Curve>(&json).is_err(), "{json}");
        }
    }
}
