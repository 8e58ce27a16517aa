// Scenes: opening one whole from its link, the two sides of a comparison, the end of an edit
// (settle), the undo history of whole scenes, and the address that follows the scene.

import { Lab } from './pkg/kernel_playground.js';
import { revealSettings, syncControls } from './controls.js';
import { requestRender, resizeCanvas } from './frame.js';
import { cancelEntry, endOffer, entryPendingNow, keepScene, startEntry, writeAddress } from './history.js';
import { t } from './i18n.js';
import { errorText, partsLeftOut, refusedLink } from './messages.js';
import { showCaption } from './examples.js';
import { $, controlled, guard, messages, page, renderMessage, showMessage, sideOf } from './page.js';
import { hideTooltip } from './pointer.js';
import { handBack, setTwin } from './remote.js';

let hashTimer = null;

// ---- the end of an edit -------------------------------------------------------------------

// Warm starts keep dragging fast; when an interaction ends the lab refits from scratch, so
// what stays on screen is exactly what the scene's link reopens. An ended interaction is also
// a step of the undo history.
export function settle() {
  if (!page.lab) return;
  if (page.lab.settle()) {
    historyMoved();
    messages.sceneChanged();
  }
  // A new scene (a preset, a file, Clear…) is a new entry of the browser's history at once.
  if (entryPendingNow()) {
    writeHash();
    cancelEntry();
  }
  requestRender();
}

// Before an action that makes a new scene: the browser's entry on screen keeps the scene as it
// is, and the scene the action makes is written as a new entry (Back returns here).
export function newEntry() {
  writeHash();
  startEntry();
  showCaption(null);
}

// ---- compare: two settings side by side on the same points -------------------------------

// A scene's link: the left side's, and the right side's own settings when comparing (the lab
// writes the `compare=` form, src/lab/link.rs); null for a scene too large for a link (known
// without writing megabytes of text).
export function sceneHash() {
  return page.lab.link() ?? null;
}

// Opens a whole scene from its link, both sides, or nothing of it; whether a scene opened. The
// link is read whole first (`Lab.read_link`, both sides); one that cannot be is refused with a
// message naming why, and the scene on screen stays (on a first visit, the default opens).
// Opening it can still fail (no 2D canvas): that is said as it is.
export function openScene(hash) {
  showCaption(null);
  try {
    Lab.read_link(hash);
  } catch (e) {
    const hadScene = page.lab !== null;
    const opened = !hadScene && openScene('');
    showMessage(refusedLink(errorText(e), hadScene), 'link');
    return opened;
  }
  const opened = guard(() => {
    if (page.lab) page.lab.reopen(hash);
    else page.lab = new Lab('plot', 'plot-b', hash);
    return true;
  });
  if (!opened) return false;
  sceneOpened();
  return true;
}

// The lab has a scene anew (opened, undone, redone): the page's views of its sides are new,
// the workers behind them start from it whole, and the controls show it.
function sceneOpened() {
  messages.sceneChanged();
  messages.set('link', partsLeftOut(page.lab.warnings().split('\n').filter(Boolean)));
  page.app = sideOf(page.lab, 0);
  // A new scene starts behind the page, whatever the last one was fitted by.
  handBack(true);
  if (page.client) {
    page.app.set_remote(true);
    page.client.resync();
  }
  setTwin(page.lab.comparing() ? sideOf(page.lab, 1) : null);
  page.dragging = null;
  page.highlighted = -1;
  hideTooltip();
  showCompare();
  syncControls(controlled());
  revealSettings(controlled());
  requestRender();
}

function showCompare() {
  const on = page.twin !== null;
  $('compare').checked = on;
  $('side-b').hidden = !on;
  $('compare-sides').hidden = !on;
  document.querySelector('.stage').classList.toggle('comparing', on);
  const editing = page.lab.editing();
  for (const [i, side] of [$('side-a'), $('side-b')].entries()) {
    side.classList.toggle('editing', on && i === editing);
  }
  for (const b of document.querySelectorAll('[data-edit-side]')) {
    b.setAttribute('aria-pressed', String(Number(b.dataset.editSide) === editing));
  }
  resizeCanvas();
}

export function toggleCompare(on) {
  if (!page.lab || on === page.lab.comparing()) return;
  newEntry();
  if (guard(() => page.lab.compare(on)) === undefined) {
    // The right could not be opened: the page stays as it was, no new entry.
    cancelEntry();
    showCompare();
    return;
  }
  setTwin(page.lab.comparing() ? sideOf(page.lab, 1) : null);
  showCompare();
  syncControls(controlled());
  settle();
}

export function chooseSide(side) {
  page.lab.choose(side);
  showCompare();
  syncControls(controlled());
}

