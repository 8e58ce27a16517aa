//! Sorting through one shared copy of the standard library's sort.
//!
//! Every `sort_by` with its own comparison is a copy of the whole sort in the compiled module
//! (about 6 KB of WebAssembly each, stable or not): twenty call sites were a twelfth of the
//! page's module. These functions compute the order once, as a permutation of `0..n` sorted by
//! one function of this module, and then move the items.
//!
//! The order is the stable one: items that compare equal keep their order, exactly as
//! `slice::sort_by` leaves them. For an order where equal items cannot be told apart (integers,
//! strings, `f64::total_cmp`) that is also what `sort_unstable` gives, so either can be replaced
//! without changing a result. The comparison is called through a reference to a closure, a few
//! nanoseconds more per comparison: kept to code that sorts per edit or per file, not per pixel.

use std::cmp::Ordering;
use std::collections::BTreeMap;

/// The map of `pairs`, the last value kept for a key given twice, as `collect` makes it: built
/// by insertion, where `collect` first sorts the pairs with a copy of the sort for their type.
pub fn map_of<K: Ord, V>(pairs: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut map = BTreeMap::new();
    for (key, value) in pairs {
        map.insert(key, value);
    }
    map
}

/// The permutation that sorts `0..n` stably by `cmp` on indices.
fn stable_order(n: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    order
}

/// Sorts `items` stably by `cmp`: the same result as `items.sort_by(cmp)`.
pub fn sort_by<T>(items: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    let order = stable_order(items.len(), &|a, b| cmp(&items[a], &items[b]));
    // items[k] becomes the item at order[k], one cycle of the permutation at a time: each swap
    // puts one item in its place.
    let mut placed = vec![false; items.len()];
    for start in 0..items.len() {
        let mut k = start;
        while !placed[k] {
            placed[k] = true;
            let from = order[k];
            if from == start {
                break;
            }
            items.swap(k, from);
            k = from;
        }
    }
}

/// Sorts `items` stably by `key`: the same result as `items.sort_by_key(key)`.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` in their order: the same result as `items.sort()` (and, for items that are
/// equal only when identical, as `items.sort_unstable()`).
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_of_is_what_collect_makes() {
        for seed in 1..20 {
            let keys = sequence(seed, 50);
            let pairs: Vec<(u64, usize)> = keys.iter().map(|k| k % 13).zip(0..).collect();
            let collected: BTreeMap<u64, usize> = pairs.iter().copied().collect();
            assert_eq!(map_of(pairs), collected);
        }
    }

    /// A small generator of a fixed sequence, so that the cases are many and repeatable.
    fn sequence(seed: u64, n: usize) -> Vec<u64> {
        let mut state = seed;
        (0..n)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                state >> 33
            })
            .collect()
    }

    #[test]
    fn the_same_order_as_the_standard_stable_sort_ties_included() {
        for (seed, n) in [(1, 0), (2, 1), (3, 2), (4, 7), (5, 33), (6, 200), (7, 1500)] {
            // Pairs (key, tag): few distinct keys, so many ties whose tags show their order.
            let items: Vec<(u64, usize)> = sequence(seed, n)
                .into_iter()
                .enumerate()
                .map(|(i, v)| (v % 5, i))
                .collect();
            let mut expected = items.clone();
            expected.sort_by_key(|a| a.0);
            let mut got = items.clone();
            sort_by(&mut got, |a, b| a.0.cmp(&b.0));
            assert_eq!(got, expected, "n = {n}");
            let mut got = items.clone();
            sort_by_key(&mut got, |a| a.0);
            assert_eq!(got, expected, "n = {n}");
            let mut descending = items;
            descending.sort_by_key(|b| std::cmp::Reverse(b.0));
            let mut got = descending.clone();
            sort(&mut got);
            descending.sort_unstable();
            assert_eq!(got, descending, "n = {n}");
        }
    }

    #[test]
    fn floats_in_their_total_order() {
        let mut values = vec![
            0.5,
            -0.0,
            f64::NAN,
            0.0,
            -1.0,
            f64::INFINITY,
            0.5,
            -f64::NAN,
        ];
        let mut expected = values.clone();
        expected.sort_by(f64::total_cmp);
        sort_by(&mut values, f64::total_cmp);
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&values), bits(&expected));
    }
}
