// End-to-end: a 50 MB file of points is read behind the page (the page itself reads only its
// start). The plot says how far the reading is, no task on the page's thread reaches 200 ms
// meanwhile, every coordinate arrives as it was written, and Cancel (or an edit) leaves the
// scene on screen as it was. A million discs are composited over many frames, each drawing
// the plot once, the layer shown at most every 100 ms until it is complete.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { start, openPage, settle } from './browser.mjs';

let env;
let dir;
before(async () => {
  env = await start();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kernel-playground-'));
});
after(async () => {
  if (env) await env.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

// `rows` points with full-precision coordinates in [-1, 1] and labels 0 / 1 from a fixed
// linear congruential sequence, as `x,y,label` text; and a checksum of that text.
function writePoints(file, rows) {
  let state = 2024;
  const next = () => { state = (state * 1103515245 + 12345) % 2147483648; return state / 2147483648; };
  const lines = ['x,y,label'];
  for (let i = 0; i < rows; i += 1) {
    lines.push(`${(2 * next() - 1).toFixed(15)},${(2 * next() - 1).toFixed(15)},${next() < 0.5 ? 0 : 1}`);
  }
  const text = `${lines.join('\n')}\n`;
  fs.writeFileSync(file, text);
  return { bytes: Buffer.byteLength(text), sum: checksum(text), head: text.slice(0, 300), tail: text.slice(-300) };
}

// The sum of the text's character codes, modulo 2³² (the same in the page).
function checksum(text) {
  let sum = 0;
  for (let i = 0; i < text.length; i += 1) sum = (sum + text.charCodeAt(i)) >>> 0;
  return sum;
}

// Loads `file` of `rows` points on the page and waits until the plot shows them with their
// model and the note on the plot has gone.
async function load(page, file, rows) {
  await page.setInputFiles('#load-csv', file);
  await page.waitForFunction((n) => {
    const f = window.kernelPlayground.lastFrame;
    return f && f.points === n && !f.behind && document.getElementById('loading-file').hidden;
  }, rows, { timeout: 120000, polling: 100 });
}

// Records every long task (over 50 ms), every note the plot shows while a file loads, the
// size of every file or part of one the page reads, and every registration of the service
// worker.
async function watch(page) {
  await page.evaluate(() => {
    window.__registered = 0;
    const register = ServiceWorkerContainer.prototype.register;
    ServiceWorkerContainer.prototype.register = function (...args) {
      window.__registered += 1;
      return register.apply(this, args);
    };
    window.__read = [];
    const read = Blob.prototype.arrayBuffer;
    Blob.prototype.arrayBuffer = function () {
      window.__read.push(this.size);
      return read.call(this);
    };
    window.__long = [];
    window.__notes = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__long.push(Math.round(e.duration));
    }).observe({ type: 'longtask' });
    // What the long frames held (Long Animation Frames), for a failure's message: when each
    // began (ms from here), its scripts (what called them, where they are, how long they
    // ran) and when its rendering began, if it rendered.
    window.__frames = [];
    const watched = performance.now();
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const scripts = e.scripts.map((s) => {
          const where = `${(s.sourceURL || '').split('/').pop()}:${s.sourceCharPosition}`;
          return `${s.invoker} ${s.sourceFunctionName || ''}@${where} ${Math.round(s.duration)} ms`;
        });
        const rendering = e.renderStart ? `rendering from ${Math.round(e.renderStart - e.startTime)} ms` : 'no rendering';
        const text = `${Math.round(e.duration)} ms at ${Math.round(e.startTime - watched)} ms (${rendering}): ${scripts.join(', ')}`;
        window.__frames.push({ ms: Math.round(e.duration), text });
      }
    }).observe({ type: 'long-animation-frame' });
    const text = document.getElementById('loading-file-text');
    new MutationObserver(() => window.__notes.push(text.textContent))
      .observe(text, { childList: true, characterData: true, subtree: true });
  });
}

