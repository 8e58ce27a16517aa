// End-to-end: held-out test points — drawn hollow, never trained on, scored in the status line,
// turned in and out with T, and kept by a shared link.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { start, openPage, lastFrame, settle, canvasSignature } from './browser.mjs';

let env;
const shots = path.resolve('tests/e2e/screenshots');

before(async () => { env = await start(); });
after(async () => env && env.close());

test('a test fraction holds points out, draws them hollow and scores them', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=overlapping&n=80&noise=0.5&test=0.25&gamma=30&C=1000`);
  let frame = await lastFrame(page);
  assert.equal(frame.test_points, 20);
  assert.equal(frame.train_points, 60);
  assert.ok(frame.test_accuracy !== null);
  assert.match(await page.textContent('#status'), /^training accuracy [\d.]+% · test accuracy [\d.]+% \(20 held out\)/);
  // A wiggly model fits its training points better than the held-out ones.
  assert.ok(frame.train_accuracy > frame.test_accuracy, `${frame.train_accuracy} > ${frame.test_accuracy}`);
  const hollow = await canvasSignature(page);
  await page.screenshot({ path: path.join(shots, 'held-out.png') });
  await page.fill('#test', '0');
  await page.dispatchEvent('#test', 'input');
  await settle(page);
  frame = await lastFrame(page);
  assert.equal(frame.test_points, 0);
  assert.notEqual((await canvasSignature(page)).hash, hollow.hash, 'the picture changes');
  assert.doesNotMatch(await page.textContent('#status'), /test accuracy/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('T turns the point under the pointer into a test point, and the link keeps it', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=40&test=0.2`);
  assert.equal((await lastFrame(page)).test_points, 8);
  await page.evaluate(() => document.getElementById('plot').scrollIntoView({ block: 'center' }));
  const points = await page.evaluate(() => window.kernelPlayground.points());
  const [cx, cy] = await page.evaluate(([a, b]) => window.kernelPlayground.toClient(a, b), points[0]);
  await page.mouse.move(cx, cy);
  await settle(page);
  const tooltip = await page.textContent('#tooltip');
  const wasTest = /test point/.test(tooltip);
  await page.keyboard.press('t');
  await settle(page);
  const frame = await lastFrame(page);
  assert.equal(frame.test_points, wasTest ? 7 : 9, 'T flips its role');
  await page.waitForFunction(() => location.hash.includes('points='));
  const hash = await page.evaluate(() => location.hash);
  const copy = await openPage(env.browser, `${env.base}${hash}`);
  const reopened = await lastFrame(copy.page);
  assert.equal(reopened.test_points, frame.test_points);
  assert.equal(reopened.test_accuracy, frame.test_accuracy);
  assert.deepEqual(errors, []);
  assert.deepEqual(copy.errors, []);
  await copy.page.close();
  await page.close();
});

