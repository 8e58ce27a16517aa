// End-to-end: a link is opened whole or not at all (issue 23). A link damaged halfway is
// refused naming the part, and the scene on screen stays; a link from a newer version says
// so; the warnings of either side of a comparison are shown; and each message is shown once
// and goes when its cause does.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, lastFrame, settle, waitForFrame } from './browser.mjs';

let env;

before(async () => { env = await start(); });
after(async () => env && env.close());

const message = (page) => page.evaluate(() => {
  const box = document.getElementById('message');
  return box.hidden ? '' : box.textContent;
});

// The scene as it stands: its link, its points, and two of its controls.
const scene = (page) => page.evaluate(() => ({
  link: window.kernelPlayground.link,
  csv: window.kernelPlayground.csv(),
  kernel: document.getElementById('kernel').value,
  C: document.getElementById('C-value').value,
}));

// Follows `hash` in the address bar of an open page (a hashchange).
async function follow(page, hash) {
  await page.evaluate((h) => { location.hash = h; }, hash);
  await settle(page);
}

const HALF_DAMAGED = 'preset=xor&n=50&kernel=linear&C=7&points=0,0,0;1,1,1;0.5,abc,0;2,2,1';

test('a link damaged halfway is refused naming the part, and the scene on screen stays', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=30&kernel=poly&C=3`);
  const before = await scene(page);
  await follow(page, HALF_DAMAGED);
  await page.waitForFunction(() => document.getElementById('message').textContent.includes('could not be opened'));
  assert.equal(await message(page),
    "This link could not be opened: its points are damaged: point 3 ('0.5,abc,0') is not x,y,label; the scene on screen is unchanged.");
  assert.deepEqual(await scene(page), before, 'neither the settings nor the points changed');
  assert.equal((await lastFrame(page)).points, 30);
  // The address shows the scene on screen again.
  await page.waitForFunction((link) => location.hash === link, before.link);
  // Undo has nothing new to undo: the refused link was no step.
  assert.equal(await page.isDisabled('#undo'), true);
  // The message goes with the next edit.
  await page.selectOption('#kernel', 'rbf');
  await settle(page);
  assert.equal(await message(page), '');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a damaged link on a first visit opens the default scene with the message', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#${HALF_DAMAGED}`);
  assert.match(await message(page),
    /^This link could not be opened: its points are damaged: point 3 \('0\.5,abc,0'\) is not x,y,label; the default scene is shown instead\.$/);
  const frame = await lastFrame(page);
  assert.equal(frame.points, 100, 'the default preset, not the link’s points');
  assert.equal(await page.inputValue('#kernel'), 'rbf', 'the default kernel, not the link’s');
  assert.equal(await page.inputValue('#C-value'), '1', 'the default C, not the link’s');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a link from a newer version says so, and opens nothing of it', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#v=2&preset=xor&n=20&C=5`);
  assert.equal(await message(page),
    'This link could not be opened: it is from a newer version of the lab (link version 2; this lab reads version 1); the default scene is shown instead.');
  assert.equal((await lastFrame(page)).points, 100);
  const before = await scene(page);
  await follow(page, 'preset=xor&n=20&C=5&v=3');
  await page.waitForFunction(() => document.getElementById('message').textContent.includes('link version 3'));
  assert.match(await message(page), /newer version of the lab .*; the scene on screen is unchanged\.$/);
  assert.deepEqual(await scene(page), before);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the right-hand side of a comparison: its warnings show, its damage refuses the link', async () => {
  const own = encodeURIComponent('kernel=poly&glow=2');
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=40&shade=1&compare=${own}`);
  await page.waitForFunction(() => window.kernelPlayground.lastFrameB);
  assert.equal(await message(page),
    "This link opened, leaving out what this lab does not read: 'shade' is not a setting this lab knows; on the right-hand side, 'glow' is not a setting this lab knows.");
  assert.equal((await page.evaluate(() => window.kernelPlayground.lastFrameB)).points, 40);
  const before = await scene(page);
  await follow(page, `preset=moons&n=40&compare=${encodeURIComponent('kernel=poly&C=-1')}`);
  await page.waitForFunction(() => document.getElementById('message').textContent.includes('could not be opened'));
  assert.equal(await message(page),
    "This link could not be opened: its right-hand side's C is damaged: C <= 0; the scene on screen is unchanged.");
  assert.deepEqual(await scene(page), before);
  assert.ok(await page.evaluate(() => window.kernelPlayground.lastFrameB), 'still comparing');
  assert.deepEqual(errors, []);
  await page.close();
});

test('each message is shown once and goes when its cause does', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=30`);
  // The model's message and a file error that comes on top of it: each once.
  await page.setInputFiles('#load-csv', { name: 'three.csv', mimeType: 'text/csv', buffer: Buffer.from('0,0,0\n1,1,1\n2,0,1\n') });
  await page.waitForFunction(() => window.kernelPlayground.lastFrame.points === 3);
  await page.click('#clear');
  await settle(page);
  assert.equal(await message(page), 'need at least two points to fit a model');
  await page.setInputFiles('#load-csv', { name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('x,y,label\n0,0,1\n1,oops,0\n') });
  await page.waitForFunction(() => document.getElementById('message').textContent.includes('bad.csv'));
  const both = await message(page);
  assert.equal(both.split('need at least two points to fit a model').length - 1, 1, both);
  assert.match(both, /^bad\.csv: line 3: .* — need at least two points to fit a model$/);
  // Undo brings back the points before Clear: the file's error and the model's message go.
  await page.click('#undo');
  await settle(page);
  assert.equal((await lastFrame(page)).points, 3);
  assert.equal(await message(page), '');

  // A mistyped key is told the key it likely meant.
  await follow(page, 'preset=moons&n=30&view=gram');
  assert.match(await message(page), /'view' is not a setting this lab knows \(did you mean 'views'\?\)/);

  // A link's warning goes with a model switch.
  await follow(page, 'preset=moons&n=30&shade=1');
  assert.match(await message(page), /'shade' is not a setting this lab knows/);
  const before = await lastFrame(page);
  await page.selectOption('#model', 'logistic');
  await waitForFrame(page, before);
  await settle(page);
  assert.equal(await message(page), '', 'the link warning went with the model switch');
  // And another link's with a new file.
  await follow(page, 'preset=moons&n=30&shade=2');
  assert.match(await message(page), /'shade'/);
  await page.setInputFiles('#load-csv', { name: 'three.csv', mimeType: 'text/csv', buffer: Buffer.from('0,0,0\n1,1,1\n2,0,1\n') });
  await page.waitForFunction(() => window.kernelPlayground.lastFrame.points === 3);
  await settle(page);
  assert.equal(await message(page), '', 'the link warning went with the new file');
  assert.deepEqual(errors, []);
  await page.close();
});
