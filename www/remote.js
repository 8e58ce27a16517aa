// The worker behind the page, from the page's side: edits sent on to its copies of the lab, the
// note on the plot while a request runs long, the page fitting a small scene itself while it
// is quick, and by itself when no worker can run.

import { FrameClient, LONG_MS, hasWorker, onFailure, onNote } from './behind.js';
import { loading } from './bigfile.js';
import { repaint, requestRender } from './frame.js';
import { t } from './i18n.js';
import { $, guard, page, renderMessage, sides } from './page.js';
import { workerPainted } from './pointer.js';
import { background, openView, renderView } from './views.js';

const canvas = $('plot');

// ---- the worker behind the page -------------------------------------------------------------

// Each side's lab records its own edits; its client takes them with its next request
// (FrameClient.pull), so the page writes none here.

// A new right-hand scene: behind the page, its copy in the worker starts from the whole scene.
export function setTwin(next) {
  page.twin = next || null;
  if (!page.clientB) return;
  // Whatever the worker was doing for the side before is dropped.
  page.clientB.detach();
  if (page.twin) {
    page.twin.set_remote(true);
    page.clientB.resync();
  }
}

let progressTimer = null;

// While a request runs long (a large fit, on either side when comparing: the worker answers
// them in turn), the plot says so; it stays live meanwhile, and an edit then cancels it.
function showProgress() {
  const running = [page.client, page.clientB].map((c) => c && c.running).filter(Boolean)
    .sort((a, b) => b.ms - a.ms)[0] || null;
  const long = Boolean(running && running.ms > LONG_MS);
  const badge = $('working');
  if (badge.hidden === long) badge.hidden = !long;
  if (long) {
    const seconds = (running.ms / 1000).toFixed(1);
    badge.textContent = running.phase === 'picture' ? t('badge.drawing', seconds) : t('badge.fitting', seconds);
  }
  // One look when the request could first be long, then one every 250 ms while it is. A
  // timer left when the answer came only finds nothing running: a slider's every step
  // started and stopped one before, which a slow phone's step felt.
  if (running && !progressTimer) {
    progressTimer = setTimeout(() => {
      progressTimer = null;
      showProgress();
    }, long ? 250 : LONG_MS + 1 - running.ms);
  }
}

// The open view, if the worker computes its figure: its id and the view canvas's size.
function figureWanted() {
  const id = page.app && openView(page.app);
  if (!id || $('view-wrap').hidden || !page.app.view_computed_behind(id)) return null;
  const view = $('view');
  return { view: id, width: view.width, height: view.height };
}

// Without a worker (none could run), the page fits scenes of up to PAGE_POINTS points itself;
// a larger one shows its points only, so that no edit waits seconds for a fit it cannot cancel.
export const PAGE_POINTS = 2000;
const unfitted = new WeakSet();

export function boundPageFits() {
  if (!page.pageFits) return;
  for (const lab of sides()) {
    const large = lab.point_count() > PAGE_POINTS;
    if (large === unfitted.has(lab)) continue;
    lab.set_remote(large);
    if (large) unfitted.add(lab);
    else unfitted.delete(lab);
  }
}

// ---- the page fitting a small scene itself ----------------------------------------------------

// Behind a worker, an edit reaches the canvas a frame late: the page paints the moved slider
// or point in one frame while the worker fits, and the model in the next. A scene whose fit
// and pictures fit in a frame is better fitted on the page, in the frame of the edit (CPU 4×
// slower, n = 500: a slider step in about 16 ms instead of 25, docs/BENCHMARKS.md); up to a
// frame and a half the page's step is still the quicker of the two. So once the scene has
// rested TAKE_OVER_AFTER_MS (the page's first fit is a cold one), the page takes the plane of
// the left-hand side over from the worker when the worker's last three frames with a fit, with
// the page's painting of them and the open view's figure, took at most TAKE_OVER_MS (the
// median: the first fits after the page opens are slow ones) and the scene has at most
// TAKE_OVER_POINTS points. It gives the plane back, its last picture and view shown until the
// worker's come: when two of its frames running with a fit took over HAND_BACK_MS with the view
// (that scene is then not taken over again), when the scene grows past TAKE_OVER_POINTS, when a
// choice other than a slider's step is made (edits.js) or a large file is read (files.js), and
// with every scene opened (scenes.js). `?worker` in the address keeps every scene behind.
const TAKE_OVER_POINTS = 1000;
const TAKE_OVER_MS = 16;
const HAND_BACK_MS = 24;
const TAKE_OVER_AFTER_MS = 300;
// The worker's last frames with a fit, as the page would take them (ms).
let workerFrames = [];
let slowFrames = 0;
let takeOverTimer = null;
let weighed = 0;
let behindOnly = false;
let declined = false;

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

