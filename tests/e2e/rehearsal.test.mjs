// End-to-end: the unseen drag rehearsal (www/rehearsal.js). Once the first picture is shown,
// the page drags a point of a 40-point scene of its own task and method on a hidden canvas, so
// that the code the visitor's first drag runs is compiled before it. A rehearsal that failed
// would do so silently (it must never disturb the page), so these tests read what it did: the
// scene it opened, every step taken, no error, the hidden canvas gone, the visitor's scene and
// link untouched.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, settle } from './browser.mjs';

let env;
before(async () => { env = await start(); });
after(async () => env && env.close());

const finished = (page) => page.waitForFunction(() => window.kernelPlayground.rehearsal.done, null, { timeout: 15000 })
  .then(() => page.evaluate(() => window.kernelPlayground.rehearsal));

const cases = [
  { hash: 'preset=line_outliers&n=60&noise=0.3&seed=3&task=regression&model=lad', keeps: ['task=regression', 'model=lad', 'preset=line_outliers'] },
  { hash: 'preset=sine&n=60&noise=0.2&seed=2&task=regression&model=svr&kernel=rbf&C=3&epsilon=0.2&gamma=2', keeps: ['task=regression', 'model=svr', 'epsilon=0.2', 'C=3'] },
  { hash: 'preset=blob&n=60&seed=4&task=novelty&model=oneclass&kernel=rbf&nu=0.2&gamma=2', keeps: ['task=novelty', 'model=oneclass', 'nu=0.2'] },
  { hash: 'preset=xor&n=60&seed=5&model=knn&k=3', keeps: ['model=knn', 'k=3', 'preset=xor'] },
];

for (const { hash, keeps } of cases) {
  test(`the rehearsal drags the page's own method (${keeps.slice(0, 2).join(', ')}) to its end`, async () => {
    const { page, errors } = await openPage(env.browser, `${env.base}#${hash}`);
    await settle(page);
    const before = await page.evaluate(() => ({ link: window.kernelPlayground.link, csv: window.kernelPlayground.csv() }));
    const done = await finished(page);
    assert.equal(done.error, null, `no step failed: ${done.error}`);
    assert.equal(done.steps, 5, 'open, hover and three moves');
    const scene = done.scene.replace(/^#/, '').split('&');
    for (const part of keeps) assert.ok(scene.includes(part), `${part} in ${done.scene}`);
    assert.ok(scene.includes('n=40'), `40 points: ${done.scene}`);
    assert.equal(await page.$('#drag-rehearsal'), null, 'the hidden canvas is gone');
    await settle(page);
    const after = await page.evaluate(() => ({ link: window.kernelPlayground.link, csv: window.kernelPlayground.csv() }));
    assert.deepEqual(after, before, "the visitor's scene and link are as they were");
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test("a scene's own points are not rehearsed: 40 of its task's preset stand in for them", async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#task=regression&model=lsq&points=0.1,0.2,0;0.5,0.4,0;0.9,1.1,0`);
  await settle(page);
  const done = await finished(page);
  assert.equal(done.error, null, `no step failed: ${done.error}`);
  assert.equal(done.steps, 5);
  assert.match(await page.evaluate(() => window.kernelPlayground.link), /points=0\.1,0\.2,0;/, 'the page shows the link\'s points');
  const scene = done.scene.replace(/^#/, '').split('&');
  assert.ok(scene.includes('preset=sine') && scene.includes('model=lsq') && scene.includes('n=40'), done.scene);
  assert.ok(!scene.some((part) => part.startsWith('points=')), done.scene);
  assert.deepEqual(errors, []);
  await page.close();
});
