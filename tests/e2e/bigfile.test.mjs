// End-to-end: a 50 MB file of points is read behind the page. The plot says how far the
// reading is, no task on the page's thread reaches 200 ms meanwhile, every coordinate arrives
// as it was written, and Cancel (or an edit) leaves the scene on screen as it was.
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

// Records every long task (over 50 ms) and every note the plot shows while a file loads.
async function watch(page) {
  await page.evaluate(() => {
    window.__long = [];
    window.__notes = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__long.push(Math.round(e.duration));
    }).observe({ type: 'longtask' });
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
  await page.setInputFiles('#load-csv', file);
  await page.waitForFunction((n) => {
    const f = window.kernelPlayground.lastFrame;
    return f && f.points === n && !f.behind && document.getElementById('loading-file').hidden;
  }, rows, { timeout: 120000, polling: 100 });
  const [longTasks, notes] = await page.evaluate(() => [window.__long, window.__notes]);
  assert.ok(notes.some((t) => /^Reading big\.csv \(5\d\.\d MB\) in the background… [\d.]+ s$/.test(t)), notes.join(' | '));
  assert.ok(notes.some((t) => /^Preparing big\.csv: \d+ % of 1,300,000 points$/.test(t)), notes.join(' | '));
  assert.ok(Math.max(0, ...longTasks) < 200, `long tasks: ${longTasks.join(', ')} ms`);
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
