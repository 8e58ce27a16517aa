// End-to-end: the regression task. Choosing it at the top of the model panel lists its
// methods and presets, draws the fitted curve over points (x, t) with axes x and t, and reports
// RMSE and R² instead of accuracies; the link keeps the task and reopens the same scene; a
// click adds a point (x, t) and refits; classification comes back with its own menus; no
// console errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { start, openPage, lastFrame, settle } from './browser.mjs';

let env;
const shots = path.resolve('tests/e2e/screenshots');

before(async () => { env = await start(); });
after(async () => env && env.close());

const options = (page, id) => page.$$eval(`#${id} option:not([hidden])`, (os) => os.map((o) => o.value));

test('the regression task: its menus, its curve and scores, its link, a click', async () => {
  const { page, errors } = await openPage(env.browser, env.base, { width: 1280, height: 720 });
  assert.deepEqual(await options(page, 'task'), ['classification', 'regression', 'novelty']);
  await page.selectOption('#task', 'regression');
  await settle(page);
  assert.deepEqual(await options(page, 'model'), ['svr', 'nusvr', 'krr', 'lsq', 'lad']);
  assert.deepEqual(await options(page, 'preset'), ['sine', 'line_outliers', 'step', 'heteroscedastic']);
  assert.equal(await page.inputValue('#preset'), 'sine');
  const status = await page.textContent('#status');
  assert.match(status, /training RMSE [\d.]+ · R² 0\.\d+/);
  assert.match(status, /support vectors \d+ \(on the tube \d+, outside or at C \d+\)/);
  assert.doesNotMatch(status, /accuracy/);
  // A new point is a pair (x, t): no class to choose.
  assert.equal(await page.isVisible('#class-buttons'), false);
  // ε-SVR, the task's first method: its curve, its tube and its support vectors.
  const legend = await page.textContent('#legend-entries');
  for (const words of [/point \(x, t\)/, /fitted curve t = f\(x\)/, /ε-tube f ± ε/, /support vector/]) {
    assert.match(legend, words);
  }
  const link = await page.evaluate(() => window.kernelPlayground.link);
  assert.match(link, /[#&]task=regression(&|$)/);
  assert.match(link, /[#&]model=svr(&|$)/);
  await page.screenshot({ path: path.join(shots, 'task-regression-1280x720.png') });

  // A click adds a point (x, t) and the curve is refitted to it.
  const before = await lastFrame(page);
  const points = await page.evaluate(() => window.kernelPlayground.points().length);
  const [cx, cy] = await page.evaluate(() => window.kernelPlayground.toClient(0.5, 0.9));
  await page.mouse.click(cx, cy);
  await settle(page);
  assert.equal(await page.evaluate(() => window.kernelPlayground.points().length), points + 1);
  assert.notDeepEqual((await lastFrame(page)).facts, before.facts, 'refitted');

  // The link reopens the same scene: task, model and the point added.
  const again = await openPage(env.browser, env.base + (await page.evaluate(() => window.kernelPlayground.link)), { width: 1280, height: 720 });
  assert.equal(await again.page.inputValue('#task'), 'regression');
  assert.equal(await again.page.evaluate(() => window.kernelPlayground.points().length), points + 1);
  assert.equal(await again.page.textContent('#status'), await page.textContent('#status'));
  assert.deepEqual(again.errors, []);
  await again.page.close();

  // Back to classification: its methods and presets, accuracies again.
  await page.selectOption('#task', 'classification');
  await settle(page);
  assert.ok((await options(page, 'model')).includes('svm'));
  assert.equal(await page.isVisible('#class-buttons'), true);
  assert.ok(!(await options(page, 'preset')).includes('sine'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('novelty detection: the one-class SVM on unlabelled points, its ν-property, a click', async () => {
  const { page, errors } = await openPage(env.browser, env.base, { width: 1280, height: 720 });
  await page.selectOption('#task', 'novelty');
  await settle(page);
  assert.deepEqual(await options(page, 'model'), ['oneclass']);
  assert.deepEqual(await options(page, 'preset'), ['blob']);
  const status = await page.textContent('#status');
  const match = status.match(/outliers ([\d.]+) ≤ ν = ([\d.]+) ≤ ([\d.]+) support vectors/);
  assert.ok(match, status);
  const [outliers, nu, support] = match.slice(1).map(Number);
  assert.ok(outliers <= nu && nu <= support, match[0]);
  assert.doesNotMatch(status, /accuracy/);
  const legend = await page.textContent('#legend-entries');
  for (const words of [/point \(no label\)/, /boundary of the learned region/, /support vector/]) {
    assert.match(legend, words);
  }
  assert.match(await page.evaluate(() => window.kernelPlayground.link), /[#&]task=novelty(&|$)/);
  await page.screenshot({ path: path.join(shots, 'task-novelty-1280x720.png') });
  // A click where no point lies adds one.
  const all = await page.evaluate(() => window.kernelPlayground.points());
  const spots = [[0.6, 0.6], [-0.6, 0.6], [0.6, -0.6], [-0.6, -0.6], [0, 0.8], [0.8, 0]];
  const free = spots.find(([x, y]) => all.every(([px, py]) => Math.hypot(px - x, py - y) > 0.1));
  const [cx, cy] = await page.evaluate(([x, y]) => window.kernelPlayground.toClient(x, y), free);
  await page.mouse.click(cx, cy);
  await settle(page);
  assert.equal(await page.evaluate(() => window.kernelPlayground.points().length), all.length + 1);
  assert.deepEqual(errors, []);
  await page.close();
});
