// The pointer on the plots — mouse, pen and touch — adds, drags and deletes points (the lab
// makes each edit on both sides of a comparison, by the exact coordinates the first stored, and
// records it for the worker), and the hover readout says what is under it.

import { currentClass, otherClass } from './classes.js';
import { fmt } from './controls.js';
import { renderFrame, repaint, requestRender } from './frame.js';
import { $, guard, page } from './page.js';
import { settle } from './scenes.js';
import { factText } from './status.js';
import { t, tr } from './i18n.js';

const canvas = $('plot');
const tooltip = $('tooltip');

// ---- pointer: mouse, pen and touch --------------------------------------------------------

// The side whose plot an event is on: its scene and its canvas.
function plotOf(ev) {
  const c = ev && ev.currentTarget && ev.currentTarget.id === 'plot-b' && page.twin ? $('plot-b') : canvas;
  return { lab: c === canvas ? page.app : page.twin, canvas: c };
}

function canvasPoint(ev, c = canvas, r = c.getBoundingClientRect()) {
  return [(ev.clientX - r.left) * c.width / r.width, (ev.clientY - r.top) * c.height / r.height];
}

export function pickRadius(ev, c = canvas, r = c.getBoundingClientRect()) {
  const css = ev && ev.pointerType === 'touch' ? 24 : 12;
  return css * c.width / r.width;
}

export function setHighlight(index) {
  if (index === page.highlighted) return;
  page.highlighted = index;
  page.lab.set_highlight(index);
  repaint();
}

export function removeEverywhere(index) {
  guard(() => page.lab.remove_point(index));
}

// A finger down on the plot's empty space: a tap (lifted within TAP_PX CSS pixels) adds a
// point there; a swipe is the browser's, and scrolls the page (the plot's CSS lets vertical
// panning through). A finger on a point drags it, as the mouse does.
const TAP_PX = 10;
let tap = null;

export function cancelTap() {
  tap = null;
}

// Before the browser decides a touch scrolls: a finger on a point (to drag it) or a second
// finger (a pinch) keeps the gesture on the plot.
export function onTouchStart(ev) {
  const { lab, canvas: c } = plotOf(ev);
  if (!lab) return;
  if (ev.touches.length > 1) {
    ev.preventDefault();
    return;
  }
  const t = ev.touches[0];
  const r = c.getBoundingClientRect();
  const [px, py] = [(t.clientX - r.left) * c.width / r.width, (t.clientY - r.top) * c.height / r.height];
  const erase = $('tool').value === 'erase';
  if (erase || lab.point_at(px, py, 24 * c.width / r.width) >= 0) ev.preventDefault();
}

export function onPointerDown(ev) {
  if (!page.app) return;
  const { lab, canvas: c } = plotOf(ev);
  const [px, py] = canvasPoint(ev, c);
  if (!lab.in_plot(px, py)) return;
  const hit = lab.point_at(px, py, pickRadius(ev, c));
  if (ev.pointerType === 'touch' && hit < 0 && $('tool').value !== 'erase') {
    // Not yet a point: a swipe scrolls, a tap adds (onPointerUp).
    tap = { lab, label: ev.shiftKey ? otherClass() : currentClass(), px, py, x: ev.clientX, y: ev.clientY, id: ev.pointerId };
    return;
  }
  ev.preventDefault();
  c.focus({ preventScroll: true });
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
    page.dragging = hit;
  } else {
    const label = ev.shiftKey ? otherClass() : currentClass();
    const index = guard(() => lab.add_point(px, py, label));
    page.dragging = index === undefined ? null : index;
  }
  if (page.dragging !== null) {
    c.setPointerCapture(ev.pointerId);
    setHighlight(page.dragging);
    showTooltip(ev);
  }
  requestRender();
}

