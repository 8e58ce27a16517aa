//! LIBSVM's `svm-train` options, the form in which old course material (and svm-toy's option
//! box) gives a model: `-s 3 -t 2 -c 10 -g 2 -p 0.1`. [`read`] turns such a string into the
//! settings it means, and [`write()`] writes a scene's settings back as one.
//!
//! | option | meaning | the lab's setting |
//! |---|---|---|
//! | `-s` | 0 C-SVC, 1 ν-SVC, 2 one-class, 3 ε-SVR, 4 ν-SVR | the method (and its task) whose [`crate::methods::model::Method::svm_type`] it is |
//! | `-t` | 0 linear u·v, 1 polynomial (γu·v + r)^d, 2 RBF exp(−γ‖u − v‖²), 3 sigmoid tanh(γu·v + r) | `kernel` |
//! | `-c` `-n` `-p` | C, ν, ε of the ε-insensitive loss | `C`, `nu`, `epsilon` |
//! | `-g` `-d` `-r` | γ, the degree d, coef0 r | `gamma`, `degree`, `coef0` |
//! | `-e` | the stopping tolerance | `tol` |
//!
//! As `svm-train` does, an option left out takes LIBSVM's default: `-s 0 -t 2 -c 1 -d 3 -r 0
//! -n 0.5 -p 0.1 -e 0.001`, and γ = 1/(number of features): ½ in the plane, 1 for regression,
//! whose one feature is x. Options that change nothing the lab draws (`-m`, `-h`, `-q`) are
//! taken silently; `-b`, `-v` and `-wi`, and an option the chosen type does not use (`-c`
//! with ν-SVC), are read past with a note; file names after the options are left out.

use crate::core::error::Error;
use crate::core::task::Task;
use crate::lab::state::Settings;
use crate::methods::registry;

