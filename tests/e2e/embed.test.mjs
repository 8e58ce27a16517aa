// End-to-end: the lab embedded in a slide deck (the example deck docs/embed.html, served from the
// built site as docs/embed.html; docs/EMBEDDING.md). The deck opens with the first slide's lab
// fitted in its frame and only that slide's lab loaded, and axe-core finds no violation in
// either; `show=` shows exactly the named controls; the host sets C, loads a scene, steps and
// hears the status by postMessage, and a malformed message gets a one-line error while a
// foreign one gets nothing; a key pressed in the lab turns the deck's slide unless the lab is
// using it, and a slide shown again opens its lab afresh from its link; the plot refits,
// exactly, at every size of its frame; and nothing is said on the console of the deck or of
// any frame.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, canvasSignature, settle } from './browser.mjs';

const AXE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'node_modules/axe-core/axe.min.js');

let env;
before(async () => { env = await start(); });
after(async () => env && env.close());

// A page that records every console error and page error of the page and its frames; the deck
// keeps every message its frames post (window.heard).
async function newPage(size = { width: 1280, height: 720 }) {
  const page = await env.browser.newPage({ viewport: size });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`page: ${e.message}`));
  await page.addInitScript(() => {
    if (window.top !== window) return;
    window.heard = [];
    addEventListener('message', (ev) => window.heard.push(ev.data));
  });
  return { page, errors };
}

async function openDeck(size) {
  const { page, errors } = await newPage(size);
  await page.goto(`${env.base}docs/embed.html`);
  return { page, errors };
}

// A lab that has drawn its scene's model, with nothing left to compute.
async function ready(frame) {
  await frame.waitForFunction(() => {
    const f = window.kernelPlayground && window.kernelPlayground.lastFrame;
    return f && !f.behind;
  }, null, { timeout: 20000 });
  await settle(frame);
}

// The lab in the slide on screen, once it has drawn its scene.
async function shownLab(page) {
  const handle = await page.waitForSelector('.slides > section:not([hidden]) iframe.lab[src]');
  const frame = await handle.contentFrame();
  await ready(frame);
  return frame;
}

const slideNumber = (page) => page.evaluate(() => [...document.querySelectorAll('.slides > section')].findIndex((s) => !s.hidden) + 1);

// Where the plot, the open view, the status line and the controls are in the lab's window, and
// whether the canvases are drawn at their size on the screen.
const geometry = (frame) => frame.evaluate(() => {
  const box = (el) => {
    if (!el || !el.checkVisibility()) return null;
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
  };
  const plot = document.getElementById('plot');
  const view = document.getElementById('view');
  const ratio = window.devicePixelRatio || 1;
  return {
    width: innerWidth,
    height: innerHeight,
    scrolls: document.documentElement.scrollHeight > innerHeight + 1 || document.documentElement.scrollWidth > innerWidth + 1,
    header: box(document.querySelector('header')),
    plot: box(plot),
    plotPixels: [plot.width, plot.height],
    exact: Math.abs(plot.width - Math.round(plot.getBoundingClientRect().width * ratio)) <= 1,
    view: box(view),
    viewExact: Math.abs(view.width - Math.round(view.getBoundingClientRect().width * ratio)) <= 1,
    status: box(document.getElementById('status')),
    controls: box(document.getElementById('controls')),
  };
});

const inside = (g, b, what) => {
  assert.ok(b, `${what} is shown`);
  assert.ok(b.left >= -1 && b.top >= -1 && b.right <= g.width + 1 && b.bottom <= g.height + 1,
    `${what} ${JSON.stringify(b)} lies inside the ${g.width} × ${g.height} frame`);
};

