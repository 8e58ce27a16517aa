//! The undo history of whole scenes (`lab::history`) for the page: a scene crosses as its
//! link, `undefined` for one too large for a link.

use crate::lab::history::History;
use wasm_bindgen::prelude::*;

/// The page's undo history.
#[wasm_bindgen]
#[derive(Default)]
pub struct SceneHistory {
    history: History,
}

#[wasm_bindgen]
impl SceneHistory {
    #[wasm_bindgen(constructor)]
    pub fn new() -> SceneHistory {
        SceneHistory::default()
    }

    /// The scene on screen after an edit ended; whether it is a step of the history.
    pub fn remember(&mut self, scene: Option<String>) -> bool {
        self.history.remember(scene)
    }

    /// The scene on screen, put in place of the last with no step to undo.
    pub fn replace(&mut self, scene: Option<String>) {
        self.history.replace(scene);
    }

    /// Whether a scene has been taken yet.
    pub fn started(&self) -> bool {
        self.history.current().is_some()
    }

    /// The link of the scene on screen as last taken (`undefined`: none yet, or too large).
    pub fn current(&self) -> Option<String> {
        self.history.current().flatten().map(str::to_string)
    }

    /// The link of the scene to open for undo (`undefined`: nothing to undo).
    pub fn undo(&mut self) -> Option<String> {
        self.history.undo()
    }

    /// The link of the scene to open for redo (`undefined`: nothing to redo).
    pub fn redo(&mut self) -> Option<String> {
        self.history.redo()
    }

    pub fn can_undo(&self) -> bool {
        self.history.can_undo()
    }

    pub fn can_redo(&self) -> bool {
        self.history.can_redo()
    }
}
