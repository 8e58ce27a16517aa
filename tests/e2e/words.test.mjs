// End-to-end: words for everything. For every model in the menu, every visible form control
// and every legend entry has a non-empty accessible description, and the legend names exactly
// the marks the frame draws (support vectors for the SVM alone, a test point only with points
// held out, Voronoi edges for k = 1, ellipses and means for the Gaussian models, the
// perceptron's counts while stepping); axe-core finds no violation on any model at 1280 × 720;
// an ⓘ opens its explanation on hover, focus and a tap, and Esc closes it; and a first visit's
// prompt shows, goes on the first click (which still adds its point) and stays gone on reload.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, openPage, settle, waitForFrame } from './browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const AXE = path.join(here, 'node_modules/axe-core/axe.min.js');

let env;
before(async () => { env = await start(); });
after(async () => env && env.close());

const methods = (page) => page.evaluate(() => [...document.querySelectorAll('#model option')].map((o) => o.value));

// Every visible input, menu and text box, and every legend entry, with its description as
// assistive technology computes it (the elements aria-describedby names, else the title).
const described = (page) => page.evaluate(() => {
  const description = (el) => {
    const ids = (el.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
    const text = ids.map((id) => (document.getElementById(id) || {}).textContent || '').join(' ').trim();
    return text || (el.getAttribute('title') || '').trim();
  };
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  };
  const controls = [...document.querySelectorAll('input, select, textarea')]
    .filter((el) => visible(el) || (el.type === 'file' && visible(el.closest('label'))))
    .map((el) => ({ what: el.id || el.name || el.outerHTML.slice(0, 60), description: description(el) }));
  const legend = [...document.querySelectorAll('#legend-entries li')]
    .map((li) => ({ what: li.dataset.mark, description: description(li) }));
  return { controls, legend };
});

const legendMarks = (page) => page.evaluate(() => [...document.querySelectorAll('#legend-entries li')].map((li) => li.dataset.mark));

async function open(hash, size = { width: 1280, height: 720 }) {
  const { page, errors } = await openPage(env.browser, `${env.base}#${hash}`, size);
  await settle(page);
  return { page, errors };
}

