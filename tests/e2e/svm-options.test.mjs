// End-to-end: LIBSVM's svm-train options and svm-toy's files. An option string typed into the
// model panel sets the task, the method and its parameters (svm-toy's `-s 3 -t 2 -c 10 -g 2
// -p 0.1` is ε-SVR with those values), one Back undoes it, the box shows the scene's own
// settings as such a string, and a string that cannot be read changes nothing and says why.
// Files follow the task: in regression `x,t` rows and LIBSVM's `t 1:x` (what svm-toy saves)
// are points (x, t), kept as written; in novelty detection a file's labels are ignored and the
// page says so. No console errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, settle } from './browser.mjs';

let env;
before(async () => { env = await start(); });
after(async () => env && env.close());

async function typeOptions(page, text) {
  await page.evaluate(() => { document.getElementById('model-more').open = true; });
  await page.fill('#svm-options', text);
  await page.press('#svm-options', 'Enter');
  await settle(page);
}

test('an svm-train option string sets the task, the method and its values', async () => {
  const { page, errors } = await openPage(env.browser, env.base, { width: 1280, height: 720 });
  await settle(page);
  assert.equal(await page.inputValue('#model'), 'svm');
  const opening = await page.inputValue('#svm-options');
  assert.match(opening, /^-s 0 -t 2 -g \S+ -c \S+ -e \S+$/);

  await typeOptions(page, '-s 3 -t 2 -c 10 -g 2 -p 0.1');
  assert.equal(await page.inputValue('#task'), 'regression');
  assert.equal(await page.inputValue('#model'), 'svr');
  assert.equal(await page.inputValue('#kernel'), 'rbf');
  for (const [key, value] of [['C', '10'], ['gamma', '2'], ['epsilon', '0.1']]) {
    assert.equal(await page.evaluate((k) => window.kernelPlayground.setting(k), key), value, key);
  }
  const link = await page.evaluate(() => window.kernelPlayground.link);
  for (const part of ['task=regression', 'model=svr', 'C=10', 'gamma=2']) assert.ok(link.includes(part), `${part} in ${link}`);
  assert.match(await page.textContent('#status'), /training RMSE/);
  assert.equal(await page.inputValue('#svm-options'), '-s 3 -t 2 -g 2 -c 10 -p 0.1 -e 0.001');
  assert.equal(await page.isVisible('#message'), false);

  // Read past, with a note: an option the type does not use.
  await typeOptions(page, '-s 1 -t 0 -c 5 -n 0.3');
  assert.equal(await page.inputValue('#model'), 'nusvc');
  assert.match(await page.textContent('#message'), /'-c' is not used by ν-SVM/);

  // A string that cannot be read changes nothing and says why in one line.
  const before = await page.evaluate(() => window.kernelPlayground.link);
  await typeOptions(page, '-s 3 -t 4');
  assert.match(await page.textContent('#message'), /svm-train options: -t 4, a precomputed kernel/);
  assert.equal(await page.getAttribute('#svm-options', 'aria-invalid'), 'true');
  assert.equal(await page.evaluate(() => window.kernelPlayground.link), before);

  // One Back undoes the whole string: ν-SVC goes, ε-SVR comes back.
  await page.click('#undo');
  await settle(page);
  assert.equal(await page.inputValue('#model'), 'svr');
  assert.equal(await page.evaluate(() => window.kernelPlayground.setting('C')), '10');

  // A method outside LIBSVM has no string, and the box says why.
  await page.selectOption('#task', 'classification');
  await settle(page);
  await page.selectOption('#model', 'knn');
  await settle(page);
  assert.equal(await page.inputValue('#svm-options'), '');
  assert.match(await page.getAttribute('#svm-options', 'placeholder'), /not one of LIBSVM's models/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("files follow the task: svm-toy's regression lines, x,t rows, a novelty file's labels", async () => {
  const { page, errors } = await openPage(env.browser, env.base, { width: 1280, height: 720 });
  await page.selectOption('#task', 'regression');
  await settle(page);
  const load = async (name, text) => {
    await page.setInputFiles('#load-csv', { name, mimeType: 'text/plain', buffer: Buffer.from(text) });
    await settle(page);
  };
  await load('toy.libsvm', '-0.50 1:0.10\n0.25 1:-0.3\n1 1:0.7\n0.125 1:0.4\n');
  assert.deepEqual(await page.evaluate(() => window.kernelPlayground.points()),
    [[0.1, -0.5], [-0.3, 0.25], [0.7, 1], [0.4, 0.125]]);
  assert.match(await page.evaluate(() => window.kernelPlayground.link), /points=0\.10,-0\.50,0;/);
  assert.match(await page.textContent('#status'), /training RMSE/);
  assert.equal(await page.evaluate(() => window.kernelPlayground.csv()), 'x,t\n0.10,-0.50\n-0.3,0.25\n0.7,1\n0.4,0.125\n');
  assert.equal(await page.evaluate(() => window.kernelPlayground.libsvm()), '-0.50 1:0.10\n0.25 1:-0.3\n1 1:0.7\n0.125 1:0.4\n');
  await load('pairs.csv', 'x,t\n0,1\n1,2\n2,2.5\n');
  assert.equal(await page.evaluate(() => window.kernelPlayground.points().length), 3);
  // A classification file is refused in regression, with its line, and nothing changes.
  await load('labels.csv', 'x,y,label\n0,0,1\n1,1,0\n');
  assert.match(await page.textContent('#message'), /labels\.csv: line 1: a regression file has two columns/);
  assert.equal(await page.evaluate(() => window.kernelPlayground.points().length), 3);

  await page.selectOption('#task', 'novelty');
  await settle(page);
  await load('labelled.csv', '0,0,a\n0.2,0.1,b\n-0.1,0.3,a\n0.3,-0.2,b\n');
  assert.equal(await page.evaluate(() => window.kernelPlayground.points().length), 4);
  assert.match(await page.textContent('#message'), /labelled\.csv: the labels in it are ignored/);
  assert.match(await page.textContent('#status'), /outliers [\d.]+ ≤ ν/);
  assert.deepEqual(errors, []);
  await page.close();
});
