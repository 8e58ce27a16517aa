// The page's hook for the browser tests and the benchmark (window.kernelPlayground): read-only
// views of the page's state and the scene's files, and where data points are on the screen.

import { workerState } from './behind.js';
import { drafting, forceSlow } from './draft.js';
import { frameRequested, requestRender } from './frame.js';
import { rehearsal } from './rehearsal.js';
import { $, page } from './page.js';
import { sceneHash } from './scenes.js';
import { background, openView } from './views.js';

const canvas = $('plot');

// A hook for the browser tests and the benchmark: the last frame's status and timings, and
// where a data point is on the screen.
window.kernelPlayground = {
  get lastFrame() { return page.lastFrame; },
  // The right-hand side's last frame when comparing, else null.
  get lastFrameB() { return page.twin ? page.lastFrameB : null; },
  // Where data point (x, y) is on the screen in the right-hand plot.
  toClientB(x, y) {
    const [px, py] = page.twin.to_pixel(x, y);
    const c = $('plot-b');
    const r = c.getBoundingClientRect();
    return [r.left + px * r.width / c.width, r.top + py * r.height / c.height];
  },
  csvB() { return page.twin.csv(); },
  // The link of the scene as it stands (the address follows it a moment later).
  get link() { const scene = sceneHash(); return scene === null ? null : '#' + scene; },
  // A cold fit's milliseconds (the benchmark's comparison with LIBSVM in the same page).
  coldFitMs() { const ms = page.app.cold_fit_ms(); requestRender(); return ms; },
  get highlighted() { return page.highlighted; },
  // Where the point being dragged is on the screen, or null.
  draggedClient() {
    if (page.dragging === null) return null;
    const [x, y] = page.app.point_xy(page.dragging);
    return window.kernelPlayground.toClient(x, y);
  },
  // How often a long request in the worker was cancelled by an edit (the worker restarted).
  get cancelled() { return (page.client ? page.client.cancelled : 0) + (page.clientB ? page.clientB.cancelled : 0); },
  // What the unseen drag rehearsal did (www/rehearsal.js): { scene, steps, error, done }.
  get rehearsal() { return { ...rehearsal }; },
  // Where the plane's model is computed ('worker' or 'page'), and whether nothing waits for it.
  get frames() { return page.client ? 'worker' : 'page'; },
  // (A draft shown waits for its full picture: www/draft.js.)
  get idle() { return !frameRequested && !drafting() && (!page.client || page.client.idle) && (!page.clientB || page.clientB.idle); },
  // For the tests: the device taken as slow (drafts while edits come; a number: at that
  // draft level), fast, or measured (null).
  forceSlow(on) { forceSlow(on); },
  // The worker's state ({ status, restarts, busy }: see watch.js).
  get worker() { return workerState(); },
  // Where the views' background work runs: 'worker' or, without one, 'page'.
  get background() { return background(); },
  // The files the page saves: CSV, LIBSVM's format, the scene, the plot as SVG.
  csv() { return page.app.csv(); },
  // A setting of the left-hand side, as the link writes it.
  setting(key) { return page.app.get(key); },
  // The plotted window, [x_min, x_max, y_min, y_max].
  window() { return page.app.window(); },
  libsvm() { return page.app.libsvm(); },
  sceneJson() { return page.app.scene_json(); },
  svg() { return page.app.svg('', canvas.width, canvas.height); },
  // The training points as [x, y] (from the CSV the lab saves).
  points() {
    return page.app.csv().trim().split('\n').filter((r) => /^-?[\d.]/.test(r)).map((r) => r.split(',').slice(0, 2).map(Number));
  },
  // Where training point `index`'s mark in the open view is on the screen, or null.
  viewMarkClient(index) {
    const view = $('view');
    const at = page.app.view_mark_pixel(openView(page.app), view.width, view.height, index);
    if (at.length === 0) return null;
    const r = view.getBoundingClientRect();
    return [r.left + at[0] * r.width / view.width, r.top + at[1] * r.height / view.height];
  },
  // What the tooltip would say at data point (x, y): the prediction and the model's facts.
  // Behind the page the worker answers, once nothing waits for it (a promise).
  inspectAt(x, y) {
    const [px, py] = page.app.to_pixel(x, y);
    if (!page.client) return JSON.parse(page.app.inspect(px, py, 0));
    const [qx, qy, r] = page.app.query(px, py, 0);
    return new Promise((resolve) => {
      // (The page may take the plane over meanwhile: it then answers itself.)
      const ask = () => (!page.client ? resolve(JSON.parse(page.app.inspect(px, py, 0)))
        : page.client.idle ? page.client.inspect(qx, qy, r, resolve) : setTimeout(ask, 20));
      ask();
    });
  },
  toClient(x, y) {
    const [px, py] = page.app.to_pixel(x, y);
    const r = canvas.getBoundingClientRect();
    return [r.left + px * r.width / canvas.width, r.top + py * r.height / canvas.height];
  },
};
