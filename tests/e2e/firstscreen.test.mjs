// End-to-end: a first visit's screen and a phone's. At 1366 × 768 a new visitor sees at most
// 12 controls — the model, its kernel and main sliders, the preset, the classes of new points,
// undo and redo, presenter and the shortcuts — with the rest folded under "more" lines that
// open with a click, are remembered, and open by themselves for a link that set what they
// hold. On a phone the plot stays at the top while the controls scroll under it, a swipe on the
// plot scrolls the page, and a tap adds a point.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { start, openPage, settle, waitForFrame, lastFrame, foldsStored, siteDir, frontServer } from './browser.mjs';

let env;
before(async () => { env = await start(); });
after(async () => env && env.close());

// The controls a person sees on the screen as it is: form controls that are rendered, not
// disabled-and-hidden, and inside the window and every scrolling box around them. A slider's
// number box counts with its slider (one setting); the views' tabs are the views, and an ⓘ
// explains a control: neither is a control of its own.
const visibleControls = (page) => page.evaluate(() => {
  const seen = [];
  for (const el of document.querySelectorAll('input, select, textarea, button')) {
    if (el.matches('.view-tab, .help-button, input.readout, input[type="file"]')) continue;
    if (el.closest('[hidden], dialog:not([open])')) continue;
    if (!el.checkVisibility({ visibilityProperty: true })) continue;
    let r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    let box = { top: 0, left: 0, bottom: innerHeight, right: innerWidth };
    for (let p = el.parentElement; p; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (/(auto|scroll|hidden)/.test(style.overflowY + style.overflowX)) {
        const q = p.getBoundingClientRect();
        box = { top: Math.max(box.top, q.top), left: Math.max(box.left, q.left), bottom: Math.min(box.bottom, q.bottom), right: Math.min(box.right, q.right) };
      }
    }
    const inside = r.bottom > box.top + 2 && r.top < box.bottom - 2 && r.right > box.left + 2 && r.left < box.right - 2;
    if (inside) seen.push(el.id || el.dataset.key || el.textContent.trim().slice(0, 20));
  }
  return seen;
});

test('a first visit at 1366 × 768 shows at most 12 controls, the rest under "more"', async () => {
  const { page, errors } = await openPage(env.browser, env.base, { width: 1366, height: 768, folded: true });
  await settle(page);
  const controls = await visibleControls(page);
  assert.ok(controls.length <= 12, `${controls.length} controls: ${controls.join(', ')}`);
  for (const id of ['model', 'kernel', 'C', 'gamma', 'preset', 'undo']) assert.ok(controls.includes(id), `${id} is on the first screen: ${controls.join(', ')}`);
  for (const id of ['svm-solver', 'mc', 'std', 'n', 'noise', 'regenerate']) assert.ok(!controls.includes(id), `${id} waits under "more"`);
  // A click on "more model settings" shows the solver; a new visit remembers it open.
  await page.click('#model-more > summary');
  assert.ok((await visibleControls(page)).includes('svm-solver'));
  await foldsStored(page, ['model-more']);
  await page.reload();
  await waitForFrame(page);
  assert.equal(await page.evaluate(() => document.getElementById('model-more').open), true, 'the fold is remembered');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a link that sets a folded setting opens its fold, and every setting is restored', async () => {
  const link = '#preset=blobs3&n=60&kernel=linear&svm_solver=dca&mc=ovr&std=1&noise=0.35&seed=7';
  const { page, errors } = await openPage(env.browser, env.base + link, { width: 1366, height: 768, folded: true });
  await settle(page);
  assert.equal(await page.evaluate(() => document.getElementById('model-more').open), true);
  const values = await page.evaluate(() => ['svm-solver', 'mc', 'std', 'noise', 'seed'].map((id) => {
    const el = document.getElementById(id);
    return el.type === 'checkbox' ? el.checked : el.value;
  }));
  assert.deepEqual(values, ['dca', 'ovr', true, '0.35', '7']);
  const hash = await page.evaluate(() => window.kernelPlayground.link);
  // The link is of an earlier version, whose `svm_solver` is the SVM's `solver` today.
  for (const part of link.slice(1).replace('svm_solver=', 'solver=').split('&')) {
    assert.ok(hash.split('&').includes(part), `${part} in ${hash}`);
  }
  // Opened by the link, not by the visitor: a plain visit afterwards starts folded.
  await page.goto(env.base);
  await waitForFrame(page);
  assert.equal(await page.evaluate(() => document.getElementById('model-more').open), false);
  assert.deepEqual(errors, []);
  await page.close();
});