// The plot fills its frame: square, inside it, as large as the frame's smaller side allows
// (less the status line and the controls; beside a view, half the width), drawn at its size.
function assertFitted(g, { share = 0.6 } = {}) {
  assert.ok(g.header === null || g.header.height <= 1, 'no header on the screen');
  assert.equal(g.scrolls, false, 'the frame does not scroll');
  inside(g, g.plot, 'the plot');
  inside(g, g.status, 'the status line');
  if (g.controls) inside(g, g.controls, 'the controls');
  assert.ok(Math.abs(g.plot.width - g.plot.height) <= 1, `the plot is square: ${g.plot.width} × ${g.plot.height}`);
  assert.ok(g.plot.width >= share * Math.min(g.width, g.height), `the plot (${g.plot.width}) fills the ${g.width} × ${g.height} frame`);
  assert.ok(g.exact, `the plot's ${g.plotPixels} pixels are its size on the screen (${g.plot.width})`);
}

// The form controls a person sees (a slider's typed box counts with its slider; an ⓘ explains).
const visibleControls = (frame) => frame.evaluate(() => [...document.querySelectorAll('input, select, textarea, button')]
  .filter((el) => !el.matches('.help-button, input.readout') && el.checkVisibility())
  .filter((el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; })
  .map((el) => el.dataset.key || el.id));

// Posts `message` to the lab on screen, as a host page does.
const postToLab = (page, message) => page.evaluate((m) => {
  document.querySelector('.slides > section:not([hidden]) iframe.lab').contentWindow.postMessage(m, '*');
}, message);

// The first message of kind `kp` heard after the `from`th whose fields hold `match`'s values
// (an object's fields in turn: { settings: { C: '10' } }).
async function hear(page, kp, from, match = {}) {
  const handle = await page.waitForFunction(([k, n, wanted]) => {
    const holds = (value, want) => (want !== null && typeof want === 'object'
      ? value !== null && typeof value === 'object' && Object.keys(want).every((f) => holds(value[f], want[f]))
      : value === want);
    return window.heard.slice(n).find((m) => m && m.kp === k && holds(m, wanted));
  }, [kp, from, match], { timeout: 20000 });
  return handle.jsonValue();
}
const heardCount = (page) => page.evaluate(() => window.heard.length);

