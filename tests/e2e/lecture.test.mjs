// End-to-end: what a lecture leans on. The hard margin on data no line separates says so and
// draws no boundary and no accuracy; on separable data it draws the margin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { start, openPage, lastFrame, settle, canvasSignature } from './browser.mjs';

let env;
const shots = path.resolve('tests/e2e/screenshots');

before(async () => { env = await start(); });
after(async () => env && env.close());

// The colours of a row of pixels across the middle of the plot, away from the axes.
async function plotRowColours(page) {
  return page.evaluate(() => {
    const c = document.getElementById('plot');
    const ctx = c.getContext('2d');
    const colours = new Set();
    for (const f of [0.2, 0.35, 0.5, 0.65, 0.8]) {
      const row = ctx.getImageData(Math.round(c.width * 0.15), Math.round(c.height * f), Math.round(c.width * 0.8), 1).data;
      for (let i = 0; i < row.length; i += 4) colours.add(`${row[i]},${row[i + 1]},${row[i + 2]}`);
    }
    return colours.size;
  });
}

test('a hard margin on inseparable data: the message, the points, no boundary and no accuracy', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=xor&n=40&kernel=linear&hard=1`);
  const frame = await lastFrame(page);
  assert.match(frame.message, /no hard margin: no line separates the classes/);
  assert.match(await page.textContent('#message'), /use a finite C for a soft margin/);
  assert.equal(frame.train_accuracy ?? null, null);
  assert.doesNotMatch(await page.textContent('#status'), /accuracy/);
  const bare = await plotRowColours(page);
  assert.ok((await canvasSignature(page)).colours > 2, 'the points and axes are drawn');
  await page.screenshot({ path: path.join(shots, 'hard-margin-refused.png') });
  // The same points with a soft margin: regions, boundary and margins appear.
  await page.click('#hard');
  await settle(page);
  const soft = await lastFrame(page);
  assert.equal(soft.message ?? null, null);
  assert.ok(soft.train_accuracy > 0);
  assert.ok(await plotRowColours(page) > bare + 20, 'shaded regions are drawn once there is a model');
  // On separable data the hard margin is solved and drawn.
  await page.evaluate(() => { location.hash = '#preset=separable&n=40&kernel=linear&hard=1'; });
  await page.waitForFunction(() => window.kernelPlayground.lastFrame && window.kernelPlayground.lastFrame.train_accuracy === 1);
  assert.ok(await plotRowColours(page) > bare + 20);
  assert.deepEqual(errors, []);
  await page.close();
});
