// Kernel Playground's page: wires the DOM to the wasm App and keeps the URL hash in sync.
// All the maths, the state and the drawing live in Rust (src/); this file only translates
// events into App calls and App answers into text.

import init, { App } from './pkg/kernel_playground.js';
import { buildControls, controlValue, enableControls, fmt, keyed, showValue, syncControls } from './controls.js';
import { FrameClient, LONG_MS, hasWorker, onFailure, onNote, workerNote, workerState } from './behind.js';
import { MessageLine, errorText, partsLeftOut, refusedLink } from './messages.js';
import { chooseColumns } from './columns.js';
import { chooseRank, currentClass, otherClass, showClasses, wireClasses } from './classes.js';
import { BIG_FILE_BYTES, cancelLoad, loadBehind } from './bigfile.js';
import { PlotWindow, wireReadouts } from './entry.js';
import { PointsTable } from './points-table.js';
import { cancelEntry, endOffer, entryPendingNow, keepScene, keptScene, offerKept, startEntry, wireTravel, writeAddress } from './history.js';
import { factText, hideDetails, updateStatus } from './status.js';
import {
  background, buildTabs, clickView, endDrag, hoverView, keyView, moveDrag, openView, pointInView, pumpView,
  renderView, startDrag,
} from './views.js';

const $ = (id) => document.getElementById(id);
const canvas = $('plot');
const wrap = canvas.parentElement;
const tooltip = $('tooltip');
const cursor = $('cursor');
const messageBox = $('message');
const statusLine = $('status');

let app = null;          // the scene on the left: the one the views, the keyboard and the link follow
let twin = null;         // when comparing: the same points under other settings, on the right
let editSide = 0;        // which side the model controls edit: 0 left, 1 right
let pointKeys = new Set(); // settings of the points (preset, n, …): always the same on both sides
let dragging = null;     // index of the point being dragged
let highlighted = -1;
let frameRequested = false;
let hashTimer = null;
const messages = new MessageLine();
let keyboardCursor = [0, 0];
let lastFrame = null;
let lastFrameB = null;
// The worker behind the page that fits the left-hand scene and computes its field (null: the
// page does it itself, as without workers or with `?sync` in the address).
let client = null;
// The same for the right-hand side when comparing (its own copy of the lab in the worker).
let clientB = null;

// A hook for the browser tests and the benchmark: the last frame's status and timings, and
// where a data point is on the screen.
window.kernelPlayground = {
  get lastFrame() { return lastFrame; },
  // The right-hand side's last frame when comparing, else null.
  get lastFrameB() { return twin ? lastFrameB : null; },
  // Where data point (x, y) is on the screen in the right-hand plot.
  toClientB(x, y) {
    const [px, py] = twin.to_pixel(x, y);
    const c = $('plot-b');
    const r = c.getBoundingClientRect();
    return [r.left + px * r.width / c.width, r.top + py * r.height / c.height];
  },
  csvB() { return twin.csv(); },
  // The link of the scene as it stands (the address follows it a moment later).
  get link() { const scene = sceneHash(); return scene === null ? null : '#' + scene; },
  // A cold fit's milliseconds (the benchmark's comparison with LIBSVM in the same page).
  coldFitMs() { const ms = app.cold_fit_ms(); requestRender(); return ms; },
  get highlighted() { return highlighted; },
  // Where the point being dragged is on the screen, or null.
  draggedClient() {
    if (dragging === null) return null;
    const [x, y] = app.point_xy(dragging);
    return window.kernelPlayground.toClient(x, y);
  },
  // How often a long request in the worker was cancelled by an edit (the worker restarted).
  get cancelled() { return (client ? client.cancelled : 0) + (clientB ? clientB.cancelled : 0); },
  // Where the plane's model is computed ('worker' or 'page'), and whether nothing waits for it.
  get frames() { return client ? 'worker' : 'page'; },
  get idle() { return !frameRequested && (!client || client.idle) && (!clientB || clientB.idle); },
  // The worker's state ({ status, restarts, busy }: see watch.js).
  get worker() { return workerState(); },
  // Where the views' background work runs: 'worker' or, without one, 'page'.
  get background() { return background(); },
  // The files the page saves: CSV, LIBSVM's format, the scene, the plot as SVG.
  csv() { return app.csv(); },
  // The plotted window, [x_min, x_max, y_min, y_max].
  window() { return app.window(); },
  libsvm() { return app.libsvm(); },
  sceneJson() { return app.scene_json(); },
  svg() { return app.svg('', canvas.width, canvas.height); },
  // The training points as [x, y] (from the CSV the lab saves).
  points() {
    return app.csv().trim().split('\n').filter((r) => /^-?[\d.]/.test(r)).map((r) => r.split(',').slice(0, 2).map(Number));
  },
  // Where training point `index`'s mark in the open view is on the screen, or null.
  viewMarkClient(index) {
    const view = $('view');
    const at = app.view_mark_pixel(openView(app), view.width, view.height, index);
    if (at.length === 0) return null;
    const r = view.getBoundingClientRect();
    return [r.left + at[0] * r.width / view.width, r.top + at[1] * r.height / view.height];
  },
  // What the tooltip would say at data point (x, y): the prediction and the model's facts.
  // Behind the page the worker answers, once nothing waits for it (a promise).
  inspectAt(x, y) {
    const [px, py] = app.to_pixel(x, y);
    if (!client) return JSON.parse(app.inspect(px, py, 0));
    const [qx, qy, r] = app.query(px, py, 0);
    return new Promise((resolve) => {
      const ask = () => (client.idle ? client.inspect(qx, qy, r, resolve) : setTimeout(ask, 20));
      ask();
    });
  },
  toClient(x, y) {
    const [px, py] = app.to_pixel(x, y);
    const r = canvas.getBoundingClientRect();
    return [r.left + px * r.width / canvas.width, r.top + py * r.height / canvas.height];
  },
};

