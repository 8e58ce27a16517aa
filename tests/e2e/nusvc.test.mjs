// End-to-end: ν-SVC from a link. The model menu offers it as "ν-SVM" with its ν slider, which
// explains itself; the status line shows the ν-property with both fractions (margin errors ≤ ν
// ≤ support vectors), and the numbers hold it; the support vectors are marked and the margins
// drawn as the C-SVM's; three classes report the worst pair; an infeasible ν is one line in
// words and draws no model; no console errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { start, openPage, lastFrame, settle, waitForFrame } from './browser.mjs';

let env;
const shots = path.resolve('tests/e2e/screenshots');

before(async () => { env = await start(); });
after(async () => env && env.close());

// The status line and its details, as one text.
const said = async (page) => `${await page.textContent('#status')} ${await page.textContent('#status-details')}`;
const PROPERTY = /margin errors ([\d.]+) ≤ ν = ([\d.]+) ≤ ([\d.]+) support vectors/;

test('ν-SVC shows its ν-property, its slider and the C-SVM\'s marks', async () => {
  const link = '#model=nusvc&nu=0.3&kernel=rbf&gamma=2&preset=moons&n=80&seed=2';
  const { page, errors } = await openPage(env.browser, env.base + link, { width: 1280, height: 720 });
  await settle(page);
  const frame = await lastFrame(page);
  assert.equal(frame.model, 'nusvc');
  assert.equal(frame.message, null, `${frame.message}`);
  const menu = await page.$$eval('#model option', (os) => os.map((o) => [o.value, o.textContent]));
  assert.ok(menu.some(([value, text]) => value === 'nusvc' && text.includes('ν-SVM')), JSON.stringify(menu));

  // The ν-property, in the line's words and in the frame's numbers.
  const text = await page.textContent('#status');
  const match = text.match(PROPERTY);
  assert.ok(match, text);
  const [errorsShown, nu, supportShown] = match.slice(1).map(Number);
  assert.equal(nu, 0.3);
  assert.ok(errorsShown <= nu && nu <= supportShown, match[0]);
  assert.ok(frame.margin_error_fraction <= 0.3 && 0.3 <= frame.support_fraction,
    `${frame.margin_error_fraction} ≤ 0.3 ≤ ${frame.support_fraction}`);
  assert.ok(Math.abs(frame.margin_error_fraction - errorsShown) < 1e-3);
  assert.ok(Math.abs(frame.support_fraction - supportShown) < 1e-3);
  assert.match(await said(page), /support vectors \d+ \(free \d+, bound \d+\)/);

  // The ν slider is shown and explains itself; C is not.
  assert.equal(await page.isVisible('#nu'), true);
  assert.equal(await page.isVisible('#C'), false);
  const explanation = await page.evaluate(() => {
    const ids = (document.getElementById('nu').getAttribute('aria-describedby') || '').split(' ');
    return ids.map((id) => document.getElementById(id)?.textContent || '').join(' ');
  });
  assert.match(explanation, /margin errors/);

  // Support vectors ringed and the margins drawn, as the C-SVM's.
  const legend = await page.$$eval('#legend-entries li', (lis) => lis.map((li) => li.dataset.mark));
  for (const mark of ['free_support', 'bound_support', 'levels', 'slack']) assert.ok(legend.includes(mark), legend.join(', '));
  assert.match(await page.textContent('#legend-entries li[data-mark="levels"]'), /±1/);
  await page.screenshot({ path: path.join(shots, 'model-nusvc-1280x720.png') });

  // A larger ν: more support vectors, and the property still holds.
  await page.evaluate(() => {
    const nu = document.getElementById('nu');
    nu.value = '0.6';
    nu.dispatchEvent(new Event('input', { bubbles: true }));
  });
  const larger = await waitForFrame(page, frame);
  await settle(page);
  const after = await lastFrame(page);
  assert.ok(after.support_fraction >= 0.6 && after.margin_error_fraction <= 0.6, JSON.stringify([larger.nu, after.margin_error_fraction, after.support_fraction]));
  assert.match(await said(page), /≤ ν = 0\.6 ≤/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('three classes report the worst pair, and an infeasible ν says so in one line', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#model=nusvc&nu=0.3&preset=blobs3&n=90&noise=0.3&seed=1`);
  await settle(page);
  let frame = await lastFrame(page);
  assert.equal(frame.classes, 3);
  assert.match(await page.textContent('#status'), /pairs' margin errors [\d.]+ ≤ ν = 0\.3 ≤ [\d.]+ support vectors/);
  assert.ok(frame.margin_error_fraction <= 0.3 && 0.3 <= frame.support_fraction);

  // 3 points against 7: ν·10/2 ≤ 3 means ν ≤ 0.6.
  const points = '0,0,1;0.2,0.1,1;0.1,0.3,1;1,1,2;1.2,1,2;1,1.3,2;1.4,1.2,2;1.1,0.8,2;0.9,1.2,2;1.3,0.9,2';
  await page.goto('about:blank');
  await page.goto(`${env.base}#model=nusvc&nu=0.7&kernel=linear&points=${points}`);
  await page.waitForFunction(() => !document.getElementById('message').hidden, null, { timeout: 20000 });
  const message = await page.textContent('#message');
  assert.match(message, /ν = 0\.7 is infeasible/);
  assert.match(message, /choose ν ≤ 0\.6/);
  assert.ok(!/[\n\r]/.test(message), message);
  const lines = await page.evaluate(() => {
    const range = document.createRange();
    range.selectNodeContents(document.getElementById('message'));
    return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
  });
  assert.ok(lines <= 2, `${lines} lines: ${message}`);
  await page.screenshot({ path: path.join(shots, 'model-nusvc-infeasible.png') });
  assert.deepEqual(errors, []);
  await page.close();
});
