// End-to-end: the views beside the plane in regression and in novelty detection. Every view's
// tab opens a figure or a sentence that says why the view does not apply here — drawn in the
// picture as large as the plane's tick labels, inside the canvas, and written under it — and
// none speaks of accuracies, margins y·f(x) or classes; the loss view shows the residuals (or
// the one-class SVM's slack); a click in the regression validation curve sets its parameter;
// no console errors. Screenshots of the regression loss view and CV grid at 1280 × 720 and
// 390 × 844.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { start } from './browser.mjs';
import { openRecording, viewDone, drawn, problems, tickSize } from './texts.mjs';

let env;
const shots = path.resolve('tests/e2e/screenshots');

before(async () => { env = await start(); });
after(async () => env && env.close());

const open = (hash, size) => openRecording(env, hash, size);

// What each scene's loss view must say, and its own loss as the legend draws it.
const SCENES = [
  ['task=regression&model=svr&n=40', /residual r = t − f\(x\)/, /^ε-insensitive  ← this model$/],
  ['task=regression&model=lsq&n=40', /residual r = t − f\(x\)/, /^squared  ← this model$/],
  ['task=novelty&n=40', /slack is −f\(x\)/, /^slack max\(0, −f\(x\)\)$/],
];

for (const [scene, lossNote, ownLoss] of SCENES) {
  test(`${scene}: every view shows a figure or says why not, in words large enough`, async () => {
    const { page, errors } = await open(scene);
    const tick = tickSize(await drawn(page, 'plot'));
    const ids = await page.$$eval('.view-tab', (tabs) => tabs.map((t) => t.dataset.view));
    assert.ok(ids.length >= 10, `every view has a tab (${ids})`);
    const found = [];
    for (const id of ids) {
      await page.click(`.view-tab[data-view="${id}"]`);
      await viewDone(page);
      assert.equal(await page.getAttribute(`.view-tab[data-view="${id}"]`, 'aria-pressed'), 'true');
      const note = (await page.textContent('#view-note')).trim();
      assert.ok(note.length > 30, `${id}: a sentence under the figure ('${note}')`);
      assert.doesNotMatch(note, /accuracy|y·f\(x\)|ordered by class/, `${id}: ${note}`);
      const figure = await drawn(page, 'view');
      assert.ok(figure.texts.length > 0, `${id}: words in the picture`);
      for (const p of problems(figure, tick)) found.push(`${id}: ${p}`);
      if (id === 'loss') {
        assert.match(note, lossNote);
        assert.ok(figure.texts.some((t) => ownLoss.test(t.text)), `the own loss is marked: ${figure.texts.map((t) => t.text)}`);
      }
    }
    assert.deepEqual(found, []);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('regression: a click in the validation curve sets its parameter, and the views are photographed', async () => {
  const { page, errors } = await open('task=regression&model=krr&n=40&folds=3&views=curve');
  await page.evaluate(() => document.getElementById('view').scrollIntoView({ block: 'center' }));
  await viewDone(page);
  assert.match(await page.textContent('#view-note'), /cross-validated R² along λ/);
  const box = await page.locator('#view').boundingBox();
  const at = [box.x + box.width * 0.75, box.y + box.height * 0.45];
  await page.mouse.move(...at);
  await page.waitForFunction(() => document.getElementById('view-hover').textContent.includes('click to set λ ='));
  const target = Number((await page.textContent('#view-hover')).match(/λ = ([\d.e+-]+)/)[1]);
  await page.mouse.click(...at);
  await page.waitForFunction(() => {
    const lambda = new URLSearchParams(location.hash.slice(1)).get('lambda');
    return lambda !== null && lambda !== '0.01';
  });
  const lambda = Number(new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)).get('lambda'));
  assert.ok(Math.abs(lambda / target - 1) < 1e-3, `λ = ${lambda}, the click's ${target}`);
  assert.deepEqual(errors, []);
  await page.close();

  for (const [width, height] of [[1280, 720], [390, 844]]) {
    for (const view of ['loss', 'cv']) {
      const shot = await open(`task=regression&model=svr&views=${view}`, { width, height });
      await shot.page.evaluate(() => document.getElementById('view').scrollIntoView({ block: 'center' }));
      await viewDone(shot.page);
      await shot.page.screenshot({ path: path.join(shots, `regression-${view}-${width}x${height}.png`) });
      assert.deepEqual(shot.errors, []);
      await shot.page.close();
    }
  }
});

// The learning curves' "beside it" offers the methods of the scene's task; a classification
// method chosen before the task changed is not shown as chosen (nor run).
test('the learning curves offer a second method of the scene\'s own task', async () => {
  const offered = (page) => page.$eval('[data-key="learn_vs"]', (s) => [s.value, [...s.options].map((o) => o.value)]);
  const { page, errors } = await open('task=regression&model=krr&n=40&folds=3&views=learning&learn_vs=nb');
  await viewDone(page);
  const [chosen, options] = await offered(page);
  assert.equal(chosen, 'none');
  assert.deepEqual(options, ['none', 'svr', 'nusvr', 'krr', 'lsq', 'lad']);
  await page.selectOption('[data-key="learn_vs"]', 'lsq');
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('learn_vs') === 'lsq');
  await page.selectOption('#task', 'classification');
  await page.waitForFunction(() => document.querySelector('[data-key="learn_vs"]').options.length > 6);
  const [, classification] = await offered(page);
  assert.ok(classification.includes('nb') && !classification.includes('svr'), String(classification));
  assert.deepEqual(errors, []);
  await page.close();
});
