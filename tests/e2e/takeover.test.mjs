// End-to-end: a small scene is fitted on the page itself once the edits pause (www/remote.js),
// so that on a slow device a slider's step is painted in the frame it moved in; the worker
// takes the plane back, with the page's last picture shown meanwhile, when the scene grows
// large, and every new scene starts behind the page. `?worker` keeps every scene there.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, settle, lastFrame, nudgeC } from './browser.mjs';

let env;
before(async () => { env = await start(); });
after(async () => env && env.close());

const where = (page) => page.evaluate(() => window.kernelPlayground.frames);
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Moves the C slider one step; returns the frame of the new C once painted and settled.
async function step(page) {
  await nudgeC(page);
  await settle(page);
  return lastFrame(page);
}

// Slider steps, then a pause, until the page fits the plane itself (at most `tries` rounds).
async function untilTakenOver(page, tries = 4) {
  for (let i = 0; i < tries && (await where(page)) === 'worker'; i += 1) {
    for (let k = 0; k < 3; k += 1) await step(page);
    await pause(500);
    await settle(page);
  }
  return where(page);
}

// Counts the frames that showed the points without a model: the status line says the picture
// is being prepared, and no frame with a model came in the same task.
function watchModelless() {
  window.__modelless = 0;
  let framed = false;
  window.addEventListener('kernel-playground-frame', () => { framed = true; });
  const line = document.getElementById('status');
  new MutationObserver(() => {
    if (line.getAttribute('aria-busy') === 'true' && !framed) window.__modelless += 1;
    framed = false;
  }).observe(line, { attributes: true, childList: true, characterData: true, subtree: true });
}

test('a small scene is fitted on the page once the slider pauses, the same model as the worker\'s', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=100&noise=0.3&seed=1&kernel=rbf&C=1&gamma=1`);
  await settle(page);
  assert.equal(await where(page), 'worker', 'a new scene starts behind the page');
  const behind = await step(page);
  assert.equal(behind.remote, true);
  assert.equal(behind.page_fits, 0);
  assert.equal(await untilTakenOver(page), 'page', 'the page took the plane over');
  // The next step is fitted in the frame of the edit, by the page: the same C as the worker's
  // model above gives the same model.
  const own = await lastFrame(page);
  assert.equal(own.remote, undefined, 'the page pictures its own fit');
  const mine = await step(page);
  assert.equal(mine.remote, undefined, 'the step was fitted on the page');
  assert.equal(mine.refit, true);
  // Back to the C of the worker's frame: the same model, up to the solver's tolerance.
  await page.evaluate((c) => {
    const el = document.getElementById('C');
    el.value = Math.log10(c);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, behind.C);
  await settle(page);
  const again = await lastFrame(page);
  assert.equal(again.C, behind.C);
  assert.ok(Math.abs(again.bias - behind.bias) < 1e-2, `b ${again.bias} against the worker's ${behind.bias}`);
  // (Both fits stop at the solver's tolerance, from different starts: a point on the margin
  // may be counted on either side of it.)
  assert.ok(Math.abs(again.support - behind.support) <= 1, `${again.support} support vectors against ${behind.support}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('with ?worker every scene stays behind the page', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}?worker#preset=moons&n=100&noise=0.3&seed=1&kernel=rbf&C=1&gamma=1`);
  await settle(page);
  assert.equal(await untilTakenOver(page, 2), 'worker');
  const frame = await step(page);
  assert.equal(frame.remote, true);
  assert.equal(frame.page_fits, 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the worker takes the plane back when the scene grows past 1000 points, the picture kept meanwhile', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=995&noise=0.3&seed=1&kernel=rbf&C=1&gamma=1`);
  await settle(page);
  assert.equal(await untilTakenOver(page), 'page', 'the page took the plane over at 995 points');
  await page.evaluate(watchModelless);
  // Points clicked onto the plot (along its top, clear of the moons and the legend) until
  // there are 1001.
  const box = await page.locator('#plot').boundingBox();
  const count = () => page.evaluate(() => window.kernelPlayground.points().length);
  for (let i = 0; i < 12 && (await count()) <= 1000; i += 1) {
    await page.mouse.click(box.x + box.width * (0.3 + 0.04 * i), box.y + box.height * 0.06);
    await settle(page);
    const n = await count();
    assert.equal(await where(page), n <= 1000 ? 'page' : 'worker', `at ${n} points`);
  }
  const frame = await lastFrame(page);
  assert.equal(frame.remote, true, 'the model comes from the worker');
  assert.equal(frame.behind, false);
  assert.equal(await page.evaluate(() => window.kernelPlayground.points().length), 1001);
  assert.equal(await page.evaluate(() => window.__modelless), 0, 'no frame showed the points without a model');
  // The worker has the whole scene: its model answers the next step.
  const next = await step(page);
  assert.equal(next.remote, true);
  assert.equal(next.behind, false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('another kernel is fitted behind the page, the page\'s picture and view kept until they come', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=100&noise=0.3&seed=1&kernel=rbf&C=1&gamma=1`);
  await settle(page);
  assert.equal(await untilTakenOver(page), 'page');
  // The loss view opened while the page fits: its figure is the page's own.
  await page.click('.view-tab[data-view="loss"]');
  await settle(page);
  assert.equal(await where(page), 'page');
  await page.evaluate(watchModelless);
  // Behind the page the worker computes that view: until its figure comes, the page's last.
  await page.evaluate(() => {
    window.__viewNotes = [];
    const note = document.getElementById('view-note');
    new MutationObserver(() => window.__viewNotes.push(note.textContent))
      .observe(note, { childList: true, characterData: true, subtree: true });
  });
  await page.selectOption('#kernel', 'poly');
  assert.equal(await where(page), 'worker', 'given back as the choice was made');
  await page.waitForFunction(() => window.kernelPlayground.lastFrame?.remote && !window.kernelPlayground.lastFrame.behind, null, { timeout: 20000 });
  await settle(page);
  assert.equal(await page.evaluate(() => window.kernelPlayground.setting('kernel')), 'poly');
  const notes = await page.evaluate(() => window.__viewNotes);
  assert.ok(!notes.some((n) => /behind the page/.test(n)), `the view was never blank: ${JSON.stringify(notes)}`);
  assert.equal(await page.evaluate(() => window.__modelless), 0, 'no frame showed the points without a model');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a scene opened anew (undo) starts behind the page', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=100&noise=0.3&seed=1&kernel=rbf&C=1&gamma=1`);
  await settle(page);
  assert.equal(await untilTakenOver(page), 'page');
  // Undo opens the scene before the last step anew.
  const before = await lastFrame(page);
  await page.click('#undo');
  await page.waitForFunction((c) => window.kernelPlayground.lastFrame?.C < c, before.C, { timeout: 20000 });
  await settle(page);
  const frame = await lastFrame(page);
  assert.equal(frame.remote, true);
  assert.equal(frame.behind, false);
  assert.equal(await where(page), 'worker');
  assert.deepEqual(errors, []);
  await page.close();
});
