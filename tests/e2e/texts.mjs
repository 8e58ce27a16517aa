// Shared by the browser tests that read the views' pictures: every text a canvas draws,
// recorded as the browser draws it (its font, where, and its measured ink), and what is wrong
// with those texts against the plane's tick labels (too small, overlapping, off the canvas);
// a page opened to record them, and the wait for a view's figure to be whole.
import assert from 'node:assert/strict';
import { waitForFrame, settle } from './browser.mjs';

// Records every text a 2-D context fills, per canvas, from its last full clear: the text, the
// font's size in canvas pixels, and its ink's box in canvas pixels (measured by the browser,
// through the context's transform, so turned texts too).
export function recordTexts() {
  window.__texts = new Map();
  const P = CanvasRenderingContext2D.prototype;
  const fillRect = P.fillRect;
  P.fillRect = function (x, y, w, h) {
    const c = this.canvas;
    if (c.id && x <= 0 && y <= 0 && w >= c.width && h >= c.height) window.__texts.set(c.id, []);
    return fillRect.call(this, x, y, w, h);
  };
  const fillText = P.fillText;
  P.fillText = function (text, x, y, ...rest) {
    const c = this.canvas;
    if (c.id && String(text).trim()) {
      const m = this.measureText(text);
      const t = this.getTransform();
      const corners = [
        [x - m.actualBoundingBoxLeft, y - m.actualBoundingBoxAscent],
        [x + m.actualBoundingBoxRight, y - m.actualBoundingBoxAscent],
        [x - m.actualBoundingBoxLeft, y + m.actualBoundingBoxDescent],
        [x + m.actualBoundingBoxRight, y + m.actualBoundingBoxDescent],
      ].map(([u, v]) => [t.a * u + t.c * v + t.e, t.b * u + t.d * v + t.f]);
      const xs = corners.map((p) => p[0]);
      const ys = corners.map((p) => p[1]);
      const size = Number((/([\d.]+)px/.exec(this.font) || [0, 0])[1]);
      if (!window.__texts.has(c.id)) window.__texts.set(c.id, []);
      window.__texts.get(c.id).push({
        text: String(text), size,
        box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
      });
    }
    return fillText.call(this, text, x, y, ...rest);
  };
}

// The texts last drawn on canvas `id`, their sizes in CSS pixels, and the canvas's size.
export const drawn = (page, id) => page.evaluate((canvasId) => {
  const c = document.getElementById(canvasId);
  const scale = c.getBoundingClientRect().width / c.width;
  return {
    width: c.width,
    height: c.height,
    texts: (window.__texts.get(canvasId) || []).map((t) => ({ ...t, css: t.size * scale })),
  };
}, id);

// What is wrong with the view's texts against the plane's tick labels (in CSS pixels).
export function problems({ width, height, texts }, tick) {
  const found = [];
  for (const t of texts) {
    if (t.css + 0.01 < tick) found.push(`'${t.text}' is ${t.css.toFixed(1)} px, under the plane's ${tick.toFixed(1)}`);
    const [l, top, r, b] = t.box;
    if (l < -1 || top < -1 || r > width + 1 || b > height + 1) found.push(`'${t.text}' leaves the canvas`);
  }
  texts.forEach((a, k) => {
    for (const b of texts.slice(k + 1)) {
      if (a.text === b.text && a.box.every((v, i) => Math.abs(v - b.box[i]) < 0.5)) continue;
      const across = Math.min(a.box[2], b.box[2]) - Math.max(a.box[0], b.box[0]);
      const down = Math.min(a.box[3], b.box[3]) - Math.max(a.box[1], b.box[1]);
      if (across > 1 && down > 1) found.push(`'${a.text}' overlaps '${b.text}'`);
    }
  });
  return found;
}

// The plane's tick labels' size in CSS pixels: its numbers' font.
export function tickSize(plane) {
  const ticks = plane.texts.filter((t) => /^-?\d+(\.\d+)?$/.test(t.text));
  assert.ok(ticks.length >= 4, `the plane's tick labels are drawn (${plane.texts.length} texts)`);
  return Math.max(...ticks.map((t) => t.css));
}

// A page at `hash` that records its canvases' texts and its console errors.
export async function openRecording(env, hash, { width = 1280, height = 720 } = {}) {
  const page = await env.browser.newPage({ viewport: { width, height } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(`page: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  await page.addInitScript(recordTexts);
  await page.goto(`${env.base}#${hash}`);
  await waitForFrame(page);
  return { page, errors };
}

// Waits until the open view's figure is whole (its background job finished) and drawn.
export async function viewDone(page) {
  await page.waitForFunction(() => {
    const bar = document.getElementById('view-progress');
    return bar && bar.hidden;
  }, null, { timeout: 90000 });
  await settle(page);
}