const place = (page, selector) => page.evaluate((s) => {
  const r = document.querySelector(s).getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, inside: r.top >= -0.5 && r.left >= -0.5 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5 };
}, selector);

for (const [width, height] of [[390, 844], [768, 1024], [844, 390]]) {
  test(`at ${width} × ${height} the sliders are within a screen of the plot, and nothing runs past the width`, async () => {
    const context = await env.browser.newContext({ hasTouch: true, isMobile: width < 900, viewport: { width, height } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${env.base}#preset=moons&n=80`);
    await waitForFrame(page);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth) <= 0, 'no horizontal scrolling');
    for (const id of ['C', 'gamma']) {
      await page.evaluate((i) => document.getElementById(i).scrollIntoView({ block: 'nearest' }), id);
      await page.waitForTimeout(100);
      const slider = await place(page, `#${id}`);
      const readout = await place(page, `#${id}-value`);
      const plot = await place(page, '#plot');
      assert.ok(slider.inside && readout.inside, `${id} and its readout on screen: ${JSON.stringify([slider, readout])}`);
      assert.ok(plot.inside, `the plot stays on screen with ${id}: ${JSON.stringify(plot)}`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
}

// Data coordinates of the emptiest place on the plot (farthest from every point), on screen.
const emptySpot = (page) => page.evaluate(() => {
  const pts = window.kernelPlayground.points();
  const [x0, x1, y0, y1] = window.kernelPlayground.window();
  let best = null;
  for (let i = 1; i < 10; i += 1) {
    for (let j = 1; j < 10; j += 1) {
      const [x, y] = [x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * j / 10];
      const d = Math.min(...pts.map(([a, b]) => Math.hypot((a - x) / (x1 - x0), (b - y) / (y1 - y0))));
      if (!best || d > best.d) best = { x, y, d };
    }
  }
  return [best.x, best.y];
});

test('on a phone a swipe on the plot scrolls the page, a tap adds a point, a finger drags a point', async () => {
  const context = await env.browser.newContext({ hasTouch: true, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${env.base}#preset=separable&n=20`);
  await waitForFrame(page);
  await settle(page);
  const plot = await place(page, '#plot');
  const points = (await lastFrame(page)).points;
  // A swipe up from an empty part of the plot (its top-left corner has no point).
  const client = await page.context().newCDPSession(page);
  const [ex, ey] = await emptySpot(page);
  const [sx, sy] = await page.evaluate(([x, y]) => window.kernelPlayground.toClient(x, y), [ex, ey]);
  await client.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: sx, y: sy }] });
  for (let k = 1; k <= 10; k += 1) {
    await client.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: sx, y: sy - 30 * k }] });
  }
  await client.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await settle(page);
  assert.ok(await page.evaluate(() => scrollY) > 100, 'the page scrolled');
  assert.equal((await lastFrame(page)).points, points, 'a swipe adds no point');
  // The plot stayed at the top; a tap on it adds a point.
  const after = await place(page, '#plot');
  assert.ok(after.inside && Math.abs(after.bottom - after.top - (plot.bottom - plot.top)) < 1, 'the plot is still whole on screen');
  const before = await lastFrame(page);
  const [tx, ty] = await page.evaluate(([x, y]) => window.kernelPlayground.toClient(x, y), [ex, ey]);
  await page.touchscreen.tap(tx, ty);
  const added = await waitForFrame(page, before);
  assert.equal(added.points, points + 1, 'a tap adds a point');
  // A finger on that point drags it (the page does not scroll). The swipe's scroll may still be
  // gliding: the page is read once it has stood still for a third of a second.
  await page.waitForFunction(() => new Promise((resolve) => {
    const y = scrollY;
    setTimeout(() => resolve(scrollY === y), 300);
  }), null, { timeout: 10000 });
  const scrolled = await page.evaluate(() => scrollY);
  const added_ = (await page.evaluate(() => window.kernelPlayground.points())).at(-1);
  const [px, py] = await page.evaluate(([x, y]) => window.kernelPlayground.toClient(x, y), added_);
  await client.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: px, y: py }] });
  for (let k = 1; k <= 6; k += 1) {
    await client.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: px + 8 * k, y: py + 8 * k }] });
  }
  await client.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await settle(page);
  assert.equal(await page.evaluate(() => scrollY), scrolled, 'dragging a point does not scroll');
  const moved = await page.evaluate(() => window.kernelPlayground.points());
  assert.equal(moved.length, points + 1);
  assert.ok(!moved.some(([x, y]) => x === added_[0] && y === added_[1]), 'the point moved');
  assert.deepEqual(errors, []);
  await context.close();
});

