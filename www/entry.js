// Exact entry, part one: typed values in the sliders' readouts, and the plot's window (fit
// view, zoom and pan by wheel, pinch, keys and dragging with the middle button or Ctrl).
// main.js hands in what it owns through `lab`: the scene on the left (`app()`), the sides that
// share the points (`sides()`), the side the model controls edit (`controlled()`), and its
// actions (`typed(key, text)`, `setWindow(text)`, `settle()`, `requestRender()`).

const $ = (id) => document.getElementById(id);

// ---- typed readouts ---------------------------------------------------------------------------

// Each slider's readout takes a typed value: Enter or leaving the box commits it (one undo
// step), Escape puts the setting back. A value the lab refuses is said on the message line and
// the readout shows the setting as it was.
export function wireReadouts(lab) {
  for (const box of document.querySelectorAll('[data-readout]')) {
    box.addEventListener('change', () => lab.typed(box.dataset.readout, box.value));
    box.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape') {
        lab.typed(box.dataset.readout, null);
        box.select();
      }
    });
    box.addEventListener('focus', () => box.select());
  }
}

// ---- the window -------------------------------------------------------------------------------

const ZOOM_STEP = 1.25;

// A window's number, rounded to a ten-thousandth of its width (short links, no 0.30000000000000004).
function tidy(v, width) {
  const digits = Math.max(0, Math.min(20, 4 - Math.floor(Math.log10(width))));
  return String(Number(v.toFixed(digits)));
}

const windowText = ([x0, x1, y0, y1]) => {
  const w = Math.max(x1 - x0, y1 - y0);
  return [x0, x1, y0, y1].map((v) => tidy(v, w)).join(',');
};

export class PlotWindow {
  constructor(lab, canvas) {
    this.lab = lab;
    this.canvas = canvas;
    this.pointers = new Map(); // touch pointers on the plot, for pinching
    this.pinch = null;
    this.pan = null;
    this.settleTimer = null;
  }

  // The data point under a client position.
  dataAt(clientX, clientY) {
    const c = this.canvas;
    const r = c.getBoundingClientRect();
    return this.lab.app().to_data((clientX - r.left) * c.width / r.width, (clientY - r.top) * c.height / r.height);
  }

  set(bounds, { settleNow = false } = {}) {
    const [x0, x1, y0, y1] = bounds;
    if (![x0, x1, y0, y1].every(Number.isFinite) || !(x1 > x0) || !(y1 > y0)) return;
    // Not beyond what the lab can plot: a window at least 10⁻⁹ of its place and at most 10¹².
    const w = x1 - x0;
    const scale = Math.max(Math.abs(x0), Math.abs(x1), Math.abs(y0), Math.abs(y1), 1e-300);
    if (w < scale * 1e-9 || w > 1e12) return;
    this.lab.setWindow(windowText(bounds));
    clearTimeout(this.settleTimer);
    if (settleNow) this.lab.settle();
    else this.settleTimer = setTimeout(() => this.lab.settle(), 400);
  }

  // Zooms by `factor` (below 1: in) keeping data point `at` where it is (default: the middle).
  zoom(factor, at = null) {
    const [x0, x1, y0, y1] = this.lab.app().window();
    const [cx, cy] = at || [(x0 + x1) / 2, (y0 + y1) / 2];
    this.set([cx - (cx - x0) * factor, cx + (x1 - cx) * factor, cy - (cy - y0) * factor, cy + (y1 - cy) * factor], { settleNow: !at });
  }

  // Moves the window by (dx, dy) in data units.
  shift(dx, dy, settleNow = true) {
    const [x0, x1, y0, y1] = this.lab.app().window();
    this.set([x0 + dx, x1 + dx, y0 + dy, y1 + dy], { settleNow });
  }

  // Back to the window that fits the points.
  fit() {
    clearTimeout(this.settleTimer);
    this.lab.setWindow('');
    this.lab.settle();
  }

  onWheel(ev) {
    if (!this.lab.app()) return;
    ev.preventDefault();
    // Lines or pages of scroll count as 40 pixels; 200 pixels of scroll zoom by about 2.
    const pixels = ev.deltaY * (ev.deltaMode === 1 ? 40 : ev.deltaMode === 2 ? 400 : 1);
    const factor = Math.exp(Math.max(-2, Math.min(2, pixels / 300)));
    this.zoom(factor, this.dataAt(ev.clientX, ev.clientY));
  }