export function onPointerMove(ev) {
  if (!page.app) return;
  if (tap && tap.id === ev.pointerId) {
    if (Math.hypot(ev.clientX - tap.x, ev.clientY - tap.y) > TAP_PX) tap = null;
    return;
  }
  const { lab, canvas: c } = plotOf(ev);
  const [px, py] = canvasPoint(ev, c);
  if (page.dragging !== null) {
    guard(() => lab.move_point(page.dragging, px, py));
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
  if (lab.set_pointer(px, py)) repaint();
  showTooltip(ev);
}

export function onPointerUp(ev) {
  if (tap && tap.id === ev.pointerId) {
    // Lifted where it came down: a tap, which adds a point (a cancelled one was a scroll).
    const { lab, label, px, py } = tap;
    tap = null;
    if (ev.type === 'pointerup') {
      guard(() => lab.add_point(px, py, label));
      settle();
    }
    return;
  }
  if (page.dragging !== null) {
    page.dragging = null;
    const c = plotOf(ev).canvas;
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
  return escape(name.startsWith('class ') ? tr(name) : t('tooltip.label', name));
}

function describe(info, lab) {
  const lines = [];
  if (info.index !== null && info.index !== undefined) {
    const role = info.test ? ` · ${t('tooltip.test-point')}` : '';
    lines.push(`<b>${t('tooltip.point', info.index + 1)}</b> · ${classPhrase(lab, info.label)}${role} <span class="hint">(T: ${info.test ? t('tooltip.train-on-it') : t('tooltip.hold-out')})</span>`);
  } else {
    lines.push(`x = (${fmt(info.x)}, ${fmt(info.y)})`);
  }
  for (const fact of info.facts) lines.push(escape(factText(fact)));
  if (info.predicted !== null && info.index === null) lines.push(`→ ${t('tooltip.predicted', classPhrase(lab, info.predicted))}`);
  return lines.join('<br>');
}

// The tooltip's last question, so an answer from the worker that comes late is used only if
// the tooltip still asks it, and a new picture from the worker can refresh it.
let tooltipAsked = 0;
let tooltipAt = null;

// The readout's size as the browser last laid it out, and where the pointer was in the plot
// it describes. Its text and place are written in the animation frame, after the frame's own
// drawing (www/frame.js asks for its frame first), and nothing reads the layout after them:
// written in the pointer's handler, they made the browser work out the page's style again
// inside the drawing (a canvas resolves its text's font against its element's style), and
// reading the readout's size there laid the page out inside the handler, on a slow device a
// few milliseconds of every move of a drag. When the text changes size, the observer places
// it again, after the layout and before the paint of the same frame.
const tooltipSize = { width: 0, height: 0 };
let placedIn = null;
// The readout to write at the next animation frame: { asked, html, parent, at }.
let tooltipNext = null;

function placeTooltip() {
  if (!placedIn) return;
  const { x, y, width, height } = placedIn;
  let left = x + 18;
  let top = y + 18;
  if (left + tooltipSize.width > width) left = x - tooltipSize.width - 12;
  if (top + tooltipSize.height > height) top = y - tooltipSize.height - 12;
  // Too wide for either side of the pointer: within the plot, as far right as it fits (still
  // below or above the pointer), never cut off by the window's left edge.
  if (left < 0) left = Math.max(0, width - tooltipSize.width);
  if (top < 0) top = Math.max(0, height - tooltipSize.height);
  tooltip.style.left = `${left}px`;
  tooltip.style.top = `${top}px`;
}

if (window.ResizeObserver) {
  new ResizeObserver(() => {
    // Hidden, it has no size: the last one shown stands.
    if (tooltip.hidden || !tooltip.offsetWidth) return;
    tooltipSize.width = tooltip.offsetWidth;
    tooltipSize.height = tooltip.offsetHeight;
    placeTooltip();
  }).observe(tooltip);
}

function writeTooltip() {
  const next = tooltipNext;
  tooltipNext = null;
  // Hidden or asked again since.
  if (!next || next.asked !== tooltipAsked) return;
  // The tooltip sits in the plot it describes.
  if (tooltip.parentElement !== next.parent) next.parent.append(tooltip);
  tooltip.innerHTML = next.html;
  tooltip.hidden = false;
  placedIn = next.at;
  placeTooltip();
}

function showTooltip(ev) {
  const { lab, canvas: c } = plotOf(ev);
  tooltipAt = { clientX: ev.clientX, clientY: ev.clientY, pointerType: ev.pointerType, currentTarget: c };
  const r = c.getBoundingClientRect();
  const [px, py] = canvasPoint(ev, c, r);
  const radius = pickRadius(ev, c, r);
  const info = JSON.parse(lab.inspect(px, py, radius));
  const asked = ++tooltipAsked;
  if (!tooltipNext) requestAnimationFrame(writeTooltip);
  tooltipNext = {
    asked,
    html: describe(info, lab),
    parent: c.parentElement,
    at: { x: ev.clientX - r.left, y: ev.clientY - r.top, width: r.width, height: r.height },
  };
  // Behind the page, the model's facts come from the worker (the page's copy fits none).
  const behind = lab === page.app ? page.client : page.clientB;
  if (behind && info.predicted === null) {
    const [x, y, reach] = lab.query(px, py, radius);
    behind.inspect(x, y, reach, (full) => {
      if (asked !== tooltipAsked) return;
      if (tooltipNext) tooltipNext.html = describe(full, lab);
      else if (!tooltip.hidden) tooltip.innerHTML = describe(full, lab);
    });
  }
}

export function hideTooltip() {
  tooltip.hidden = true;
  tooltipAsked += 1;
  tooltipAt = null;
}

// A new picture from the worker: it is painted at once (the canvas shows it at the next
// display frame; waiting for an animation frame to paint it could miss that one), and the
// tooltip, if shown, asks again about the model.
export function workerPainted() {
  if (page.app) renderFrame();
  if (tooltipAt && !tooltip.hidden && page.dragging === null) showTooltip(tooltipAt);
}
