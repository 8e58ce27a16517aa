//! The URL hash: any text is read whole (with one-line warnings) or refused with one line,
//! never half read, hashes of 1 MB and every key set to hostile text too; a scene written to a
//! hash reads back identical, points bit for bit.

use crate::{config, hostile_text, one_line};
use kernel_playground::core::data::{Dataset, MAX_COORDINATE};
use kernel_playground::core::params::{Kind, Param};
use kernel_playground::core::task::Task;
use kernel_playground::lab::state::{LinkedPoints, Settings};
use kernel_playground::methods::registry;
use kernel_playground::methods::table::rows;
use proptest::prelude::*;
use std::time::{Duration, Instant};

/// What every read of a hash must give: a refusal of one line, or warnings of one line and
/// settings and points that themselves survive a round trip without a warning. A hash is
/// refused exactly when one of its parts, read alone, is (nothing is half read).
fn check_read(hash: &str) -> Result<Option<(Settings, Option<LinkedPoints>)>, TestCaseError> {
    // Each part alone, after an unknown key (so a part's own leading '#' stays its key's);
    // not for the megabyte links, whose parts number in the hundred thousands.
    let any_part_refused = (hash.len() <= 10_000).then(|| {
        hash.trim_start_matches('#')
            .split('&')
            .any(|part| Settings::from_hash(&format!("_=&{part}")).is_err())
    });
    let (settings, points, warnings) = match Settings::from_hash(hash) {
        Ok(read) => read,
        Err(refusal) => {
            let text = refusal.to_string();
            prop_assert!(one_line(&text), "{:?}", text);
            prop_assert!(text.chars().count() < 1000, "{} characters", text.len());
            prop_assert!(
                any_part_refused != Some(false),
                "refused, though every part reads: {}",
                text
            );
            return Ok(None);
        }
    };
    prop_assert!(
        any_part_refused != Some(true),
        "a part that is refused alone was read"
    );
    for w in &warnings {
        prop_assert!(one_line(w), "{:?}", w);
    }
    if let Some((data, test)) = &points {
        prop_assert_eq!(data.len(), test.len());
        for p in &data.points {
            prop_assert!(p.iter().all(|v| v.is_finite() && v.abs() <= MAX_COORDINATE));
        }
    }
    let again = settings.to_hash(points.as_ref().map(|(d, t)| (d, t.as_slice())));
    let (back, back_points, back_warnings) = Settings::from_hash(&again)
        .map_err(|r| TestCaseError::fail(format!("its own hash refused: {r}")))?;
    prop_assert!(back_warnings.is_empty(), "{:?}", back_warnings);
    prop_assert_eq!(&back, &settings);
    assert_same_points(back_points.as_ref(), points.as_ref())?;
    Ok(Some((settings, points)))
}

fn assert_same_points(
    got: Option<&LinkedPoints>,
    want: Option<&LinkedPoints>,
) -> Result<(), TestCaseError> {
    match (got, want) {
        (None, None) => Ok(()),
        (Some((got, got_test)), Some((want, want_test))) => {
            let bits = |d: &Dataset| -> Vec<[u64; 2]> {
                d.points
                    .iter()
                    .map(|p| [p[0].to_bits(), p[1].to_bits()])
                    .collect()
            };
            prop_assert_eq!(bits(got), bits(want));
            prop_assert_eq!(&got.labels, &want.labels);
            prop_assert_eq!(got_test, want_test);
            Ok(())
        }
        _ => Err(TestCaseError::fail("points appeared or vanished")),
    }
}

