// End-to-end: the status line a class can read. At 1280 × 720, 1920 × 1080 and 390 × 844, for
// every method (and while stepping SMO, comparing, presenting) it is at most two lines high and
// starts with the accuracies; a linear SVM's line says its margin 1/‖w‖ and width 2/‖w‖, w and
// b. The inside numbers (objectives, iterations, the solver's step) and the timings are in the
// "details" beside it, one click or key away, and opening them does not move the plot.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { start, openPage, lastFrame, settle, unfold } from './browser.mjs';

let env;
const shots = path.resolve('tests/e2e/screenshots');

before(async () => { env = await start(); });
after(async () => env && env.close());

const SIZES = [[1280, 720], [1920, 1080], [390, 844]];

// The scenes whose status lines are checked: every method, a held-out set, many classes.
const SCENES = {
  'linear SVM': 'preset=separable&n=60&kernel=linear&C=1',
  'linear SVM, held-out points': 'preset=separable&n=60&kernel=linear&C=1&test=0.25',
  'RBF SVM': 'preset=moons&n=80&kernel=rbf&gamma=2&C=10',
  'ν-SVM': 'preset=moons&n=80&model=nusvc&nu=0.3&kernel=rbf&gamma=2',
  'SVM, 3 classes': 'preset=blobs3&n=90&noise=0.3&kernel=linear',
  'standardised k-NN': 'preset=moons&n=80&model=knn&std=1',
  perceptron: 'preset=separable&n=60&model=perceptron&kernel=linear',
  logistic: 'preset=moons&n=80&model=logistic&test=0.25',
  LDA: 'preset=blobs3&n=90&noise=0.3&model=lda',
  'LDA, 2 classes': 'preset=separable&n=60&model=lda',
  QDA: 'preset=blobs3&n=90&noise=0.3&model=qda',
  'naive Bayes': 'preset=blobs3&n=90&noise=0.3&model=nb',
  'least squares': 'preset=outlier&n=100&model=lsq',
  'kernel ridge': 'preset=moons&n=80&model=krr&kernel=rbf&gamma=3',
};

// How the status line `id` stands: the lines its text takes, its height in lines, its text,
// and its details' text.
async function status(page, id = 'status') {
  return page.evaluate((lineId) => {
    const line = document.getElementById(lineId);
    const range = document.createRange();
    range.selectNodeContents(line);
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    const style = getComputedStyle(line);
    const details = document.getElementById(lineId.replace('status', 'status-details'));
    return {
      lines: tops.size,
      height: line.getBoundingClientRect().height / parseFloat(style.lineHeight),
      text: line.textContent,
      details: details && !details.hidden ? details.textContent : '',
    };
  }, id);
}

function assertTwoLines(s, what) {
  assert.ok(s.lines <= 2, `${what}: ${s.lines} lines: ${s.text}`);
  assert.ok(s.height <= 2.05, `${what}: ${s.height.toFixed(2)} lines high: ${s.text}`);
  assert.match(s.text, /^(step \d+ · )?training( accuracy)? [\d.]+%/, what);
  assert.match(s.details, /fit [\d.]+ ms of a [\d.]+ ms frame/, `${what}: the timings in the details`);
  assert.doesNotMatch(s.text, / ms\b/, `${what}: no timings in the line`);
}

