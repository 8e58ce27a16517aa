// End-to-end: the built page in headless Chromium, driven as a person would drive it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { start, openPage, lastFrame, settle, canvasSignature, unfold } from './browser.mjs';

let env;
const shots = path.resolve('tests/e2e/screenshots');

before(async () => {
  env = await start();
  fs.mkdirSync(shots, { recursive: true });
});
after(async () => env && env.close());

// The client position of data point (x, y), with the plot scrolled into view first.
async function clientOf(page, x, y) {
  await page.evaluate(() => document.getElementById('plot').scrollIntoView({ block: 'center' }));
  return page.evaluate(([a, b]) => window.kernelPlayground.toClient(a, b), [x, y]);
}

async function clickAt(page, x, y, { modifiers = [], ...options } = {}) {
  const [cx, cy] = await clientOf(page, x, y);
  for (const key of modifiers) await page.keyboard.down(key);
  await page.mouse.click(cx, cy, options);
  for (const key of modifiers) await page.keyboard.up(key);
}

// Every 7th pixel's colour, to compare two canvases.
async function pixels(page) {
  return page.evaluate(() => {
    const c = document.getElementById('plot');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const out = [];
    for (let i = 0; i < d.length; i += 28) out.push(d[i], d[i + 1], d[i + 2]);
    return out;
  });
}



