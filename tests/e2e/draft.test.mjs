// End-to-end: drafts on a slow device (www/draft.js). A device whose full picture takes
// longer than its budget answers a slider step with a draft (the field on a coarser grid) in
// the next frame, and the full picture follows once the edits pause; the full picture is the
// one a fast device draws of the same model. The device is taken as slow or fast through the page's hook, so the
// test does not depend on this machine's speed. With the worker behind the page and with
// the page fitting by itself (`?sync`). The benchmarks' slow worker (`?worker-slowdown=N`)
// reports the slow device's timings and answers no sooner than that device would.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, settle, canvasSignature } from './browser.mjs';

let env;
before(async () => { env = await start(); });
after(async () => env && env.close());

const SCENE = '#preset=moons&n=200&noise=0.25&seed=3&kernel=rbf&gamma=2&C=1';

// Sets the C slider to `value` (its position, log₁₀ C; or the slider `id`) as a person moving
// it does, and returns the first frame painted after it.
const stepC = (page, value, id = 'C') => page.evaluate(([v, id]) => new Promise((resolve) => {
  const painted = () => {
    if (window.kernelPlayground.lastFrame.behind) return;
    window.removeEventListener('kernel-playground-frame', painted);
    resolve(window.kernelPlayground.lastFrame);
  };
  window.addEventListener('kernel-playground-frame', painted);
  const el = document.getElementById(id);
  el.value = String(v);
  el.dispatchEvent(new Event('input', { bubbles: true }));
}), [value, id]);

for (const mode of ['', '?sync']) {
  test(`a slow device answers a step with a draft, then the full picture${mode ? ' (the page fits by itself)' : ''}`, async () => {
    // Two visits, the same steps: one on a device taken as slow, one on a fast one.
    const pictures = [];
    for (const slow of [true, false]) {
      const { page, errors } = await openPage(env.browser, `${env.base}${mode}${SCENE}`);
      await settle(page);
      const full = await page.evaluate(() => window.kernelPlayground.lastFrame);
      assert.equal(full.draft, false, 'the first picture is full');
      await page.evaluate((on) => window.kernelPlayground.forceSlow(on), slow);
      const first = await stepC(page, 0.5);
      if (slow) {
        assert.equal(first.draft, true, 'the step is answered with a draft');
        assert.ok(first.exact_nodes < full.exact_nodes, `fewer nodes summed exactly: ${first.exact_nodes} < ${full.exact_nodes}`);
      } else {
        assert.equal(first.draft, false, 'a fast device answers the step with the full picture');
      }
      await settle(page);
      const last = await page.evaluate(() => window.kernelPlayground.lastFrame);
      assert.equal(last.draft, false, 'once the edits pause, the full picture');
      pictures.push(await canvasSignature(page));
      assert.deepEqual(errors, []);
      await page.close();
    }
    assert.deepEqual(pictures[0], pictures[1], 'the slow device ends with the fast one\'s picture');
  });
}

