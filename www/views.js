// The views beside the plane: a tab per view of the lab's registry (src/views/), one open at a
// time in the panel under the plot, which one in the URL (`views=`). Hovering a view's mark of
// a training point (a tick of the loss view) highlights that point in the plane, and the
// point under the pointer in the plane is marked in the view. A view that orbits (a 3-D one,
// as the registry says) turns when dragged with a mouse, a finger or a pen, and with the arrow
// keys when its canvas has the focus.

import { hasWorker, on, onFailure, onRestart, post } from './behind.js';
import { t, tr } from './i18n.js';

const $ = (id) => document.getElementById(id);

let views = [];
const orbits = (id) => views.some((v) => v.id === id && v.orbits);
// The open view's height as a fraction of its width (the registry's; stacked panels are taller).
const aspect = (id) => views.find((v) => v.id === id)?.aspect ?? 0.55;

export function buildTabs(catalogue, onToggle) {
  views = catalogue.views;
  const tabs = $('view-tabs');
  for (const view of catalogue.views.slice(1)) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'view-tab';
    button.dataset.view = view.id;
    button.textContent = view.tab;
    if (view.tab !== view.title) button.title = view.title;
    button.setAttribute('aria-pressed', 'false');
    button.addEventListener('click', () => onToggle(view.id));
    tabs.append(button);
  }
}

// The open view's id, or null.
export function openView(app) {
  const open = app.get('views').split(',').filter(Boolean);
  return open.length ? open[0] : null;
}

// The view as wide as its column, but no taller than this share of the window: beside the
// plot, the tabs, the view's note and the controls share the rest of the column (at
// 1280 × 720 the controls keep about 100 px, and scroll). Presenting, the column holds only
// the view, the status and the sliders: the view takes half.
const viewShare = () => (document.documentElement.classList.contains('presenter') ? 0.5 : 0.42);

// The tallest the open view may be, in CSS pixels; embedded (www/embed.js), what the frame
// leaves it.
let tallestView = () => window.innerHeight * viewShare();
export function limitViewHeight(tallest) {
  tallestView = tallest;
}

// The view's column's width, as last laid out. Read in the middle of a frame, it made the
// browser lay the page out there and then, in every frame with a view open (3–7 ms a step on
// a slow device); a ResizeObserver reports it once the browser has laid the page out, and a
// new width draws the frame again (`whenColumnResized`). Unknown or 0 (the view was hidden),
// it is read at once.
const columnWidths = new WeakMap();
let columnResized = () => {};
export function whenColumnResized(redraw) {
  columnResized = redraw;
}
const columns = new ResizeObserver((entries) => {
  for (const { target } of entries) {
    const width = target.getBoundingClientRect().width;
    if (columnWidths.get(target) === width) continue;
    columnWidths.set(target, width);
    columnResized();
  }
});

function columnWidth(column) {
  if (!columnWidths.get(column)) {
    columnWidths.set(column, column.getBoundingClientRect().width);
    columns.observe(column);
  }
  return columnWidths.get(column);
}

// Sets an element's property only when it differs (a frame that changes nothing there leaves
// the page's style and layout as they were).
function put(target, key, value) {
  if (target[key] !== value) target[key] = value;
}

// A view that widens (a chart) takes the column's width when the height is what limits it.
function sizeCanvas(canvas, id) {
  const room = columnWidth(canvas.parentElement);
  const tallest = tallestView();
  const wide = Math.max(200, Math.min(room, tallest / aspect(id)));
  const widens = (views.find((v) => v.id === id) || {}).widens && wide < room;
  const shown = widens ? room : wide;
  put(canvas.style, 'width', `${Math.round(shown)}px`);
  const ratio = window.devicePixelRatio || 1;
  const width = Math.max(300, Math.round(shown * ratio));
  const height = Math.max(200, Math.round(wide * aspect(id) * ratio));
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
}

// Draws the open view (if any) after the plane; returns nothing, shows its note.
export function renderView(app) {
  const id = openView(app);
  for (const b of document.querySelectorAll('.view-tab')) {
    b.setAttribute('aria-pressed', String(b.dataset.view === id));
  }
  $('view-wrap').hidden = !id;
  if (!id) return;
  // Only the settings the open view reads (the ROC's threshold, the grid's folds) are shown.
  const reads = (views.find((v) => v.id === id) || {}).settings || [];
  for (const el of document.querySelectorAll('#view-params [data-key]')) {
    el.closest('.row').hidden = !reads.includes(el.dataset.key);
  }
  const canvas = $('view');
  sizeCanvas(canvas, id);
  // A view that turns takes the drag for itself (no page scroll under a finger) and the focus.
  const turns = orbits(id);
  put(canvas.style, 'touchAction', turns ? 'none' : '');
  put(canvas, 'tabIndex', turns ? 0 : -1);
  const label = turns ? t('aria.view-3d') : t('aria.view');
  if (canvas.getAttribute('aria-label') !== label) canvas.setAttribute('aria-label', label);
  put($('view-note'), 'textContent', tr(app.render_view('view', id)));
  const [done, total] = app.view_progress(id);
  const bar = $('view-progress');
  bar.hidden = !(total > 0 && done < total);
  if (total > 0) {
    bar.max = total;
    bar.value = done;
    bar.textContent = t('view.progress', done, total);
  }
}

