//! The page's session whole: the scene on the left, the right-hand side when comparing (the
//! same points under other settings), which side the model's controls edit, and the undo
//! history of whole scenes.
//!
//! The rule of a comparison lives here: the points, the settings that make them, the task and
//! the views belong to both sides ([`link::shared`]), so an edit of them is made on both, and
//! so is the plot's window (which the link writes for each side, the right's in `compare=`);
//! any other setting is the edited side's own. (Two edits of one side stay that side's: a
//! click in a view, which follows the left, and a large file's points, which the page hands
//! to each side as they arrive from the worker.) A point added
//! or moved on either plot goes to both with the coordinates the first side stored, to the last
//! bit. The scene's link is the left's with the right's own settings as `compare=`
//! ([`link::write`]), and opening a link ([`Comparison::open`]) reads it whole first, both
//! sides, so a refused link leaves the scene as it was.
//!
//! Each side is a [`Session`], which records its own edits for the copy behind the page; the
//! page's handle holds a side together with what draws it ([`SideOf`]), so the rule is the
//! same for the page and for the tests here.

use crate::core::data::Point;
use crate::core::error::Error;
use crate::lab::history::History;
use crate::lab::link;
use crate::lab::playground::{Playground, Session};
use crate::lab::state::WINDOW_KEY;

/// A side of a comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Left,
    Right,
}

impl Side {
    /// 0 for the left, any other number for the right (the page numbers its plots so).
    pub fn from_index(index: usize) -> Side {
        if index == 0 {
            Side::Left
        } else {
            Side::Right
        }
    }
}

/// What a comparison holds on each side: a session, and what opens one in its place.
pub trait SideOf: Sized {
    /// Where a side is shown (the page: its canvas).
    type Place;
    /// The side's scene at `place`, opened from its hash (read whole beforehand).
    fn open(place: &Self::Place, hash: &str) -> Result<Self, String>;
    fn session(&self) -> &Session;
    fn session_mut(&mut self) -> &mut Session;
}

impl SideOf for Session {
    type Place = ();

    fn open(_: &(), hash: &str) -> Result<Session, String> {
        Playground::open(hash)
            .map(Session::new)
            .map_err(|refusal| refusal.to_string())
    }

    fn session(&self) -> &Session {
        self
    }

    fn session_mut(&mut self) -> &mut Session {
        self
    }
}

/// The most characters of a link the history and the address take: a larger scene (about
/// 60 000 points) has no link, since browsers refuse addresses of a few megabytes.
pub const LINK_CHARACTERS: usize = 1_000_000;

/// Both sides of the page, the side edited and the undo history.
pub struct Comparison<S: SideOf> {
    /// Where the left and the right are shown.
    places: [S::Place; 2],
    left: S,
    right: Option<S>,
    editing: Side,
    history: History,
}

impl<S: SideOf> Comparison<S> {
    /// The scene of `hash` (a URL hash, '#' or not; empty for the default scene), both sides,
    /// with the parts of the link left out as one-line warnings; a link that cannot be read
    /// whole is refused with the message naming why.
    pub fn open(places: [S::Place; 2], hash: &str) -> Result<(Comparison<S>, Vec<String>), String> {
        let (left, right, warnings) = Self::read(&places, hash)?;
        let comparison = Comparison {
            places,
            left,
            right,
            editing: Side::Left,
            history: History::default(),
        };
        Ok((comparison, warnings))
    }

    fn read(places: &[S::Place; 2], hash: &str) -> Result<(S, Option<S>, Vec<String>), String> {
        let link = link::read(hash).map_err(|refusal| refusal.to_string())?;
        let left = S::open(&places[0], &link.left)?;
        let right = match &link.right {
            Some(right) => Some(S::open(&places[1], right)?),
            None => None,
        };
        Ok((left, right, link.warnings))
    }

    /// Opens `hash` in place of the scene on screen (both sides, the history kept); refused,
    /// the scene stays as it was. The side edited stays when there is still a right.
    pub fn reopen(&mut self, hash: &str) -> Result<Vec<String>, String> {
        let (left, right, warnings) = Self::read(&self.places, hash)?;
        self.left = left;
        self.right = right;
        if self.right.is_none() {
            self.editing = Side::Left;
        }
        Ok(warnings)
    }

    pub fn comparing(&self) -> bool {
        self.right.is_some()
    }

    /// The side shown at `side` (the left when there is no right).
    pub fn side(&self, side: Side) -> &S {
        match (side, &self.right) {
            (Side::Right, Some(right)) => right,
            _ => &self.left,
        }
    }

    pub fn side_mut(&mut self, side: Side) -> &mut S {
        match (side, &mut self.right) {
            (Side::Right, Some(right)) => right,
            _ => &mut self.left,
        }
    }

    /// Every side shown, the left first.
    pub fn sides_mut(&mut self) -> impl Iterator<Item = &mut S> {
        std::iter::once(&mut self.left).chain(self.right.as_mut())
    }

    /// The side the model's controls edit.
    pub fn editing(&self) -> Side {
        self.editing
    }

    /// The model's controls edit `side` from now on (the left when there is no right).
    pub fn choose(&mut self, side: Side) {
        self.editing = if self.comparing() { side } else { Side::Left };
    }

    /// Compare on: the right opens as the left is, and its controls are the ones edited. Off:
    /// the right goes. Whether anything changed.
    pub fn compare(&mut self, on: bool) -> Result<bool, String> {
        if on == self.comparing() {
            return Ok(false);
        }
        if on {
            let twin = S::open(&self.places[1], &self.left.session().hash())?;
            self.right = Some(twin);
            self.editing = Side::Right;
        } else {
            self.right = None;
            self.editing = Side::Left;
        }
        Ok(true)
    }