/// Settings an option string asks for, in the order to apply them (the method, then its
/// kernel, then its numbers), and the notes on what was read past.
#[derive(Debug, Default, PartialEq)]
pub struct Options {
    pub edits: Vec<(&'static str, String)>,
    pub notes: Vec<String>,
}

/// The options with a number, their setting, and LIBSVM's default (`None`: γ's, which
/// depends on the number of features).
const NUMBERS: &[(char, &str, Option<&str>)] = &[
    ('c', "C", Some("1")),
    ('n', "nu", Some("0.5")),
    ('p', "epsilon", Some("0.1")),
    ('g', "gamma", None),
    ('d', "degree", Some("3")),
    ('r', "coef0", Some("0")),
    ('e', "tol", Some("0.001")),
];

/// `-t`'s kernels, by number.
const KERNELS: [&str; 4] = ["linear", "poly", "rbf", "sigmoid"];

/// Reads an option string against the settings `now` (which are not changed): the settings
/// it asks for, checked by applying them to a copy, or the one-line reason it cannot be read.
pub fn read(text: &str, now: &Settings) -> Result<Options, Error> {
    let bad = |message: String| Error::Parameter(format!("svm-train options: {message}"));
    let mut given: Vec<(char, &str)> = Vec::new();
    let mut notes = Vec::new();
    let mut tokens = text.split_whitespace().peekable();
    if tokens
        .peek()
        .is_some_and(|t| matches!(*t, "svm-train" | "svm-toy"))
    {
        tokens.next();
    }
    let mut files = 0;
    while let Some(token) = tokens.next() {
        let Some(name) = token.strip_prefix('-') else {
            files += 1;
            continue;
        };
        let option = match name {
            "q" => continue,
            _ if name.starts_with('w') && name.len() > 1 => 'w',
            _ if name.chars().count() == 1 => name.chars().next().unwrap_or('?'),
            _ => return Err(bad(format!("'-{name}' is not an option of svm-train"))),
        };
        let value = tokens
            .next()
            .ok_or_else(|| bad(format!("'-{name}' needs a value")))?;
        match option {
            's' | 't' | 'c' | 'n' | 'p' | 'g' | 'd' | 'r' | 'e' => given.push((option, value)),
            'm' | 'h' => {}
            'b' => notes.push("-b: the lab draws f(x), not probability estimates".into()),
            'v' => notes.push("-v: cross-validation is the CV view's (open it)".into()),
            'w' => notes.push(format!("'-{name}': class weights are not used by the lab")),
            _ => return Err(bad(format!("'-{name}' is not an option of svm-train"))),
        }
    }
    if files > 0 {
        notes.push("file names are left out: the lab trains on its own points".into());
    }
    let last = |option: char| given.iter().rev().find(|(o, _)| *o == option).map(|g| g.1);
    let integer = |option: char, max: u8| -> Result<u8, Error> {
        let text = last(option).unwrap_or(if option == 's' { "0" } else { "2" });
        text.parse::<u8>()
            .ok()
            .filter(|&v| v <= max)
            .ok_or_else(|| bad(format!("'-{option}' takes 0 to {max}, not '{text}'")))
    };
    let svm_type = integer('s', 4)?;
    let kernel = match integer('t', 4)? {
        4 => {
            return Err(bad(
                "-t 4, a precomputed kernel, has no place in the plane".into()
            ))
        }
        t => KERNELS[t as usize],
    };
    let method = registry::METHODS
        .iter()
        .find(|m| m.svm_type() == Some(svm_type))
        .ok_or_else(|| bad(format!("'-s {svm_type}' is not in this version")))?;
    let uses = |key: &str| method.params().contains(&key);
    let mut edits = vec![
        ("task", method.task().id().to_string()),
        ("model", method.id().to_string()),
        ("kernel", kernel.to_string()),
    ];
    if now.values.text("hard").is_some() && uses("hard") {
        edits.push(("hard", "0".into()));
    }
    let gamma = if method.task() == Task::Regression {
        "1"
    } else {
        "0.5"
    };
    for &(option, key, default) in NUMBERS {
        let kernel_reads = match key {
            "gamma" => kernel != "linear",
            "degree" => kernel == "poly",
            "coef0" => kernel == "poly" || kernel == "sigmoid",
            _ => true,
        };
        match last(option) {
            Some(_) if !uses(key) => {
                notes.push(format!("'-{option}' is not used by {}", method.title()))
            }
            Some(_) if !kernel_reads => {
                notes.push(format!("'-{option}' is not used by the kernel '{kernel}'"))
            }
            Some(value) => edits.push((key, value.to_string())),
            None if uses(key) && kernel_reads => {
                edits.push((key, default.unwrap_or(gamma).to_string()))
            }
            None => {}
        }
    }
    let mut check = now.clone();
    for (key, value) in &edits {
        check.set(key, value).map_err(|e| bad(e.to_string()))?;
    }
    Ok(Options { edits, notes })
}

/// The settings as `svm-train` options (the options the method and kernel use, each value as
/// the link writes it), or why they cannot be written as such.
pub fn write(settings: &Settings) -> Result<String, String> {
    let method = settings.method();
    let svm_type = method
        .svm_type()
        .ok_or_else(|| format!("{} is not one of LIBSVM's models", method.title()))?;
    let get = |key: &str| settings.get(key).unwrap_or_default();
    if method.params().contains(&"hard") && get("hard") == "1" {
        return Err("svm-train has no hard margin (a large -c comes close)".into());
    }
    let kernel = get("kernel");
    let mut out = format!("-s {svm_type}");
    let mut push = |option: char, value: &str| out.push_str(&format!(" -{option} {value}"));
    match kernel.as_str() {
        // The notes' polynomial (1 + xᵀz)^d is LIBSVM's with γ = 1 and coef0 = 1.
        "poly1" => {
            push('t', "1");
            push('g', "1");
            push('d', &get("degree"));
            push('r', "1");
        }
        name => {
            let t = KERNELS
                .iter()
                .position(|k| *k == name)
                .ok_or("a kernel built by rule has no svm-train option")?;
            push('t', &t.to_string());
            for (option, key, reads) in [
                ('g', "gamma", t != 0),
                ('d', "degree", t == 1),
                ('r', "coef0", t == 1 || t == 3),
            ] {
                if reads {
                    push(option, &get(key));
                }
            }
        }
    }
    for (option, key) in [('c', "C"), ('n', "nu"), ('p', "epsilon"), ('e', "tol")] {
        if method.params().contains(&key) {
            push(option, &get(key));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn applied(text: &str) -> Settings {
        let mut settings = Settings::opening();
        for (key, value) in read(text, &settings).unwrap().edits {
            settings.set(key, &value).unwrap();
        }
        settings
    }

    #[test]
    fn svm_toys_regression_string_sets_epsilon_svr() {
        let s = applied("-s 3 -t 2 -c 10 -g 2 -p 0.1");
        assert_eq!(s.task, Task::Regression);
        assert_eq!(s.method().svm_type(), Some(3));
        for (key, value) in [
            ("kernel", "rbf"),
            ("C", "10"),
            ("gamma", "2"),
            ("epsilon", "0.1"),
        ] {
            assert_eq!(s.get(key).as_deref(), Some(value), "{key}");
        }
        assert_eq!(s.get("tol").as_deref(), Some("0.001"));
    }

    #[test]
    fn left_out_options_take_libsvms_defaults() {
        let s = applied("-t 1");
        assert_eq!(s.task, Task::Classification);
        assert_eq!(s.method().svm_type(), Some(0));
        for (key, value) in [
            ("kernel", "poly"),
            ("C", "1"),
            ("gamma", "0.5"),
            ("degree", "3"),
            ("coef0", "0"),
        ] {
            assert_eq!(s.get(key).as_deref(), Some(value), "{key}");
        }
        let novelty = applied("svm-train -s 2 -n 0.2 train.txt");
        assert_eq!(novelty.task, Task::Novelty);
        assert_eq!(novelty.get("nu").as_deref(), Some("0.2"));
        assert_eq!(applied("-s 4").get("gamma").as_deref(), Some("1"));
    }

    #[test]
    fn written_options_read_back_to_the_same_settings() {
        for text in [
            "-s 0 -t 2 -g 3 -c 100 -e 0.0001",
            "-s 1 -t 1 -g 0.5 -d 2 -r 1 -n 0.3 -e 0.001",
            "-s 2 -t 3 -g 0.25 -r -1 -n 0.1 -e 0.001",
            "-s 3 -t 0 -c 2 -p 0.05 -e 0.001",
            "-s 4 -t 2 -g 2 -c 10 -n 0.4 -e 0.001",
        ] {
            let settings = applied(text);
            let written = write(&settings).unwrap();
            assert_eq!(applied(&written), settings, "{text} → {written}");
        }
        assert_eq!(
            write(&applied("-s 3 -t 2 -c 10 -g 2 -p 0.1")).unwrap(),
            "-s 3 -t 2 -g 2 -c 10 -p 0.1 -e 0.001"
        );
    }

    #[test]
    fn what_cannot_be_read_is_one_line_and_what_is_read_past_is_noted() {
        let now = Settings::opening();
        for (text, says) in [
            ("-s 5", "'-s' takes 0 to 4"),
            ("-t 4", "precomputed"),
            ("-c", "needs a value"),
            ("-x 1", "not an option"),
            ("-c ten", "svm-train options"),
            ("-d 40 -t 1", "svm-train options"),
            ("-n 1.5 -s 1", "svm-train options"),
        ] {
            let message = read(text, &now).unwrap_err().to_string();
            assert!(message.contains(says), "{text}: {message}");
            assert!(!message.contains('\n'));
        }
        let notes = read("-s 1 -c 10 -b 1 -w1 2 -q -t 0 -g 3", &now)
            .unwrap()
            .notes;
        assert_eq!(notes.len(), 4, "{notes:?}");
        assert!(notes.iter().any(|n| n.starts_with("'-c' is not used")));
        assert!(notes
            .iter()
            .any(|n| n.starts_with("'-g' is not used by the kernel 'linear'")));
    }

    #[test]
    fn models_outside_libsvm_say_why_they_have_no_string() {
        let mut s = Settings::opening();
        s.set("kernel", "poly1").unwrap();
        s.set("degree", "2").unwrap();
        let written = write(&s).unwrap();
        assert!(written.contains("-t 1 -g 1 -d 2 -r 1"), "{written}");
        s.set("hard", "1").unwrap();
        assert!(write(&s).unwrap_err().contains("hard margin"));
        s.set("model", "knn").unwrap();
        assert!(write(&s).unwrap_err().contains("not one of LIBSVM's"));
    }
}
