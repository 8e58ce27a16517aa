// End-to-end: what a lecture leans on. The hard margin on data no line separates says so and
// draws no boundary and no accuracy; on separable data it draws the margin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { start, openPage, lastFrame, settle, canvasSignature } from './browser.mjs';

let env;
const shots = path.resolve('tests/e2e/screenshots');

before(async () => { env = await start(); });
after(async () => env && env.close());

// The colours of a row of pixels across the middle of the plot, away from the axes.
async function plotRowColours(page) {
  return page.evaluate(() => {
    const c = document.getElementById('plot');
    const ctx = c.getContext('2d');
    const colours = new Set();
    for (const f of [0.2, 0.35, 0.5, 0.65, 0.8]) {
      const row = ctx.getImageData(Math.round(c.width * 0.15), Math.round(c.height * f), Math.round(c.width * 0.8), 1).data;
      for (let i = 0; i < row.length; i += 4) colours.add(`${row[i]},${row[i + 1]},${row[i + 2]}`);
    }
    return colours.size;
  });
}

test('a hard margin on inseparable data: the message, the points, no boundary and no accuracy', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=xor&n=40&kernel=linear&hard=1`);
  const frame = await lastFrame(page);
  assert.match(frame.message, /no hard margin: no line separates the classes/);
  assert.match(await page.textContent('#message'), /use a finite C for a soft margin/);
  assert.equal(frame.train_accuracy ?? null, null);
  assert.doesNotMatch(await page.textContent('#status'), /accuracy/);
  const bare = await plotRowColours(page);
  assert.ok((await canvasSignature(page)).colours > 2, 'the points and axes are drawn');
  await page.screenshot({ path: path.join(shots, 'hard-margin-refused.png') });
  // The same points with a soft margin: regions, boundary and margins appear.
  await page.click('#hard');
  await settle(page);
  const soft = await lastFrame(page);
  assert.equal(soft.message ?? null, null);
  assert.ok(soft.train_accuracy > 0);
  assert.ok(await plotRowColours(page) > bare + 20, 'shaded regions are drawn once there is a model');
  // On separable data the hard margin is solved and drawn.
  await page.evaluate(() => { location.hash = '#preset=separable&n=40&kernel=linear&hard=1'; });
  await page.waitForFunction(() => window.kernelPlayground.lastFrame && window.kernelPlayground.lastFrame.train_accuracy === 1);
  assert.ok(await plotRowColours(page) > bare + 20);
  assert.deepEqual(errors, []);
  await page.close();
});

// Whether an element is wholly inside the window as it opens (no scrolling).
const inView = (page, selector) => page.evaluate((s) => {
  const r = document.querySelector(s).getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
}, selector);

for (const [width, height] of [[1280, 720], [1920, 1080]]) {
  test(`at ${width} × ${height} the plot fills the height and the sliders and status need no scrolling`, async () => {
    const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=120`, { width, height });
    const plot = await page.evaluate(() => document.getElementById('plot').getBoundingClientRect().height);
    assert.ok(plot >= 0.7 * height, `plot ${plot} px of ${height}`);
    for (const selector of ['#plot', '#model', '#C', '#gamma', '#C-value', '#status', '#presenter']) {
      assert.ok(await inView(page, selector), `${selector} is in view`);
    }
    // The points panel folds away.
    await page.click('#points-panel > summary');
    assert.equal(await page.isVisible('#regenerate'), false);
    await page.click('#points-panel > summary');
    assert.equal(await page.isVisible('#regenerate'), true);
    await page.screenshot({ path: path.join(shots, `projector-${width}x${height}.png`) });

    // Presenter mode: only the plot, the model's sliders and the status line, larger.
    const type = () => page.evaluate(() => parseFloat(getComputedStyle(document.getElementById('status')).fontSize));
    const before = await type();
    await page.keyboard.press('p');
    await settle(page);
    for (const selector of ['#points-controls', '#layer-controls', '#share-controls', '#view-tabs', '#degree']) {
      assert.equal(await page.isVisible(selector), false, `${selector} is hidden in presenter mode`);
    }
    for (const selector of ['#plot', '#C', '#gamma', '#status']) {
      assert.ok(await inView(page, selector), `${selector} is in view in presenter mode`);
    }
    assert.ok(await type() > before, 'larger type');
    const bigger = await page.evaluate(() => document.getElementById('plot').getBoundingClientRect().height);
    assert.ok(bigger >= plot, 'the plot does not shrink');
    await page.screenshot({ path: path.join(shots, `presenter-${width}x${height}.png`) });
    await page.click('#presenter');
    await settle(page);
    assert.equal(await page.isVisible('#points-controls'), true, 'the button turns it off');
    assert.ok(await inView(page, '#status'));
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('? lists the keyboard shortcuts and Esc closes the list', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=40`);
  assert.equal(await page.isVisible('#shortcuts'), false);
  await page.keyboard.press('?');
  assert.equal(await page.isVisible('#shortcuts'), true);
  const text = await page.textContent('#shortcuts');
  for (const key of ['Ctrl', 'presenter mode', 'test point', 'undo', 'redo']) assert.match(text, new RegExp(key));
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('#shortcuts'), false);
  await page.click('#show-shortcuts');
  assert.equal(await page.isVisible('#shortcuts'), true);
  await page.click('#close-shortcuts');
  assert.equal(await page.isVisible('#shortcuts'), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('compare: two settings side by side on the same points, edits on either side reach both, and the link keeps it', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=overlapping&n=60&noise=0.5&kernel=rbf&gamma=20`, { width: 1600, height: 900 });
  assert.equal(await page.isVisible('#plot-b'), false);
  await page.check('#compare');
  await settle(page);
  assert.equal(await page.isVisible('#plot-b'), true);
  assert.equal(await page.getAttribute('[data-edit-side="1"]', 'aria-pressed'), 'true', 'the controls now set the right side');
  // C = 1000 on the right only.
  await page.fill('#C', '3');
  await page.dispatchEvent('#C', 'input');
  await page.dispatchEvent('#C', 'change');
  await settle(page);
  const left = await page.evaluate(() => window.kernelPlayground.lastFrame);
  const right = await page.evaluate(() => window.kernelPlayground.lastFrameB);
  assert.equal(left.points, right.points);
  assert.notEqual(left.train_accuracy, right.train_accuracy, 'a harder margin fits the training points better');
  assert.ok(right.train_accuracy > left.train_accuracy);
  assert.match(await page.textContent('#status'), /training accuracy/);
  assert.match(await page.textContent('#status-b'), /training accuracy/);
  assert.notEqual(await page.textContent('#status'), await page.textContent('#status-b'), 'each side has its own status line');
  // The controls show the side they set.
  await page.click('[data-edit-side="0"]');
  assert.equal(await page.inputValue('#C-value'), '1');
  await page.click('[data-edit-side="1"]');
  assert.equal(await page.inputValue('#C-value'), '1000');

  // A point added on the left appears on the right, exactly.
  const [ax, ay] = await page.evaluate(() => window.kernelPlayground.toClient(0.85, 0.85));
  await page.mouse.click(ax, ay);
  await settle(page);
  const csv = () => page.evaluate(() => [window.kernelPlayground.csv(), window.kernelPlayground.csvB()]);
  let [a, b] = await csv();
  assert.equal(a, b);
  assert.equal((await page.evaluate(() => window.kernelPlayground.lastFrameB)).points, 61);
  // A point dragged on the right moves on the left too.
  const [bx, by] = await page.evaluate(() => window.kernelPlayground.toClientB(0.85, 0.85));
  await page.mouse.move(bx, by);
  await page.mouse.down();
  await page.mouse.move(bx - 40, by + 30, { steps: 4 });
  await page.mouse.up();
  await settle(page);
  [a, b] = await csv();
  assert.equal(a, b);
  assert.ok(!a.includes('0.85,0.85'), 'the point moved');
  // The link reopens the comparison (once the address has caught up with the last edit).
  await page.waitForFunction(() => location.hash.includes('compare=') && location.hash === window.kernelPlayground.link);
  const hash = await page.evaluate(() => location.hash);
  const copy = await openPage(env.browser, `${env.base}${hash}`, { width: 1600, height: 900 });
  await settle(copy.page);
  assert.equal(await copy.page.isVisible('#plot-b'), true);
  const reopened = await copy.page.evaluate(() => [window.kernelPlayground.lastFrame, window.kernelPlayground.lastFrameB]);
  const now = await page.evaluate(() => [window.kernelPlayground.lastFrame, window.kernelPlayground.lastFrameB]);
  assert.equal(reopened[0].train_accuracy, now[0].train_accuracy);
  assert.equal(reopened[1].train_accuracy, now[1].train_accuracy);
  await page.screenshot({ path: path.join(shots, 'compare.png') });
  // Turning it off leaves the left side.
  await page.uncheck('#compare');
  await settle(page);
  assert.equal(await page.isVisible('#plot-b'), false);
  await page.waitForFunction(() => !location.hash.includes('compare='));
  assert.deepEqual(errors, []);
  assert.deepEqual(copy.errors, []);
  await copy.page.close();
  await page.close();
});