// ---- undo and redo --------------------------------------------------------------------------

// The history is the lab's (src/lab/comparison.rs, src/lab/history.rs): whole scenes, each as
// its link, taken whenever an edit ends (a click, a drag, a deletion, Clear, Regenerate, a
// loaded file, a train/test toggle, a control let go: settle). Undo reopens the scene before;
// redo the one after. A scene too large for a link is no step: Undo goes back to the scene
// before it, and Redo cannot bring it back.

// The scene as the history last took it: its link, TOO_LARGE, or null before the first.
export const TOO_LARGE = { tooLarge: true };
export function currentScene() {
  if (!page.lab || !page.lab.history_started()) return null;
  return page.lab.history_current() ?? TOO_LARGE;
}

// The scene on screen starts the history, with no undo step (a visit's first scene, a lesson's).
export function startHistory() {
  page.lab.start_history();
  showHistory();
}

// Whether the scene changed (and was remembered).
export function remember() {
  if (!page.lab.remember()) return false;
  historyMoved();
  return true;
}

// The history took a new step.
function historyMoved() {
  // An edit sets the last visit's scene aside (the offer to restore it goes).
  endOffer();
  showHistory();
}

function showHistory() {
  $('undo').disabled = !page.lab.can_undo();
  $('redo').disabled = !page.lab.can_redo();
}

// Opens the scene a link's hash describes in place of the current one; whether it could.
export function replaceScene(hash) {
  if (!openScene(hash)) return false;
  writeHash();
  return true;
}

function travel(step) {
  if (!page.lab) return;
  showCaption(null);
  if (step()) {
    sceneOpened();
    writeHash();
  }
  showHistory();
}

export const undo = () => travel(() => page.lab.undo());
export const redo = () => travel(() => page.lab.redo());

// ---- the URL ------------------------------------------------------------------------------

// A scene of many points has a link of hundreds of kilobytes, and writing it (the link, then
// the address) takes tens of milliseconds each: its address follows once the scene has stood
// still a while (and no point is held), link and address each in a task of its own, so that
// no task on the page's thread grows past a frame with the number of points while a slider or
// a point moves. Whether the link is large is asked once the scene has stood still for
// HASH_AFTER_MS, not at every frame: the question walks the points' coordinates as the link
// writes them (at 2000 dragged points, 2 ms of every frame, 8 on a phone four times slower).
const LARGE_LINK = 50_000;
const HASH_AFTER_MS = 250;
const LARGE_HASH_AFTER_MS = 1500;

export function scheduleHash() {
  clearTimeout(hashTimer);
  hashTimer = setTimeout(() => {
    if (page.lab && page.lab.hash_longer_than(LARGE_LINK)) hashTimer = setTimeout(writeLargeHash, LARGE_HASH_AFTER_MS - HASH_AFTER_MS);
    else writeHash();
  }, HASH_AFTER_MS);
}

function writeLargeHash() {
  // Not while a point is held (a slow model's frames can be seconds apart): its release
  // settles the scene, and the frame after it schedules the address again.
  if (page.dragging !== null) return;
  const scene = sceneHash();
  const written = hashWrites;
  // Unless the address was written since (an action's own writeHash), in the next task.
  hashTimer = setTimeout(() => { if (hashWrites === written) writeScene(scene); }, 0);
}

let hashWrites = 0;

export function writeHash() {
  if (!page.lab) return;
  writeScene(sceneHash());
}

// Writes the address (and the kept scene) for `scene`, the scene's link (null: too large). A
// link holds a scene of up to a million characters (about 60 000 points; browsers refuse
// addresses of 2 MB, src/lab/comparison.rs): a larger scene leaves the address without a
// scene, so a reload does not open an older one, and says how to keep it.
function writeScene(scene) {
  hashWrites += 1;
  const hash = scene === null ? '' : '#' + scene;
  const tooLong = scene === null;
  // Replaces the address of the browser's entry on screen, or pushes a new one (history.js).
  writeAddress(tooLong ? '' : hash);
  keepScene(tooLong ? null : hash.slice(1));
  if (tooLong !== page.linkTooLong) {
    page.linkTooLong = tooLong;
    renderMessage(page.lastFrame);
  }
}

// A link typed or followed in the address bar, or Back and Forward to another scene: opened
// whole (an undo step); refused, the address shows the scene on screen again.
export function openFromHash() {
  clearTimeout(hashTimer);
  if (openScene(location.hash)) remember();
  else writeHash();
}

// Back or Forward to the entry of a scene that was too large for a link: it cannot be opened
// again, and the scene on screen stays.
export function tooLargeEntry() {
  showMessage(t('message.history-too-large'));
  writeHash();
}
