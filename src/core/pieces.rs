//! Passes over a million points made a piece at a time, each piece a call of its own.
//!
//! A browser first runs a WebAssembly function as its quick first compilation and compiles it
//! well only once it has been called, or has looped, enough; a call under way is never moved to
//! the better code. A pass the page makes once per scene (is any point held out? which colours
//! are there?) would walk all its points in the slow code; cut into calls of [`PIECE`]
//! elements, the later pieces run in the good one.

/// Elements per call.
pub const PIECE: usize = 8192;

/// Whether any element of `items` passes `test`.
pub fn any<T, F: Fn(&T) -> bool>(items: &[T], test: F) -> bool {
    items.chunks(PIECE).any(|piece| any_in(piece, &test))
}

#[inline(never)]
fn any_in<T, F: Fn(&T) -> bool>(piece: &[T], test: &F) -> bool {
    piece.iter().any(test)
}

/// Calls `each` with every element of `items`, in order.
pub fn for_each<T, F: FnMut(&T)>(items: &[T], mut each: F) {
    for piece in items.chunks(PIECE) {
        for_each_in(piece, &mut each);
    }
}

#[inline(never)]
fn for_each_in<T, F: FnMut(&T)>(piece: &[T], each: &mut F) {
    piece.iter().for_each(each);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_see_every_element_once_in_order() {
        let items: Vec<usize> = (0..3 * PIECE + 5).collect();
        let mut seen = Vec::new();
        for_each(&items, |&i| seen.push(i));
        assert_eq!(seen, items);
        assert!(any(&items, |&i| i == 3 * PIECE + 4));
        assert!(!any(&items, |&i| i > 3 * PIECE + 4));
        assert!(!any(&[] as &[usize], |_| true));
    }
}
