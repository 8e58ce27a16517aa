// End-to-end: Back and Forward move between scenes (issue 17, item 12). A preset, Clear, a
// model switch push an entry of the browser's history; clicks, drags and sliders do not, so
// Back never leaves the lab. The last scene survives closing the tab: a visit without a link
// offers it (Restore / Start fresh), and an opened link wins over it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, settle, waitForFrame } from './browser.mjs';

let env;

before(async () => { env = await start(); });
after(async () => env && env.close());

// The scene as it stands: its link, its points and a few of its controls.
const scene = (page) => page.evaluate(() => ({
  link: window.kernelPlayground.link,
  csv: window.kernelPlayground.csv(),
  preset: document.getElementById('preset').value,
  model: document.getElementById('model').value,
  C: document.getElementById('C-value').value,
}));

// Waits until the address shows the scene on screen (it follows a frame by 250 ms).
async function written(page) {
  await settle(page);
  await page.waitForFunction(() => location.hash === window.kernelPlayground.link, null, { timeout: 10000 });
}

const historyLength = (page) => page.evaluate(() => history.length);

// Back (or Forward) in the browser, once the scene it opens is on screen.
async function travel(page, direction) {
  const before = await page.evaluate(() => location.hash);
  await page.evaluate((d) => (d < 0 ? history.back() : history.forward()), direction);
  await page.waitForFunction((h) => location.hash !== h, before, { timeout: 10000 });
  await written(page);
}

async function addPoint(page, x, y) {
  const [cx, cy] = await page.evaluate(([a, b]) => window.kernelPlayground.toClient(a, b), [x, y]);
  await page.mouse.click(cx, cy);
  await written(page);
}

async function dragPoint(page, index) {
  const points = await page.evaluate(() => window.kernelPlayground.points());
  const [x, y] = await page.evaluate(([a, b]) => window.kernelPlayground.toClient(a, b), points[index]);
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 20, y + 15, { steps: 4 });
  await page.mouse.move(x + 40, y + 30, { steps: 4 });
  await page.mouse.up();
  await written(page);
}

async function slideC(page, value) {
  await page.fill('#C', value);
  await page.dispatchEvent('#C', 'input');
  await page.dispatchEvent('#C', 'change');
  await written(page);
}

async function choose(page, id, value) {
  await page.selectOption(`#${id}`, value);
  await written(page);
}

test('Back after a preset change returns to the previous scene, and Forward to the new one', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=30&C=3`);
  await page.evaluate(() => document.getElementById('plot').scrollIntoView({ block: 'center' }));
  await addPoint(page, 0.8, 0.8);
  const first = await scene(page);
  const length = await historyLength(page);

  await choose(page, 'preset', 'xor');
  const second = await scene(page);
  assert.notDeepEqual(second, first, 'the preset changes the scene');
  assert.equal(await historyLength(page), length + 1, 'a preset change is an entry of the history');

  await travel(page, -1);
  assert.deepEqual(await scene(page), first, 'Back reopens the scene before the preset change');
  assert.ok(page.url().startsWith(env.base), 'Back stays in the lab');

  await travel(page, 1);
  assert.deepEqual(await scene(page), second, 'Forward reopens the scene after it');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a slider move is not an entry: Back goes past it to the scene before', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=30&C=3`);
  await written(page);
  const first = await scene(page);
  await choose(page, 'preset', 'rings');
  const length = await historyLength(page);
  await slideC(page, '2');
  await slideC(page, '1');
  const slid = await scene(page);
  assert.notEqual(slid.C, first.C, 'the slider moved C');
  assert.equal(await historyLength(page), length, 'slider moves push no entry');

  await travel(page, -1);
  assert.deepEqual(await scene(page), first, 'Back returns to the scene before the preset, not to a slider value');
  await travel(page, 1);
  assert.deepEqual(await scene(page), slid, 'Forward returns to the scene as the slider left it');
  assert.deepEqual(errors, []);
  await page.close();
});

