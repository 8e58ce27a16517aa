// End-to-end: the four models on one scene, their sliders, stepping, and three classes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { start, openPage, lastFrame, settle, canvasSignature } from './browser.mjs';

let env;
const shots = path.resolve('tests/e2e/screenshots');

before(async () => { env = await start(); });
after(async () => env && env.close());

async function choose(page, id, value) {
  await page.selectOption(`#${id}`, value);
  await settle(page);
  return lastFrame(page);
}

async function pressOn(page, id, key, times) {
  await page.focus(`#${id}`);
  for (let i = 0; i < times; i++) await page.keyboard.press(key);
  await settle(page);
  return lastFrame(page);
}

test('switching models keeps the points and shows each method', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=80&noise=0.3`);
  const seen = new Set();
  const expectations = {
    perceptron: /mistakes \d+/,
    logistic: /training accuracy [\d.]+%/,
    knn: /k = 5/,
    svm: /support vectors \d+ \(free \d+, bound \d+\)/,
  };
  for (const [model, pattern] of Object.entries(expectations)) {
    const frame = await choose(page, 'model', model);
    assert.equal(frame.points, 80, model);
    assert.equal(frame.model, model);
    assert.ok(frame.train_accuracy > 0.5, `${model} learns something`);
    assert.match(await page.textContent('#status'), pattern, model);
    // Each model's own controls, and only those, are visible.
    const visible = await page.isVisible('#k');
    assert.equal(visible, model === 'knn', `k slider visible for ${model}`);
    seen.add((await canvasSignature(page)).hash);
    await page.screenshot({ path: path.join(shots, `model-${model}.png`) });
  }
  assert.equal(seen.size, 4, 'each model draws a different picture');
  await page.waitForFunction(() => location.hash.includes('model=svm'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('the k and λ sliders refit live', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=overlapping&n=120&noise=0.4&model=knn&k=1`);
  const one = await canvasSignature(page);
  let frame = await pressOn(page, 'k', 'ArrowRight', 8);
  assert.equal(frame.k, 9);
  assert.equal(await page.inputValue('#k-value'), '9');
  assert.notEqual((await canvasSignature(page)).hash, one.hash, 'k changes the regions');

  await choose(page, 'model', 'logistic');
  const before = await lastFrame(page);
  frame = await pressOn(page, 'lambda', 'ArrowRight', 120);
  assert.ok(Number(await page.inputValue('#lambda-value')) > 0.01, 'λ readout moved');
  assert.notEqual(frame.objective, before.objective, 'λ changes the fit');
  assert.ok(frame.log_loss > before.log_loss, 'a stronger penalty fits the training data less closely');
  assert.deepEqual(errors, []);
  await page.close();
});

test('stepping through a perceptron run', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=separable&n=30&model=perceptron&kernel=linear`);
  const full = await lastFrame(page);
  assert.equal(full.converged, true);
  assert.ok(full.novikoff_bound >= full.mistakes, 'mistakes within Novikoff’s bound');
  assert.match(await page.textContent('#status'), /≤ Novikoff bound/);
  await page.click('#step-reset');
  await settle(page);
  let frame = await lastFrame(page);
  assert.equal(frame.steps, 0);
  assert.equal(frame.mistakes, 0, 'reset: w = 0');
  const signatures = new Set([(await canvasSignature(page)).hash]);
  for (let i = 1; i <= Math.min(3, full.mistakes); i++) {
    await page.click('#step');
    await settle(page);
    frame = await lastFrame(page);
    assert.equal(frame.mistakes, i, `step ${i} makes one update`);
    signatures.add((await canvasSignature(page)).hash);
  }
  assert.ok(signatures.size > 1, 'the boundary moves as it steps');
  await page.click('#step-finish');
  await settle(page);
  assert.equal((await lastFrame(page)).mistakes, full.mistakes);
  assert.deepEqual(errors, []);
  await page.close();
});

test('three classes: presets, keys 3–6, and every model', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=blobs3&n=90&model=svm&kernel=linear`);
  let frame = await lastFrame(page);
  assert.equal(frame.classes, 3);
  assert.equal(frame.scheme, 'ovo');
  assert.equal(frame.members, 3);
  assert.ok(frame.train_accuracy > 0.9);
  assert.ok(frame.support > 0, 'support vectors of the pairwise models are marked');
  // The third class's colour (Okabe–Ito bluish green) paints a region.
  const greenish = await page.evaluate(() => {
    const c = document.getElementById('plot');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let count = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i + 1] > d[i] + 40 && d[i + 1] > d[i + 2] + 10) count++;
    return count;
  });
  assert.ok(greenish > 1000, `class 3 region drawn (${greenish} px)`);
  for (const model of ['perceptron', 'logistic', 'knn']) {
    frame = await choose(page, 'model', model);
    assert.equal(frame.classes, 3, model);
    assert.equal(frame.message, null, `${model}: ${frame.message}`);
    assert.ok(frame.train_accuracy > 0.8, model);
  }
  await choose(page, 'model', 'svm');
  frame = await choose(page, 'mc', 'ovr');
  assert.equal(frame.scheme, 'ovr');
  // Key 4 picks a fourth class for new points.
  await page.keyboard.press('Escape');
  await page.locator('body').focus();
  await page.keyboard.press('4');
  assert.equal(await page.getAttribute('.class-button[data-label="3"]', 'aria-pressed'), 'true');
  await page.evaluate(() => document.getElementById('plot').scrollIntoView({ block: 'center' }));
  for (const [x, y] of [[0.85, -0.85], [0.9, -0.7], [0.75, -0.9]]) {
    const [cx, cy] = await page.evaluate(([a, b]) => window.kernelPlayground.toClient(a, b), [x, y]);
    await page.mouse.click(cx, cy);
  }
  await settle(page);
  frame = await lastFrame(page);
  assert.equal(frame.classes, 4);
  assert.equal(frame.members, 4, 'one-vs-rest: one model per class');
  await page.screenshot({ path: path.join(shots, 'four-classes.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('k-NN draws lines to the neighbours of the pointer', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=60&model=knn&k=7`);
  await page.evaluate(() => document.getElementById('plot').scrollIntoView({ block: 'center' }));
  const [cx, cy] = await page.evaluate(() => window.kernelPlayground.toClient(0.05, 0.1));
  await page.mouse.move(5, 5);
  await settle(page);
  const away = await canvasSignature(page);
  await page.mouse.move(cx, cy);
  await settle(page);
  assert.notEqual((await canvasSignature(page)).hash, away.hash, 'neighbour lines drawn');
  assert.match(await page.textContent('#tooltip'), /votes class 1: [\d.]+%, class 2: [\d.]+%/);
  assert.deepEqual(errors, []);
  await page.close();
});