test('the deck opens with its first lab fitted in its frame, and only the shown slide\'s lab loaded', async () => {
  const { page, errors } = await openDeck();
  const frame = await shownLab(page);
  assert.equal(await slideNumber(page), 1);
  assert.equal(await page.locator('iframe.lab[src]').count(), 1, 'the hidden slides\' labs are not loaded');
  const url = new URL(frame.url());
  assert.equal(url.searchParams.get('embed'), '1');
  assert.match(url.hash, /model=svm/, 'the scene is in the hash');
  const status = await frame.locator('#status').textContent();
  assert.match(status, /training accuracy \d/);
  const { colours } = await canvasSignature(frame);
  assert.ok(colours > 20, `the plot is drawn (${colours} colours in a sample)`);
  assertFitted(await geometry(frame));
  // axe-core finds nothing wrong with the deck or with the lab in its frame.
  for (const doc of [page, frame]) {
    await doc.addScriptTag({ path: AXE });
    const violations = await doc.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`));
    assert.deepEqual(violations, [], doc === page ? 'the deck' : 'the lab');
  }
  // The deck's window changes size: the frame with it, and the plot is fitted and drawn anew.
  const before = (await geometry(frame)).plotPixels[0];
  await page.setViewportSize({ width: 1024, height: 600 });
  await frame.waitForFunction((w) => document.getElementById('plot').width !== w, before);
  await settle(frame);
  assertFitted(await geometry(frame));
  assert.deepEqual(errors, []);
  await page.close();
});

test('show= shows exactly the named controls; a name it does not know is said in one line', async () => {
  const { page, errors } = await openDeck();
  const frame = await shownLab(page);
  assert.deepEqual((await visibleControls(frame)).sort(), ['C', 'gamma'], 'slide 1 names C and gamma');
  await page.close();

  const lab = await newPage({ width: 800, height: 600 });
  await lab.page.goto(`${env.base}index.html?embed=1&show=step,bogus,coef0#preset=separable&n=40&model=perceptron`);
  await ready(lab.page);
  assert.deepEqual(await visibleControls(lab.page), ['step-reset', 'step', 'play', 'step-finish'],
    'the stepping buttons; coef0 is a setting the perceptron\'s linear kernel does not use');
  const message = await lab.page.locator('#message').textContent();
  assert.match(message, /^show=bogus: no such control/);
  assert.equal(message.includes('\n'), false);
  assertFitted(await geometry(lab.page));
  // P is not presenter mode in a frame, even with no host to pass it to.
  await lab.page.locator('#status').click();
  await lab.page.keyboard.press('p');
  assert.equal(await lab.page.evaluate(() => document.documentElement.classList.contains('presenter')), false);
  // Without show=, no control at all: the plot and its status line.
  await lab.page.goto(`${env.base}index.html?embed=1#preset=moons&n=60&model=knn`);
  await ready(lab.page);
  assert.deepEqual(await visibleControls(lab.page), []);
  assertFitted(await geometry(lab.page), { share: 0.75 });
  assert.deepEqual([...errors, ...lab.errors], []);
  await lab.page.close();
});

test('the host sets C, loads a scene and hears the status; a malformed message gets one line, a foreign one nothing', async () => {
  const { page, errors } = await openDeck();
  const entries = await page.evaluate(() => history.length);
  const frame = await shownLab(page);
  const ready1 = await hear(page, 'ready', 0);
  assert.equal(ready1.version, 1);
  const first = await hear(page, 'status', 0);
  assert.equal(first.settings.C, '1');
  assert.equal(first.text, await frame.locator('#status').textContent());

  let from = await heardCount(page);
  await postToLab(page, { kp: 'set', key: 'C', value: '10' });
  const after = await hear(page, 'status', from, { settings: { C: '10' } });
  await settle(frame);
  assert.equal(await frame.inputValue('#C-value'), '10', 'the slider\'s number says 10');
  const line = await frame.locator('#status').textContent();
  assert.equal(after.text, line, 'the status heard is the status line');
  assert.notEqual(after.text, first.text, 'C = 10 changed the fit');
  assert.match(await frame.evaluate(() => window.kernelPlayground.link), /(^#|&)C=10(&|$)/);
  assert.match(await page.locator('section:not([hidden]) .heard').textContent(), /The lab: training accuracy/);
  // The deck's own buttons send the same message.
  from = await heardCount(page);
  await page.click('section:not([hidden]) button[data-value="0.1"]');
  await hear(page, 'status', from, { settings: { C: '0.1' } });

  // Wrong messages: each kp message gets one line back; a foreign message gets nothing.
  from = await heardCount(page);
  const wrong = [
    [{ kp: 'set', key: 'C' }, 'set', /needs a "key" and a "value"/],
    [{ kp: 'set', key: 'C', value: '-1', id: 7 }, 'set', /^set C = -1: C <= 0$/],
    [{ kp: 'set', key: 'colour', value: 'red' }, 'set', /no setting is named "colour"/],
    [{ kp: 'load', scene: '#C=abc' }, 'load', /^load: This link could not be opened: .*'abc' is not a number; the scene on screen is unchanged\.$/],
    [{ kp: 'jump' }, 'jump', /unknown kind "jump"/],
    [{ kp: 42 }, null, /"kp" names the kind/],
  ];
  for (const [message] of wrong) await postToLab(page, message);
  for (const foreign of ['hello', null, { namespace: 'reveal', eventName: 'slidechanged' }, [1, 2]]) await postToLab(page, foreign);
  await page.waitForFunction((n) => window.heard.slice(n).filter((m) => m && m.kp === 'error').length >= 6, from);
  await page.waitForTimeout(400);
  const replies = (await page.evaluate((n) => window.heard.slice(n), from)).filter((m) => m && m.kp === 'error');
  assert.equal(replies.length, wrong.length, `one reply each, none for the foreign ones: ${JSON.stringify(replies)}`);
  for (const [i, [, re, text]] of wrong.entries()) {
    assert.equal(replies[i].re, re);
    assert.match(replies[i].message, text);
    assert.equal(/[\r\n]/.test(replies[i].message), false, 'one line');
  }
  assert.equal(replies[1].id, 7, 'the id comes back');
  assert.equal(await frame.inputValue('#C-value'), '0.1', 'a refused value leaves the setting');

  // A whole scene, as a link's hash.
  from = await heardCount(page);
  await postToLab(page, { kp: 'load', scene: '#preset=xor&n=80&model=svm&kernel=rbf&C=5&gamma=3' });
  const loaded = await hear(page, 'status', from, { settings: { preset: 'xor' } });
  assert.equal(loaded.settings.C, '5');
  assert.equal(loaded.points, 80);
  assert.deepEqual(await visibleControls(frame).then((c) => c.sort()), ['C', 'gamma'], 'the named controls stay');
  // Another model: the named controls it does not use go, and it has no run to step through.
  from = await heardCount(page);
  await postToLab(page, { kp: 'set', key: 'model', value: 'knn' });
  await hear(page, 'status', from, { settings: { model: 'knn' } });
  await settle(frame);
  assert.deepEqual(await visibleControls(frame), [], 'k-NN reads neither C nor γ');
  from = await heardCount(page);
  await postToLab(page, { kp: 'step' });
  const refused = await hear(page, 'error', from);
  assert.equal(refused.re, 'step');
  assert.match(refused.message, /^step: k-nearest neighbours has no run to step through$/i);
  // Embedded, the lab adds nothing to the browser's history and keeps nothing for a next visit.
  assert.equal(await page.evaluate(() => history.length), entries);
  assert.equal(await page.evaluate(() => localStorage.getItem('kernel-playground.last-scene')), null);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the host steps a perceptron and takes it back to the start', async () => {
  const { page, errors } = await openDeck();
  await shownLab(page);
  await page.keyboard.press('End');
  const frame = await shownLab(page);
  assert.equal(await slideNumber(page), 3);
  let from = await heardCount(page);
  await page.click('section:not([hidden]) button[data-kp="reset"]');
  await hear(page, 'status', from, { steps: 0 });
  from = await heardCount(page);
  await page.click('section:not([hidden]) button[data-kp="step"]');
  const stepped = await hear(page, 'status', from, { steps: 1 });
  assert.match(stepped.text, /^step 1 /);
  assert.match(await frame.locator('#status').textContent(), /^step 1 /);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a key pressed in the lab turns the slide, unless the lab uses it; a slide shown again opens its lab from its link', async () => {
  const { page, errors } = await openDeck();
  const entries = await page.evaluate(() => history.length);
  let frame = await shownLab(page);
  await postToLab(page, { kp: 'set', key: 'C', value: '10' });
  await frame.waitForFunction(() => document.getElementById('C-value').value === '10');
  // A slider with the focus takes the arrows.
  await frame.focus('#C');
  await page.keyboard.press('ArrowRight');
  await page.waitForTimeout(300);
  assert.equal(await slideNumber(page), 1, 'the slider took the key');
  assert.notEqual(await frame.inputValue('#C-value'), '10', 'and moved');
  // The focus in the lab, on nothing that uses the arrows: the key turns the slide.
  await frame.click('#status');
  let from = await heardCount(page);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => [...document.querySelectorAll('.slides > section')].findIndex((s) => !s.hidden) === 1);
  const key = (await page.evaluate((n) => window.heard.slice(n), from)).find((m) => m && m.kp === 'key');
  assert.equal(key.key, 'ArrowRight');
  assert.equal(await page.locator('.slides > section').first().locator('iframe.lab[src]').count(), 0, 'the slide left unloads its lab');

  // Slide 2: the plot and its open view, both in the frame.
  frame = await shownLab(page);
  const g = await geometry(frame);
  assertFitted(g, { share: 0.7 });
  inside(g, g.view, 'the open view');
  assert.ok(g.view.left >= g.plot.right, 'the view is beside the plot');
  assert.ok(g.viewExact, 'the view is drawn at its size on the screen');
  // A plot focused by a click leaves the arrows to the deck; Page Up and P are the deck's always.
  await frame.click('#plot', { position: { x: 40, y: 40 } });
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => !document.querySelectorAll('.slides > section')[2].hidden);
  frame = await shownLab(page);
  await frame.click('#status');
  await page.keyboard.press('PageUp');
  await page.waitForFunction(() => !document.querySelectorAll('.slides > section')[1].hidden);
  frame = await shownLab(page);
  await frame.click('#status');
  await page.keyboard.press('p');
  await page.waitForFunction(() => !document.querySelectorAll('.slides > section')[0].hidden);
  // Slide 1 again: its lab as its link opened it, not as it was left.
  frame = await shownLab(page);
  assert.equal(await frame.inputValue('#C-value'), '1');
  // Reached with Tab, the plot keeps the arrows: they move its cursor, and the slide stays.
  await frame.click('#status');
  for (let i = 0; i < 6 && await frame.evaluate(() => document.activeElement.id !== 'plot'); i += 1) await page.keyboard.press('Shift+Tab');
  assert.equal(await frame.evaluate(() => document.activeElement.id), 'plot');
  await page.keyboard.press('ArrowRight');
  await page.waitForTimeout(300);
  assert.equal(await slideNumber(page), 1, 'the plot took the key');
  assert.equal(await frame.evaluate(() => document.getElementById('cursor').hidden), false, 'its cursor shows');
  // The deck's own keys.
  await page.locator('h2').first().click();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => !document.querySelectorAll('.slides > section')[1].hidden);
  assert.equal(await page.evaluate(() => history.length), entries, 'no entries in the deck\'s history');
  assert.deepEqual(errors, []);
  await page.close();
});