test('from an opened link and a few edits, Back steps through the scenes and stays in the lab', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=30&C=3`);
  await page.evaluate(() => document.getElementById('plot').scrollIntoView({ block: 'center' }));
  await written(page);
  const opened = await historyLength(page);

  // Edits that are undo steps only: the entry of the link follows them.
  await addPoint(page, 0.7, 0.7);
  await dragPoint(page, 4);
  await slideC(page, '5');
  assert.equal(await historyLength(page), opened, 'clicks, drags and sliders push no entry');
  const edited = await scene(page);

  // Scenes: each is an entry.
  await choose(page, 'preset', 'xor');
  const xor = await scene(page);
  await addPoint(page, 0.2, 0.9);
  const xorEdited = await scene(page);
  await page.click('#clear');
  await written(page);
  const cleared = await scene(page);
  await choose(page, 'model', 'logistic');
  assert.equal(await historyLength(page), opened + 3, 'a preset, Clear and a model switch are three entries');

  await travel(page, -1);
  assert.deepEqual(await scene(page), cleared, 'Back: the scene before the model switch');
  await travel(page, -1);
  assert.deepEqual(await scene(page), xorEdited, 'Back: the scene before Clear');
  assert.notDeepEqual(xorEdited, xor);
  await travel(page, -1);
  assert.deepEqual(await scene(page), edited, 'Back: the opened link with its edits');
  assert.ok(page.url().startsWith(env.base), 'still in the lab');
  assert.equal(await historyLength(page), opened + 3, 'Back pushes nothing');
  await waitForFrame(page, null);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a scene too large for a link is an entry too: Back leaves it, Forward to it keeps the scene on screen', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=100&model=lda`);
  await written(page);
  const first = await scene(page);
  const length = await historyLength(page);
  const rows = ['x,y,label'];
  for (let i = 0; i < 70000; i += 1) rows.push(`${((i % 265) / 132 - 1).toFixed(4)},${(Math.floor(i / 265) / 132 - 1).toFixed(4)},${i % 3 === 0 ? 1 : 0}`);
  await page.setInputFiles('#load-csv', { name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(rows.join('\n')) });
  await page.waitForFunction(() => window.kernelPlayground.points().length === 70000 && location.hash === '', null, { timeout: 20000 });
  assert.equal(await historyLength(page), length + 1, 'the loaded file is an entry, without a link');

  await travel(page, -1);
  assert.deepEqual(await scene(page), first, 'Back reopens the scene before the file');
  // Forward: the large scene cannot be reopened from an address; the scene on screen stays.
  await page.evaluate(() => history.forward());
  await page.waitForFunction(() => document.getElementById('message').textContent.includes('too large for a link; the scene on screen stays'), null, { timeout: 10000 });
  await written(page);
  assert.deepEqual(await scene(page), first, 'Forward to it keeps the scene on screen, not the default one');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the last scene survives closing the tab: offered on the next visit, and an opened link wins', async () => {
  const fresh = await openPage(env.browser, env.base);
  await written(fresh.page);
  const defaultScene = await scene(fresh.page);
  await fresh.page.close();

  const context = await env.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const visit = async (url) => {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
    await waitForFrame(page);
    return { page, errors };
  };
  const offered = (page) => page.evaluate(() => document.getElementById('continue') !== null);

  const first = await visit(`${env.base}#preset=xor&n=40&C=4`);
  assert.equal(await offered(first.page), false, 'nothing is offered on a first visit');
  await first.page.evaluate(() => document.getElementById('plot').scrollIntoView({ block: 'center' }));
  await addPoint(first.page, 0.5, 0.5);
  const left = await scene(first.page);
  await first.page.waitForFunction(
    () => Object.values(localStorage).includes(window.kernelPlayground.link.slice(1)), null, { timeout: 10000 },
  );
  await first.page.close();

  // A visit without a link: the default scene, and the offer; Restore opens the last scene.
  const second = await visit(env.base);
  assert.equal(await offered(second.page), true, 'the last scene is offered');
  assert.deepEqual(await scene(second.page), defaultScene, 'the default scene until it is restored');
  await second.page.click('#continue-restore');
  await written(second.page);
  assert.deepEqual(await scene(second.page), left, 'Restore opens the last scene');
  assert.equal(await offered(second.page), false, 'the offer goes');
  assert.deepEqual(second.errors, []);
  await second.page.close();

  // An opened link wins: it opens, and nothing is offered.
  const linked = await visit(`${env.base}#preset=separable&n=20`);
  await written(linked.page);
  assert.equal(await offered(linked.page), false, 'an opened link is not offered the last scene');
  assert.equal((await scene(linked.page)).preset, 'separable');
  await linked.page.close();

  // "Start fresh", with the keyboard: the bar is first in the tab order; the default stays.
  const third = await visit(env.base);
  assert.equal(await offered(third.page), true, 'the last scene is offered again');
  await third.page.keyboard.press('Tab');
  assert.equal(await third.page.evaluate(() => document.activeElement.id), 'continue-restore');
  await third.page.keyboard.press('Tab');
  await third.page.keyboard.press('Enter');
  await written(third.page);
  assert.equal(await offered(third.page), false, 'Start fresh sets the offer aside');
  assert.deepEqual(await scene(third.page), defaultScene, 'Start fresh keeps the default scene');
  assert.deepEqual(third.errors, []);
  await context.close();
});