    /// Sets `key` to `value` (in the setting's own units, as the link writes it): on both sides
    /// when the setting is [shared](link::shared), else on the side edited. A shared value
    /// refused is refused on the left, before anything is set.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), Error> {
        if link::shared(key) || key == WINDOW_KEY {
            for side in self.sides_mut() {
                side.session_mut().set(key, value)?;
            }
            Ok(())
        } else {
            let editing = self.editing;
            self.side_mut(editing).session_mut().set(key, value)
        }
    }

    /// Adds a point at `at` of `side`'s plot: there, and on the other side with the
    /// coordinates as stored. Its index.
    pub fn add_point(&mut self, side: Side, at: Point, label: i32) -> Result<usize, Error> {
        let first = self.side_mut(side).session_mut();
        let index = first.add_point(at, label)?;
        let stored = first.data().points[index];
        if let Some(other) = self.other_mut(side) {
            other.session_mut().add_point(stored, label)?;
        }
        Ok(index)
    }

    /// Moves point `index` to `at` on `side`'s plot, and to the same stored place on the other.
    pub fn move_point(&mut self, side: Side, index: usize, at: Point) -> Result<(), Error> {
        let first = self.side_mut(side).session_mut();
        first.move_point(index, at)?;
        let stored = first.data().points[index];
        if let Some(other) = self.other_mut(side) {
            other.session_mut().move_point(index, stored)?;
        }
        Ok(())
    }

    /// The side across from `side`, when comparing.
    fn other_mut(&mut self, side: Side) -> Option<&mut S> {
        match side {
            Side::Left => self.right.as_mut(),
            Side::Right => self.right.is_some().then_some(&mut self.left),
        }
    }

    pub fn remove_point(&mut self, index: usize) -> Result<(), Error> {
        self.sides_mut()
            .try_for_each(|side| side.session_mut().remove_point(index))
    }

    pub fn toggle_test(&mut self, index: usize) -> Result<(), Error> {
        self.sides_mut()
            .try_for_each(|side| side.session_mut().toggle_test(index))
    }

    pub fn set_highlight(&mut self, index: Option<usize>) {
        for side in self.sides_mut() {
            side.session_mut().highlight = index;
        }
    }

    pub fn clear(&mut self) {
        for side in self.sides_mut() {
            side.session_mut().clear();
        }
    }

    pub fn regenerate(&mut self) {
        for side in self.sides_mut() {
            side.session_mut().regenerate();
        }
    }

    /// Reads a file's points into both sides (the same bytes, so the same points); the
    /// notice of what was read, if any.
    pub fn load_file(
        &mut self,
        bytes: &[u8],
        columns: Option<&[crate::core::table::ColumnRef]>,
    ) -> Result<Option<String>, Error> {
        let mut notice = None;
        for side in self.sides_mut() {
            notice = side.session_mut().load_file(bytes, columns)?;
        }
        Ok(notice)
    }

    /// The scene's link: the left's, and the right's own settings as `compare=`.
    pub fn hash(&self) -> String {
        let left = self.left.session().hash();
        match &self.right {
            Some(right) => link::write(&left, Some(&right.session().hash())),
            None => left,
        }
    }

    /// The scene's link, or `None` for a scene of more than [`LINK_CHARACTERS`] (known
    /// without writing megabytes of text).
    pub fn link(&self) -> Option<String> {
        if self.hash_longer_than(LINK_CHARACTERS) {
            return None;
        }
        Some(self.hash()).filter(|hash| hash.len() <= LINK_CHARACTERS)
    }

    /// Whether the link is surely longer than `limit` (the points are most of it).
    pub fn hash_longer_than(&self, limit: usize) -> bool {
        self.left.session().hash_longer_than(limit)
    }

    /// An interaction ended: both sides refit from scratch (what stays on screen is what the
    /// link reopens), and the scene is a step of the undo history if it changed. Whether it
    /// did.
    pub fn settle(&mut self) -> bool {
        for side in self.sides_mut() {
            side.session_mut().settle();
        }
        self.remember()
    }

    /// Takes the scene on screen as a step of the history (opened from a link, a lesson's
    /// scene); whether it is another scene than the one taken last.
    pub fn remember(&mut self) -> bool {
        let link = self.link();
        self.history.remember(link)
    }

    /// The scene on screen is the history's present, with no step to undo (a lesson's first
    /// scene, the first scene of a visit).
    pub fn start_history(&mut self) {
        let link = self.link();
        self.history.replace(link);
    }

    /// The scene as the history last took it: `None` before the first, `Some(None)` for one
    /// too large for a link.
    pub fn history_current(&self) -> Option<Option<&str>> {
        self.history.current()
    }

    /// Reopens the scene before the one on screen; its warnings, or `None` with nothing to
    /// undo. A scene of the history that no longer opens (a link refused) is skipped.
    pub fn undo(&mut self) -> Option<Vec<String>> {
        self.travel(true)
    }

    /// Reopens the scene undone last; its warnings, or `None` with nothing to redo.
    pub fn redo(&mut self) -> Option<Vec<String>> {
        self.travel(false)
    }

    /// Undo (`back`) or redo. (Kept out of line: one copy of it in the page's module.)
    #[inline(never)]
    fn travel(&mut self, back: bool) -> Option<Vec<String>> {
        loop {
            let scene = if back {
                self.history.undo()
            } else {
                self.history.redo()
            }?;
            if let Ok(warnings) = self.reopen(&scene) {
                return Some(warnings);
            }
        }
    }

    pub fn can_undo(&self) -> bool {
        self.history.can_undo()
    }

    pub fn can_redo(&self) -> bool {
        self.history.can_redo()
    }
}

#[cfg(test)]
mod tests;