// What a frame with a model (its view drawn) says of the time a fit and its pictures take, on
// whichever side it was made: the page takes the plane over, or gives it back.
export function weigh(frame) {
  if (!frame.refit) return;
  if (page.standby) {
    // The fit may have been made before the frame, for the tooltip of a point held.
    const ms = Math.max(frame.frame_ms, frame.fit_ms + frame.draw_ms + (frame.status_ms || 0)) + (frame.view_ms || 0);
    slowFrames = ms > HAND_BACK_MS ? slowFrames + 1 : 0;
    if (slowFrames >= 2) {
      // Not taken over again until another scene is opened: no back and forth.
      declined = true;
      handBack();
    }
    return;
  }
  // A worker's frame counts once, not again with every frame that paints it (a hover).
  const client = page.client;
  if (!client || behindOnly || declined || client.framesAnswered === weighed) return;
  weighed = client.framesAnswered;
  // The worker's frame less what the page's own does not do (the scene written as JSON), the
  // page's painting of it, and the open view's figure if the worker computes it.
  const figure = figureWanted() ? client.figureMs : frame.view_ms || 0;
  const ms = frame.frame_ms - (frame.json_ms || 0) + (frame.paint_ms || 0) + figure;
  workerFrames = [...workerFrames.slice(-2), ms];
  clearTimeout(takeOverTimer);
  takeOverTimer = setTimeout(takeOver, TAKE_OVER_AFTER_MS);
}

function takeOver() {
  takeOverTimer = null;
  const client = page.client;
  if (!client || !page.app || page.dragging !== null || !client.idle || loading()) return;
  if (workerFrames.length < 3 || median(workerFrames) > TAKE_OVER_MS || page.app.point_count() > TAKE_OVER_POINTS) return;
  client.leave();
  page.standby = client;
  page.client = null;
  slowFrames = 0;
  page.app.set_remote(false);
  // The page's first fit, and the same picture painted from it.
  repaint();
}

// The worker takes the plane back: the page fitting it no longer pays, the scene grew large or
// a large file is read behind the page; the page's last picture stays, as the worker's latest
// would, until the worker's first comes. When a scene is being `opened`, the caller sends it.
export function handBack(opened = false) {
  if (opened) {
    // The new scene is weighed from its own frames.
    clearTimeout(takeOverTimer);
    workerFrames = [];
    declined = false;
  }
  if (!page.standby) return;
  const client = page.standby;
  page.client = client;
  page.standby = null;
  workerFrames = [];
  // The lab says whether the points were replaced since the page's last frame (a file).
  const replaced = !opened && page.app && page.app.take_edits() === undefined;
  client.takeBack();
  if (opened || !page.app) return;
  page.app.hand_back(openView(page.app) || '');
  if (replaced) client.resync();
  client.request();
}

// After an edit (frame.js's repaint), while the page fits: a scene grown large goes back
// behind the page before anything fits it (a frame, a view, a tooltip); otherwise the page's
// own edits so far are sent nowhere.
export function boundTakeOver() {
  if (!page.standby) return;
  if (page.app.point_count() > TAKE_OVER_POINTS) handBack();
  else page.app.take_edits();
}

export function startClient() {
  onNote(() => renderMessage(page.lastFrame));
  const query = new URLSearchParams(location.search);
  if (query.has('sync')) return;
  behindOnly = query.has('worker');
  if (!hasWorker()) {
    page.pageFits = true;
    return;
  }
  page.client = new FrameClient(0, () => page.app, canvas, workerPainted, showProgress, figureWanted, () => page.app && guard(() => renderView(page.app)));
  page.clientB = new FrameClient(1, () => page.twin, $('plot-b'), workerPainted, showProgress);
  // When no worker can run, the page fits (scenes up to PAGE_POINTS points) itself.
  onFailure(() => {
    page.client = null;
    page.standby = null;
    page.clientB = null;
    page.pageFits = true;
    if (page.app) page.app.set_remote(false);
    if (page.twin) page.twin.set_remote(false);
    showProgress();
    requestRender();
  });
}
