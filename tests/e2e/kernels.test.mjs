// End-to-end: a kernel built by rule. Typed into the panel it retrains as soon as it reads as a
// kernel; a half-written one is marked and said on the message line while the last kernel
// stays; the link keeps the expression; (xᵀz + 1)² typed by rule is the polynomial kernel of
// degree 2 with γ = 1 and coef0 = 1, to the bit.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { start, openPage, settle } from './browser.mjs';

let env;
before(async () => { env = await start(); });
after(async () => env && env.close());

const decision = async (page) => {
  const facts = await page.evaluate(() => Promise.resolve(window.kernelPlayground.inspectAt(0.3, -0.2)));
  return facts.facts.find((x) => x.key === 'decision').value;
};
const link = (page) => page.evaluate(() => window.kernelPlayground.link);

test('a kernel built by rule is typed, checked as it is typed, kept by the link, and equals the kernel it spells', async () => {
  const scene = 'preset=xor&n=40&model=svm';
  const { page, errors } = await openPage(env.browser, `${env.base}#${scene}&kernel=composed&kexpr=(linear%2B1)%5E2`, { width: 1280, height: 720 });
  await settle(page);
  assert.equal(await page.inputValue('#kexpr'), '(linear+1)^2');
  assert.equal(await page.isVisible('#kexpr'), true);
  const composed = await decision(page);
  const poly = await openPage(env.browser, `${env.base}#${scene}&kernel=poly&degree=2&gamma=1&coef0=1`, { width: 1280, height: 720 });
  await settle(poly.page);
  assert.ok(Number.isFinite(composed) && composed === await decision(poly.page), `${composed} against the polynomial kernel's`);
  assert.equal(await poly.page.isVisible('#kexpr'), false, 'no expression box for a named kernel');
  await poly.page.close();

  // Half written: marked, said in one line, and the kernel is still the last one.
  await page.fill('#kexpr', 'rbf * ');
  await settle(page);
  assert.equal(await page.getAttribute('#kexpr', 'aria-invalid'), 'true');
  const message = await page.textContent('#message');
  assert.match(message, /kernel expression needs a kernel, a number or '\(' at character 6, not the end/);
  assert.equal(await decision(page), composed);
  assert.match(await link(page), /kexpr=\(linear\+1\)\^2/);
  // Finished: set at once, and the link follows.
  await page.fill('#kexpr', 'rbf * linear + 0.5');
  await settle(page);
  assert.equal(await page.getAttribute('#kexpr', 'aria-invalid'), 'false');
  assert.notEqual(await decision(page), composed);
  const hash = (await link(page)).split('#')[1];
  assert.match(hash, /(^|&)kernel=composed(&|$)/);
  const again = await openPage(env.browser, `${env.base}#${hash}`, { width: 1280, height: 720 });
  await settle(again.page);
  assert.equal(await again.page.inputValue('#kexpr'), 'rbf * linear + 0.5');
  // Fitted afresh rather than from the last kernel's multipliers: the same optimum, to SMO's
  // tolerance (10⁻³).
  const [fresh, warm] = [await decision(again.page), await decision(page)];
  assert.ok(Math.abs(fresh - warm) <= 1e-3 * Math.max(1, Math.abs(warm)), `${fresh} against ${warm}`);
  await page.screenshot({ path: path.resolve('tests/e2e/screenshots/kernel-by-rule-1280x720.png') });
  assert.deepEqual([...errors, ...again.errors], []);
  await again.page.close();
  await page.close();
});