// Compare switched off while the right-hand side's draft waits for its full picture: the page
// settles (nothing waits for the side that is gone), and a worker restart later resends only
// the sides there are.
test('compare switched off while a draft is shown leaves nothing waiting', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}${SCENE}`);
  await settle(page);
  await page.check('#compare');
  await settle(page);
  await page.evaluate(() => window.kernelPlayground.forceSlow(true));
  // New points are an edit of both sides: each asks for a draft.
  await page.click('#regenerate');
  await page.waitForFunction(() => window.kernelPlayground.lastFrameB?.draft === true, null, { timeout: 5000 });
  await page.uncheck('#compare');
  await settle(page);
  assert.equal(await page.evaluate(() => window.kernelPlayground.lastFrame.draft), false);
  assert.equal(await page.evaluate(() => window.kernelPlayground.lastFrameB), null, 'one side');
  assert.deepEqual(errors, []);
  await page.close();
});

// The level of the drafts follows what a picture costs: none where the full picture is in
// time (8 ms), half the intervals a side where that is, a third where even the half is not.
// Then a device too slow for the half answers a step with the coarser draft (k-NN: its field
// is evaluated exactly on a lattice and near the boundary, so the nodes summed go with the grid).
test('a device too slow for the half draft answers with a third', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}?sync#preset=moons&n=200&noise=0.25&seed=3&model=knn&k=5`);
  await settle(page);
  const levels = await page.evaluate(async () => {
    const { levelFor, pictureBudget } = await import('./www/draft.js');
    const frame = (fit, refit) => ({ fit_ms: fit, refit, scene_ms: 7, draw_ms: 10, status_ms: 1 });
    return [[5, 0], [20, 0], [40, 0], [9, 1], [3, 2], [30, 2]].map(([ms, at]) => levelFor(ms, at))
      // A full picture of 30 ms predicts 7.5 for the half, but the half just took 10.
      .concat([levelFor(30, 0), levelFor(30, 0, [0, 10, 0]), levelFor(30, 0, [0, 6, 0])])
      // A 7 ms picture is in time after a 2 ms fit and 4 ms of painting, not after a 6 ms fit
      // (6 ms left: the half, 1.75), nor after a 12 ms one (the floor of 4 ms: the half).
      .concat([frame(2, true), frame(6, true), frame(12, true), frame(12, false)]
        .map((f) => levelFor(f.scene_ms, 0, [], pictureBudget(f))))
      // A 3 ms picture after a 20 ms fit stays whole: no draft brings that frame back in time.
      .concat([levelFor(3, 0, [], pictureBudget({ ...frame(20, true), scene_ms: 3, draw_ms: 6 }))]);
  });
  assert.deepEqual(levels, [0, 1, 2, 2, 1, 2, 1, 2, 1, 0, 1, 1, 0, 0]);
  const nodes = [];
  for (const level of [1, 2]) {
    await page.evaluate((on) => window.kernelPlayground.forceSlow(on), level);
    const first = await stepC(page, level === 1 ? 7 : 9, 'k');
    assert.equal(first.draft, true);
    assert.equal(first.draft_level, level);
    nodes.push(first.exact_nodes);
    await settle(page);
    assert.equal(await page.evaluate(() => window.kernelPlayground.lastFrame.draft_level), 0, 'then the full picture');
  }
  assert.ok(nodes[1] < nodes[0], `fewer nodes summed at a third: ${nodes[1]} < ${nodes[0]}`);
  assert.deepEqual(errors, []);
  await page.close();
});

// The benchmarks slow the page's thread with Chromium's CPU throttling, which leaves workers at
// full speed: `?worker-slowdown=6` makes the worker as slow as a device six times slower. Its
// frames say they took about six times as long as the same frames of a worker at full speed,
// and each arrives no sooner than its reported time (a model the slow device would not have
// finished is not painted early). The pictures are full ones on both visits (no drafts), so
// that the same work is timed.
test('the benchmarks\' slow worker reports the slow device\'s times and answers no sooner', async () => {
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  // Both visits are open at once and take their steps in turn, so a moment when this machine
  // is busy falls on both alike. Three steps of each warm the code before seven are timed.
  // (`?worker`: even this small scene stays behind the page, www/remote.js.)
  const queries = ['?worker&worker-slowdown=6', '?worker'];
  const visits = [];
  for (const query of queries) {
    const { page, errors } = await openPage(env.browser, `${env.base}${query}${SCENE}`);
    await page.evaluate(() => window.kernelPlayground.forceSlow(false));
    visits.push({ query, page, errors, frames: [] });
  }
  for (const [i, value] of [0.8, 0.9, 1.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7].entries()) {
    for (const visit of visits) {
      await settle(visit.page);
      const frame = await stepC(visit.page, value);
      if (i >= 3) visit.frames.push(frame);
    }
  }
  const frames = {};
  for (const { query, page, errors, frames: taken } of visits) {
    assert.ok(taken.every((f) => f.remote && !f.draft), 'full pictures from the worker');
    assert.deepEqual(errors, []);
    await page.close();
    frames[query] = taken;
  }
  const fast = median(frames['?worker'].map((f) => f.frame_ms));
  const slow = median(frames['?worker&worker-slowdown=6'].map((f) => f.frame_ms));
  assert.ok(slow >= 3 * fast, `the slow worker's frames take ${slow} ms, against ${fast} ms at full speed`);
  for (const f of frames['?worker&worker-slowdown=6']) {
    // (Each side's clock is rounded to a tenth of a millisecond or so: half a millisecond of slack.)
    assert.ok(f.request_ms >= f.frame_ms - 0.5, `answered after ${f.request_ms} ms, no sooner than its ${f.frame_ms} ms`);
  }
});
