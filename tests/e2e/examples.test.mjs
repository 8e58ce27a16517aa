// End-to-end: the lectures' worked examples, chosen from the preset menu, open with the notes'
// exact numbers and a caption of what to look at; another scene takes the caption away, and
// Back returns to the example.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, settle, waitForFrame } from './browser.mjs';

let env;
before(async () => { env = await start(); });
after(async () => env && env.close());

// The status line and its details, as one text.
const statusText = (page) => page.evaluate(() => document.getElementById('status').textContent
  + ' | ' + document.querySelector('#status-details .status-details-body').textContent);

async function choose(page, value) {
  const before = await page.evaluate(() => window.kernelPlayground.lastFrame);
  await page.selectOption('#preset', value);
  await waitForFrame(page, before);
  await settle(page);
}

test('the four-point example at C = 5/16 shows w = (0.375, −0.5), b = 0.375 and margin 1.6', async () => {
  const { page, errors } = await openPage(env.browser, env.base, { width: 1280, height: 720 });
  await choose(page, 'example:four-5-16');
  const text = await statusText(page);
  for (const part of ['margin 1/‖w‖ = 1.6', 'w = (0.375, -0.5)', 'b = 0.375', 'free 2, bound 1']) {
    assert.ok(text.includes(part), `${part} in: ${text}`);
  }
  assert.equal(await page.evaluate(() => window.kernelPlayground.points().length), 4);
  assert.equal(await page.evaluate(() => document.getElementById('C-value').value), '0.3125');
  assert.equal(await page.evaluate(() => document.getElementById('caption').hidden), false);
  assert.match(await page.evaluate(() => document.getElementById('caption-text').textContent), /C = 5\/16/);
  // The classes keep the notes' names.
  assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('.class-button')].map((b) => b.textContent.trim().replace(/\s*\d$/, ''))), ['-1', '+1']);
  // Three points with a hard margin: the boundary x₂ = 3 and margin 2.
  await choose(page, 'example:three-hard');
  const three = await statusText(page);
  for (const part of ['margin 1/‖w‖ = 2', 'w = (0, -0.5)', 'b = 1.5']) assert.ok(three.includes(part), `${part} in: ${three}`);
  // Another preset is another scene: the caption goes; Back brings the example back.
  await choose(page, 'moons');
  assert.equal(await page.evaluate(() => document.getElementById('caption').hidden), true);
  const beforeBack = await page.evaluate(() => window.kernelPlayground.lastFrame);
  await page.goBack();
  await waitForFrame(page, beforeBack);
  assert.equal(await page.evaluate(() => window.kernelPlayground.points().length), 3);
  assert.deepEqual(errors, []);
  await page.close();
});

test('every example opens without a message or an error', async () => {
  const { page, errors } = await openPage(env.browser, env.base, { width: 1280, height: 720 });
  const values = await page.evaluate(() => [...document.querySelectorAll('#preset option')].map((o) => o.value).filter((v) => v.startsWith('example:')));
  assert.ok(values.length >= 9, values.join(', '));
  for (const value of values) {
    await choose(page, value);
    const frame = await page.evaluate(() => window.kernelPlayground.lastFrame);
    assert.ok(!frame.message, `${value}: ${frame.message}`);
    assert.equal(await page.evaluate(() => document.getElementById('preset').value), value);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
