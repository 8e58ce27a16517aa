// End-to-end: the methods and views that came through the registries — the Gaussian
// classifiers on three classes, and the loss view linked to the plane in both directions.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { start, openPage, lastFrame, settle, canvasSignature } from './browser.mjs';

let env;
const shots = path.resolve('tests/e2e/screenshots');

before(async () => { env = await start(); });
after(async () => env && env.close());

test('the model menu and controls come from the registry and the parameter table', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=blobs3&n=90&noise=0.3`);
  const options = await page.$$eval('#model option', (os) => os.map((o) => o.value));
  for (const id of ['svm', 'perceptron', 'logistic', 'knn', 'lda', 'qda', 'nb']) {
    assert.ok(options.includes(id), `${id} in the model menu`);
  }
  // Every control has a visible label, and the reg slider shows only for QDA.
  const unlabelled = await page.$$eval('[data-key]', (els) => els
    .filter((el) => !document.querySelector(`label[for="${el.id}"]`) && !el.closest('label'))
    .map((el) => el.id));
  assert.deepEqual(unlabelled, []);
  assert.equal(await page.isVisible('#reg'), false);
  await page.selectOption('#model', 'qda');
  await settle(page);
  assert.equal(await page.isVisible('#reg'), true);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Bayesian logistic regression: in the menu, fits the default scene, shows its evidence and posterior draws', async () => {
  const { page, errors } = await openPage(env.browser, env.base);
  const options = await page.$$eval('#model option', (os) => os.map((o) => o.value));
  assert.ok(options.includes('bayeslogistic'), 'in the model menu');
  await page.selectOption('#model', 'bayeslogistic');
  await settle(page);
  const frame = await lastFrame(page);
  assert.equal(frame.model, 'bayeslogistic');
  assert.equal(frame.message, null, String(frame.message));
  assert.ok(Number.isFinite(frame.log_evidence) && frame.log_evidence < 0, `log evidence ${frame.log_evidence}`);
  assert.ok(Number.isFinite(frame.occam), `Occam factor ${frame.occam}`);
  // The status line or its details name the evidence, the Occam factor and BIC.
  const said = `${await page.textContent('#status')} ${await page.textContent('#status-details')}`;
  assert.match(said, /log evidence -?[\d.]+/);
  assert.match(said, /Occam factor -?[\d.]+/);
  assert.match(said, /BIC/);
  const legend = await page.$$eval('#legend-entries li', (lis) => lis.map((li) => li.dataset.mark));
  assert.ok(legend.includes('posterior_samples'), legend.join(', '));
  await page.screenshot({ path: path.join(shots, 'model-bayeslogistic.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('LDA, QDA and naive Bayes: posterior regions, means and ellipses, their facts', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=blobs3&n=90&noise=0.3&model=lda`);
  const expectations = {
    lda: /priors π: class 1: [\d.]+, class 2: [\d.]+, class 3: [\d.]+/,
    qda: /priors π: class 1: [\d.]+, class 2: [\d.]+, class 3: [\d.]+/,
    nb: /priors π: class 1: [\d.]+, class 2: [\d.]+, class 3: [\d.]+/,
  };
  const seen = new Set();
  for (const [model, pattern] of Object.entries(expectations)) {
    await page.selectOption('#model', model);
    await settle(page);
    const frame = await lastFrame(page);
    assert.equal(frame.model, model);
    assert.equal(frame.classes, 3);
    assert.equal(frame.message, null, `${model}: ${frame.message}`);
    assert.ok(frame.train_accuracy > 0.85, `${model}: ${frame.train_accuracy}`);
    assert.match(await page.textContent('#status'), pattern, model);
    seen.add((await canvasSignature(page)).hash);
    await page.screenshot({ path: path.join(shots, `model-${model}.png`) });
  }
  assert.equal(seen.size, 3, 'each draws its own picture');
  // The hover shows the point's class parameters.
  await page.evaluate(() => document.getElementById('plot').scrollIntoView({ block: 'center' }));
  const frame = await lastFrame(page);
  assert.ok(frame.points > 0);
  const csv = await page.evaluate(() => window.kernelPlayground.points());
  const [x, y] = csv[0];
  const [cx, cy] = await page.evaluate(([a, b]) => window.kernelPlayground.toClient(a, b), [x, y]);
  await page.mouse.move(cx, cy);
  await page.waitForSelector('#tooltip:not([hidden])');
  assert.match(await page.textContent('#tooltip'), /prior π = .*class mean μ = .*Σ = \[\[/s);
  // A one-point class is a message, not a crash.
  await page.goto(`${env.base}#model=qda&points=0,0,0;0.5,0.5,0;0.2,0.1,0;0.9,0.9,1`);
  await page.waitForFunction(() => document.getElementById('message').textContent.includes('single point'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('the loss view: losses, ticks at the margins, and a hover link in both directions', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=overlapping&n=40&kernel=linear&views=loss`);
  assert.equal(await page.isVisible('#view'), true, 'the view opens from the link');
  assert.equal(await page.getAttribute('.view-tab[data-view="loss"]', 'aria-pressed'), 'true');
  assert.match(await page.textContent('#view-note'), /margin z = y·f\(x\)/);
  await page.evaluate(() => document.getElementById('view').scrollIntoView({ block: 'center' }));
  await settle(page);
  const plain = await canvasSignature(page, 'view');
  assert.ok(plain.colours > 4, 'the view is drawn');

  // A point hovered in the plane marks its tick.
  const [x, y] = (await page.evaluate(() => window.kernelPlayground.points()))[5];
  await page.evaluate(() => document.getElementById('plot').scrollIntoView({ block: 'start' }));
  const [cx, cy] = await page.evaluate(([a, b]) => window.kernelPlayground.toClient(a, b), [x, y]);
  await page.mouse.move(cx, cy);
  await settle(page);
  const hovered = await page.evaluate(() => window.kernelPlayground.highlighted);
  assert.ok(hovered >= 0, 'a point is under the pointer');
  assert.notEqual((await canvasSignature(page, 'view')).hash, plain.hash, 'its tick is marked');

  // A tick hovered in the view rings its point in the plane.
  await page.mouse.move(2, 2);
  await settle(page);
  const plane = await canvasSignature(page);
  await page.evaluate(() => document.getElementById('view').scrollIntoView({ block: 'center' }));
  const at = await page.evaluate(() => window.kernelPlayground.viewMarkClient(12));
  assert.ok(at, 'point 12 has a tick');
  await page.mouse.move(at[0], at[1]);
  await settle(page);
  const picked = await page.evaluate(() => window.kernelPlayground.highlighted);
  assert.ok(picked >= 0, 'hovering a tick picks a point');
  assert.notEqual((await canvasSignature(page)).hash, plane.hash, 'the plane rings it');
  await page.screenshot({ path: path.join(shots, 'loss-view.png'), fullPage: true });

  // The tab closes the view, and the link says so.
  await page.click('.view-tab[data-view="loss"]');
  await settle(page);
  assert.equal(await page.isVisible('#view'), false);
  await page.waitForFunction(() => location.hash.includes('views=&') || location.hash.endsWith('views='));
  assert.deepEqual(errors, []);
  await page.close();
});

test('least squares fails on the outlier preset where the SVM does not; kernel ridge shows β', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=outlier&n=100&model=lsq`);
  let frame = await lastFrame(page);
  assert.equal(frame.message, null);
  assert.ok(frame.train_accuracy < 1, `least squares misclassifies: ${frame.train_accuracy}`);
  assert.match(await page.textContent('#status'), /· w = \(-?[\d.]+, -?[\d.]+\) · b = /);
  // The residual, an inside number, is in the details.
  assert.match(await page.textContent('#status-details'), /Σ\(f − t\)² = [\d.]+/);
  await page.screenshot({ path: path.join(shots, 'model-lsq-outlier.png') });
  await page.selectOption('#model', 'svm');
  await page.selectOption('#kernel', 'linear');
  await page.check('#hard');
  await settle(page);
  frame = await lastFrame(page);
  assert.equal(frame.train_accuracy, 1, 'the hard margin separates them');

  await page.goto(`${env.base}#preset=moons&n=80&model=krr&kernel=rbf&gamma=3`);
  await page.waitForFunction(() => window.kernelPlayground.lastFrame && window.kernelPlayground.lastFrame.model === 'krr');
  frame = await lastFrame(page);
  assert.ok(frame.train_accuracy > 0.9, `${frame.train_accuracy}`);
  assert.match(await page.textContent('#status-details'), /‖β‖ = [\d.]+/);
  assert.equal(await page.isEnabled('#gamma'), true, 'γ matters for the RBF kernel');
  await page.selectOption('#kernel', 'linear');
  await settle(page);
  assert.equal(await page.isEnabled('#gamma'), false, 'not for the linear one');
  await page.selectOption('#kernel', 'rbf');
  await settle(page);
  await page.evaluate(() => document.getElementById('plot').scrollIntoView({ block: 'center' }));
  const [x, y] = (await page.evaluate(() => window.kernelPlayground.points()))[3];
  const [cx, cy] = await page.evaluate(([a, b]) => window.kernelPlayground.toClient(a, b), [x, y]);
  await page.mouse.move(cx, cy);
  await page.waitForSelector('#tooltip:not([hidden])');
  assert.match(await page.textContent('#tooltip'), /β = .*f\(x\) = t − λβ = /s);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Gram matrix: a heat map, and an indefinite sigmoid kernel said to be no Mercer kernel', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=xor&n=80&kernel=sigmoid&gamma=2&coef0=1&views=gram`);
  await page.evaluate(() => document.getElementById('view').scrollIntoView({ block: 'center' }));
  await settle(page);
  assert.match(await page.textContent('#view-note'), /not a Mercer kernel.*no longer concave/s);
  const gram = await canvasSignature(page, 'view');
  assert.ok(gram.colours > 8, `the heat map is drawn (${gram.colours} colours)`);
  await page.screenshot({ path: path.join(shots, 'gram-view.png'), fullPage: true });

  assert.deepEqual(errors, []);
  await page.close();
});

test('the kernel lift: XOR split by a plane in φ-space, turned by dragging and by the arrow keys', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=xor&n=80&kernel=poly&degree=2&coef0=0&C=10&views=lift`);
  await settle(page);
  assert.match(await page.textContent('#view-note'), /φ\(x\) = \(x₁², x₂², √2·x₁x₂\)/);
  await page.evaluate(() => document.getElementById('view').scrollIntoView({ block: 'center' }));
  await settle(page);
  const before = await canvasSignature(page, 'view');
  assert.ok(before.colours > 4, 'the lift is drawn');
  await page.screenshot({ path: path.join(shots, 'lift-view.png'), fullPage: true });

  // Dragging turns it.
  const box = await page.locator('#view').boundingBox();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.65, box.y + box.height * 0.55, { steps: 5 });
  await page.mouse.up();
  await settle(page);
  const turned = await canvasSignature(page, 'view');
  assert.notEqual(turned.hash, before.hash, 'dragging changes the picture');
  // So do the arrow keys, once the canvas has the focus.
  await page.focus('#view');
  await page.keyboard.press('ArrowLeft');
  await settle(page);
  assert.notEqual((await canvasSignature(page, 'view')).hash, turned.hash, 'an arrow key turns it');
  await page.screenshot({ path: path.join(shots, 'lift-view-turned.png'), fullPage: true });

  // Another kernel: the surface z = f(x).
  await page.selectOption('#kernel', 'rbf');
  await settle(page);
  assert.match(await page.textContent('#view-note'), /as a surface/);
  await page.screenshot({ path: path.join(shots, 'lift-view-surface.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the regularisation path fills in from the worker, and a click on it sets C', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=overlapping&n=60&kernel=linear&views=path`);
  await page.evaluate(() => document.getElementById('view').scrollIntoView({ block: 'center' }));
  await page.waitForFunction(() => {
    const note = document.getElementById('view-note').textContent;
    return note.includes('Small C') && !note.includes('solved…');
  }, null, { timeout: 30000 });
  assert.match(await page.textContent('#view-note'), /every α is C; up to C ≈ [\d.e-]+ α\/C stays the same/);
  assert.equal(await page.evaluate(() => window.kernelPlayground.background), 'worker', 'the path ran in a Web Worker');
  assert.equal(await page.isVisible('#view-progress'), false, 'no progress bar once the path is done');
  const drawn = await canvasSignature(page, 'view');
  assert.ok(drawn.colours > 6, `the curves are drawn (${drawn.colours} colours)`);
  await page.screenshot({ path: path.join(shots, 'path-view.png'), fullPage: true });

  // Hovering tells what a click sets; clicking sets it.
  const box = await page.locator('#view').boundingBox();
  const at = [box.x + box.width * 0.8, box.y + box.height * 0.3];
  await page.mouse.move(...at);
  await page.waitForFunction(() => document.getElementById('view-hover').textContent.includes('click to set C ='));
  const target = Number((await page.textContent('#view-hover')).match(/C = ([\d.e+-]+)/)[1]);
  assert.ok(target > 10, `right of the middle is a large C (${target})`);
  await page.mouse.click(...at);
  await page.waitForFunction(() => {
    const c = new URLSearchParams(location.hash.slice(1)).get('C');
    return c !== null && c !== '1';
  });
  const c = Number(new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)).get('C'));
  assert.ok(Math.abs(c / target - 1) < 1e-3, `C = ${c}, the click's ${target}`);
  // Moving C keeps the path: only the marker moves.
  await settle(page);
  assert.doesNotMatch(await page.textContent('#view-note'), /solved…/);
  assert.notEqual((await canvasSignature(page, 'view')).hash, drawn.hash, 'the marker moved');
  assert.deepEqual(errors, []);
  await page.close();
});
