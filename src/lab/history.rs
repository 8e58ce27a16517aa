//! The undo history of whole scenes. A step is a scene as its link (settings, points, their
//! roles, the other side of a comparison), taken whenever an edit ends: a click, a drag, a
//! deletion, Clear, Regenerate, a loaded file, a control let go. Undo reopens the scene before,
//! redo the one after; a new edit after an undo drops what redo would have reopened.
//!
//! A scene too large for a link (`None` where a link is asked for) is not kept: its edits are
//! not undone one by one, undo from it goes back to the scene before it, and redo cannot bring
//! it back. The history keeps at most [`UNDO_STEPS`] steps, and fewer of a large scene, whose
//! every step is a link of all its points: their links together stay under
//! [`UNDO_CHARACTERS`] characters (the oldest go first, the last step always stays).

use std::collections::VecDeque;

/// The most steps undo can go back.
pub const UNDO_STEPS: usize = 200;
/// The most characters the kept links may hold together (50 MB of text at most).
pub const UNDO_CHARACTERS: usize = 50_000_000;

/// The steps before and after the scene on screen, and that scene as last taken.
#[derive(Debug, Default)]
pub struct History {
    undo: VecDeque<String>,
    /// The characters of the links in `undo`.
    characters: usize,
    redo: Vec<String>,
    /// The scene on screen as last taken: `None` before the first, `Some(None)` for a scene
    /// too large for a link.
    current: Option<Option<String>>,
}

impl History {
    /// The scene on screen after an edit ended (`None`: too large for a link). Whether it is
    /// another scene than the one last taken, and so a step of the history; the first scene
    /// taken is the history's start, no step.
    pub fn remember(&mut self, scene: Option<String>) -> bool {
        let Some(current) = self.current.take() else {
            self.current = Some(scene);
            return false;
        };
        if current == scene {
            self.current = Some(current);
            return false;
        }
        if let Some(link) = current {
            self.characters += link.len();
            self.undo.push_back(link);
        }
        while self.undo.len() > UNDO_STEPS
            || (self.undo.len() > 1 && self.characters > UNDO_CHARACTERS)
        {
            let oldest = self.undo.pop_front().unwrap_or_default();
            self.characters -= oldest.len();
        }
        self.redo.clear();
        self.current = Some(scene);
        true
    }

    /// The scene on screen is `scene`, in place of the one taken last, with no step to undo
    /// (a lesson's first scene, opened in place of the default one).
    pub fn replace(&mut self, scene: Option<String>) {
        self.current = Some(scene);
    }

    /// The scene on screen as last taken: `None` before the first, `Some(None)` for one too
    /// large for a link.
    pub fn current(&self) -> Option<Option<&str>> {
        self.current.as_ref().map(Option::as_deref)
    }

    /// The link of the scene before the one on screen, now the scene on screen; `None` when
    /// there is none.
    pub fn undo(&mut self) -> Option<String> {
        let before = self.undo.pop_back()?;
        self.characters -= before.len();
        if let Some(Some(link)) = self.current.take() {
            self.redo.push(link);
        }
        self.current = Some(Some(before.clone()));
        Some(before)
    }

    /// The link of the scene undone last, now the scene on screen; `None` when there is none.
    pub fn redo(&mut self) -> Option<String> {
        let after = self.redo.pop()?;
        if let Some(Some(link)) = self.current.take() {
            self.characters += link.len();
            self.undo.push_back(link);
        }
        self.current = Some(Some(after.clone()));
        Some(after)
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(text: &str) -> Option<String> {
        Some(text.to_string())
    }

    #[test]
    fn undo_and_redo_walk_the_scenes_taken() {
        let mut history = History::default();
        assert!(!history.remember(link("a")), "the start is no step");
        assert!(!history.can_undo());
        assert!(!history.remember(link("a")), "the same scene is no step");
        assert!(history.remember(link("b")));
        assert!(history.remember(link("c")));
        assert_eq!(history.undo().as_deref(), Some("b"));
        assert_eq!(history.undo().as_deref(), Some("a"));
        assert_eq!(history.undo(), None);
        assert_eq!(history.current(), Some(Some("a")));
        assert_eq!(history.redo().as_deref(), Some("b"));
        assert_eq!(history.redo().as_deref(), Some("c"));
        assert_eq!(history.redo(), None);
        assert_eq!(history.undo().as_deref(), Some("b"));
        // A new edit after an undo: what redo would have reopened is gone.
        assert!(history.remember(link("d")));
        assert!(!history.can_redo());
        assert_eq!(history.undo().as_deref(), Some("b"));
        assert_eq!(history.undo().as_deref(), Some("a"));
    }

    #[test]
    fn a_scene_too_large_for_a_link_is_never_a_step_to_return_to() {
        let mut history = History::default();
        history.remember(link("small"));
        assert!(history.remember(None), "a large file loaded");
        assert!(!history.remember(None), "its edits are no steps");
        assert!(history.remember(link("cleared")));
        // Undo from the cleared scene goes back past the large one.
        assert_eq!(history.undo().as_deref(), Some("small"));
        assert_eq!(history.undo(), None);
        assert_eq!(history.redo().as_deref(), Some("cleared"));
        assert_eq!(history.redo(), None);
        // Undo from a large scene goes back, and redo cannot bring the large one back.
        history.remember(None);
        assert_eq!(history.undo().as_deref(), Some("cleared"));
        assert!(!history.can_redo());
    }

    #[test]
    fn the_history_keeps_its_last_steps_within_its_limits() {
        let mut history = History::default();
        for i in 0..=UNDO_STEPS + 5 {
            history.remember(link(&format!("scene {i}")));
        }
        let mut back = 0;
        while let Some(scene) = history.undo() {
            back += 1;
            assert_eq!(scene, format!("scene {}", UNDO_STEPS + 5 - back));
        }
        assert_eq!(back, UNDO_STEPS);

        // Three links of 20 MB each: only the last two fit in the characters kept.
        let mut history = History::default();
        let large = |c: char| Some(c.to_string().repeat(20_000_000));
        for c in ['a', 'b', 'c', 'd'] {
            history.remember(large(c));
        }
        assert_eq!(history.undo(), large('c'));
        assert_eq!(history.undo(), large('b'));
        assert_eq!(history.undo(), None);
        // One link over the limit is still a step back.
        let mut history = History::default();
        history.remember(Some("x".repeat(UNDO_CHARACTERS + 1)));
        history.remember(link("y"));
        assert_eq!(history.undo().map(|s| s.len()), Some(UNDO_CHARACTERS + 1));
    }

    #[test]
    fn a_scene_put_in_place_is_no_step() {
        let mut history = History::default();
        history.remember(link("default"));
        history.replace(link("lesson"));
        assert!(!history.can_undo());
        assert_eq!(history.current(), Some(Some("lesson")));
        assert!(history.remember(link("edited")));
        assert_eq!(history.undo().as_deref(), Some("lesson"));
    }
}