// The share of pixels of the plot canvas within `tolerance` (per channel) of the first scene's
// picture drawn at the canvas's size.
const likeFirstPicture = (page, tolerance) => page.evaluate(async (tol) => {
  const plot = document.getElementById('plot');
  const picture = new Image();
  picture.src = 'www/first-picture.svg';
  await picture.decode();
  const scratch = document.createElement('canvas');
  scratch.width = plot.width;
  scratch.height = plot.height;
  const context = scratch.getContext('2d');
  context.drawImage(picture, 0, 0, plot.width, plot.height);
  const a = context.getImageData(0, 0, plot.width, plot.height).data;
  const b = plot.getContext('2d').getImageData(0, 0, plot.width, plot.height).data;
  let close = 0;
  for (let i = 0; i < a.length; i += 4) {
    if (Math.abs(a[i] - b[i]) <= tol && Math.abs(a[i + 1] - b[i + 1]) <= tol && Math.abs(a[i + 2] - b[i + 2]) <= tol) close += 1;
  }
  return close / (a.length / 4);
}, tolerance);

test('a visit without a link shows the first scene\'s picture while the module loads, then the lab\'s own', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route(/kernel_playground_bg\.wasm(\.lzma)?$/, async (route) => { await held; await route.continue(); });
  await page.goto(env.base);
  // The module has not arrived: the picture drawn at the build is on the plot, the page says
  // it is loading.
  await page.waitForFunction(() => {
    const picture = document.getElementById('first-picture');
    return picture && picture.complete && picture.naturalWidth > 0;
  }, null, { timeout: 10000 });
  const shown = await page.evaluate(() => {
    const picture = document.getElementById('first-picture').getBoundingClientRect();
    const plot = document.getElementById('plot').getBoundingClientRect();
    return {
      lab: window.kernelPlayground?.lastFrame ?? null,
      loading: document.getElementById('loading').textContent.trim(),
      covers: Math.abs(picture.width - (plot.width - 4)) < 1 && Math.abs(picture.left - plot.left - 2) < 1 && Math.abs(picture.top - plot.top - 2) < 1,
    };
  });
  assert.equal(shown.lab, null, 'no frame of the lab yet');
  assert.equal(shown.loading, 'Loading the lab…');
  assert.ok(shown.covers, 'the picture fills the plot inside its border');
  release();
  await waitForFrame(page);
  await settle(page);
  assert.equal(await page.evaluate(() => document.getElementById('first-picture')), null, 'the lab\'s picture replaces it');
  // It was the scene the lab opens: nearly every pixel of the lab's picture matches it (the
  // strokes and type differ by a pixel here and there; another seed of the same moons matches
  // about two thirds).
  const same = await likeFirstPicture(page, 24);
  assert.ok(same > 0.85, `${(100 * same).toFixed(1)} % of the pixels match`);
  assert.deepEqual(errors, []);
  await context.close();
});

