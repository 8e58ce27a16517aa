// A frame: the plane drawn (by the lab, or from the worker's latest model), the open view, the
// status line and the message; and stepping through a run.

import { showClasses } from './classes.js';
import { editing, measured } from './draft.js';
import { t, tr } from './i18n.js';
import { pointsTable } from './edits.js';
import { placeCursor } from './keyboard.js';
import { $, controlled, guard, page, renderMessage } from './page.js';
import { PAGE_POINTS, boundPageFits, boundTakeOver, weigh } from './remote.js';
import { scheduleHash } from './scenes.js';
import { showSvmOptions } from './svm-options.js';
import { hideDetails, updateStatus } from './status.js';
import { background, pumpView, renderView } from './views.js';

const canvas = $('plot');
const statusLine = $('status');
export let frameRequested = false;
// The animation frame requested, if any: a frame drawn before it comes (a worker's picture is
// painted at once) cancels it, so no display frame draws the plot twice.
let frameHandle = null;

function requestFrame(draw) {
  frameRequested = true;
  frameHandle = requestAnimationFrame(() => {
    frameHandle = null;
    draw();
  });
}

// ---- drawing ------------------------------------------------------------------------------

export function resizeCanvas() {
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

// Something changed: its picture (a draft first on a slow device: www/draft.js) and a frame.
export function requestRender() {
  editing(repaint);
  repaint();
}

// A frame, and the picture if the scene changed, with no draft asked for: what the pointer
// does over the plot (the highlight, k-NN's lines to the neighbours) is no edit.
export function repaint() {
  if (page.app) boundTakeOver();
  if (page.client && page.app) page.client.request();
  if (page.clientB && page.twin) page.clientB.request();
  if (frameRequested || !page.app) return;
  requestFrame(function frame() {
    if (awaitingModel()) requestFrame(frame);
    else renderFrame();
  });
}

// How long a frame that would paint the same picture waits for the worker's model (ms).
const AWAIT_MODEL_MS = 50;

// A slider moved and the worker's model is on its way: a frame now would paint the picture on
// the canvas again and grey the status line's numbers, and on a slow device it would hold the
// page's thread while the model arrives (its message is handled after the frame). The frame
// waits for the model (whose arrival paints at once) until the request in flight is
// AWAIT_MODEL_MS old; a slower fit shows the numbers greyed from then on. An edit that moves a
// point paints at once, the model a step behind. (A zoom or pan, whose model parts would be
// left out until the worker's come, keeps the last picture until then, as it did.)
function awaitingModel() {
  const asked = page.client && page.client.inFlight;
  if (!asked || page.twin || performance.now() - asked.started > AWAIT_MODEL_MS) return false;
  return guard(() => page.app.picture_unchanged()) === true;
}

// Another frame, with nothing else asked of the worker.
function paintAgain() {
  if (!frameRequested) requestFrame(renderFrame);
}

// Draws the frame: the scene (or, behind the page, the worker's latest model over the points
// as they are), the open view, the status and the message.
export function renderFrame() {
  frameRequested = false;
  if (frameHandle !== null) cancelAnimationFrame(frameHandle);
  frameHandle = null;
  boundPageFits();
  pointsTable.refresh();
  const json = guard(() => page.app.render());
  showClasses(page.app.class_choices());
  // A large scene's discs take a few frames to paint, the top ones first.
  if (page.app.painting()) paintAgain();
  // Empty: no model yet (the worker's first picture is to come, or the page does not fit a
  // scene this large by itself); the points are drawn.
  if (!json) {
    pendingStatus(page.app, page.client, statusLine);
    return;
  }
  page.lastFrame = JSON.parse(json);
  measured(page.lastFrame);
  if (page.client) page.lastFrame.request_ms = page.client.requestMs;
  // For the benchmark and the tests: a frame with a model was painted.
  window.dispatchEvent(new Event('kernel-playground-frame'));
  const viewStart = performance.now();
  guard(() => renderView(page.app));
  page.lastFrame.view_ms = performance.now() - viewStart;
  weigh(page.lastFrame);
  pumpView(page.app);
  // The view's canvas has its size now: the worker can compute the figure for it.
  if (page.client) page.client.requestFigure();
  if (page.client && page.client.preparing) pendingStatus(page.app, page.client, statusLine);
  else updateStatus(page.lastFrame, statusLine);
  renderMessage(page.lastFrame);
  if (page.twin) {
    const jsonB = guard(() => page.twin.render());
    const preparingB = Boolean(page.clientB && page.clientB.preparing);
    if (!jsonB || preparingB) pendingStatus(page.twin, page.clientB, $('status-b'));
    if (page.twin.painting()) paintAgain();
    if (jsonB) {
      page.lastFrameB = JSON.parse(jsonB);
      if (!preparingB) updateStatus(page.lastFrameB, $('status-b'));
      $('message-b').hidden = !page.lastFrameB.message;
      $('message-b').textContent = tr(page.lastFrameB.message || '');
    }
  }
  showSvmOptions();
  placeCursor();
  scheduleHash();
}

// The status of a scene whose model is not shown: a new scene whose picture is still to come
// (`behind` the worker behind the page), or one too large for the page to fit by itself.
function pendingStatus(lab, behind, line) {
  const why = behind ? t('status.preparing') : t('status.not-fitted', PAGE_POINTS);
  line.title = '';
  line.classList.add('behind');
  line.setAttribute('aria-busy', String(Boolean(behind)));
  line.textContent = `${t('status.points', lab.point_count())} · ${why}`;
  line.dataset.points = lab.point_count();
  hideDetails(line);
}

// ---- stepping through a run (updates or iterations of a steppable method) ----------------

let playTimer = null;

export function stopPlaying() {
  clearInterval(playTimer);
  playTimer = null;
  $('play').setAttribute('aria-pressed', 'false');
  $('play').textContent = t('step.play');
}

export function stepOnce() {
  const more = guard(() => controlled().step());
  requestRender();
  if (!more) stopPlaying();
}

export function togglePlay() {
  if (playTimer) {
    stopPlaying();
    return;
  }
  $('play').setAttribute('aria-pressed', 'true');
  $('play').textContent = t('step.pause');
  playTimer = setInterval(stepOnce, 350);
}