test('the page loads, draws, and reports without errors', async () => {
  const { page, errors } = await openPage(env.browser, env.base);
  const frame = await lastFrame(page);
  assert.equal(frame.points, 100);
  assert.ok(frame.support > 0, 'support vectors found');
  const status = await page.textContent('#status');
  assert.match(status, /support vectors \d+ \(free \d+, bound \d+\)/);
  // The count and the timings are in the details beside the line.
  const details = await page.textContent('#status-details');
  assert.match(details, /100 points/);
  assert.match(details, /fit [\d.]+ ms of a [\d.]+ ms frame/);
  const sig = await canvasSignature(page);
  assert.ok(sig.colours > 20, `canvas has ${sig.colours} colours: not blank`);
  for (const label of ['kernel', 'C', 'γ', 'degree', 'coef0', 'points', 'noise', 'preset']) {
    assert.equal(await page.getByLabel(label, { exact: true }).count(), 1, `control labelled ${label}`);
  }
  await page.screenshot({ path: path.join(shots, 'default.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('clicking adds points, the C slider refits, and the canvas changes', async () => {
  const { page, errors } = await openPage(env.browser, env.base);
  await page.click('#clear');
  await settle(page);
  let frame = await lastFrame(page);
  assert.equal(frame.points, 0);
  const empty = await canvasSignature(page);

  // Class 1 by plain clicks, class 2 by shift-clicks (the svmjs convention).
  for (const [x, y] of [[-0.6, -0.5], [-0.4, 0.1], [-0.7, 0.3], [0.1, -0.7]]) await clickAt(page, x, y);
  for (const [x, y] of [[0.5, 0.5], [0.3, 0.0], [0.7, -0.2], [0.0, 0.6]]) await clickAt(page, x, y, { modifiers: ['Shift'] });
  await settle(page);
  frame = await lastFrame(page);
  assert.equal(frame.points, 8);
  assert.equal(frame.message, null, `no message: ${frame.message}`);
  assert.ok(frame.support >= 2);
  const trained = await canvasSignature(page);
  assert.notEqual(trained.hash, empty.hash, 'canvas changed after adding points');
  const statusBefore = await page.textContent('#status');

  // Move the C slider with the keyboard, as a person can.
  await page.focus('#C');
  for (let i = 0; i < 150; i++) await page.keyboard.press('ArrowLeft');
  await settle(page);
  frame = await lastFrame(page);
  const statusAfter = await page.textContent('#status');
  assert.notEqual(statusAfter, statusBefore, 'status changed with C');
  assert.ok(Number(await page.inputValue('#C-value')) < 1, 'C readout shows the new value');
  const afterC = await canvasSignature(page);
  assert.notEqual(afterC.hash, trained.hash, 'canvas changed with C');

  // The number key and the buttons choose the class of new points.
  await page.keyboard.press('2');
  assert.equal(await page.getAttribute('.class-button[data-label="1"]', 'aria-pressed'), 'true');
  await clickAt(page, 0.8, 0.8);
  await settle(page);
  assert.equal((await lastFrame(page)).points, 9);
  await page.screenshot({ path: path.join(shots, 'clicked.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('dragging moves a point live, right-click deletes it', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=separable&n=20&kernel=linear&C=10`);
  const before = await lastFrame(page);
  // Add a point at a known place, then drag it across.
  await clickAt(page, 0.0, 0.9);
  await settle(page);
  const added = await lastFrame(page);
  assert.equal(added.points, before.points + 1);
  const [sx, sy] = await clientOf(page, 0.0, 0.9);
  const [ex, ey] = await clientOf(page, 0.6, 0.6);
  const sigBefore = await canvasSignature(page);
  await page.mouse.move(sx, sy);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(sx + ((ex - sx) * i) / 10, sy + ((ey - sy) * i) / 10);
  await page.mouse.up();
  await settle(page);
  const moved = await lastFrame(page);
  assert.equal(moved.points, added.points, 'dragging does not add points');
  assert.notEqual((await canvasSignature(page)).hash, sigBefore.hash);
  // The URL follows (a quarter of a second after the last frame) and carries the moved point:
  // waiting for points= alone could read the address of the click, before the drag.
  await page.waitForFunction(() => /;0\.6\d*,0\.6\d*,0/.test(decodeURIComponent(location.hash)), null, { timeout: 10000 });

  // Hovering the point shows its multiplier and KKT case.
  await page.mouse.move(ex, ey);
  await page.waitForSelector('#tooltip:not([hidden])');
  assert.match(await page.textContent('#tooltip'), /α = .*y·f\(x\) = .*ξ = /s);

  await page.mouse.click(ex, ey, { button: 'right' });
  await settle(page);
  assert.equal((await lastFrame(page)).points, before.points);
  assert.deepEqual(errors, []);
  await page.close();
});

// The readout is placed from its size at the last layout (www/pointer.js reads no layout in
// the pointer's handler after writing it): near the plot's right and bottom edges it still
// opens towards the inside, also once the worker's answer has made it longer.
test('the hover readout stays inside the plot at its edges', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=60&noise=0.2&seed=3&model=svm&kernel=rbf&C=1&gamma=1`);
  await page.evaluate(() => document.getElementById('plot').scrollIntoView({ block: 'center' }));
  await settle(page);
  const box = await page.evaluate(() => {
    const r = document.getElementById('plot').getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  });
  // Points of the plotting area near its corners, as fractions of the plotted window.
  const [x0, x1, y0, y1] = await page.evaluate(() => window.kernelPlayground.window());
  for (const [fx, fy] of [[0.97, 0.03], [0.97, 0.97], [0.03, 0.03], [0.5, 0.5]]) {
    const [cx, cy] = await page.evaluate(([a, b]) => window.kernelPlayground.toClient(a, b), [x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)]);
    await page.mouse.move(cx, cy);
    await page.waitForSelector('#tooltip:not([hidden])');
    // The worker's answer adds the predicted class to a readout of empty space.
    await page.waitForFunction(() => /→/.test(document.getElementById('tooltip').textContent));
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const tip = await page.evaluate(() => {
      const r = document.getElementById('tooltip').getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width };
    });
    assert.ok(tip.width > 60, `a readout with its text at (${fx}, ${fy})`);
    for (const side of ['left', 'top']) assert.ok(tip[side] >= box[side] - 0.5, `at (${fx}, ${fy}) the readout's ${side} ${tip[side]} is inside the plot's ${box[side]}`);
    for (const side of ['right', 'bottom']) assert.ok(tip[side] <= box[side] + 0.5, `at (${fx}, ${fy}) the readout's ${side} ${tip[side]} is inside the plot's ${box[side]}`);
  }
  // A point's readout, wider than the room on either side of a point left of the middle, is
  // moved to fit within the plot rather than cut off by the window's left edge.
  await page.setViewportSize({ width: 1280, height: 720 });
  await settle(page);
  const plot = await page.evaluate(() => document.getElementById('plot').getBoundingClientRect().toJSON());
  const rows = (await page.evaluate(() => window.kernelPlayground.csv())).trim().split('\n').slice(1).map((r) => r.split(',').map(Number));
  let wide = 0;
  for (const [x, y] of rows) {
    const [cx, cy] = await page.evaluate(([a, b]) => window.kernelPlayground.toClient(a, b), [x, y]);
    if (cx - plot.left > 0.35 * plot.width || cx - plot.left < 0.15 * plot.width) continue;
    await page.mouse.move(cx, cy);
    await page.waitForFunction(() => /^point/.test(document.getElementById('tooltip').textContent));
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const tip = await page.evaluate(() => document.getElementById('tooltip').getBoundingClientRect().toJSON());
    const room = Math.max(plot.right - cx - 18, cx - plot.left - 12);
    wide += tip.width > room;
    assert.ok(tip.left >= plot.left - 0.5 && tip.right <= plot.right + 0.5, `the readout of point (${x}, ${y}) spans ${tip.left}–${tip.right}, the plot ${plot.left}–${plot.right}`);
  }
  assert.ok(wide > 0, 'some readout is wider than the room beside its point');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a shared link restores the exact scene', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=rings&n=60&kernel=poly&degree=2&C=3.16`);
  await clickAt(page, 0.05, 0.05, { modifiers: ['Shift'] });
  await page.selectOption('#kernel', 'rbf');
  await settle(page);
  await page.waitForFunction(() => location.hash.includes('kernel=rbf') && location.hash.includes('points='));
  await page.mouse.move(2, 2); // no hover highlight on either page
  await settle(page);
  const url = await page.evaluate(() => location.href);
  const frame = await lastFrame(page);
  const before = await pixels(page);

  // Interactions end with a fit from scratch (warm starts only serve the drag itself), so the
  // copy shows the very same numbers and pixels.
  const copy = await openPage(env.browser, url);
  const restored = await lastFrame(copy.page);
  for (const key of ['points', 'support', 'free', 'bound', 'train_accuracy', 'objective', 'bias', 'iterations']) {
    assert.equal(restored[key], frame[key], key);
  }
  assert.equal(await copy.page.inputValue('#kernel'), 'rbf');
  assert.equal(await copy.page.inputValue('#degree'), '2');
  assert.deepEqual(await pixels(copy.page), before, 'same pixels');
  assert.deepEqual(errors, []);
  assert.deepEqual(copy.errors, []);
  await page.close();
  await copy.page.close();
});

test('problems are messages, never a blank canvas or an exception', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=overlapping&n=80&kernel=linear`);
  await page.check('#hard');
  await settle(page);
  assert.match(await page.textContent('#message'), /no hard margin: no line separates the classes .* use a finite C for a soft margin/);
  assert.equal(await page.isDisabled('#C'), true, 'C is disabled under the hard margin');

  await page.click('#clear');
  await clickAt(page, 0.2, 0.2);
  await settle(page);
  assert.match(await page.textContent('#message'), /at least two points/);
  await clickAt(page, -0.2, 0.4);
  await settle(page);
  assert.match(await page.textContent('#message'), /same class/);
  assert.ok((await canvasSignature(page)).colours > 1, 'axes and points are still drawn');

  // Only the controls of the chosen kernel are enabled.
  await page.selectOption('#kernel', 'linear');
  assert.equal(await page.isDisabled('#gamma'), true);
  await page.selectOption('#kernel', 'sigmoid');
  assert.equal(await page.isDisabled('#gamma'), false);
  assert.equal(await page.isDisabled('#coef0'), false);
  assert.equal(await page.isDisabled('#degree'), true);

  // A malformed CSV names its line and keeps the points.
  await page.setInputFiles('#load-csv', { name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('x,y,label\n0,0,1\n1,oops,0\n') });
  await page.waitForFunction(() => document.getElementById('message').textContent.includes('line 3'));
  assert.equal((await lastFrame(page)).points, 2);

  // A damaged link is refused, naming its damaged parts, and the default scene opens.
  const damaged = await openPage(env.browser, `${env.base}#C=-5&gamma=zzz`);
  assert.match(await damaged.page.textContent('#message'), /could not be opened: its C is damaged: C <= 0; its gamma is damaged: .*; the default scene is shown instead/);
  assert.deepEqual(damaged.errors, []);
  await damaged.page.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('keyboard alone adds and removes points on the plot', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=separable&n=20`);
  const before = (await lastFrame(page)).points;
  await page.focus('#plot');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await settle(page);
  assert.equal((await lastFrame(page)).points, before + 1, 'Enter adds a point at the cursor');
  assert.equal(await page.isVisible('#cursor'), true, 'the keyboard cursor is shown');
  await page.keyboard.press('Delete');
  await settle(page);
  assert.equal((await lastFrame(page)).points, before, 'Delete removes the point under the cursor');
  assert.deepEqual(errors, []);
  await page.close();
});

test('touch taps add points and the erase pointer removes them', async () => {
  const context = await env.browser.newContext({ hasTouch: true, viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${env.base}#preset=separable&n=20`);
  await page.waitForFunction(() => window.kernelPlayground.lastFrame);
  const [cx, cy] = await clientOf(page, 0.0, 0.85);
  await page.touchscreen.tap(cx, cy);
  await settle(page);
  assert.equal((await lastFrame(page)).points, 21, 'a tap adds a point');
  await unfold(page);
  await page.selectOption('#tool', 'erase');
  const [ex, ey] = await clientOf(page, 0.0, 0.85);
  await page.touchscreen.tap(ex, ey);
  await settle(page);
  assert.equal((await lastFrame(page)).points, 20, 'a tap with the eraser removes it');
  assert.deepEqual(errors, []);
  await context.close();
});