// ---- messages -----------------------------------------------------------------------------

// The message line is `messages`' (www/messages.js): what is kept by cause, with what the
// state says (a scene too large for a link, the model's message), each said once.
function showMessage(text, cause = 'action') {
  messages.set(cause, text);
  renderMessage(lastFrame);
}

function renderMessage(frame) {
  const state = [];
  if (workerNote()) state.push(workerNote());
  if (linkTooLong) {
    state.push(`${lastFrame ? lastFrame.points : 'These'} points are too many for a link (a link holds about 60 000): the address no longer follows the scene; "Save scene" keeps all of it in a file.`);
  }
  if (frame && frame.message) state.push(frame.message);
  const text = messages.text(state);
  messageBox.hidden = text === '';
  messageBox.textContent = text;
}

// Runs `action`; an error is said under `cause`, after `prefix` (a file's name).
function guard(action, cause = 'action', prefix = '') {
  try {
    return action();
  } catch (e) {
    showMessage(prefix + errorText(e), cause);
    return undefined;
  }
}

// ---- the worker behind the page -------------------------------------------------------------

// An edit made on side `lab`, sent on to the worker's copy of it (a `playground::Edit`;
// anything not sent shows in the fingerprint and the whole scene goes instead).
function sendEditTo(lab, edit) {
  const c = lab === app ? client : lab === twin ? clientB : null;
  if (c) c.edit(typeof edit === 'string' ? edit : JSON.stringify(edit));
}

// An edit made on both sides (the points and their settings are shared).
function sendEdit(edit) {
  for (const side of sides()) sendEditTo(side, edit);
}

function sendWhole() {
  if (client) client.resync();
  if (clientB) clientB.resync();
}

// A new right-hand scene: behind the page, its copy in the worker starts from the whole scene.
function setTwin(next) {
  twin = next || null;
  if (!clientB) return;
  // Whatever the worker was doing for the side before is dropped.
  clientB.detach();
  if (twin) {
    twin.set_remote(true);
    clientB.resync();
  }
}

let progressTimer = null;

// While a request runs long (a large fit, on either side when comparing: the worker answers
// them in turn), the plot says so; it stays live meanwhile, and an edit then cancels it.
function showProgress() {
  const running = [client, clientB].map((c) => c && c.running).filter(Boolean)
    .sort((a, b) => b.ms - a.ms)[0] || null;
  const long = Boolean(running && running.ms > LONG_MS);
  const badge = $('working');
  badge.hidden = !long;
  if (long) {
    const what = running.phase === 'picture' ? 'Drawing the model' : 'Fitting the model';
    badge.textContent = `${what} in the background… ${(running.ms / 1000).toFixed(1)} s — any edit starts it over`;
  }
  if (running && !progressTimer) progressTimer = setInterval(showProgress, 250);
  if (!running && progressTimer) {
    clearInterval(progressTimer);
    progressTimer = null;
  }
}

// The open view, if the worker computes its figure: its id and the view canvas's size.
function figureWanted() {
  const id = app && openView(app);
  if (!id || $('view-wrap').hidden || !app.view_computed_behind(id)) return null;
  const view = $('view');
  return { view: id, width: view.width, height: view.height };
}

// Without a worker (none could run), the page fits scenes of up to PAGE_POINTS points itself;
// a larger one shows its points only, so that no edit waits seconds for a fit it cannot cancel.
const PAGE_POINTS = 2000;
let pageFits = false;
const unfitted = new WeakSet();

function boundPageFits() {
  if (!pageFits) return;
  for (const lab of sides()) {
    const large = lab.point_count() > PAGE_POINTS;
    if (large === unfitted.has(lab)) continue;
    lab.set_remote(large);
    if (large) unfitted.add(lab);
    else unfitted.delete(lab);
  }
}

function startClient() {
  onNote(() => renderMessage(lastFrame));
  if (new URLSearchParams(location.search).has('sync')) return;
  if (!hasWorker()) {
    pageFits = true;
    return;
  }
  client = new FrameClient(0, () => app, canvas, workerPainted, showProgress, figureWanted, () => app && guard(() => renderView(app)));
  clientB = new FrameClient(1, () => twin, $('plot-b'), workerPainted, showProgress);
  // When no worker can run, the page fits (scenes up to PAGE_POINTS points) itself.
  onFailure(() => {
    client = null;
    clientB = null;
    pageFits = true;
    if (app) app.set_remote(false);
    if (twin) twin.set_remote(false);
    showProgress();
    requestRender();
  });
}

// ---- controls -----------------------------------------------------------------------------

// Warm starts keep dragging fast; when an interaction ends the lab refits from scratch, so
// what stays on screen is exactly what the scene's link reopens. An ended interaction is also
// a step of the undo history.
function settle() {
  if (!app) return;
  app.settle();
  sendEdit({ op: 'settle' });
  if (twin) twin.settle();
  if (remember()) messages.sceneChanged();
  // A new scene (a preset, a file, Clear…) is a new entry of the browser's history at once.
  if (entryPendingNow()) {
    writeHash();
    cancelEntry();
  }
  requestRender();
}

// Before an action that makes a new scene: the browser's entry on screen keeps the scene as it
// is, and the scene the action makes is written as a new entry (Back returns here).
function newEntry() {
  writeHash();
  startEntry();
}

// ---- compare: two settings side by side on the same points -------------------------------

// The right-hand side shares the left's points and the settings that make them; the link
// carries its own settings as `compare=` (URL-encoded `key=value&…`).
const sides = () => (twin ? [app, twin] : [app]);
const controlled = () => (editSide === 1 && twin ? twin : app);
const otherSide = (a) => (a === app ? twin : app);

