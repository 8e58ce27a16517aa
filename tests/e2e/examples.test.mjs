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
  // Three points with a hard margin: the boundary x₂ = 3 and margin 2. Chosen with the
  // controls' column scrolled down to the menu, the column comes back up to the caption.
  await page.evaluate(() => document.getElementById('preset').scrollIntoView({ block: 'end' }));
  assert.ok(await page.evaluate(() => document.getElementById('controls').scrollTop) > 0, 'the column scrolled down');
  await choose(page, 'example:three-hard');
  const inView = await page.evaluate(() => {
    const [c, p] = ['caption', 'controls'].map((id) => document.getElementById(id).getBoundingClientRect());
    return c.top >= p.top - 0.5 && c.bottom <= p.bottom + 0.5 && c.bottom <= innerHeight;
  });
  assert.ok(inView, 'the caption is in view');
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

test('the notes\' notation: σ beside an RBF kernel\'s γ, and the hover\'s geometric margin and distance', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=60&kernel=rbf&gamma=2`, { width: 1280, height: 720 });
  const sigma = () => page.evaluate(() => document.getElementById('gamma-also').textContent);
  assert.equal(await sigma(), 'σ = 0.5');
  // γ typed as 1/(2·3²) is σ = 3.
  await page.fill('#gamma-value', String(1 / 18));
  await page.press('#gamma-value', 'Enter');
  await settle(page);
  assert.equal(await sigma(), 'σ = 3');
  // No σ for a polynomial kernel.
  await page.selectOption('#kernel', 'poly');
  await settle(page);
  assert.equal(await sigma(), '');
  // The four-point example: the hover at the origin gives f = b = 0.375 and the distance 0.6.
  await choose(page, 'example:four-5-16');
  const facts = await page.evaluate(() => Promise.resolve(window.kernelPlayground.inspectAt(0, 0)));
  const distance = facts.facts.find((f) => f.key === 'distance');
  assert.ok(distance && Math.abs(distance.value - 0.6) < 1e-9, JSON.stringify(facts.facts));
  const point = await page.evaluate(() => Promise.resolve(window.kernelPlayground.inspectAt(1, 1)));
  const geometric = point.facts.find((f) => f.key === 'geometric_margin');
  assert.ok(geometric && Math.abs(geometric.value - 0.4) < 1e-9, JSON.stringify(point.facts));
  assert.deepEqual(errors, []);
  await page.close();
});

test('the RBF slider moves σ when chosen: γ = 1/(2σ²), the link keeps the choice and γ', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=60&kernel=rbf&gamma=2`, { width: 1280, height: 720 });
  const label = () => page.textContent('label[for=gamma]');
  const link = () => page.evaluate(() => window.kernelPlayground.link);
  const gamma = async () => Number(/[#&]gamma=([^&]*)/.exec(await link())[1]);
  assert.equal(await label(), 'γ');
  await page.selectOption('#bandwidth', 'sigma');
  await settle(page);
  // The slider now reads σ = 1/√(2γ) = 0.5, and γ is said beside it.
  assert.equal(await label(), 'σ');
  assert.equal(await page.inputValue('#gamma-value'), '0.5');
  assert.equal(await page.textContent('#gamma-also'), 'γ = 2');
  // σ typed as 3 sets γ = 1/18.
  await page.fill('#gamma-value', '3');
  await page.press('#gamma-value', 'Enter');
  await settle(page);
  assert.equal(await gamma(), 1 / 18);
  assert.equal(await page.inputValue('#gamma-value'), '3');
  // Sliding σ to the right widens the bump: γ falls as 1/(2σ²).
  const slider = await page.$eval('#gamma', (el) => [Number(el.min), Number(el.max)]);
  // γ's range 10⁻³…10³ is σ's 0.0224…22.4, widened to whole hundredths of log₁₀σ.
  assert.deepEqual(slider, [-1.66, 1.35]);
  await page.$eval('#gamma', (el) => { el.value = '0'; el.dispatchEvent(new Event('input', { bubbles: true })); });
  await settle(page);
  assert.equal(await gamma(), 0.5);
  // The link keeps the choice and γ itself; opened again, the slider is σ.
  const hash = (await link()).split('#')[1];
  assert.match(hash, /(^|&)bandwidth=sigma(&|$)/);
  assert.match(hash, /(^|&)gamma=0\.5(&|$)/);
  const again = await openPage(env.browser, `${env.base}#${hash}`, { width: 1280, height: 720 });
  assert.equal(await again.page.textContent('label[for=gamma]'), 'σ');
  assert.equal(await again.page.inputValue('#gamma-value'), '1');
  // A polynomial kernel has no σ: its slider is γ again.
  await again.page.selectOption('#kernel', 'poly');
  await settle(again.page);
  assert.equal(await again.page.textContent('label[for=gamma]'), 'γ');
  assert.equal(await again.page.inputValue('#gamma-value'), '0.5');
  assert.deepEqual([...errors, ...again.errors], []);
  await again.page.close();
  await page.close();
});

test('the notes\' polynomial (1 + xᵀz)^d is an entry of the kernel menu: LIBSVM\'s with γ = 1 and coef0 = 1', async () => {
  const f = async (hash) => {
    const { page, errors } = await openPage(env.browser, `${env.base}#${hash}`, { width: 1280, height: 720 });
    await settle(page);
    const facts = await page.evaluate(() => Promise.resolve(window.kernelPlayground.inspectAt(0.3, -0.2)));
    const shown = await page.evaluate(() => ['gamma', 'coef0', 'degree'].map((k) => document.getElementById(k).closest('.row').getClientRects().length > 0));
    assert.deepEqual(errors, []);
    await page.close();
    return { f: facts.facts.find((x) => x.key === 'decision').value, shown };
  };
  const notes = await f('preset=xor&n=40&model=svm&kernel=poly1&degree=2&gamma=5&coef0=-2');
  const libsvm = await f('preset=xor&n=40&model=svm&kernel=poly&degree=2&gamma=1&coef0=1');
  assert.ok(Number.isFinite(notes.f) && notes.f === libsvm.f, `${notes.f} against ${libsvm.f}`);
  // Only the degree is asked for: γ and coef0 are fixed at 1.
  assert.deepEqual(notes.shown, [false, false, true]);
  assert.deepEqual(libsvm.shown, [true, true, true]);
});

test('the hulls layer draws both hulls, and the segment between them only when they do not meet', async () => {
  const marks = async (hash) => {
    const { page, errors } = await openPage(env.browser, `${env.base}#${hash}`, { width: 1280, height: 720 });
    await settle(page);
    const types = await page.evaluate(() => window.kernelPlayground.lastFrame.legend.map((e) => e.mark.type));
    assert.deepEqual(errors, []);
    await page.close();
    return types;
  };
  const separable = await marks('preset=separable&n=40&model=svm&kernel=linear&hard=1&hulls=1');
  assert.ok(separable.includes('hulls') && separable.includes('hull_bridge'), separable.join(', '));
  const xor = await marks('preset=xor&n=40&hulls=1');
  assert.ok(xor.includes('hulls') && !xor.includes('hull_bridge'), xor.join(', '));
  const off = await marks('preset=separable&n=40');
  assert.ok(!off.includes('hulls'), off.join(', '));
});