test('the ROC view: the curve of the test points, and a threshold that moves the boundary', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=overlapping&n=80&noise=0.5&test=0.25&views=roc`);
  await page.evaluate(() => document.getElementById('view').scrollIntoView({ block: 'center' }));
  await settle(page);
  assert.match(await page.textContent('#view-note'), /ROC of f\(x\) on the 20 held-out test points/);
  // Only the settings the view reads are shown above it.
  assert.equal(await page.isVisible('#threshold'), true);
  assert.equal(await page.isVisible('#folds'), false);
  const note = await page.textContent('#view-note');
  const plane = await canvasSignature(page);
  const view = await canvasSignature(page, 'view');
  await page.fill('#threshold', '1');
  await page.dispatchEvent('#threshold', 'input');
  await settle(page);
  assert.notEqual(await page.textContent('#view-note'), note, 'the confusion counts follow t');
  assert.match(await page.textContent('#view-note'), /At t = 1: TP \d+, FP \d+, TN \d+, FN \d+/);
  assert.notEqual((await canvasSignature(page)).hash, plane.hash, 'the boundary moves to f = t');
  assert.notEqual((await canvasSignature(page, 'view')).hash, view.hash, 'the operating point moves');
  await page.screenshot({ path: path.join(shots, 'roc-view.png'), fullPage: true });
  await page.waitForFunction(() => location.hash.includes('threshold=1'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('learning curves fill in behind the page, with a second method dashed beside', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=120&noise=0.3&model=logistic&views=learning&folds=3`, { width: 1280, height: 720 });
  await page.waitForFunction(() => {
    const note = document.getElementById('view-note').textContent;
    return note.includes('logistic regression: accuracy') && !note.includes('sizes scored');
  }, null, { timeout: 30000 });
  assert.equal(await page.evaluate(() => window.kernelPlayground.background), 'worker', 'the curves ran in a Web Worker');
  assert.doesNotMatch(await page.textContent('#view-note'), /Dashed/);
  assert.equal(await page.isVisible('#learn_vs'), true);
  assert.equal(await page.isVisible('#folds'), true);
  await page.selectOption('#learn_vs', 'nb');
  await page.waitForFunction(() => {
    const note = document.getElementById('view-note').textContent;
    return note.includes('Dashed: Gaussian naive Bayes.') && !note.includes('sizes scored');
  }, null, { timeout: 30000 });
  assert.match(await page.evaluate(() => window.kernelPlayground.link), /[#&]learn_vs=nb(&|$)/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('model choice: evidence, BIC and CV accuracy along the degree, computed behind the page; a click sets the degree', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=rings&n=80&noise=0.1&seed=3&model=bayeslogistic&features=poly&degree=2&lambda=1&views=model-choice&folds=3`, { width: 1280, height: 720 });
  await page.waitForFunction(() => document.getElementById('view-note').textContent.includes('Three choices of degree'), null, { timeout: 30000 });
  assert.match(await page.textContent('#view-note'), /for Bayesian logistic regression.*: the Laplace log-evidence .*, BIC and 3-fold cross-validated accuracy .* here evidence \d+, CV \d+;/);
  const degree = async () => new URLSearchParams((await page.evaluate(() => window.kernelPlayground.link)).slice(1)).get('degree');
  assert.equal(await degree(), '2');
  // At 1280 × 720 the two panels stand side by side (stacked, the lower would not fit): a
  // click near the right end of the left one (log-evidence) sets a high degree, a click near
  // the left end of the right one (CV accuracy) a low one. (One panel across the whole width
  // would read the first as degree 4 and the second as 7.)
  const box = await page.locator('#view').boundingBox();
  const clickAt = async (fraction, before) => {
    await page.mouse.click(Math.round(box.x + box.width * fraction), Math.round(box.y + box.height * 0.3));
    await page.waitForFunction((d) => !new RegExp(`[#&]degree=${d}(&|$)`).test(window.kernelPlayground.link), before);
    return Number(await degree());
  };
  const high = await clickAt(0.4, '2');
  assert.ok(Number.isInteger(high) && high >= 7 && high <= 10, `degree ${high} from the left panel`);
  const low = await clickAt(0.72, String(high));
  assert.ok(Number.isInteger(low) && low >= 2 && low <= 4, `degree ${low} from the right panel`);
  // Another method is told what the view needs.
  await page.selectOption('#model', 'lda');
  await page.waitForFunction(() => document.getElementById('view-note').textContent.includes('choose Bayesian logistic regression'), null, { timeout: 30000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the cross-validation grid fills in without freezing the page; a click moves the sliders', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=60&noise=0.3&views=cv&folds=3`);
  await page.evaluate(() => document.getElementById('view').scrollIntoView({ block: 'center' }));
  // While the grid fills in, dragging a point still gets frames.
  const before = await lastFrame(page);
  const [x, y] = (await page.evaluate(() => window.kernelPlayground.points()))[0];
  await page.evaluate(() => document.getElementById('plot').scrollIntoView({ block: 'start' }));
  const [cx, cy] = await page.evaluate(([a, b]) => window.kernelPlayground.toClient(a, b), [x, y]);
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  for (let i = 1; i <= 5; i++) await page.mouse.move(cx + 8 * i, cy + 4 * i);
  await page.mouse.up();
  await settle(page);
  assert.notDeepEqual(await lastFrame(page), before, 'the drag was drawn');
  await page.evaluate(() => document.getElementById('view').scrollIntoView({ block: 'center' }));
  await page.waitForFunction(() => {
    const note = document.getElementById('view-note').textContent;
    return note.includes('best') && !note.includes('cells done');
  }, null, { timeout: 30000 });
  assert.equal(await page.isVisible('#view-progress'), false, 'the progress bar goes once the grid is done');
  assert.equal(await page.getAttribute('#view-progress', 'max'), '169');
  assert.match(await page.textContent('#view-note'), /Mean 3-fold cross-validation accuracy on the 60 training points/);
  assert.equal(await page.isVisible('#folds'), true);
  assert.equal(await page.isVisible('#threshold'), false);
  assert.equal(await page.evaluate(() => window.kernelPlayground.background), 'worker', 'the grid ran in a Web Worker');
  const box = await page.locator('#view').boundingBox();
  // Whole pixels: a click event's coordinates are whole, a move's need not be, and the two
  // must name the same cell.
  const [hx, hy] = [Math.round(box.x + box.width * 0.45), Math.round(box.y + box.height * 0.45)];
  await page.mouse.move(hx, hy);
  await page.waitForFunction(() => document.getElementById('view-hover').textContent.includes('CV accuracy'));
  assert.match(await page.textContent('#view-hover'), /C = [\d.e-]+, γ = [\d.e-]+: CV accuracy [\d.]+ ± [\d.]+ \(folds [\d., ]+\)/);
  const hover = await page.textContent('#view-hover');
  const [, cellC, cellGamma] = hover.match(/C = ([\d.e-]+), γ = ([\d.e-]+)/);
  await page.mouse.click(hx, hy);
  await settle(page);
  // Both settings become the cell's (the hover prints them to four digits).
  await page.waitForFunction(() => {
    const c = new URLSearchParams(location.hash.slice(1)).get('C');
    return c !== null && c !== '1';
  });
  const after = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
  const near = (a, b) => Math.abs(Number(a) / Number(b) - 1) < 1e-3;
  assert.ok(near(after.get('C'), cellC), `C = ${after.get('C')}, the cell's ${cellC}`);
  assert.ok(near(after.get('gamma'), cellGamma), `γ = ${after.get('gamma')}, the cell's ${cellGamma}`);
  await page.waitForFunction(() => location.hash.includes('views=cv'));
  await page.screenshot({ path: path.join(shots, 'cv-view.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the validation curve follows the slider moved last', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=overlapping&n=60&noise=0.5&views=curve&folds=3&C=100`);
  await page.focus('#gamma');
  await page.keyboard.press('ArrowRight');
  await settle(page);
  await page.evaluate(() => document.getElementById('view').scrollIntoView({ block: 'center' }));
  await page.waitForFunction(() => {
    const note = document.getElementById('view-note').textContent;
    return note.includes('along γ') && !note.includes('cross-validated…');
  }, null, { timeout: 30000 });
  const drawn = await canvasSignature(page, 'view');
  assert.ok(drawn.colours > 4, 'the curves are drawn');
  await page.screenshot({ path: path.join(shots, 'curve-view.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});