// The settings of a side that may differ from the other's, as `key=value&…`.
function ownSettings(side) {
  return side.hash().split('&').filter((part) => {
    const key = part.split('=')[0];
    return key !== 'points' && key !== 'names' && key !== 'views' && key !== 'v' && !pointKeys.has(key);
  }).join('&');
}

// A scene's link: the left side's, and the right side's own settings when comparing; null
// for a scene surely too large for a link (known without writing megabytes of text).
function sceneHash() {
  if (app.hash_longer_than(LINK_CHARACTERS)) return null;
  return app.hash() + (twin ? `&compare=${encodeURIComponent(ownSettings(twin))}` : '');
}

// Opens a whole scene from its link, both sides, or nothing of it; whether a scene opened. The
// link is read whole first (`App.read_link`, both sides); one that cannot be is refused with
// a message naming why, and the scene on screen stays (on a first visit, the default opens).
function openScene(hash) {
  let link;
  try {
    link = JSON.parse(App.read_link(hash));
  } catch (e) {
    const hadScene = app !== null;
    const opened = !hadScene && openScene('');
    showMessage(refusedLink(errorText(e), hadScene), 'link');
    return opened;
  }
  const next = guard(() => new App('plot', link.left));
  if (!next) return false;
  const nextTwin = link.right === null ? null : guard(() => new App('plot-b', link.right));
  if (link.right !== null && !nextTwin) {
    next.free();
    return false;
  }
  messages.sceneChanged();
  messages.set('link', partsLeftOut(link.warnings));
  if (app) app.free();
  if (twin) twin.free();
  app = next;
  if (client) {
    app.set_remote(true);
    client.resync();
  }
  setTwin(nextTwin);
  if (!twin) editSide = 0;
  dragging = null;
  highlighted = -1;
  hideTooltip();
  showCompare();
  syncControls(controlled());
  requestRender();
  return true;
}

function showCompare() {
  const on = twin !== null;
  $('compare').checked = on;
  $('side-b').hidden = !on;
  $('compare-sides').hidden = !on;
  document.querySelector('.stage').classList.toggle('comparing', on);
  for (const [i, side] of [$('side-a'), $('side-b')].entries()) {
    side.classList.toggle('editing', on && i === editSide);
  }
  for (const b of document.querySelectorAll('[data-edit-side]')) {
    b.setAttribute('aria-pressed', String(Number(b.dataset.editSide) === editSide));
  }
  resizeCanvas();
}

function toggleCompare(on) {
  if (!app || on === (twin !== null)) return;
  newEntry();
  if (on) {
    setTwin(guard(() => new App('plot-b', '#' + app.hash())));
    editSide = twin ? 1 : 0;
  } else {
    twin.free();
    setTwin(null);
    editSide = 0;
  }
  showCompare();
  syncControls(controlled());
  settle();
}

function chooseSide(side) {
  editSide = twin ? side : 0;
  showCompare();
  syncControls(controlled());
}

// ---- undo and redo --------------------------------------------------------------------------

// The history is a list of whole scenes, each as its link (settings, points, roles), taken
// whenever an edit ends: a click, a drag, a deletion, Clear, Regenerate, a loaded file, a
// train/test toggle, a control let go. Undo reopens the scene before; redo the one after.
const UNDO_STEPS = 200;
const UNDO_CHARACTERS = 50_000_000;
const undoStack = [];
const redoStack = [];
let currentScene = null;

// A scene too large for a link is not kept in the history: its edits are not undone one by
// one, Undo goes back to the scene before it, and Redo cannot bring it back.
const TOO_LARGE = { tooLarge: true };

// Whether the scene changed (and was remembered).
function remember() {
  const scene = sceneHash() ?? TOO_LARGE;
  if (currentScene === null) currentScene = scene;
  if (scene === currentScene) return false;
  undoStack.push(currentScene);
  // An edit sets the last visit's scene aside (the offer to restore it goes).
  endOffer();
  // 200 steps, or fewer of a large scene (its every step is a link of all its points).
  const size = () => undoStack.reduce((sum, step) => sum + (step.length || 0), 0);
  while (undoStack.length > UNDO_STEPS || (undoStack.length > 1 && size() > UNDO_CHARACTERS)) undoStack.shift();
  redoStack.length = 0;
  currentScene = scene;
  showHistory();
  return true;
}

function showHistory() {
  $('undo').disabled = undoStack.length === 0;
  $('redo').disabled = redoStack.length === 0;
}

// Opens the scene a link's hash describes in place of the current one; whether it could.
function replaceScene(hash) {
  if (!openScene(hash)) return false;
  writeHash();
  return true;
}

function travel(from, to) {
  if (!app || from.length === 0) return;
  if (currentScene !== TOO_LARGE) to.push(currentScene);
  // A scene too large for a link is never pushed, so every entry is a link.
  currentScene = from.pop();
  replaceScene(currentScene);
  showHistory();
}

const undo = () => travel(undoStack, redoStack);
const redo = () => travel(redoStack, undoStack);

function onControl(el, value = controlValue(el)) {
  const key = el.dataset.key;
  // Another model or another preset is a new scene: Back returns to the one before.
  if (el.id === 'model' || key === 'preset') newEntry();
  // The points' settings and the views are shared; the model's are the edited side's.
  const targets = pointKeys.has(key) || key === 'views' ? sides() : [controlled()];
  guard(() => {
    for (const side of targets) side.set(key, value);
    for (const side of targets) sendEditTo(side, { op: 'set', key, value });
    messages.clear('action');
  });
  // A preset brings the settings of its lesson (noise, test fraction, C): the controls show them.
  if (key === 'preset') syncControls(controlled());
  else showValue(el);
  enableControls(controlled());
  if (el.id === 'model') stopPlaying();
  requestRender();
}

// ---- exact entry: typed values, the points table, the plot's window (entry.js, points-table.js)

