// End-to-end: large scenes with the worker behind the page. At n = 10 000 a dragged point is
// drawn under the pointer in every frame while the model, computed in the worker, lags behind
// and then catches up. A 20 000-row CSV with random labels (nearly every point a support
// vector) never freezes the page: it says what it is computing, keeps answering input, and
// the next edit cancels the long fit.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, settle, canvasSignature } from './browser.mjs';

let env;
before(async () => { env = await start(); });
after(async () => env && env.close());

test('at n = 10 000 a dragged point follows the pointer in every frame while the model lags', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=10000&noise=0.3&seed=1&kernel=rbf&C=1&gamma=1`);
  await settle(page);
  assert.equal(await page.evaluate(() => window.kernelPlayground.frames), 'worker');
  const index = await page.evaluate(() => window.kernelPlayground.points().findIndex(([x, y]) => Math.hypot(x - 0.5, y + 0.3) < 0.05));
  assert.ok(index >= 0);
  const [x0, y0] = await page.evaluate((i) => window.kernelPlayground.toClient(...window.kernelPlayground.points()[i]), index);
  // Every painted frame records where the pointer last was and where the dragged point is.
  await page.evaluate(() => {
    window.__frames = [];
    const plot = document.getElementById('plot');
    plot.addEventListener('pointermove', (ev) => { window.__pointer = [ev.clientX, ev.clientY]; });
    window.addEventListener('kernel-playground-frame', () => {
      const at = window.kernelPlayground.draggedClient();
      if (at) window.__frames.push({ pointer: window.__pointer, at, behind: window.kernelPlayground.lastFrame.behind });
    });
  });
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  for (let i = 1; i <= 40; i += 1) {
    await page.mouse.move(x0 - 4 * i, y0 - 3 * i);
    // One animation frame per move: the page paints faster than the worker fits.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
  }
  const frames = await page.evaluate(() => window.__frames);
  await page.mouse.up();
  await settle(page);
  assert.ok(frames.length >= 20, `${frames.length} frames painted during the drag`);
  // The plot is a square of data: a pixel on the screen is the snapping's worth at most.
  for (const [k, f] of frames.entries()) {
    assert.ok(Math.hypot(f.at[0] - f.pointer[0], f.at[1] - f.pointer[1]) <= 1, `frame ${k}: point at ${f.at}, pointer at ${f.pointer}`);
  }
  assert.ok(frames.some((f) => f.behind), 'some frames show the model of a moment ago');
  const last = await page.evaluate(() => window.kernelPlayground.lastFrame);
  assert.equal(last.behind, false, 'the model catches up');
  assert.equal(last.points, 10000);
  assert.deepEqual(errors, []);
  await page.close();
});

// Writing the address of a scene of thousands of points takes tens of milliseconds on the
// page's thread (a link of hundreds of kilobytes): never while a point is held, even when the
// model's frames come seconds apart and the scene seems to stand still; on release it follows.
test("a large scene's address is not written while a point is held, and follows its release", async () => {
  // (From about 8 500 points the page waits for the scene to stand still before writing it.)
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=10000&noise=0.3&seed=1&kernel=rbf&C=1&gamma=1`);
  await settle(page);
  await page.waitForFunction(() => location.hash === window.kernelPlayground.link, null, { timeout: 10000 });
  const before = await page.evaluate(() => location.hash);
  assert.ok(!before.includes('points='), 'a preset\'s short link to begin with');
  const [x0, y0] = await page.evaluate(() => window.kernelPlayground.toClient(...window.kernelPlayground.points()[0]));
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  await page.mouse.move(x0 + 30, y0 + 20, { steps: 3 });
  await settle(page);
  // Held still for longer than the page waits before writing a large address (1.5 s).
  await page.waitForTimeout(2500);
  const held = await page.evaluate(() => location.hash);
  assert.ok(held === before, `the address is not written while the point is held: ${held.length} characters`);
  await page.mouse.up();
  await page.waitForFunction(() => decodeURIComponent(location.hash).includes('points='), null, { timeout: 10000 });
  const link = await page.evaluate(() => window.kernelPlayground.link);
  assert.equal(await page.evaluate(() => location.hash), link, 'after the release the address is the scene\'s link');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a 20 000-point CSV with random labels never freezes the page, and an edit cancels its fit', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=100&kernel=rbf&C=1&gamma=1`);
  // Random labels from a fixed linear congruential sequence: reproducible, and nearly every
  // point ends up a support vector.
  let state = 12345;
  const next = () => { state = (state * 1103515245 + 12345) % 2147483648; return state / 2147483648; };
  const rows = ['x,y,label'];
  for (let i = 0; i < 20000; i += 1) rows.push(`${(2 * next() - 1).toFixed(4)},${(2 * next() - 1).toFixed(4)},${next() < 0.5 ? 0 : 1}`);
  await page.setInputFiles('#load-csv', { name: 'random.csv', mimeType: 'text/csv', buffer: Buffer.from(rows.join('\n')) });
  // The plot says what it is computing, and counts the seconds.
  await page.waitForFunction(() => !document.getElementById('working').hidden, null, { timeout: 10000 });
  assert.match(await page.textContent('#working'), /in the background… [\d.]+ s — any edit starts it over/);
  // The page answers meanwhile: the points are drawn, and moving the C slider shows its new
  // value at once and cancels the long fit.
  assert.equal(await page.evaluate(() => window.kernelPlayground.points().length), 20000);
  const before = await page.inputValue('#C-value');
  await page.focus('#C');
  await page.keyboard.press('ArrowRight');
  assert.notEqual(await page.inputValue('#C-value'), before);
  // The long fit is cancelled (the worker restarts on the new scene), and the note goes.
  await page.waitForFunction(() => window.kernelPlayground.cancelled === 1, null, { timeout: 5000 });
  await page.waitForFunction(() => document.getElementById('working').hidden, null, { timeout: 5000 });
  // Clear cancels the fit on the new points too, and the page is at rest within seconds.
  await page.waitForFunction(() => !document.getElementById('working').hidden, null, { timeout: 10000 });
  await page.click('#clear');
  await settle(page);
  assert.equal(await page.evaluate(() => window.kernelPlayground.cancelled), 2);
  assert.equal(await page.isHidden('#working'), true);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a scene too large for a link leaves the address empty and says how to keep it', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=100&kernel=rbf&C=1&gamma=1`);
  const rows = ['x,y,label'];
  for (let i = 0; i < 70000; i += 1) rows.push(`${((i % 265) / 132 - 1).toFixed(4)},${(Math.floor(i / 265) / 132 - 1).toFixed(4)},${i % 3 === 0 ? 1 : 0}`);
  await page.setInputFiles('#load-csv', { name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(rows.join('\n')) });
  await page.waitForFunction(() => document.getElementById('message').textContent.includes('too many for a link'), null, { timeout: 10000 });
  assert.equal(await page.evaluate(() => location.hash), '');
  assert.match(await page.textContent('#message'), /"Save scene" keeps all of it in a file/);
  // The scene file still holds every point.
  const saved = await page.evaluate(() => JSON.parse(window.kernelPlayground.sceneJson()).points.length);
  assert.equal(saved, 70000);
  assert.equal(await page.evaluate(() => window.kernelPlayground.points().length), 70000);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the worker behind the page draws exactly what the page draws by itself', async () => {
  const hash = '#preset=moons&n=300&noise=0.25&seed=4&kernel=rbf&C=3&gamma=2&test=0.2';
  const signatures = [];
  for (const address of [`${env.base}?worker${hash}`, `${env.base}?sync${hash}`]) {
    const { page, errors } = await openPage(env.browser, address);
    await settle(page);
    const frames = await page.evaluate(() => window.kernelPlayground.frames);
    signatures.push({ frames, pixels: await canvasSignature(page), status: await page.textContent('#status') });
    assert.deepEqual(errors, []);
    await page.close();
  }
  assert.deepEqual(signatures.map((s) => s.frames), ['worker', 'page']);
  assert.deepEqual(signatures[0].pixels, signatures[1].pixels, 'the same pixels');
  assert.ok(signatures[0].pixels.colours > 5);
  // The same numbers in the status line (the timings aside).
  const numbers = (s) => s.status.replace(/ · fit .*$/, '');
  assert.equal(numbers(signatures[0]), numbers(signatures[1]));
});

