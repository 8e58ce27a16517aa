//! The best cell of a grid: the highest mean score, with cells within rounding of it tied and
//! the tie going to the simpler model (a smaller C, a smaller γ, a lower degree …).

use super::Cell;

/// How far apart two mean accuracies may be and still tie: rounding only, so cells tie when
/// they got the same share of the held-out points right (the hover shows the same number).
pub const TIE: f64 = 1e-9;

/// The best cell of a grid and the cells that tie with it.
#[derive(Clone, Debug, PartialEq)]
pub struct Best {
    /// The cell picked: of the tied cells, the simplest ([`simpler`]).
    pub index: usize,
    /// Every cell whose mean ties the highest (within [`TIE`]), `index` among them, in grid
    /// order.
    pub tied: Vec<usize>,
}

/// Whether a smaller value of parameter `key` gives the simpler model: a smaller C (a wider
/// margin, more points allowed inside it), a smaller γ (a smoother function), a lower degree;
/// for λ, k (of k-NN), QDA's reg and the ε of ε-SVR it is the larger value (a stronger
/// penalty, a vote over more neighbours, covariances pulled further towards the identity, a
/// wider tube with fewer support vectors).
pub fn simpler_when_smaller(key: &str) -> bool {
    !matches!(key, "lambda" | "k" | "reg" | "epsilon")
}

/// The order in which parameters decide which of two tied cells is simpler: first the ones
/// that set the shape of the function (γ, the degree, k), then the penalty (C, λ, reg).
fn precedence(key: &str) -> u8 {
    match key {
        "gamma" | "degree" | "k" => 0,
        _ => 1,
    }
}

/// The parameter keys of `params` in the order they decide simplicity.
fn by_precedence(params: &[(String, f64)]) -> Vec<&(String, f64)> {
    let mut keys: Vec<&(String, f64)> = params.iter().collect();
    crate::core::sorting::sort_by_key(&mut keys, |(k, _)| precedence(k));
    keys
}

/// Orders two cells' parameter values from the simpler model to the more complex one
/// (parameter by parameter, those that shape the function, γ, the degree and k, before the
/// penalty; see [`simpler_when_smaller`]).
pub fn simpler(a: &[(String, f64)], b: &[(String, f64)]) -> std::cmp::Ordering {
    for ((key, x), (_, y)) in by_precedence(a).into_iter().zip(by_precedence(b)) {
        let (x, y) = if simpler_when_smaller(key) {
            (*x, *y)
        } else {
            (-*x, -*y)
        };
        match x.partial_cmp(&y) {
            Some(std::cmp::Ordering::Equal) | None => {}
            Some(order) => return order,
        }
    }
    std::cmp::Ordering::Equal
}

/// The rule that picks among tied cells, in words: "smallest γ, then smallest C", with why
/// each is simpler.
pub fn tie_rule(params: &[(String, f64)]) -> String {
    let words: Vec<String> = by_precedence(params)
        .into_iter()
        .map(|(key, _)| {
            let label = crate::methods::table::param(key).map_or(key.as_str(), |p| p.label);
            let why = match key.as_str() {
                "C" => " (the widest margin)",
                "gamma" => " (the smoothest boundary)",
                "degree" => " (the fewest monomials)",
                "lambda" => " (the strongest penalty)",
                "k" => " (a vote over the most neighbours)",
                "reg" => " (covariances nearest the identity)",
                _ => "",
            };
            let extreme = match (simpler_when_smaller(key), key.as_str()) {
                (true, "degree") => "lowest",
                (true, _) => "smallest",
                (false, _) => "largest",
            };
            format!("{extreme} {label}{why}")
        })
        .collect();
    words.join(", then ")
}

/// The best cell: the highest mean accuracy; when cells tie for it (within [`TIE`]), the
/// simplest of them ([`simpler`]), the first in grid order if they are equally simple.
pub fn best_of(cells: &[Cell]) -> Option<Best> {
    let high = cells
        .iter()
        .map(|c| c.score.mean)
        .fold(f64::NEG_INFINITY, f64::max);
    let tied: Vec<usize> = (0..cells.len())
        .filter(|&i| cells[i].score.mean >= high - TIE)
        .collect();
    let index = tied
        .iter()
        .copied()
        .min_by(|&a, &b| simpler(&cells[a].params, &cells[b].params))?;
    Some(Best { index, tied })
}

/// The index of the best cell ([`best_of`]).
pub fn best(cells: &[Cell]) -> Option<usize> {
    best_of(cells).map(|b| b.index)
}