let touchAdded = null; // the point a touch just added: a pinch's first finger takes it back
const entry = {
  app: () => app,
  say: (text) => showMessage(text),
  settle: () => settle(),
  // A value typed into a readout: set exactly as typed (null: put the readout back).
  typed(key, text) {
    if (text !== null && text.trim() !== controlled().get(key)) onControl($(key), text.trim());
    syncControls(controlled());
    settle();
  },
  // The plot's window, on both sides ('' fits it to the points).
  setWindow(value) {
    guard(() => {
      for (const side of sides()) {
        side.set('window', value);
        sendEditTo(side, { op: 'set', key: 'window', value });
      }
    });
    requestRender();
  },
  cancelTouch() {
    if (touchAdded !== null && dragging === touchAdded) removeEverywhere(touchAdded);
    dragging = null;
    touchAdded = null;
    hideTooltip();
    setHighlight(-1);
  },
  // The scene with these points (the link's `x,y,label[,t];…`), its window fitted to them.
  setPoints(points) {
    if (points === '') {
      for (const side of sides()) side.clear();
      sendWhole();
      settle();
      return true;
    }
    const scene = sceneHash();
    if (scene === null) {
      showMessage('This scene is too large for the table to rebuild (it is larger than a link holds): edit its file and load it again.');
      return false;
    }
    const parts = scene.split('&').filter((p) => !p.startsWith('points=') && !p.startsWith('window='));
    const ok = replaceScene([...parts, `points=${points}`].join('&'));
    if (ok) settle();
    return ok;
  },
  // Pasted CSV text, read as a file is: it replaces the points.
  loadText(text) {
    newEntry();
    const ok = guard(() => { for (const side of sides()) side.load_file(new TextEncoder().encode(text), ''); return true; }, 'file', 'Pasted text: ');
    if (ok) {
      sendWhole();
      settle();
      showMessage(null, 'file');
    } else {
      cancelEntry();
    }
    return Boolean(ok);
  },
};
const plotWindow = new PlotWindow(entry, canvas);
const pointsTable = new PointsTable(entry);

// ---- drawing ------------------------------------------------------------------------------

function resizeCanvas() {
  for (const c of [canvas, $('plot-b')]) {
    const rect = c.getBoundingClientRect();
    if (rect.width === 0) continue; // hidden
    const ratio = window.devicePixelRatio || 1;
    const side = Math.max(200, Math.round(Math.min(rect.width, rect.height) * ratio));
    if (c.width !== side || c.height !== side) {
      c.width = side;
      c.height = side;
    }
  }
}

function requestRender() {
  if (client && app) client.request();
  if (clientB && twin) clientB.request();
  if (frameRequested || !app) return;
  frameRequested = true;
  requestAnimationFrame(() => {
    if (frameRequested) renderFrame();
  });
}

// Another frame, with nothing else asked of the worker.
function paintAgain() {
  if (frameRequested) return;
  frameRequested = true;
  requestAnimationFrame(() => {
    if (frameRequested) renderFrame();
  });
}

// Draws the frame: the scene (or, behind the page, the worker's latest model over the points
// as they are), the open view, the status and the message.
function renderFrame() {
  frameRequested = false;
  boundPageFits();
  pointsTable.refresh();
  const json = guard(() => app.render());
  showClasses(app.class_choices());
  // A large scene's discs take a few frames to paint, the top ones first.
  if (app.painting()) paintAgain();
  // Empty: no model yet (the worker's first picture is to come, or the page does not fit a
  // scene this large by itself); the points are drawn.
  if (!json) {
    pendingStatus(app, client, statusLine);
    return;
  }
  lastFrame = JSON.parse(json);
  if (client) lastFrame.request_ms = client.requestMs;
  // For the benchmark and the tests: a frame with a model was painted.
  window.dispatchEvent(new Event('kernel-playground-frame'));
  const viewStart = performance.now();
  guard(() => renderView(app));
  lastFrame.view_ms = performance.now() - viewStart;
  pumpView(app);
  // The view's canvas has its size now: the worker can compute the figure for it.
  if (client) client.requestFigure();
  if (client && client.preparing) pendingStatus(app, client, statusLine);
  else updateStatus(lastFrame, statusLine);
  renderMessage(lastFrame);
  if (twin) {
    const jsonB = guard(() => twin.render());
    const preparingB = Boolean(clientB && clientB.preparing);
    if (!jsonB || preparingB) pendingStatus(twin, clientB, $('status-b'));
    if (twin.painting()) paintAgain();
    if (jsonB) {
      lastFrameB = JSON.parse(jsonB);
      if (!preparingB) updateStatus(lastFrameB, $('status-b'));
      $('message-b').hidden = !lastFrameB.message;
      $('message-b').textContent = lastFrameB.message || '';
    }
  }
  placeCursor();
  scheduleHash();
}

// The status of a scene whose model is not shown: a new scene whose picture is still to come
// (`behind` the worker behind the page), or one too large for the page to fit by itself.
function pendingStatus(lab, behind, line) {
  const why = behind ? 'preparing the new scene…' : `not fitted: without a background worker the page fits up to ${PAGE_POINTS} points`;
  line.title = '';
  line.classList.add('behind');
  line.setAttribute('aria-busy', String(Boolean(behind)));
  line.textContent = `${lab.point_count()} points · ${why}`;
  line.dataset.points = lab.point_count();
  hideDetails(line);
}

// ---- stepping through a run (updates or iterations of a steppable method) ----------------

let playTimer = null;

function stopPlaying() {
  clearInterval(playTimer);
  playTimer = null;
  $('play').setAttribute('aria-pressed', 'false');
  $('play').textContent = 'Play';
}

function stepOnce() {
  const more = guard(() => controlled().step());
  if (more) sendEditTo(controlled(), { op: 'step' });
  requestRender();
  if (!more) stopPlaying();
}

function togglePlay() {
  if (playTimer) {
    stopPlaying();
    return;
  }
  $('play').setAttribute('aria-pressed', 'true');
  $('play').textContent = 'Pause';
  playTimer = setInterval(stepOnce, 350);
}

