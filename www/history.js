// The browser's history: Back and Forward between scenes.
//
// Back and Forward move between scenes: the actions that make a new scene (a preset, a loaded
// file, Clear, Regenerate, a model switch, compare on or off) push an entry of the browser's
// history; every other edit (a drag, a click, a slider) only rewrites the address of the entry
// on screen. An entry's scene is its address's hash, opened whole as a followed link is.

// ---- the address and the browser's history -----------------------------------------------

let entryPending = false;
// The address's hash as last written or opened: a popstate and the hashchange that comes with
// it (or a hashchange alone) open a scene once.
let shownHash = location.hash;

// The scene written next is a new entry of the browser's history (when it differs from the
// scene of the entry on screen).
export function startEntry() {
  entryPending = true;
}

// The action that was to make a new entry is over (it made nothing new, or its entry is written).
export function cancelEntry() {
  entryPending = false;
}

export const entryPendingNow = () => entryPending;

// Writes the scene's link (`#…`, or '' for a scene too large for a link) to the address: a new
// entry after startEntry() (once the scene differs from the entry's), else in place of the
// entry on screen.
export function writeAddress(hash) {
  const url = hash === '' ? location.pathname + location.search : hash;
  // The same scene: a new entry still waits for the action's scene (a file read behind the page).
  if (hash === location.hash) {
    shownHash = location.hash;
    return;
  }
  const push = entryPending;
  entryPending = false;
  // An entry without a scene (too large for a link) says so, so that Back or Forward to it
  // keeps the scene on screen instead of opening the default one.
  const state = hash === '' ? { tooLarge: true } : null;
  if (push) history.pushState(state, '', url);
  else history.replaceState(state, '', url);
  shownHash = location.hash;
}

// Calls open() whenever the address's hash changes under the page: Back, Forward, a link
// followed or typed in the address bar. `tooLarge()` is called instead for an entry whose
// scene was too large for a link.
export function wireTravel(open, tooLarge) {
  const changed = () => {
    if (location.hash === shownHash) return;
    shownHash = location.hash;
    entryPending = false;
    if (location.hash === '' && history.state && history.state.tooLarge) tooLarge();
    else open();
  };
  window.addEventListener('popstate', changed);
  window.addEventListener('hashchange', changed);
}