  // Keys on the focused plot: + and − zoom, 0 fits, Ctrl + arrows pan by a tenth. Whether the
  // key was one of these.
  onKey(ev) {
    if (!this.lab.app()) return false;
    if (ev.key === '+' || ev.key === '=') this.zoom(1 / ZOOM_STEP);
    else if (ev.key === '-' || ev.key === '_') this.zoom(ZOOM_STEP);
    else if (ev.key === '0') this.fit();
    else if ((ev.ctrlKey || ev.metaKey) && ev.key.startsWith('Arrow')) {
      const [x0, x1, y0, y1] = this.lab.app().window();
      const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[ev.key];
      if (!step) return false;
      this.shift(step[0] * (x1 - x0) / 10, step[1] * (y1 - y0) / 10);
    } else return false;
    ev.preventDefault();
    return true;
  }

  // Pointer down on the plot, before main.js sees it: whether the window takes the gesture (a
  // middle-button or Ctrl drag pans; a second finger starts a pinch). A pinch's first finger
  // has already been taken by main.js as a click; `lab.cancelTouch()` takes that back.
  onPointerDown(ev) {
    if (!this.lab.app()) return false;
    if (ev.pointerType === 'touch') {
      this.pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
      if (this.pointers.size === 2) {
        this.lab.cancelTouch();
        this.pinch = this.pinchState();
        for (const id of this.pointers.keys()) {
          if (!this.canvas.hasPointerCapture(id)) {
            try { this.canvas.setPointerCapture(id); } catch { /* already released */ }
          }
        }
        ev.preventDefault();
        ev.stopImmediatePropagation();
        return true;
      }
      return false;
    }
    if (ev.button === 1 || (ev.button === 0 && (ev.ctrlKey || ev.metaKey))) {
      ev.preventDefault();
      ev.stopImmediatePropagation();
      this.pan = { at: this.dataAt(ev.clientX, ev.clientY) };
      this.canvas.setPointerCapture(ev.pointerId);
      this.canvas.classList.add('panning');
      return true;
    }
    return false;
  }

  pinchState() {
    const [a, b] = [...this.pointers.values()];
    const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
    return { distance: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1, at: this.dataAt(mid[0], mid[1]), window: this.lab.app().window(), mid };
  }

  // Whether the window took the move.
  onPointerMove(ev) {
    if (this.pointers.has(ev.pointerId)) this.pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
    if (this.pinch && this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      const factor = this.pinch.distance / (Math.hypot(a[0] - b[0], a[1] - b[1]) || 1);
      const [x0, x1, y0, y1] = this.pinch.window;
      const [cx, cy] = this.pinch.at;
      // Zoom about the fingers' first middle, then keep that data point under their middle.
      const zoomed = [cx - (cx - x0) * factor, cx + (x1 - cx) * factor, cy - (cy - y0) * factor, cy + (y1 - cy) * factor];
      this.set(zoomed);
      const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      const now = this.dataAt(mid[0], mid[1]);
      this.set([zoomed[0] + cx - now[0], zoomed[1] + cx - now[0], zoomed[2] + cy - now[1], zoomed[3] + cy - now[1]]);
      ev.stopImmediatePropagation();
      return true;
    }
    if (this.pan) {
      const now = this.dataAt(ev.clientX, ev.clientY);
      this.shift(this.pan.at[0] - now[0], this.pan.at[1] - now[1], false);
      ev.stopImmediatePropagation();
      return true;
    }
    return false;
  }

  onPointerUp(ev) {
    this.pointers.delete(ev.pointerId);
    const was = this.pinch || this.pan;
    if (this.pinch && this.pointers.size < 2) this.pinch = null;
    if (this.pan) {
      this.pan = null;
      this.canvas.classList.remove('panning');
    }
    if (was) {
      clearTimeout(this.settleTimer);
      this.lab.settle();
      ev.stopImmediatePropagation();
    }
  }

  // Listens on the plot ahead of main.js's own pointer handlers (registered first), and on
  // the fit-view and zoom buttons unless `buttons` is false (the compared plot shares them).
  wire(buttons = true) {
    const c = this.canvas;
    c.addEventListener('wheel', (ev) => this.onWheel(ev), { passive: false });
    c.addEventListener('pointerdown', (ev) => this.onPointerDown(ev));
    c.addEventListener('pointermove', (ev) => this.onPointerMove(ev));
    c.addEventListener('pointerup', (ev) => this.onPointerUp(ev));
    c.addEventListener('pointercancel', (ev) => this.onPointerUp(ev));
    c.addEventListener('auxclick', (ev) => { if (ev.button === 1) ev.preventDefault(); });
    c.addEventListener('keydown', (ev) => { if (this.onKey(ev)) ev.stopImmediatePropagation(); });
    if (!buttons) return;
    $('fit-view').addEventListener('click', () => this.fit());
    $('zoom-in').addEventListener('click', () => this.zoom(1 / ZOOM_STEP));
    $('zoom-out').addEventListener('click', () => this.zoom(ZOOM_STEP));
  }
}