// ---- the URL ------------------------------------------------------------------------------

function scheduleHash() {
  clearTimeout(hashTimer);
  hashTimer = setTimeout(writeHash, 250);
}

// A link holds a scene of up to LINK_CHARACTERS characters (about 60 000 points; browsers
// refuse addresses of 2 MB). A larger scene leaves the address without a scene, so a reload
// does not open an older one, and says how to keep it.
const LINK_CHARACTERS = 1_000_000;
let linkTooLong = false;

function writeHash() {
  if (!app) return;
  const scene = sceneHash();
  const hash = scene === null ? '' : '#' + scene;
  const tooLong = scene === null || hash.length > LINK_CHARACTERS;
  // Replaces the address of the browser's entry on screen, or pushes a new one (history.js).
  writeAddress(tooLong ? '' : hash);
  keepScene(tooLong ? null : hash.slice(1));
  if (tooLong !== linkTooLong) {
    linkTooLong = tooLong;
    renderMessage(lastFrame);
  }
}

// A link typed or followed in the address bar, or Back and Forward to another scene: opened
// whole (an undo step); refused, the address shows the scene on screen again.
function openFromHash() {
  clearTimeout(hashTimer);
  if (openScene(location.hash)) remember();
  else writeHash();
}

// Back or Forward to the entry of a scene that was too large for a link: it cannot be opened
// again, and the scene on screen stays.
function tooLargeEntry() {
  showMessage('That step of the browser\'s history held a scene too large for a link; the scene on screen stays (keep large scenes with "Save scene").');
  writeHash();
}

// ---- pointer: mouse, pen and touch --------------------------------------------------------

// The side whose plot an event is on: its scene and its canvas.
function sideOf(ev) {
  const c = ev && ev.currentTarget && ev.currentTarget.id === 'plot-b' && twin ? $('plot-b') : canvas;
  return { lab: c === canvas ? app : twin, canvas: c };
}

function canvasPoint(ev, c = canvas) {
  const r = c.getBoundingClientRect();
  return [(ev.clientX - r.left) * c.width / r.width, (ev.clientY - r.top) * c.height / r.height];
}

function pickRadius(ev, c = canvas) {
  const css = ev && ev.pointerType === 'touch' ? 24 : 12;
  return css * c.width / c.getBoundingClientRect().width;
}

function setHighlight(index) {
  if (index === highlighted) return;
  highlighted = index;
  for (const side of sides()) side.set_highlight(index);
  requestRender();
}

// An edit made on one side, copied to the other and to the worker behind the page exactly
// (by data coordinates, not pixels).
function mirrorAdd(lab, index, label) {
  if (index === undefined) return;
  const [x, y] = lab.point_xy(index);
  const other = otherSide(lab);
  if (other) guard(() => other.add_point_xy(x, y, label));
  sendEdit({ op: 'add', x, y, label });
}

function mirrorMove(lab, index) {
  const [x, y] = lab.point_xy(index);
  const other = otherSide(lab);
  if (other) guard(() => other.move_point_xy(index, x, y));
  sendEdit({ op: 'move', index, x, y });
}

function removeEverywhere(index) {
  guard(() => {
    for (const side of sides()) side.remove_point(index);
    sendEdit({ op: 'remove', index });
  });
}

// The pointer moved on `lab`: whether the picture changes (k-NN's lines to the neighbours).
function pointerMoved(lab, changed) {
  if (changed) sendEditTo(lab, lab.pointer_edit());
  return changed;
}

function onPointerDown(ev) {
  if (!app) return;
  const { lab, canvas: c } = sideOf(ev);
  const [px, py] = canvasPoint(ev, c);
  if (!lab.in_plot(px, py)) return;
  ev.preventDefault();
  c.focus({ preventScroll: true });
  const hit = lab.point_at(px, py, pickRadius(ev, c));
  const erase = ev.button === 2 || ev.altKey || $('tool').value === 'erase';
  if (erase) {
    if (hit >= 0) removeEverywhere(hit);
    hideTooltip();
    setHighlight(-1);
    settle();
    return;
  }
  if (ev.button !== 0) return;
  if (hit >= 0) {
    dragging = hit;
  } else {
    const label = ev.shiftKey ? otherClass() : currentClass();
    const index = guard(() => lab.add_point(px, py, label));
    mirrorAdd(lab, index, label);
    touchAdded = ev.pointerType === 'touch' && index !== undefined ? index : null;
    dragging = index === undefined ? null : index;
  }
  if (dragging !== null) {
    c.setPointerCapture(ev.pointerId);
    setHighlight(dragging);
    showTooltip(ev);
  }
  requestRender();
}

function onPointerMove(ev) {
  if (!app) return;
  const { lab, canvas: c } = sideOf(ev);
  const [px, py] = canvasPoint(ev, c);
  if (dragging !== null) {
    guard(() => lab.move_point(dragging, px, py));
    mirrorMove(lab, dragging);
    requestRender();
    showTooltip(ev);
    return;
  }
  if (!lab.in_plot(px, py)) {
    hideTooltip();
    setHighlight(-1);
    return;
  }
  setHighlight(lab.point_at(px, py, pickRadius(ev, c)));
  if (pointerMoved(lab, lab.set_pointer(px, py))) requestRender();
  showTooltip(ev);
}

function onPointerUp(ev) {
  if (dragging !== null) {
    dragging = null;
    const c = sideOf(ev).canvas;
    if (c.hasPointerCapture(ev.pointerId)) c.releasePointerCapture(ev.pointerId);
    settle();
  }
  if (ev.pointerType === 'touch') {
    hideTooltip();
    setHighlight(-1);
  }
}

// ---- hover readout ------------------------------------------------------------------------

const escape = (text) => text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);

