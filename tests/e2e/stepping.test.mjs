// End-to-end: stepping through SMO (the working pair ringed, the inset, the violation in the
// status) and the training-trace view, whose click steps to the iteration under the pointer;
// Run to end leaves the model the scene's link reopens.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { start, openPage, lastFrame, settle, canvasSignature, waitForFrame } from './browser.mjs';

let env;
const shots = path.resolve('tests/e2e/screenshots');

before(async () => { env = await start(); });
after(async () => env && env.close());

test('stepping through SMO and scrubbing its trace', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=40&kernel=rbf&gamma=2&C=10&views=trace`);
  const full = await lastFrame(page);
  assert.equal(await page.isVisible('#step-reset'), true, 'the SVM is steppable');
  await page.waitForFunction(() => document.getElementById('view-note').textContent.includes('whole run'));
  assert.match(await page.textContent('#view-note'), /dual D\(α\) and primal P\(w, b\)/);
  await page.click('#step-reset');
  await settle(page);
  let frame = await lastFrame(page);
  assert.equal(frame.steps, 0);
  assert.equal(frame.iterations, 0, 'reset: α = 0');
  const signatures = new Set([(await canvasSignature(page)).hash]);
  for (let i = 1; i <= 3; i++) {
    await page.click('#step');
    await settle(page);
    frame = await lastFrame(page);
    assert.equal(frame.iterations, i, `step ${i} makes one pair update`);
    assert.match(String(frame.pair), /^\(\d+, \d+\)$/, 'the working pair');
    assert.ok(frame.violation > 0, 'the violation is reported');
    signatures.add((await canvasSignature(page)).hash);
  }
  assert.ok(signatures.size > 2, 'the boundary and the ring move as it steps');
  // The step's numbers are in the details beside the status line.
  const status = await page.textContent('#status-details');
  assert.match(status, /KKT violation m\(α\) − M\(α\) = [\d.e-]+ ≥ tol/);
  assert.match(status, /α_i: [\d.e-]+ → [\d.e-]+/);
  await page.screenshot({ path: path.join(shots, 'smo-step.png'), fullPage: true });
  // A click on the trace, two thirds of the way along its x axis in the top panel, steps there.
  await page.evaluate(() => document.getElementById('view').scrollIntoView({ block: 'center' }));
  const box = await page.locator('#view').boundingBox();
  await page.mouse.click(Math.round(box.x + box.width * 0.66), Math.round(box.y + box.height * 0.3));
  await settle(page);
  frame = await lastFrame(page);
  assert.ok(frame.steps > 3, `the click steps on (to ${frame.steps})`);
  assert.equal(frame.iterations, frame.steps);
  assert.ok(frame.steps <= full.iterations + 1);
  await page.screenshot({ path: path.join(shots, 'trace-view.png'), fullPage: true });
  await page.click('#step-finish');
  await settle(page);
  assert.equal((await lastFrame(page)).steps ?? null, null);
  assert.deepEqual(errors, []);
  await page.close();
});

test('choosing dual coordinate ascent in the page and stepping it', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=40&kernel=rbf&gamma=2&C=1&views=trace`);
  // The solver menu comes from the parameter table, shown for the SVM.
  assert.equal(await page.isVisible('#svm-solver'), true, 'the SVM shows its solver menu');
  assert.equal(await page.inputValue('#svm-solver'), 'smo', 'SMO by default');
  let before = await lastFrame(page);
  await page.selectOption('#svm-solver', 'dca');
  let frame = await waitForFrame(page, before);
  assert.match(await page.textContent('#status-details'), /solver DCA \(bias absorbed: K \+ 1\)/);
  // The link keeps the solver (written a moment after the change).
  await page.waitForFunction(() => location.hash.split('&').includes('solver=dca'));
  await page.waitForFunction(() => document.getElementById('view-note').textContent.includes('primal P(w̃)'));
  assert.match(await page.textContent('#view-note'), /dual D\(α\) and primal P\(w̃\)/);
  await page.click('#step-reset');
  await settle(page);
  frame = await lastFrame(page);
  assert.equal(frame.steps, 0);
  assert.equal(frame.iterations, 0, 'reset: α = 0');
  const ringed = new Set();
  const signatures = new Set([(await canvasSignature(page)).hash]);
  for (let i = 1; i <= 4; i++) {
    await page.click('#step');
    await settle(page);
    frame = await lastFrame(page);
    assert.equal(frame.iterations, i, `step ${i} is one coordinate update`);
    assert.equal(typeof frame.step_point, 'number', 'the ringed point');
    ringed.add(frame.step_point);
    assert.ok(frame.alpha_after >= 0 && frame.alpha_after <= 1, 'α_i stays in [0, C]');
    signatures.add((await canvasSignature(page)).hash);
  }
  assert.equal(ringed.size, 4, 'each step of an epoch visits another point');
  assert.ok(signatures.size > 3, 'the ring and the boundary move as it steps');
  const status = await page.textContent('#status-details');
  assert.match(status, /point i = \d+/);
  assert.match(status, /α_i: [\d.e-]+ → [\d.e-]+/);
  assert.match(status, /largest projected gradient = [\d.e-]+ ≥ tol/);
  await page.screenshot({ path: path.join(shots, 'dca-step.png'), fullPage: true });
  await page.click('#step-finish');
  await settle(page);
  assert.equal((await lastFrame(page)).steps ?? null, null);
  // Pegasos from the same menu: its steps and the primal trace.
  before = await lastFrame(page);
  await page.selectOption('#svm-solver', 'pegasos');
  frame = await waitForFrame(page, before);
  assert.equal(frame.iterations, 20000, 'Pegasos runs its 20 000 steps');
  await page.waitForFunction(() => document.getElementById('view-note').textContent.includes('Pegasos'));
  assert.deepEqual(errors, []);
  await page.close();
});

// The status line without the timings, which differ from frame to frame.
const numbers = (status) => status.replace(/ · fit [\d.]+ ms of a [\d.]+ ms frame$/, '');

test('Run to end leaves the model the link reopens, to the last digit', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=40&kernel=rbf&gamma=2&C=10`);
  await page.click('#step-reset');
  await settle(page);
  for (let i = 1; i <= 3; i++) {
    await page.click('#step');
    await settle(page);
    assert.equal((await lastFrame(page)).steps, i);
  }
  await page.click('#step-finish');
  await settle(page);
  const ended = await lastFrame(page);
  assert.equal(ended.steps ?? null, null, 'the whole run');
  const status = numbers(await page.textContent('#status'));
  assert.match(status, /b = -?[\d.]+/);
  const link = await page.evaluate(() => window.kernelPlayground.link);

  const copy = await openPage(env.browser, `${env.base}${link}`);
  await settle(copy.page);
  const reopened = await lastFrame(copy.page);
  assert.equal(reopened.bias, ended.bias, 'b, to the last digit');
  assert.equal(reopened.iterations, ended.iterations, 'the same run');
  assert.equal(reopened.objective, ended.objective);
  assert.equal(numbers(await copy.page.textContent('#status')), status, 'the same status line');
  assert.deepEqual(errors, []);
  assert.deepEqual(copy.errors, []);
  await page.close();
  await copy.page.close();
});