test('a 50 MB file loads behind the page with progress, no long task and every value as written', async () => {
  const file = path.join(dir, 'big.csv');
  const rows = 1_300_000;
  const written = writePoints(file, rows);
  assert.ok(written.bytes > 50_000_000, `${written.bytes} bytes`);
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=separable&n=100&model=lda`);
  await settle(page);
  await watch(page);
  // The file chosen a while after the first picture: the service worker, which waits for the
  // page to have been quiet for 3 s from it, would otherwise register in the load's midst.
  await page.waitForTimeout(1500);
  await load(page, file, rows);
  // The service worker waits for the page to be quiet: its install (which unpacks the module)
  // does not start while the file loads. (On a slow machine it may have started before: the
  // page was quiet for long enough before the file was chosen.)
  assert.equal(await page.evaluate(() => window.__registered), 0, 'no service worker registered during the load');
  const [longTasks, notes, read, frames] = await page.evaluate(() => [window.__long, window.__notes, window.__read, window.__frames]);
  // The worker reads the file: the page reads only its start (the column dialog's rows).
  assert.ok(read.length > 0 && Math.max(...read) <= 262145, `the page read ${read.join(', ')} bytes`);
  assert.ok(notes.some((t) => /^Reading big\.csv \(5\d\.\d MB\) in the background… [\d.]+ s$/.test(t)), notes.join(' | '));
  assert.ok(notes.some((t) => /^Preparing big\.csv: \d+ % of 1,300,000 points$/.test(t)), notes.join(' | '));
  const longest = frames.sort((a, b) => b.ms - a.ms).slice(0, 3).map((f) => f.text).join(' | ');
  assert.ok(Math.max(0, ...longTasks) < 200, `long tasks: ${longTasks.join(', ')} ms; the longest frames: ${longest}`);
  // The model is fitted in the worker, to the file's points.
  const frame = await page.evaluate(() => window.kernelPlayground.lastFrame);
  assert.equal(frame.page_fits, 0);
  assert.equal(frame.train_points, rows);
  // Saved again, the points are the file's text exactly.
  const saved = await page.evaluate(() => {
    const csv = window.kernelPlayground.csv();
    let sum = 0;
    for (let i = 0; i < csv.length; i += 1) sum = (sum + csv.charCodeAt(i)) >>> 0;
    return { length: csv.length, sum, head: csv.slice(0, 300), tail: csv.slice(-300) };
  });
  assert.equal(saved.head, written.head);
  assert.equal(saved.tail, written.tail);
  assert.equal(saved.length, written.bytes);
  assert.equal(saved.sum, written.sum);
  // Too large for a link: the address says nothing of it, and the page says why.
  assert.match(await page.textContent('#message'), /too many for a link/);
  // Undo goes back to the scene before the file (a scene this large is not kept in the
  // history, so Redo cannot bring it back).
  await page.click('#undo');
  await settle(page);
  assert.equal((await page.evaluate(() => window.kernelPlayground.lastFrame)).points, 100);
  assert.equal(await page.isDisabled('#redo'), true);
  assert.deepEqual(errors, []);
  await page.close();
});

// Records, from now on, how the plot is drawn: `__twice` counts the times one lab drew the
// plot twice in one display frame (two animation-frame callbacks with the same frame time), and
// `__shown` the times (ms) a layer of discs the plot's size was put on its canvas.
async function watchDrawing(page) {
  await page.evaluate(async () => {
    const { Lab } = await import(new URL('www/pkg/kernel_playground.js', location.href).href);
    window.__twice = 0;
    window.__shown = [];
    window.__renders = 0;
    let frameTime = null;
    const request = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (draw) => request((time) => {
      frameTime = time;
      try { draw(time); } finally { frameTime = null; }
    });
    const drawnIn = new Map();
    const render = Lab.prototype.render;
    Lab.prototype.render = function (...args) {
      window.__renders += 1;
      if (frameTime !== null) {
        if (drawnIn.get(this) === frameTime) window.__twice += 1;
        drawnIn.set(this, frameTime);
      }
      return render.apply(this, args);
    };
    const plot = document.getElementById('plot');
    const put = CanvasRenderingContext2D.prototype.putImageData;
    CanvasRenderingContext2D.prototype.putImageData = function (image, ...rest) {
      if (image.width === plot.width && image.height === plot.height) window.__shown.push(performance.now());
      return put.call(this, image, ...rest);
    };
  });
}

// A million discs take many frames to composite (src/web/discs.rs). Those frames draw the plot
// once each, however the worker's picture arrives, and most of them only composite: the layer
// is shown at first, then no sooner than 100 ms after it was last shown, and once complete.
test('a million discs composite over many frames, each drawing the plot once and showing the layer at most every 100 ms', async () => {
  const file = path.join(dir, 'million.csv');
  const rows = 1_000_000;
  writePoints(file, rows);
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=separable&n=100&model=lda`);
  await settle(page);
  await watchDrawing(page);
  await load(page, file, rows);
  await settle(page);
  const { twice, shown, renders } = await page.evaluate(() => ({ twice: window.__twice, shown: window.__shown, renders: window.__renders }));
  assert.equal(twice, 0, 'no display frame draws the plot twice');
  assert.ok(shown.length >= 2, `the layer was shown ${shown.length} times`);
  // Every show but the last (the complete layer) comes 100 ms or more after the one before.
  const gaps = shown.slice(1, -1).map((at, i) => at - shown[i]);
  assert.ok(gaps.every((gap) => gap >= 100), `shown after ${gaps.map(Math.round).join(', ')} ms`);
  assert.ok(renders > 2 * shown.length, `${renders} frames showed the layer ${shown.length} times`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Cancel, or an edit, while a large file loads leaves the scene on screen as it was', async () => {
  const file = path.join(dir, 'cancelled.csv');
  writePoints(file, 400_000);
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=separable&n=100&model=lda`);
  await settle(page);
  const before = await page.evaluate(() => window.kernelPlayground.csv());
  await page.setInputFiles('#load-csv', file);
  await page.waitForSelector('#loading-file:not([hidden])');
  await page.click('#loading-file-cancel');
  await page.waitForFunction(() => document.getElementById('loading-file').hidden);
  assert.match(await page.textContent('#message'), /cancelled\.csv: loading it was cancelled; the scene on screen is as it was/);
  await settle(page);
  assert.equal(await page.evaluate(() => window.kernelPlayground.csv()), before);
  assert.equal((await page.evaluate(() => window.kernelPlayground.lastFrame)).points, 100);
  // An edit while it loads: the edit stands, the file does not replace it.
  await page.setInputFiles('#load-csv', file);
  await page.waitForSelector('#loading-file:not([hidden])');
  await page.focus('#plot');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.getElementById('loading-file').hidden, null, { timeout: 60000 });
  await settle(page);
  assert.equal((await page.evaluate(() => window.kernelPlayground.lastFrame)).points, 101);
  assert.match(await page.textContent('#message'), /cancelled\.csv: /);
  assert.deepEqual(errors, []);
  await page.close();
});
