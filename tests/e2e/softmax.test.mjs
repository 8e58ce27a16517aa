// End-to-end: multinomial (softmax) logistic regression from a link. Three blobs with
// `multi=multinomial` open to one softmax model of the three classes, its regions in the three
// colours and the contours of the likeliest class in the legend, without a console error; the
// "more classes" menu, folded on a first visit, opens with the link and shows the setting; the
// page's link keeps it, the menu switches back to one-vs-rest, and the link opens it again.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, lastFrame, settle, waitForFrame } from './browser.mjs';

let env;
before(async () => { env = await start(); });
after(async () => env && env.close());

const legendMarks = (page) => page.evaluate(() => [...document.querySelectorAll('#legend-entries li')].map((li) => li.dataset.mark));

test('a link opens logistic regression as one softmax model and keeps the setting', async () => {
  const link = '#model=logistic&multi=multinomial&features=linear&preset=blobs3&n=90&seed=2';
  const { page, errors } = await openPage(env.browser, env.base + link, { width: 1366, height: 768, folded: true });
  await settle(page);
  let frame = await lastFrame(page);
  assert.equal(frame.model, 'logistic');
  assert.equal(frame.classes, 3);
  assert.equal(frame.scheme, 'multinomial', 'one softmax model, not one per class');
  assert.equal(frame.members, undefined);
  assert.equal(frame.converged, true);
  assert.equal(frame.message, null, `${frame.message}`);
  assert.ok(frame.train_accuracy > 0.9, `training accuracy ${frame.train_accuracy}`);
  assert.match(await page.textContent('#status'), /training accuracy [\d.]+%/);
  const marks = await legendMarks(page);
  for (const mark of ['boundary', 'levels', 'regions']) assert.ok(marks.includes(mark), `${mark} in ${marks}`);
  const contours = await page.textContent('#legend-entries li[data-mark="levels"]');
  assert.match(contours, /likeliest class/);

  // The fold holding the setting opened for the link, and its menu shows it.
  assert.equal(await page.evaluate(() => document.getElementById('model-more').open), true);
  assert.equal(await page.isVisible('#multi'), true);
  assert.equal(await page.inputValue('#multi'), 'multinomial');
  assert.ok((await page.evaluate(() => window.kernelPlayground.link)).includes('multi=multinomial'));

  // Back to one-vs-rest from the menu: three two-class models, and the link says so.
  await page.selectOption('#multi', 'ovr');
  frame = await waitForFrame(page, frame);
  await settle(page);
  frame = await lastFrame(page);
  assert.equal(frame.scheme, 'ovr');
  assert.equal(frame.members, 3);
  assert.ok((await page.evaluate(() => window.kernelPlayground.link)).includes('multi=ovr'));

  // The link opens the softmax model again.
  await page.goto('about:blank');
  await page.goto(env.base + link);
  frame = await waitForFrame(page);
  await settle(page);
  frame = await lastFrame(page);
  assert.equal(frame.scheme, 'multinomial');
  assert.equal(await page.inputValue('#multi'), 'multinomial');
  assert.deepEqual(errors, []);
  await page.close();
});