// A class as the tooltip says it: "class 1" for the lab's own, "label −1" for a file's.
function classPhrase(lab, label) {
  const name = lab.class_name(label);
  return escape(name.startsWith('class ') ? name : `label ${name}`);
}

function describe(info, lab) {
  const lines = [];
  if (info.index !== null && info.index !== undefined) {
    const role = info.test ? ' · test point' : '';
    lines.push(`<b>point ${info.index + 1}</b> · ${classPhrase(lab, info.label)}${role} <span class="hint">(T: ${info.test ? 'train on it' : 'hold it out'})</span>`);
  } else {
    lines.push(`x = (${fmt(info.x)}, ${fmt(info.y)})`);
  }
  for (const fact of info.facts) lines.push(escape(factText(fact)));
  if (info.predicted !== null && info.index === null) lines.push(`→ predicted ${classPhrase(lab, info.predicted)}`);
  return lines.join('<br>');
}

// The tooltip's last question, so an answer from the worker that comes late is used only if
// the tooltip still asks it, and a new picture from the worker can refresh it.
let tooltipAsked = 0;
let tooltipAt = null;

function showTooltip(ev) {
  const { lab, canvas: c } = sideOf(ev);
  tooltipAt = { clientX: ev.clientX, clientY: ev.clientY, pointerType: ev.pointerType, currentTarget: c };
  const [px, py] = canvasPoint(ev, c);
  const radius = pickRadius(ev, c);
  const info = JSON.parse(lab.inspect(px, py, radius));
  // The tooltip sits in the plot it describes.
  if (tooltip.parentElement !== c.parentElement) c.parentElement.append(tooltip);
  tooltip.innerHTML = describe(info, lab);
  tooltip.hidden = false;
  // Behind the page, the model's facts come from the worker (the page has no model).
  const asked = ++tooltipAsked;
  const behind = lab === app ? client : clientB;
  if (behind && info.predicted === null) {
    const [x, y, r] = lab.query(px, py, radius);
    behind.inspect(x, y, r, (full) => {
      if (asked === tooltipAsked && !tooltip.hidden) tooltip.innerHTML = describe(full, lab);
    });
  }
  const r = c.getBoundingClientRect();
  let left = ev.clientX - r.left + 18;
  let top = ev.clientY - r.top + 18;
  if (left + tooltip.offsetWidth > r.width) left = ev.clientX - r.left - tooltip.offsetWidth - 12;
  if (top + tooltip.offsetHeight > r.height) top = ev.clientY - r.top - tooltip.offsetHeight - 12;
  tooltip.style.left = `${left}px`;
  tooltip.style.top = `${top}px`;
}

function hideTooltip() {
  tooltip.hidden = true;
  tooltipAsked += 1;
  tooltipAt = null;
}

// A new picture from the worker: it is painted at once (the canvas shows it at the next
// display frame; waiting for an animation frame to paint it could miss that one), and the
// tooltip, if shown, asks again about the model.
function workerPainted() {
  if (app) renderFrame();
  if (tooltipAt && !tooltip.hidden && dragging === null) showTooltip(tooltipAt);
}

// ---- keyboard -----------------------------------------------------------------------------

function placeCursor() {
  if (cursor.hidden || !app) return;
  const [px, py] = app.to_pixel(keyboardCursor[0], keyboardCursor[1]);
  const scale = canvas.getBoundingClientRect().width / canvas.width;
  cursor.style.left = `${px * scale}px`;
  cursor.style.top = `${py * scale}px`;
}

function onCanvasKey(ev) {
  if (!app) return;
  // Steps are a fortieth of the plot (shift: a two-hundredth), whatever the data's units.
  const step = canvas.width * (ev.shiftKey ? 0.005 : 0.025);
  const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
  const [cx, cy] = app.to_pixel(keyboardCursor[0], keyboardCursor[1]);
  if (moves[ev.key]) {
    const [px, py] = [cx + moves[ev.key][0], cy + moves[ev.key][1]];
    if (app.in_plot(px, py)) keyboardCursor = Array.from(app.to_data(px, py));
    else if (!app.in_plot(cx, cy)) keyboardCursor = Array.from(app.to_data(canvas.width / 2, canvas.height / 2));
    cursor.hidden = false;
    placeCursor();
    const [qx, qy] = app.to_pixel(keyboardCursor[0], keyboardCursor[1]);
    setHighlight(app.point_at(qx, qy, pickRadius()));
  } else if (ev.key === 'Enter' || ev.key === ' ') {
    const label = ev.shiftKey ? otherClass() : currentClass();
    mirrorAdd(app, guard(() => app.add_point(cx, cy, label)), label);
    cursor.hidden = false;
    settle();
  } else if (ev.key === 'Delete' || ev.key === 'Backspace') {
    const hit = app.point_at(cx, cy, pickRadius() * 2);
    if (hit >= 0) removeEverywhere(hit);
    setHighlight(-1);
    settle();
  } else {
    return;
  }
  ev.preventDefault();
}

function onGlobalKey(ev) {
  const typing = ev.target.matches('input[type="number"], input[type="text"], select');
  if (typing) return;
  if ((ev.ctrlKey || ev.metaKey) && !ev.altKey) {
    const key = ev.key.toLowerCase();
    if (key === 'z' || key === 'y') {
      ev.preventDefault();
      if (key === 'y' || ev.shiftKey) redo();
      else undo();
    }
    return;
  }
  if (ev.altKey) return;
  if (ev.key === '?') {
    toggleShortcuts();
    return;
  }
  if (ev.key === 'p' || ev.key === 'P') {
    togglePresenter();
    return;
  }
  if (ev.key >= '1' && ev.key <= '6') chooseRank(Number(ev.key) - 1);
  // T turns the point under the pointer (or the keyboard cursor) into a test point and back.
  if ((ev.key === 't' || ev.key === 'T') && highlighted >= 0 && app) {
    guard(() => {
      for (const side of sides()) side.toggle_test(highlighted);
      sendEdit({ op: 'toggle_test', index: highlighted });
    });
    settle();
  }
}

