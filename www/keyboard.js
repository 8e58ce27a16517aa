// Keys: the cursor on the focused plot, the page's shortcuts, presenter mode and the list of
// shortcuts.

import { chooseRank, currentClass, otherClass } from './classes.js';
import { requestRender, resizeCanvas } from './frame.js';
import { $, guard, page } from './page.js';
import { pickRadius, removeEverywhere, setHighlight } from './pointer.js';
import { redo, settle, undo } from './scenes.js';

const canvas = $('plot');
export const cursor = $('cursor');
let keyboardCursor = [0, 0];

// ---- keyboard -----------------------------------------------------------------------------

export function placeCursor() {
  if (cursor.hidden || !page.app) return;
  const [px, py] = page.app.to_pixel(keyboardCursor[0], keyboardCursor[1]);
  const scale = canvas.getBoundingClientRect().width / canvas.width;
  cursor.style.left = `${px * scale}px`;
  cursor.style.top = `${py * scale}px`;
}

export function onCanvasKey(ev) {
  if (!page.app) return;
  // Steps are a fortieth of the plot (shift: a two-hundredth), whatever the data's units.
  const step = canvas.width * (ev.shiftKey ? 0.005 : 0.025);
  const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
  const [cx, cy] = page.app.to_pixel(keyboardCursor[0], keyboardCursor[1]);
  if (moves[ev.key]) {
    const [px, py] = [cx + moves[ev.key][0], cy + moves[ev.key][1]];
    if (page.app.in_plot(px, py)) keyboardCursor = Array.from(page.app.to_data(px, py));
    else if (!page.app.in_plot(cx, cy)) keyboardCursor = Array.from(page.app.to_data(canvas.width / 2, canvas.height / 2));
    cursor.hidden = false;
    placeCursor();
    const [qx, qy] = page.app.to_pixel(keyboardCursor[0], keyboardCursor[1]);
    setHighlight(page.app.point_at(qx, qy, pickRadius()));
  } else if (ev.key === 'Enter' || ev.key === ' ') {
    const label = ev.shiftKey ? otherClass() : currentClass();
    guard(() => page.app.add_point(cx, cy, label));
    cursor.hidden = false;
    settle();
  } else if (ev.key === 'Delete' || ev.key === 'Backspace') {
    const hit = page.app.point_at(cx, cy, pickRadius() * 2);
    if (hit >= 0) removeEverywhere(hit);
    setHighlight(-1);
    settle();
  } else {
    return;
  }
  ev.preventDefault();
}

export function onGlobalKey(ev) {
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
  if ((ev.key === 't' || ev.key === 'T') && page.highlighted >= 0 && page.app) {
    guard(() => page.lab.toggle_test(page.highlighted));
    settle();
  }
}

// ---- presenter mode and the list of shortcuts ---------------------------------------------

// The status line and any message move beside the plot, above the sliders, so the plot can
// take the whole height.
export function togglePresenter() {
  const on = document.documentElement.classList.toggle('presenter');
  $('presenter').setAttribute('aria-pressed', String(on));
  // The status line and the message go to the top of the panel, where the room reads them
  // first, and the mode's own button (the header is hidden) beside the status, over nothing.
  if (on) {
    $('controls').prepend($('status-row'), $('message'));
    $('status-row').prepend($('presenter'));
  } else {
    $('show-shortcuts').before($('presenter'));
    $('status').closest('.panel') && document.querySelector('.canvas-wrap').after($('message'), $('status-row'));
  }
  resizeCanvas();
  requestRender();
}

export function toggleShortcuts() {
  const dialog = $('shortcuts');
  if (dialog.open) dialog.close();
  else dialog.showModal();
}
