// End-to-end: undo and redo, with the keys and the buttons, for every kind of edit (add,
// move, delete, clear, regenerate, load, a train/test toggle, a slider), and a history of at
// least 100 steps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, settle } from './browser.mjs';

let env;

before(async () => { env = await start(); });
after(async () => env && env.close());

// The scene as the page would save it: the CSV and the link's settings.
const scene = (page) => page.evaluate(() => ({
  csv: window.kernelPlayground.csv(),
  test: window.kernelPlayground.lastFrame.test_points,
  C: document.getElementById('C-value').value,
}));

async function clientOf(page, x, y) {
  return page.evaluate(([a, b]) => window.kernelPlayground.toClient(a, b), [x, y]);
}

async function pointClient(page, index) {
  const points = await page.evaluate(() => window.kernelPlayground.points());
  return clientOf(page, ...points[index]);
}

// Does `edit`, then checks that undo brings back the scene before and redo the one after,
// once with the keys and once with the buttons.
async function undoable(page, name, edit) {
  const before = await scene(page);
  await edit();
  await settle(page);
  const after = await scene(page);
  assert.notDeepEqual(after, before, `${name} changes the scene`);
  await page.keyboard.press('Control+z');
  await settle(page);
  assert.deepEqual(await scene(page), before, `Ctrl+Z undoes ${name}`);
  await page.keyboard.press('Control+Shift+z');
  await settle(page);
  assert.deepEqual(await scene(page), after, `Ctrl+Shift+Z redoes ${name}`);
  await page.click('#undo');
  await settle(page);
  assert.deepEqual(await scene(page), before, `the Undo button undoes ${name}`);
  await page.click('#redo');
  await settle(page);
  assert.deepEqual(await scene(page), after, `the Redo button redoes ${name}`);
}

test('every edit can be undone and redone', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=30`);
  await page.evaluate(() => document.getElementById('plot').scrollIntoView({ block: 'center' }));
  assert.equal(await page.isDisabled('#undo'), true, 'nothing to undo at first');

  await undoable(page, 'adding a point', async () => {
    const [x, y] = await clientOf(page, 0.9, 0.9);
    await page.mouse.click(x, y);
  });
  await undoable(page, 'moving a point', async () => {
    const [x, y] = await pointClient(page, 3);
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 30, y + 20, { steps: 5 });
    await page.mouse.move(x + 60, y + 40, { steps: 5 });
    await page.mouse.up();
  });
  await undoable(page, 'deleting a point', async () => {
    const [x, y] = await pointClient(page, 5);
    await page.mouse.click(x, y, { button: 'right' });
  });
  await undoable(page, 'a train/test toggle', async () => {
    const [x, y] = await pointClient(page, 7);
    await page.mouse.move(x, y);
    await settle(page);
    await page.keyboard.press('t');
  });
  await undoable(page, 'moving the C slider', async () => {
    await page.fill('#C', '2');
    await page.dispatchEvent('#C', 'input');
    await page.dispatchEvent('#C', 'change');
  });
  await undoable(page, 'Regenerate', () => page.click('#regenerate'));
  await undoable(page, 'Clear', () => page.click('#clear'));
  await undoable(page, 'loading a CSV', () => page.setInputFiles('#load-csv', {
    name: 'three.csv', mimeType: 'text/csv', buffer: Buffer.from('x,y,label\n0.25,0.5,0\n-0.5,0.125,1\n0.75,-0.5,1\n'),
  }));
  assert.deepEqual(errors, []);
  await page.close();
});

test('the history keeps at least 100 steps', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=separable&n=10`);
  await page.evaluate(() => document.getElementById('plot').scrollIntoView({ block: 'center' }));
  const first = await scene(page);
  await page.click('#clear');
  // 110 clicks on an 11 × 10 lattice, far enough apart that no click lands on a point.
  for (let i = 0; i < 110; i += 1) {
    const [x, y] = await clientOf(page, -0.8 + 0.15 * (i % 11), 0.8 - 0.15 * Math.floor(i / 11));
    await page.mouse.click(x, y);
  }
  await settle(page);
  const count = () => page.evaluate(() => window.kernelPlayground.lastFrame.points);
  assert.equal(await count(), 110);
  for (let i = 0; i < 100; i += 1) await page.keyboard.press('Control+z');
  await settle(page);
  assert.equal(await count(), 10, '100 clicks undone');
  for (let i = 0; i < 11; i += 1) await page.keyboard.press('Control+z');
  await settle(page);
  assert.deepEqual(await scene(page), first, 'back before Clear');
  assert.deepEqual(errors, []);
  await page.close();
});