for (const [width, height] of SIZES) {
  test(`at ${width} × ${height} every method's status line is at most two lines`, async () => {
    const { page, errors } = await openPage(env.browser, `${env.base}#${SCENES['linear SVM']}`, { width, height });
    for (const [name, scene] of Object.entries(SCENES)) {
      await page.goto(`${env.base}#${scene}`);
      await page.reload();
      await page.waitForFunction(() => window.kernelPlayground?.lastFrame && !window.kernelPlayground.lastFrame.behind, null, { timeout: 20000 });
      await settle(page);
      const s = await status(page);
      assertTwoLines(s, `${name} at ${width} × ${height}`);
      const frame = await lastFrame(page);
      // Nothing is lost: every fact of the frame is in the line or its details.
      const both = `${s.text} ${s.details}`;
      for (const fact of frame.facts) assert.ok(both.includes(fact.label), `${name}: ${fact.label}`);
      // Held-out points: both accuracies (in shorter words on a phone).
      if (frame.test_points > 0) assert.match(s.text, /^training( accuracy)? [\d.]+% · test( accuracy)? [\d.]+%/, name);
      if (frame.test_points > 0 && width >= 1280) assert.match(s.text, /test accuracy [\d.]+% \(\d+ held out\)/, name);
      if (name === 'linear SVM' && width >= 1280) {
        // In order of importance: the support vectors, the margin and its width, then w and b
        // (in the details at 1280 × 720, where two lines under the plot hold no more).
        assert.match(s.text, /· support vectors \d+ \(free \d+, bound \d+\) · margin 1\/‖w‖ = [\d.]+ · width 2\/‖w‖ = [\d.]+/);
        assert.match(both, /w = \(-?[\d.]+, -?[\d.]+\)/);
        assert.match(both, /b = -?[\d.]+/);
        if (width === 1920) assert.match(s.text, /· w = \(-?[\d.]+, -?[\d.]+\) · b = -?[\d.]+$/);
        assert.ok(Math.abs(frame.margin * 2 - frame.margin_width) < 1e-9, 'the width is twice the margin');
        assert.doesNotMatch(s.text, /dual objective|SMO iterations/);
        assert.match(s.details, /dual objective [\d.]+/);
        assert.match(s.details, /SMO iterations \d+/);
      }
      if (name === 'linear SVM' && width === 1280) await page.screenshot({ path: path.join(shots, 'status-1280x720.png') });
      if (name === 'linear SVM' && width === 390) await page.screenshot({ path: path.join(shots, 'status-390x844.png'), fullPage: true });
    }

    // Stepping SMO: the step in the line, the working pair and the violation in the details.
    await page.goto(`${env.base}#preset=moons&n=40&kernel=rbf&gamma=2&C=10`);
    await page.reload();
    await page.waitForFunction(() => window.kernelPlayground?.lastFrame, null, { timeout: 20000 });
    await settle(page);
    // Stepping sits in a fold (the page remembers it open; opened here in case it is not).
    await unfold(page);
    await page.click('#step-reset');
    await settle(page);
    for (let i = 0; i < 3; i++) {
      await page.click('#step');
      await settle(page);
    }
    const stepping = await status(page);
    assertTwoLines(stepping, `stepping SMO at ${width} × ${height}`);
    assert.match(stepping.text, /step 3/);
    assert.match(stepping.details, /KKT violation m\(α\) − M\(α\) = [\d.e-]+ ≥ tol/);
    assert.match(stepping.details, /pair \(i, j\) = \(\d+, \d+\)/);
    if (width === 1280) await page.screenshot({ path: path.join(shots, 'status-stepping-1280x720.png') });

    // Presenter mode: the line at the top of the panel, at the panel's width.
    await page.keyboard.press('p');
    await settle(page);
    assertTwoLines(await status(page), `presenter at ${width} × ${height}`);
    if (width === 1280) await page.screenshot({ path: path.join(shots, 'status-presenter-1280x720.png') });
    await page.click('#presenter');
    await settle(page);

    // Comparing: each side's line.
    await page.check('#compare');
    await settle(page);
    assertTwoLines(await status(page), `compare, left, at ${width} × ${height}`);
    assertTwoLines(await status(page, 'status-b'), `compare, right, at ${width} × ${height}`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('the details open by click and by keyboard, list the inside numbers, and do not move the plot', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=separable&n=60&kernel=linear&C=1`, { width: 1280, height: 720 });
  const plot = () => page.evaluate(() => JSON.stringify(document.getElementById('plot').getBoundingClientRect()));
  const where = await plot();
  assert.equal(await page.isVisible('#status-details .status-details-body'), false, 'closed at first');
  await page.click('#status-details > summary');
  assert.equal(await page.isVisible('#status-details .status-details-body'), true);
  assert.equal(await plot(), where, 'opening the details does not move the plot');
  const body = await page.textContent('#status-details .status-details-body');
  assert.match(body, /dual objective/);
  assert.match(body, /fit [\d.]+ ms/);
  await page.screenshot({ path: path.join(shots, 'status-details-1280x720.png') });
  await page.click('#status-details > summary');
  assert.equal(await page.isVisible('#status-details .status-details-body'), false);
  // The keyboard reaches it.
  await page.focus('#status-details > summary');
  await page.keyboard.press('Enter');
  assert.equal(await page.isVisible('#status-details .status-details-body'), true, 'Enter opens it');
  assert.equal(await plot(), where);
  assert.deepEqual(errors, []);
  await page.close();
});

// A slider's every step changes the status line's numbers, not their shape: the line keeps its
// last fit and is not measured again (a measurement lays the whole page out in the middle of
// the frame). New digits or a narrower window are measured; the line stays within two lines.
test('numbers that change only their digits keep the line\'s fit; a new shape or width is measured', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=separable&n=60&kernel=linear&C=1`, { width: 1280, height: 720 });
  await settle(page);
  const shown = (value, width) => page.evaluate(async ([v, w]) => {
    const { updateStatus } = await import('./www/status.js');
    const line = document.getElementById('status');
    const fact = (label, value) => ({ label, value, note: '' });
    const frame = {
      ...window.kernelPlayground.lastFrame,
      behind: false,
      facts: [fact('support vectors', v), fact('margin width 2/‖w‖', v / 1000), fact('objective', v * 7), fact('w', [v / 100, -v / 300])],
    };
    if (w) {
      line.parentElement.style.width = `${w}px`;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    }
    let measured = 0;
    const measure = Range.prototype.getClientRects;
    Range.prototype.getClientRects = function () { measured += 1; return measure.call(this); };
    try { updateStatus(frame, line); } finally { Range.prototype.getClientRects = measure; }
    const range = document.createRange();
    range.selectNodeContents(line);
    const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
    return { measured, text: line.textContent, lines };
  }, [value, width]);
  const first = await shown(613);
  assert.ok(first.measured > 0, 'new words are measured');
  assert.match(first.text, /support vectors 613/);
  const next = await shown(742);
  assert.equal(next.measured, 0, 'the same shape: the last fit holds');
  assert.match(next.text, /support vectors 742/);
  assert.equal(next.text.replace(/[0-9]/g, '0'), first.text.replace(/[0-9]/g, '0'));
  const longer = await shown(1742);
  assert.ok(longer.measured > 0, 'one more digit is measured');
  const narrow = await shown(1743, 200);
  assert.ok(narrow.measured > 0, 'a narrower line is measured');
  assert.ok(narrow.lines <= 2, `${narrow.lines} lines: ${narrow.text}`);
  assert.ok(narrow.text.length < longer.text.length, `the narrow line says less: ${narrow.text}`);
  assert.deepEqual(errors, []);
  await page.close();
});