/// Escapes what a browser would in a hash, and a few more, as a link-maker might.
fn percent_encode(text: &str) -> String {
    let mut out = String::new();
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// A valid text for each row of the table, across its whole range (not only the slider's).
fn row_texts() -> Vec<BoxedStrategy<String>> {
    rows()
        .iter()
        .map(|row| match row.kind {
            Kind::LogSlider { .. } => prop_oneof![
                (-300.0..300.0f64).prop_map(|e| 10f64.powf(e).to_string()),
                // Every positive finite f64, subnormals included, by its bits.
                (1..f64::INFINITY.to_bits()).prop_map(|bits| f64::from_bits(bits).to_string()),
            ]
            .boxed(),
            Kind::Slider { min, max, .. } => (min.max(-1e300)..=max.min(1e300))
                .prop_map(|v| v.to_string())
                .boxed(),
            Kind::Integer { min, max, .. } => (min..=max).prop_map(|v| v.to_string()).boxed(),
            Kind::Number => any::<u64>().prop_map(|v| v.to_string()).boxed(),
            Kind::Choice { options } => prop::sample::select(options)
                .prop_map(|o| o.value.to_string())
                .boxed(),
            Kind::Flag => any::<bool>()
                .prop_map(|on| if on { "1" } else { "0" }.to_string())
                .boxed(),
            Kind::Expression => prop::sample::select(
                &[
                    "rbf + linear",
                    "rbf(2)*poly(3, 0.5, -1)",
                    "exp(0.1 * linear)^2 + 0.5",
                    "(linear+1)^3 * sigmoid(1e-2, -0.25)",
                ][..],
            )
            .prop_map(str::to_string)
            .boxed(),
        })
        .collect()
}

fn settings() -> impl Strategy<Value = Settings> {
    let models: Vec<&str> = registry::methods_of(Task::Classification)
        .map(|m| m.id())
        .collect();
    (
        prop::sample::select(models),
        row_texts(),
        prop::collection::vec("[a-z0-9-]{1,8}", 0..4),
    )
        .prop_map(|(model, texts, views)| {
            let mut settings = Settings::default();
            settings.set("model", model).unwrap();
            // Every row the model sees (another method's own row of a key, logistic
            // regression's solver beside the SVM's, is not the model's and stays at its default).
            let seen: Vec<&Param> = settings.values.seen().collect();
            for (row, text) in rows().iter().zip(&texts) {
                if !seen.iter().any(|p| std::ptr::eq(*p, *row)) {
                    continue;
                }
                settings
                    .set(row.key, text)
                    .unwrap_or_else(|e| panic!("{} = {text}: {e}", row.key));
            }
            settings.views = views;
            settings
        })
}

fn coordinate() -> impl Strategy<Value = f64> {
    prop_oneof![
        // Every f64 in range, by its bits and sign.
        (0..=MAX_COORDINATE.to_bits(), any::<bool>()).prop_map(|(bits, negative)| {
            let v = f64::from_bits(bits);
            if negative {
                -v
            } else {
                v
            }
        }),
        -1.0..1.0f64,
        Just(-0.0),
        Just(MAX_COORDINATE),
        Just(-MAX_COORDINATE),
        Just(f64::MIN_POSITIVE),
        Just(5e-324),
    ]
}

fn linked_points() -> impl Strategy<Value = LinkedPoints> {
    prop::collection::vec(
        (coordinate(), coordinate(), any::<i32>(), any::<bool>()),
        0..40,
    )
    .prop_map(|rows| {
        let mut data = Dataset::new();
        let mut test = Vec::new();
        for (x, y, label, held_out) in rows {
            data.push([x, y], label).unwrap();
            test.push(held_out);
        }
        (data, test)
    })
}

/// A hash part as a link-maker or a vandal might write it.
fn hash_part() -> impl Strategy<Value = String> {
    let keys: Vec<&str> = Settings::keys().chain(["points", "unknown"]).collect();
    (prop::sample::select(keys), hostile_text(), any::<bool>()).prop_map(|(key, value, encode)| {
        let value = if encode {
            percent_encode(&value)
        } else {
            value
        };
        format!("{key}={value}")
    })
}

proptest! {
    #![proptest_config(config(1))]

    #[test]
    fn any_text_is_read_whole_or_refused(text in any::<String>()) {
        check_read(&text)?;
    }

    #[test]
    fn hash_like_text_is_read_whole_or_refused(text in "[#&=;,.%0-9a-fA-FCtinfNa<>'\" -]{0,200}") {
        check_read(&text)?;
    }

    #[test]
    fn every_key_set_to_hostile_text_is_read_whole_or_refused(
        values in prop::collection::vec((hostile_text(), any::<bool>()), Settings::keys().count()),
        points in hostile_text(),
    ) {
        let mut parts: Vec<String> = Settings::keys()
            .zip(&values)
            .map(|(key, (value, encode))| {
                let value = if *encode { percent_encode(value) } else { value.clone() };
                format!("{key}={value}")
            })
            .collect();
        parts.push(format!("points={}", percent_encode(&points)));
        let Some((settings, _)) = check_read(&format!("#{}", parts.join("&")))? else {
            return Ok(());
        };
        // A value the table accepts: nothing hostile gets through.
        for key in Settings::keys() {
            let value = settings.get(key).unwrap();
            let mut fresh = Settings::default();
            prop_assert!(fresh.set(key, &value).is_ok(), "{} = {:?}", key, value);
        }
    }

    #[test]
    fn hostile_parts_in_any_order_are_read_whole_or_refused(parts in prop::collection::vec(hash_part(), 0..30)) {
        check_read(&parts.join("&"))?;
    }

    #[test]
    fn scenes_survive_the_url(settings in settings(), points in linked_points(), with_points in any::<bool>()) {
        let points = with_points.then_some(points);
        let hash = settings.to_hash(points.as_ref().map(|(d, t)| (d, t.as_slice())));
        let (back, back_points, warnings) = Settings::from_hash(&format!("#{hash}"))
            .map_err(|r| TestCaseError::fail(format!("refused: {r}")))?;
        prop_assert!(warnings.is_empty(), "{:?}", warnings);
        prop_assert_eq!(&back, &settings);
        assert_same_points(back_points.as_ref(), points.as_ref())?;
    }
}

proptest! {
    #![proptest_config(config(64))]

    /// A megabyte of link, made of one fragment over and over, is read or refused in well under a second
    /// (in a release build; debug builds get ten times longer).
    #[test]
    fn one_megabyte_hashes_open(
        fragment in prop_oneof![
            hostile_text(),
            hash_part(),
            Just("points=0.5,-1e-7,1;".to_string()),
            Just("points=1,2,0,t%3B".to_string()),
            Just("C=".to_string()),
        ],
        separator in prop::sample::select(vec!["", "&", ";", ","]),
    ) {
        let piece = format!("{fragment}{separator}");
        let repeats = (1 << 20) / piece.len().max(1) + 1;
        let hash = piece.repeat(repeats);
        let start = Instant::now();
        check_read(&hash)?;
        let budget = if cfg!(debug_assertions) { 60 } else { 10 };
        prop_assert!(start.elapsed() < Duration::from_secs(budget), "{:?}", start.elapsed());
    }
}