test('comparing, the right-hand side is computed behind the page too, and draws what the page draws by itself', async () => {
  const hash = `#preset=moons&n=300&noise=0.25&seed=4&kernel=rbf&C=3&gamma=2&compare=${encodeURIComponent('kernel=poly&degree=3&C=10')}`;
  const seen = [];
  for (const address of [`${env.base}?worker${hash}`, `${env.base}?sync${hash}`]) {
    const { page, errors } = await openPage(env.browser, address);
    await settle(page);
    // A point dragged on the left moves on both sides, and both models follow.
    const [sx, sy] = await page.evaluate(() => window.kernelPlayground.toClient(0.5, 0.25));
    await page.mouse.move(sx, sy);
    await page.mouse.down();
    await page.mouse.move(sx + 30, sy + 20, { steps: 4 });
    await page.mouse.up();
    await settle(page);
    seen.push({
      frame: await page.evaluate(() => window.kernelPlayground.lastFrameB),
      pixels: await canvasSignature(page, 'plot-b'),
      left: await canvasSignature(page),
      status: await page.textContent('#status-b'),
    });
    assert.deepEqual(errors, []);
    await page.close();
  }
  const [worker, page] = seen;
  assert.equal(worker.frame.remote, true);
  assert.equal(worker.frame.page_fits, 0, "the right side's copy on the page never fits");
  assert.equal(page.frame.remote, undefined);
  assert.deepEqual(worker.pixels, page.pixels, 'the same pixels on the right');
  assert.deepEqual(worker.left, page.left, 'and on the left');
  assert.notDeepEqual(worker.pixels, worker.left, 'two different models');
  const numbers = (text) => text.replace(/ · fit .*$/, '');
  assert.equal(numbers(worker.status), numbers(page.status));
});

