//! Discs listed ahead of the frame that paints them, a share of the points at a time: a page
//! that has just taken a million points lists their discs in tasks of their own, and the frame
//! given the same key (the caller's key of the points, window and canvas) takes the list
//! instead of listing them. A frame takes only a complete list made for its key; a share for
//! another key than the list's drops the list (the pointer on a point, the canvas resized:
//! the shares listed before are not that key's, and the frame lists its own discs).

use crate::draw::scene::{Disc, ListDiscs};

/// The list being made or made, with the key it is for and whether it is complete.
#[derive(Default)]
pub struct ListedAhead {
    list: Option<(u64, Vec<Disc>, bool)>,
}

impl ListedAhead {
    /// Lists the next share for `key` (`list` lists it): the first (`first`) starts the list
    /// afresh, in `spare`'s memory when there is no list; the others add to it while it is for
    /// `key` and not complete; after the last (`last`) it is complete. A dropped list's memory
    /// goes back to `spare`.
    pub fn add(
        &mut self,
        key: u64,
        list: &ListDiscs,
        (first, last): (bool, bool),
        spare: &mut Vec<Disc>,
    ) {
        let mut discs = match (self.list.take(), first) {
            (Some((_, discs, _)), true) => discs,
            (None, true) => std::mem::take(spare),
            (Some((listed, discs, false)), false) if listed == key => discs,
            (Some((_, discs, false)), false) => {
                *spare = discs;
                return;
            }
            // A complete list, or none: a share out of turn is not added.
            (kept, false) => {
                self.list = kept;
                return;
            }
        };
        if first {
            discs.clear();
        }
        list(&mut discs);
        self.list = Some((key, discs, last));
    }

    /// The complete list made for `key` (`Ok`), or else the memory of whatever list there was
    /// (`Err`, for the frame to list its own discs into): either way no list is left.
    pub fn take(&mut self, key: Option<u64>) -> Result<Vec<Disc>, Option<Vec<Disc>>> {
        match self.list.take() {
            Some((listed, discs, true)) if Some(listed) == key => Ok(discs),
            other => Err(other.map(|(_, discs, _)| discs)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A share of the discs: points `from..to`, each its own disc.
    fn share(from: i32, to: i32) -> impl Fn(&mut Vec<Disc>) {
        move |into: &mut Vec<Disc>| into.extend((from..to).map(|i| (i, i, 0)))
    }

    fn discs(from: i32, to: i32) -> Vec<Disc> {
        (from..to).map(|i| (i, i, 0)).collect()
    }

    #[test]
    fn a_frame_takes_only_a_whole_list_made_for_its_key() {
        let mut spare = Vec::new();
        let mut ahead = ListedAhead::default();
        ahead.add(1, &share(0, 3), (true, false), &mut spare);
        ahead.add(1, &share(3, 6), (false, false), &mut spare);
        // Not complete yet: a frame lists its own, and the list is gone.
        assert_eq!(ahead.take(Some(1)), Err(Some(discs(0, 6))));
        assert_eq!(ahead.take(Some(1)), Err(None));
        // The shares after it are not added to nothing.
        ahead.add(1, &share(6, 9), (false, true), &mut spare);
        assert_eq!(ahead.take(Some(1)), Err(None));
        // A whole list, for its key only.
        for k in [Some(2), None, Some(1)] {
            ahead.add(1, &share(0, 3), (true, false), &mut spare);
            ahead.add(1, &share(3, 5), (false, true), &mut spare);
            let taken = ahead.take(k);
            assert_eq!(taken.is_ok(), k == Some(1), "{k:?}");
            assert_eq!(taken.unwrap_or_else(|e| e.unwrap()), discs(0, 5));
        }
    }

    #[test]
    fn a_share_for_another_key_drops_the_list_begun() {
        let mut spare = Vec::new();
        let mut ahead = ListedAhead::default();
        ahead.add(1, &share(0, 3), (true, false), &mut spare);
        // The pointer on a point: the key changes for one share, then back.
        ahead.add(2, &share(3, 6), (false, false), &mut spare);
        assert_eq!(spare, discs(0, 3), "the dropped list's memory is kept");
        ahead.add(1, &share(6, 9), (false, true), &mut spare);
        assert_eq!(
            ahead.take(Some(1)),
            Err(None),
            "no list missing a share is taken"
        );
        // A complete list stays for its key whatever share comes out of turn.
        ahead.add(1, &share(0, 3), (true, true), &mut spare);
        ahead.add(2, &share(3, 6), (false, true), &mut spare);
        assert_eq!(ahead.take(Some(1)), Ok(discs(0, 3)));
    }
}