// ---- presenter mode and the list of shortcuts ---------------------------------------------

// The status line and any message move beside the plot, above the sliders, so the plot can
// take the whole height.
function togglePresenter() {
  const on = document.documentElement.classList.toggle('presenter');
  $('presenter').setAttribute('aria-pressed', String(on));
  // Its own button goes to the top of the panel (the header is hidden), over nothing, and
  // the status line and message under it, where the room reads them first.
  if (on) {
    $('controls').prepend($('presenter'), $('status-row'), $('message'));
  } else {
    document.querySelector('.header-buttons').prepend($('presenter'));
    $('status').closest('.panel') && document.querySelector('.canvas-wrap').after($('message'), $('status-row'));
  }
  resizeCanvas();
  requestRender();
}

function toggleShortcuts() {
  const dialog = $('shortcuts');
  if (dialog.open) dialog.close();
  else dialog.showModal();
}

// ---- files and sharing --------------------------------------------------------------------

function download(name, blob) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

// A file chosen or dropped on the plot: a scene (.json) opens whole, as a link does; points
// (CSV in any dialect, or LIBSVM's `label 1:x 2:y`) replace the points and keep the settings.
// Points go to Rust as bytes, read as the command line reads them; a file with more than three
// columns first asks which are x, y and the label (columns.js).
async function loadFile(file) {
  if (!app) return;
  const bytes = new Uint8Array(await file.arrayBuffer());
  // The start of the file tells a scene from points and shows the column dialog its rows.
  const head = fileHead(bytes);
  const isScene = /\.json$/i.test(file.name) || new TextDecoder().decode(head).trimStart().startsWith('{');
  let ok;
  let warnings = [];
  if (isScene) {
    newEntry();
    const opened = guard(() => JSON.parse(App.scene_hash(new TextDecoder().decode(bytes))), 'file', `${file.name}: `);
    ok = opened && replaceScene(opened.hash);
    if (ok) warnings = opened.warnings;
  } else {
    const columns = await chooseColumns(App.file_preview, head, file.name);
    if (columns === null) return;
    newEntry();
    if (client && bytes.byteLength >= BIG_FILE_BYTES) {
      // Read behind the page, and taken a slice at a time: no long task on this thread.
      const why = await loadBehind(file.name, bytes, columns, {
        sides,
        show: showLoading,
        adopted: () => { for (const c of [client, clientB]) if (c) c.assumeSynced(); },
      });
      if (why !== null) guard(() => { throw why; }, 'file', `${file.name}: `);
      ok = why === null;
    } else {
      ok = guard(() => { for (const side of sides()) side.load_file(bytes, columns); return true; }, 'file', `${file.name}: `);
      if (ok) sendWhole();
    }
  }
  if (!ok) cancelEntry();
  if (ok) {
    settle();
    showMessage(warnings.length ? `${file.name}: ${warnings.join('; ')}` : null, 'file');
  }
}

// The first 256 kB of a file, cut after its last whole line (a UTF-16 line's second byte too).
function fileHead(bytes) {
  if (bytes.byteLength <= 262144) return bytes;
  let end = bytes.lastIndexOf(10, 262143) + 1;
  if (end > 0 && bytes[end] === 0) end += 1;
  return bytes.subarray(0, end || 262144);
}

// The note on the plot while a large file is read (null: none), with a Cancel button.
function showLoading(text) {
  const note = $('loading-file');
  note.hidden = text === null;
  if (text !== null) $('loading-file-text').textContent = text;
}

async function copyLink() {
  writeHash();
  if (linkTooLong) return;
  try {
    await navigator.clipboard.writeText(location.href);
    showMessage('Link copied: it opens this exact scene.', 'notice');
    setTimeout(() => showMessage(null, 'notice'), 2500);
  } catch {
    window.prompt('Copy this link:', location.href);
  }
}

// ---- views ----------------------------------------------------------------------------------

function toggleView(id) {
  if (!app) return;
  const value = openView(app) === id ? '' : id;
  // Shared by both sides, as the control's other settings of the views are.
  guard(() => {
    for (const side of sides()) {
      side.set('views', value);
      sendEditTo(side, { op: 'set', key: 'views', value });
    }
  });
  requestRender();
}

// ---- start --------------------------------------------------------------------------------