// The open view's background job (a cross-validation grid, a validation curve, the
// regularisation path) runs in the worker behind the page when the browser gives one
// (behind.js): the page posts the scene's hash when the job's signature changes and adopts the
// results as they come. Without a worker, the page fills the figure in itself, a slice of
// every animation frame.
let posted = { id: 0, view: null, signature: null };
let workerApp = null;
let noWorker = false;

on('job', ({ id, state, error }) => {
  if (id !== posted.id || !workerApp) return;
  if (error) { noWorker = true; pumpView(workerApp); return; }
  if (workerApp.adopt(posted.view, state)) renderView(workerApp);
});
// A restarted worker has lost the job: it is posted again on the next frame.
onRestart(() => { posted = { id: posted.id, view: null, signature: null }; });
onFailure(() => { noWorker = true; if (workerApp) pumpView(workerApp); });

// Where the background work runs: 'worker', 'page', or null before any.
export function background() {
  if (noWorker) return 'page';
  return workerApp ? 'worker' : null;
}

let pumping = false;
export function pumpView(app) {
  const id = openView(app);
  if (!id) return;
  const signature = app.view_job_signature(id);
  if (!signature) return;
  if (!noWorker && hasWorker()) {
    workerApp = app;
    if (posted.view !== id || posted.signature !== signature) {
      posted = { id: posted.id + 1, view: id, signature };
      post({ kind: 'job', id: posted.id, hash: app.side_hash(), view: id, tuned: app.last_tuned() });
    }
    return;
  }
  if (pumping) return;
  pumping = true;
  requestAnimationFrame(function tick() {
    const id = openView(app);
    const more = id ? app.view_work(id, 8) : false;
    if (id) renderView(app);
    if (more) requestAnimationFrame(tick);
    else pumping = false;
  });
}

function viewPixel(ev) {
  const canvas = $('view');
  const r = canvas.getBoundingClientRect();
  const scale = canvas.width / r.width;
  return [(ev.clientX - r.left) * scale, (ev.clientY - r.top) * scale];
}

// What the pointer is over in the open view (a heat-map cell), shown under it.
export function hoverView(app, ev) {
  const id = openView(app);
  if (!id) return;
  const [px, py] = viewPixel(ev);
  $('view-hover').textContent = tr(app.view_hover(id, $('view').width, $('view').height, px, py));
}

// A click in the open view: a heat-map cell moves the sliders to its values; a chart along a
// parameter (the regularisation path's C) sets it.
export function clickView(app, ev) {
  const id = openView(app);
  if (!id) return false;
  const [px, py] = viewPixel(ev);
  return app.view_click(id, $('view').width, $('view').height, px, py);
}

// The training point under the pointer in the open view, or −1.
export function pointInView(app, ev) {
  const id = openView(app);
  if (!id) return -1;
  const canvas = $('view');
  const r = canvas.getBoundingClientRect();
  const scale = canvas.width / r.width;
  const px = (ev.clientX - r.left) * scale;
  const py = (ev.clientY - r.top) * scale;
  return app.view_point_at(id, canvas.width, canvas.height, px, py, 6 * scale);
}

// ---- turning a 3-D view ---------------------------------------------------------------------

let drag = null;
let viewFrame = false;

function redrawView(app) {
  if (viewFrame) return;
  viewFrame = true;
  requestAnimationFrame(() => { viewFrame = false; renderView(app); });
}

// A press on the open view: starts turning it if it orbits; returns whether it does.
export function startDrag(app, ev) {
  const id = openView(app);
  if (!id || !orbits(id)) return false;
  drag = { id, at: viewPixel(ev), pointer: ev.pointerId };
  $('view').setPointerCapture(ev.pointerId);
  return true;
}

// The pointer moved while turning: returns whether it is turning (then it is not a hover).
export function moveDrag(app, ev) {
  if (!drag || ev.pointerId !== drag.pointer) return false;
  const at = viewPixel(ev);
  const [dx, dy] = [at[0] - drag.at[0], at[1] - drag.at[1]];
  drag.at = at;
  if (app.view_drag(drag.id, $('view').width, dx, dy)) redrawView(app);
  return true;
}

export function endDrag(ev) {
  if (drag && ev.pointerId === drag.pointer) drag = null;
}

// An arrow key on the open view's canvas turns it by 5°; returns whether it did.
export function keyView(app, ev) {
  const id = openView(app);
  const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[ev.key];
  if (!id || !step) return false;
  // The lab turns π per canvas width dragged: a 36th of the width is 5°.
  const px = $('view').width / 36;
  if (!app.view_drag(id, $('view').width, step[0] * px, step[1] * px)) return false;
  ev.preventDefault();
  redrawView(app);
  return true;
}