test('embedded, the plot refits and redraws exactly at any frame size, with or without a view', async () => {
  const { page, errors } = await newPage({ width: 480, height: 360 });
  await page.goto(`${env.base}index.html?embed=1&show=C,gamma#preset=moons&n=100&model=svm&kernel=rbf&C=1&gamma=2`);
  await ready(page);
  const small = await geometry(page);
  assertFitted(small);
  for (const [width, height] of [[1024, 600], [600, 900], [480, 360]]) {
    const was = (await geometry(page)).plotPixels[0];
    await page.setViewportSize({ width, height });
    await page.waitForFunction((w) => document.getElementById('plot').width !== w, was);
    await settle(page);
    const g = await geometry(page);
    assertFitted(g);
    const { colours } = await canvasSignature(page);
    assert.ok(colours > 20, `drawn anew at ${width} × ${height}`);
  }
  // A view open, in a wide frame (beside the plot) and in a tall one (under it).
  await page.setViewportSize({ width: 1024, height: 600 });
  await page.goto(`${env.base}index.html?embed=1&show=C#preset=xor&n=80&model=svm&kernel=poly&degree=2&gamma=1&coef0=0&C=10&views=lift`);
  await ready(page);
  let g = await geometry(page);
  assertFitted(g, { share: 0.7 });
  inside(g, g.view, 'the view');
  assert.ok(g.view.left >= g.plot.right, 'beside the plot');
  await page.setViewportSize({ width: 480, height: 800 });
  await page.waitForFunction(() => document.documentElement.classList.contains('embed-tall'));
  await settle(page);
  g = await geometry(page);
  assertFitted(g, { share: 0.5 });
  inside(g, g.view, 'the view');
  assert.ok(g.view.top >= g.plot.bottom, 'under the plot');
  assert.deepEqual(errors, []);
  await page.close();
});