test('every model: each visible control and each legend entry is described', async () => {
  const { page, errors } = await open('preset=moons&n=60&test=0.3');
  const ids = await methods(page);
  assert.ok(ids.length >= 9, `the menu lists ${ids.length} models`);
  for (const id of ids) {
    await page.selectOption('#model', id);
    await waitForFrame(page);
    await settle(page);
    const { controls, legend } = await described(page);
    assert.ok(controls.length >= 10, `${id}: ${controls.length} controls`);
    for (const c of controls) assert.ok(c.description.length > 10, `${id}: ${c.what} has no description`);
    assert.ok(legend.length >= 3, `${id}: legend ${JSON.stringify(legend)}`);
    for (const e of legend) assert.ok(e.description.length > 10, `${id}: legend entry ${e.what}`);
    const marks = legend.map((e) => e.what);
    assert.ok(marks.includes('test'), `${id}: 30 % held out, so a test point: ${marks}`);
    assert.equal(marks.includes('free_support') || marks.includes('bound_support'), ['svm', 'nusvc'].includes(id),
      `${id}: support vectors only for the SVMs (C and ν): ${marks}`);
    // The model menu's description is the chosen method's.
    const title = await page.evaluate(() => document.querySelector('#model option:checked').textContent);
    const menu = await page.evaluate(() => document.getElementById(document.getElementById('model').getAttribute('aria-describedby')).textContent);
    assert.ok(menu.startsWith(title), `${id}: '${menu}'`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('the legend names exactly the marks the frame draws', async () => {
  const cases = [
    ['model=svm&kernel=linear&preset=overlapping&n=60&test=0', ['class', 'free_support', 'bound_support', 'boundary', 'levels', 'slack', 'w_arrow', 'regions'], ['test']],
    ['model=svm&preset=moons&n=60&test=0&sv=0&margins=0&slack=0&regions=0', ['class', 'boundary'], ['free_support', 'bound_support', 'levels', 'slack', 'regions', 'test']],
    ['model=logistic&preset=moons&n=60&test=0', ['class', 'boundary', 'levels', 'regions'], ['free_support', 'bound_support', 'slack', 'test']],
    ['model=knn&k=1&preset=moons&n=40&vor=1&del=1', ['voronoi_edges', 'delaunay_edges'], ['levels', 'ellipses']],
    ['model=knn&k=5&preset=moons&n=40&vor=1', ['boundary'], ['voronoi_edges']],
    // Three classes: LDA's contours are of the likeliest class's p; an SVM's votes have none.
    ['model=lda&preset=blobs3&n=60', ['class', 'ellipses', 'means', 'levels', 'regions'], ['free_support']],
    ['model=svm&preset=blobs3&n=60&pairs=1', ['pairwise'], ['levels']],
  ];
  for (const [hash, present, absent] of cases) {
    const { page, errors } = await open(hash);
    const marks = await legendMarks(page);
    for (const m of present) assert.ok(marks.includes(m), `${hash}: ${m} missing from ${marks}`);
    for (const m of absent) assert.ok(!marks.includes(m), `${hash}: ${m} in ${marks}`);
    // The legend is the frame's: the same entries, in its order.
    const frame = await page.evaluate(() => window.kernelPlayground.lastFrame.legend.map((e) => e.mark.type));
    assert.deepEqual(marks, frame);
    // A method's mark is drawn from its own shapes: the slack segment's swatch is a line in
    // the plane's purple, Voronoi edges' a dark grey one.
    const drawn = { slack: 'rgb(120, 40, 140)', voronoi_edges: 'rgb(60, 60, 60)' };
    for (const [mark, stroke] of Object.entries(drawn).filter(([m]) => marks.includes(m))) {
      const strokes = await page.$$eval(`#legend-entries li[data-mark="${mark}"] svg line`, (lines) => lines.map((l) => getComputedStyle(l).stroke));
      assert.deepEqual(strokes, [stroke], `${hash}: ${mark}`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
  // Stepping the perceptron shows its counts and the point of the last update.
  const { page } = await open('model=perceptron&kernel=linear&preset=separable&n=40');
  assert.ok(!(await legendMarks(page)).includes('last_update'));
  await page.click('#step');
  await page.click('#step');
  await waitForFrame(page);
  await settle(page);
  const stepped = await legendMarks(page);
  assert.ok(stepped.includes('mistake_count') && stepped.includes('last_update'), `${stepped}`);
  await page.close();
});

test('an explanation opens on hover, focus and tap, and Esc closes it', async () => {
  const { page } = await open('model=svm&preset=moons&n=40');
  const button = page.locator('#model-params .row:has(#C) .help-button');
  const noteOf = async () => page.evaluate(() => {
    const b = document.querySelector('#model-params .row:has(#C) .help-button');
    const note = document.getElementById(b.getAttribute('aria-describedby'));
    return { hidden: note.hidden, text: note.textContent };
  });
  assert.equal((await noteOf()).hidden, true);
  await button.hover();
  assert.equal((await noteOf()).hidden, false);
  assert.match((await noteOf()).text, /margin/);
  await page.mouse.move(5, 5);
  assert.equal((await noteOf()).hidden, true);
  await button.focus();
  assert.equal((await noteOf()).hidden, false);
  await page.keyboard.press('Escape');
  assert.equal((await noteOf()).hidden, true);
  await button.click();
  await page.mouse.move(5, 5);
  assert.equal((await noteOf()).hidden, false, 'a click keeps it open');
  await page.keyboard.press('Escape');
  assert.equal((await noteOf()).hidden, true);
  // The C slider is described by the same words.
  const slider = await page.evaluate(() => document.getElementById(document.getElementById('C').getAttribute('aria-describedby')).textContent);
  assert.match(slider, /price of a margin violation/);
  await page.close();
});

test('axe-core finds no violation on any model at 1280 × 720', async () => {
  const { page, errors } = await open('preset=moons&n=60&test=0.3');
  for (const id of await methods(page)) {
    await page.selectOption('#model', id);
    await waitForFrame(page);
    await settle(page);
    await page.addScriptTag({ path: AXE });
    const violations = await page.evaluate(async () => {
      const result = await window.axe.run(document, { resultTypes: ['violations'] });
      return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(', ')}`);
    });
    assert.deepEqual(violations, [], `${id}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('a first visit is prompted; the first click adds its point, and the prompt stays gone', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await page.goto(`${env.base}#preset=moons&n=20`);
  await waitForFrame(page);
  await settle(page);
  assert.equal(await page.locator('#first-prompt').isVisible(), true);
  // Click right on the prompt: the plot still gets the press.
  const box = await page.locator('#first-prompt').boundingBox();
  const before = await page.evaluate(() => window.kernelPlayground.lastFrame);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await waitForFrame(page, before);
  assert.equal(await page.locator('#first-prompt').count(), 0, 'gone after the click');
  // The scene now has explicit points in its link: the 20 of the preset and the click's.
  const points = await page.evaluate(() => window.kernelPlayground.link.match(/points=([^&]*)/)[1].split(';').length);
  assert.equal(points, 21, 'the click added a point');
  await page.reload();
  await waitForFrame(page);
  assert.equal(await page.locator('#first-prompt').count(), 0, 'not again on the next visit');
  await context.close();
  // A link with its own points is not prompted either.
  const fresh = await env.browser.newContext({ viewport: { width: 1280, height: 720 } });
  const linked = await fresh.newPage();
  await linked.goto(`${env.base}#points=0,0,0;1,1,1;0,1,0;1,0,1`);
  await waitForFrame(linked);
  assert.equal(await linked.locator('#first-prompt').count(), 0);
  await fresh.close();
  // A regression's or a novelty's first visit is told what a click does there: no other class.
  for (const [task, words] of [['regression', /point \(x, t\).*refit the curve/], ['novelty', /learn the region again/]]) {
    const first = await env.browser.newContext({ viewport: { width: 1280, height: 720 } });
    const visit = await first.newPage();
    await visit.goto(`${env.base}#task=${task}`);
    await waitForFrame(visit);
    const said = await visit.locator('#first-prompt').textContent();
    assert.match(said, words, task);
    assert.doesNotMatch(said, /class/, `${task}: ${said}`);
    await first.close();
  }
  // On a touch screen the prompt says tap, and where the class is chosen: there is no shift.
  const touch = await env.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const tapped = await touch.newPage();
  await tapped.goto(`${env.base}#preset=moons&n=20`);
  await waitForFrame(tapped);
  const told = await tapped.locator('#first-prompt').textContent();
  assert.match(told, /^Try it: tap to add a point of the class chosen under “new points”/);
  assert.doesNotMatch(told, /click/, told);
  await touch.close();
  // A comparison's first visit on a phone: the prompt does not cover the narrow left plot (it
  // hid the header), and a press on the right-hand plot ends it as one on the left does.
  const phone = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
  const compared = await phone.newPage();
  await compared.goto(`${env.base}#preset=moons&n=20&compare=C%3D10`);
  await waitForFrame(compared);
  await settle(compared);
  assert.equal(await compared.locator('#first-prompt').count(), 1, 'a first visit');
  assert.equal(await compared.locator('#first-prompt').isVisible(), false, 'not over the compared plots');
  const [bx, by] = await compared.evaluate(() => window.kernelPlayground.toClientB(0.6, 0.8));
  await compared.mouse.click(bx, by);
  await settle(compared);
  assert.equal(await compared.locator('#first-prompt').count(), 0, 'gone after a press on the right');
  await phone.close();
});