test('the views beside the plane are computed behind the page, and draw what the page draws by itself', async () => {
  const hash = '#preset=moons&n=300&noise=0.25&seed=4&kernel=rbf&C=3&gamma=2';
  for (const view of ['loss', 'roc', 'gram', 'lift', 'trace']) {
    const seen = [];
    for (const address of [`${env.base}?worker${hash}&views=${view}`, `${env.base}?sync${hash}&views=${view}`]) {
      const { page, errors } = await openPage(env.browser, address);
      await settle(page);
      const before = await canvasSignature(page, 'view');
      // Whole new scenes (Clear and Regenerate send the worker the whole scene): the view
      // follows each, and Regenerate brings the same points back.
      await page.click('#clear');
      await settle(page);
      const cleared = await canvasSignature(page, 'view');
      const clearedNote = await page.textContent('#view-note');
      await page.click('#regenerate');
      await settle(page);
      const regenerated = await canvasSignature(page, 'view');
      // A new γ: the view follows the model.
      await page.evaluate(() => {
        const el = document.getElementById('gamma');
        el.value = '0.7';
        el.dispatchEvent(new Event('input', { bubbles: true }));
      });
      await settle(page);
      const after = await canvasSignature(page, 'view');
      const note = await page.textContent('#view-note');
      seen.push({
        before,
        after,
        cleared,
        clearedNote,
        regenerated,
        note,
        frame: await page.evaluate(() => window.kernelPlayground.lastFrame),
      });
      assert.deepEqual(errors, [], view);
      await page.close();
    }
    const [worker, page] = seen;
    assert.equal(worker.frame.remote, true, view);
    assert.equal(worker.frame.page_fits, 0, `${view}: the page's own copy of the lab never fits`);
    assert.ok(page.frame.remote === undefined && page.frame.fit_ms !== undefined, view);
    assert.deepEqual(worker.before, page.before, `${view}: the same pixels as the page's own`);
    assert.deepEqual(worker.after, page.after, `${view}: the same pixels after a new γ`);
    assert.equal(worker.note, page.note, view);
    assert.deepEqual(worker.cleared, page.cleared, `${view}: the same pixels after Clear`);
    assert.equal(worker.clearedNote, page.clearedNote, `${view} after Clear`);
    assert.notDeepEqual(worker.cleared, worker.before, `${view} follows Clear`);
    assert.deepEqual(worker.regenerated, worker.before, `${view}: Regenerate brings the same figure back`);
    assert.deepEqual(page.regenerated, page.before, view);
    assert.ok(worker.note.length > 0 && !worker.note.includes('being computed'), `${view}: ${worker.note}`);
    assert.ok(worker.after.colours > 2, view);
    assert.notDeepEqual(worker.after, worker.before, `${view} follows γ`);
  }
});

// A slider step changes nothing on the plane until its model comes: the page does not spend a
// frame on the same picture (greying the status line's numbers) while the worker fits, for
// the first 50 ms (www/frame.js); a fit that takes longer shows the model a step behind.
test('a slider step waits up to 50 ms for its model before painting the same picture', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=10000&noise=0.3&seed=1&kernel=rbf&C=1&gamma=1`);
  await settle(page);
  assert.equal(await page.evaluate(() => window.kernelPlayground.frames), 'worker');
  const steps = [];
  for (const value of [0.2, 0.4, 0.1, -0.2, 0.3]) {
    await settle(page);
    steps.push(await page.evaluate((v) => new Promise((resolve) => {
      const behind = [];
      const t0 = performance.now();
      const painted = () => {
        const f = window.kernelPlayground.lastFrame;
        if (f.behind) {
          behind.push(performance.now() - t0);
          return;
        }
        window.removeEventListener('kernel-playground-frame', painted);
        resolve({ behind, model: performance.now() - t0, C: f.C });
      };
      window.addEventListener('kernel-playground-frame', painted);
      const el = document.getElementById('C');
      el.value = String(v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }), value));
  }
  for (const [k, s] of steps.entries()) {
    for (const at of s.behind) assert.ok(at >= 49, `step ${k}: the same picture painted ${at.toFixed(1)} ms after the input (its model came after ${s.model.toFixed(1)} ms)`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
