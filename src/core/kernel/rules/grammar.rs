//! Reading a kernel expression ([`Composition::parse`]): a recursive-descent reader of the
//! grammar in the parent module's docs (`^` before `*` before `+`, brackets group, bases with
//! or without their own arguments), which writes the postfix program as it goes and refuses,
//! in one line naming what it expected, anything else.

use super::*;

impl Composition {
    /// Reads an expression; bases written bare take `panel`'s parameters.
    pub fn parse(text: &str, panel: PanelParams) -> Result<Composition, Error> {
        let mut reader = Reader {
            text,
            at: 0,
            panel,
            out: Composition {
                steps: [Step::Add; MAX_STEPS],
                len: 0,
            },
        };
        reader.skip_space();
        if reader.at == text.len() {
            return Err(problem("is empty: write a kernel such as rbf + linear"));
        }
        reader.sum()?;
        reader.skip_space();
        if reader.at < text.len() {
            return Err(reader.unexpected("an operator (+, * or ^)"));
        }
        Ok(reader.out)
    }
}

fn problem(what: &str) -> Error {
    Error::Parameter(format!("kernel expression {what}"))
}

/// A recursive-descent reader that writes the postfix program as it goes.
struct Reader<'a> {
    text: &'a str,
    at: usize,
    panel: PanelParams,
    out: Composition,
}

impl Reader<'_> {
    fn push(&mut self, step: Step) -> Result<(), Error> {
        if self.out.len == MAX_STEPS {
            return Err(problem(&format!(
                "is too long (at most {MAX_STEPS} kernels, numbers and operations)"
            )));
        }
        self.out.steps[self.out.len] = step;
        self.out.len += 1;
        Ok(())
    }

    fn skip_space(&mut self) {
        while self.text[self.at..].starts_with(char::is_whitespace) {
            self.at += self.text[self.at..]
                .chars()
                .next()
                .map_or(1, char::len_utf8);
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_space();
        self.text[self.at..].chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.at += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) -> Result<(), Error> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.unexpected(&format!("'{c}'")))
        }
    }

    /// "expected X at position p, found Y" (positions count characters from 1).
    fn unexpected(&mut self, wanted: &str) -> Error {
        let found = match self.peek() {
            Some(c) => format!("'{c}'"),
            None => "the end".to_string(),
        };
        let position = self.text[..self.at].chars().count() + 1;
        problem(&format!(
            "needs {wanted} at character {position}, not {found}"
        ))
    }

    /// sum := product ('+' product)*
    fn sum(&mut self) -> Result<(), Error> {
        self.chain('+', Step::Add, Self::product)
    }

    /// product := power ('*' power)*
    fn product(&mut self) -> Result<(), Error> {
        self.chain('*', Step::Multiply, Self::power)
    }

    /// operand (`op` operand)*, each `op` written as `step` after its operands.
    fn chain(
        &mut self,
        op: char,
        step: Step,
        operand: fn(&mut Self) -> Result<(), Error>,
    ) -> Result<(), Error> {
        operand(self)?;
        while self.eat(op) {
            operand(self)?;
            self.push(step)?;
        }
        Ok(())
    }

    /// power := atom ('^' whole number)?
    fn power(&mut self) -> Result<(), Error> {
        self.atom()?;
        if self.eat('^') {
            let n = self.number()?;
            if !(n.fract() == 0.0 && (1.0..=10.0).contains(&n)) {
                return Err(problem(&format!(
                    "raises to {n}: a power must be a whole number from 1 to 10"
                )));
            }
            self.push(Step::Power(n as u32))?;
        }
        Ok(())
    }

    /// atom := number | base | base '(' numbers ')' | 'exp' '(' sum ')' | '(' sum ')'
    fn atom(&mut self) -> Result<(), Error> {
        match self.peek() {
            Some('(') => {
                self.at += 1;
                self.sum()?;
                self.expect(')')
            }
            Some(c) if c.is_ascii_digit() || c == '.' => {
                let c = self.number()?;
                self.push(Step::Constant(c))
            }
            Some(c) if c.is_ascii_alphabetic() => {
                let start = self.at;
                while self.text[self.at..].starts_with(|c: char| c.is_ascii_alphanumeric()) {
                    self.at += 1;
                }
                let name = &self.text[start..self.at];
                if name == "exp" {
                    self.expect('(')?;
                    self.sum()?;
                    self.expect(')')?;
                    return self.push(Step::Exp);
                }
                let base = self.base(name)?;
                self.push(Step::Base(base))
            }
            Some('-') => Err(problem(
                "has a minus sign: the rules allow sums, products, positive scaling, \
                 added constants ≥ 0, powers and exp",
            )),
            _ => Err(self.unexpected("a kernel, a number or '('")),
        }
    }

    /// A base kernel by name, with its arguments if written.
    fn base(&mut self, name: &str) -> Result<Base, Error> {
        let mut args = Vec::new();
        if self.eat('(') && !self.eat(')') {
            loop {
                // A base's own parameters may be negative (coef0); constants may not.
                let sign = if self.eat('-') { -1.0 } else { 1.0 };
                args.push(sign * self.number()?);
                if self.eat(')') {
                    break;
                }
                self.expect(',')?;
            }
        }
        let wanted = match name {
            "linear" => 0,
            "rbf" => 1,
            "sigmoid" => 2,
            "poly" => 3,
            other => {
                return Err(problem(&format!(
                    "names '{other}': the kernels are linear, poly, rbf and sigmoid, and exp(…)"
                )))
            }
        };
        if args.len() > wanted {
            return Err(problem(&format!(
                "gives {name} {} values: it takes at most {wanted}{}",
                args.len(),
                match name {
                    "rbf" => " (γ)",
                    "sigmoid" => " (γ, coef0)",
                    "poly" => " (degree, γ, coef0)",
                    _ => "",
                }
            )));
        }
        let panel = self.panel;
        let (degree, gamma, coef0) = match name {
            "poly" => (
                args.first().copied(),
                args.get(1).copied(),
                args.get(2).copied(),
            ),
            _ => (None, args.first().copied(), args.get(1).copied()),
        };
        let degree = match degree {
            Some(d) if d.fract() == 0.0 && (1.0..=10.0).contains(&d) => d as u32,
            Some(d) => {
                return Err(problem(&format!(
                    "gives poly the degree {d}: a degree is a whole number from 1 to 10"
                )))
            }
            None => panel.degree,
        };
        let gamma = gamma.unwrap_or(panel.gamma);
        let coef0 = coef0.unwrap_or(panel.coef0);
        let kernel = Kernel::from_name(name, gamma, degree, coef0)
            .map_err(|e| problem(&format!("gives {name} a bad value: {e}")))?;
        Ok(Base::of(kernel))
    }

    /// A non-negative number as Rust reads it (digits, a point, an exponent).
    fn number(&mut self) -> Result<f64, Error> {
        self.skip_space();
        let rest = &self.text[self.at..];
        let mut end = 0;
        let bytes = rest.as_bytes();
        while end < bytes.len() {
            let b = bytes[end];
            let exponent_sign =
                (b == b'-' || b == b'+') && end > 0 && matches!(bytes[end - 1], b'e' | b'E');
            if b.is_ascii_digit() || b == b'.' || b == b'e' || b == b'E' || exponent_sign {
                end += 1;
            } else {
                break;
            }
        }
        match rest[..end].parse::<f64>() {
            Ok(v) if v.is_finite() => {
                self.at += end;
                Ok(v)
            }
            _ if end == 0 => Err(self.unexpected("a number")),
            _ => Err(problem(&format!("has '{}', not a number", &rest[..end]))),
        }
    }
}