function wire() {
  // Before the plots' own pointer handlers: the window takes pans and pinches. Both sides
  // share one window, and their canvases one size, so the left's mapping serves both.
  plotWindow.wire();
  new PlotWindow(entry, $('plot-b')).wire(false);
  wireReadouts(entry);
  pointsTable.wire();
  for (const el of keyed()) {
    const event = el.tagName === 'SELECT' || el.type === 'checkbox' || el.type === 'number' ? 'change' : 'input';
    el.addEventListener(event, () => onControl(el));
    el.addEventListener('change', settle);
  }
  wireClasses($('class-buttons'));
  $('regenerate').addEventListener('click', () => { newEntry(); for (const side of sides()) side.regenerate(); sendWhole(); settle(); });
  $('clear').addEventListener('click', () => { newEntry(); for (const side of sides()) side.clear(); sendWhole(); hideTooltip(); settle(); });
  $('compare').addEventListener('change', (ev) => toggleCompare(ev.target.checked));
  for (const b of document.querySelectorAll('[data-edit-side]')) {
    b.addEventListener('click', () => chooseSide(Number(b.dataset.editSide)));
  }
  const plotB = $('plot-b');
  plotB.addEventListener('pointerdown', onPointerDown);
  plotB.addEventListener('pointermove', onPointerMove);
  plotB.addEventListener('pointerup', onPointerUp);
  plotB.addEventListener('pointercancel', onPointerUp);
  plotB.addEventListener('pointerleave', () => {
    if (dragging === null) { hideTooltip(); setHighlight(-1); }
    if (twin && pointerMoved(twin, twin.clear_pointer())) requestRender();
  });
  plotB.addEventListener('contextmenu', (ev) => ev.preventDefault());
  $('undo').addEventListener('click', undo);
  $('presenter').addEventListener('click', togglePresenter);
  $('show-shortcuts').addEventListener('click', toggleShortcuts);
  $('redo').addEventListener('click', redo);
  for (const b of document.querySelectorAll('[data-bump]')) {
    b.addEventListener('click', () => {
      const input = $(b.dataset.bump);
      input.value = String((Number(input.value) || 0) + 1);
      onControl(input);
    });
  }
  const viewCanvas = $('view');
  viewCanvas.addEventListener('pointerdown', (ev) => { if (app) guard(() => startDrag(app, ev)); });
  viewCanvas.addEventListener('pointerup', endDrag);
  viewCanvas.addEventListener('pointercancel', endDrag);
  viewCanvas.addEventListener('keydown', (ev) => { if (app) guard(() => keyView(app, ev)); });
  viewCanvas.addEventListener('pointermove', (ev) => {
    if (!app || guard(() => moveDrag(app, ev))) return;
    setHighlight(pointInView(app, ev));
    guard(() => hoverView(app, ev));
  });
  viewCanvas.addEventListener('pointerleave', () => { setHighlight(-1); $('view-hover').textContent = ''; });
  viewCanvas.addEventListener('click', (ev) => {
    if (!app || !guard(() => clickView(app, ev))) return;
    // The click set the left side's settings; its copy in the worker takes the whole scene.
    if (client) client.resync();
    syncControls(controlled());
    settle();
  });
  $('loading-file-cancel').addEventListener('click', () => cancelLoad('loading it was cancelled; the scene on screen is as it was'));
  $('load-csv').addEventListener('change', (ev) => {
    const file = ev.target.files[0];
    if (file) loadFile(file);
    ev.target.value = '';
  });
  $('save-csv').addEventListener('click', () => download('points.csv', new Blob([app.csv()], { type: 'text/csv' })));
  $('save-libsvm').addEventListener('click', () => download('points.libsvm', new Blob([app.libsvm()], { type: 'text/plain' })));
  $('save-scene').addEventListener('click', () => download('scene.json', new Blob([app.scene_json()], { type: 'application/json' })));
  $('save-png').addEventListener('click', () => canvas.toBlob((blob) => download('kernel-playground.png', blob)));
  $('save-svg').addEventListener('click', () => {
    const svg = guard(() => app.svg('', canvas.width, canvas.height));
    if (svg) download('kernel-playground.svg', new Blob([svg], { type: 'image/svg+xml' }));
  });
  // A file dropped on the plot loads as if chosen with the button.
  const wrap = document.querySelector('.canvas-wrap');
  wrap.addEventListener('dragover', (ev) => { ev.preventDefault(); wrap.classList.add('dropping'); });
  wrap.addEventListener('dragleave', () => wrap.classList.remove('dropping'));
  wrap.addEventListener('drop', (ev) => {
    ev.preventDefault();
    wrap.classList.remove('dropping');
    const file = ev.dataTransfer && ev.dataTransfer.files[0];
    if (file) loadFile(file);
  });
  $('copy-link').addEventListener('click', copyLink);

  canvas.addEventListener('pointerdown', onPointerDown);
  canvas.addEventListener('pointermove', onPointerMove);
  canvas.addEventListener('pointerup', onPointerUp);
  canvas.addEventListener('pointercancel', onPointerUp);
  canvas.addEventListener('pointerleave', () => {
    if (dragging === null) { hideTooltip(); setHighlight(-1); }
    if (pointerMoved(app, app.clear_pointer())) requestRender();
  });
  $('step').addEventListener('click', () => { stopPlaying(); stepOnce(); });
  $('play').addEventListener('click', togglePlay);
  $('step-reset').addEventListener('click', () => {
    stopPlaying();
    controlled().reset_steps();
    sendEditTo(controlled(), { op: 'reset_steps' });
    requestRender();
  });
  $('step-finish').addEventListener('click', () => {
    stopPlaying();
    controlled().finish_steps();
    sendEditTo(controlled(), { op: 'finish_steps' });
    requestRender();
  });
  canvas.addEventListener('contextmenu', (ev) => ev.preventDefault());
  canvas.addEventListener('keydown', onCanvasKey);
  canvas.addEventListener('blur', () => { cursor.hidden = true; });
  document.addEventListener('keydown', onGlobalKey);
  wireTravel(openFromHash, tooLargeEntry);
  const resized = new ResizeObserver(() => { resizeCanvas(); requestRender(); });
  resized.observe(canvas);
  resized.observe(plotB);
}

// The last visit's scene, opened as its link would be (an undo step back to the default).
function restoreKept(link) {
  if (replaceScene('#' + link)) remember();
}

async function start() {
  try {
    await init();
  } catch (e) {
    console.warn('WebAssembly failed to start:', e);
    $('loading').textContent = 'This browser could not start the lab (WebAssembly failed to load).';
    return;
  }
  resizeCanvas();
  startClient();
  const catalogue = JSON.parse(App.catalogue());
  buildControls(catalogue);
  buildTabs(catalogue, toggleView);
  pointKeys = new Set(catalogue.params.filter((row) => row.group === 'points').map((row) => row.key));
  if (!openScene(location.hash)) return;
  $('loading').style.display = 'none';
  currentScene = sceneHash() ?? TOO_LARGE;
  wire();
  // A visit without a link is offered the scene the last one left (an opened link wins).
  const kept = location.hash === '' ? keptScene() : null;
  if (kept && kept !== currentScene) offerKept(restoreKept.bind(null, kept));
  requestRender();
}

start();