// While the module downloads, the plot says how much of it has arrived. A server in front of
// the site's sends the first 40 % of the module's bytes and holds the rest back until released:
// of the packed module (www/wasm.js) on the line headless Chromium estimates, of the whole one
// on a line the page is told is fast.
for (const [kind, file, downlink] of [['packed', 'kernel_playground_bg.wasm.lzma', null], ['whole', 'kernel_playground_bg.wasm', 10]]) {
  test(`while the module downloads (${kind}), the plot says how much of it has arrived`, async () => {
    const wasm = fs.readFileSync(path.join(siteDir, 'www', 'pkg', file));
    const first = Math.floor(wasm.length * 0.4);
    const percent = Math.floor((100 * first) / wasm.length); // 39 or 40, as the size rounds
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    const front = await frontServer(env.base, async (req, res) => {
      if (!req.url.endsWith(`/${file}`)) return false;
      res.writeHead(200, { 'Content-Type': kind === 'whole' ? 'application/wasm' : 'application/octet-stream', 'Cache-Control': 'no-store' });
      res.write(wasm.subarray(0, first));
      await held;
      res.end(wasm.subarray(first));
      return true;
    });
    const context = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    if (downlink) await page.addInitScript((mbits) => Object.defineProperty(Navigator.prototype, 'connection', { get: () => ({ downlink: mbits }) }), downlink);
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(front.url);
      const said = () => page.evaluate(() => document.querySelector('#loading span').textContent.trim());
      await page.waitForFunction((n) => document.querySelector('#loading span').textContent.trim().endsWith(` ${n}%`), percent, { timeout: 15000 });
      assert.equal(await said(), `Loading the lab… ${percent}%`);
      assert.equal(await page.evaluate(() => document.documentElement.dataset.wasm), kind);
      // Held there: no more is said to have come, and the lab has not started.
      await page.waitForTimeout(300);
      assert.equal(await said(), `Loading the lab… ${percent}%`);
      assert.equal(await page.evaluate(() => window.kernelPlayground?.lastFrame ?? null), null);
      release();
      await waitForFrame(page);
      assert.equal(await page.evaluate(() => getComputedStyle(document.getElementById('loading')).display), 'none');
      assert.deepEqual(errors, []);
    } finally {
      release();
      await context.close();
      await front.stop();
    }
  });
}

test('a link\'s visit does not show, or fetch, the first scene\'s picture', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const asked = [];
  page.on('request', (r) => { if (r.url().includes('first-picture')) asked.push(r.url()); });
  await page.goto(`${env.base}#preset=moons&n=100&seed=2`);
  await waitForFrame(page);
  await settle(page);
  assert.equal(await page.evaluate(() => document.getElementById('first-picture')), null);
  assert.deepEqual(asked, []);
  // The same moons drawn from another seed: the picture would have shown another scene.
  assert.ok(await likeFirstPicture(page, 24) < 0.8, 'another scene does not match the picture');
  await context.close();
});

// On a phone's link the scripts share the line with the module: the site serves them minified
// (scripts/minify.mjs, run by the build), at most half their written size, and the lab works
// from them (every other test of this suite runs on them too).
test('the site serves its scripts and styles minified, and the lab runs from them', async () => {
  const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
  const size = (root, names) => names.reduce((sum, name) => sum + fs.statSync(path.join(root, name)).size, 0);
  const names = fs.readdirSync(path.join(repo, 'www')).filter((n) => /\.(js|css)$/.test(n));
  const written = size(path.join(repo, 'www'), names);
  const served = size(path.join(siteDir, 'www'), names);
  assert.ok(served <= written / 2, `the site's ${names.length} scripts and styles: ${served} bytes of ${written} (is esbuild installed? bash scripts/setup.sh)`);
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=100&seed=2`);
  assert.equal((await lastFrame(page)).train_points, 100);
  assert.deepEqual(errors, []);
  await page.close();
});
