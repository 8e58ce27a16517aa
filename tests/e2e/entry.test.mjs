// End-to-end: exact entry. Typed values in the sliders' readouts (C = 0.3125 exactly), the
// points table (edit, add, delete, test role, paste), and the plot's window (fit view, zoom by
// wheel and keys, pan).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { start, openPage, lastFrame, settle } from './browser.mjs';

let env;
const shots = path.resolve('tests/e2e/screenshots');

before(async () => {
  env = await start();
  fs.mkdirSync(shots, { recursive: true });
});
after(async () => env && env.close());

// The four-point worked example: a linear soft-margin SVM with C = 5/16 has
// α = (0.3125, 0, 0.0625, 0.25), w = (0.375, −0.5), b = 0.375. Point 1 is inside the margin
// (α = C), point 2 beyond it (α = 0), points 3 and 4 on it (y f(x) = 1).
const FOUR = '1,1,1;3,1,1;3,5,0;-1,2,0';

// The multipliers as the page gives them: the hover readout of each point says its α.
async function alphas(page, xy) {
  const out = [];
  for (const p of xy) {
    const info = await page.evaluate(([x, y]) => window.kernelPlayground.inspectAt(x, y), p);
    assert.equal(info.x, p[0]);
    out.push(info.facts.find((f) => f.key === 'alpha').value);
  }
  return out;
}
const FOUR_XY = [[1, 1], [3, 1], [3, 5], [-1, 2]];

const points = (page) => page.evaluate(() => window.kernelPlayground.csv().trim().split('\n').slice(1));
const link = (page) => page.evaluate(() => window.kernelPlayground.link);
const windowOf = (page) => page.evaluate(() => {
  const m = /[#&]window=([^&]*)/.exec(window.kernelPlayground.link);
  return m ? m[1].split(',').map(Number) : null;
});

async function openTable(page) {
  await page.click('#points-table-panel > summary');
  await page.waitForSelector('#points-rows tr');
}

// Types into a readout or cell and commits it with Enter.
async function typeInto(page, selector, text) {
  await page.fill(selector, text);
  await page.press(selector, 'Enter');
  await settle(page);
}

test('C typed as 0.3125 reaches the model exactly: the four-point example', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#model=svm&kernel=linear&points=${FOUR}`);
  await typeInto(page, '#C-value', '0.3125');
  const frame = await lastFrame(page);
  assert.equal(frame.C, 0.3125, 'the model has C = 0.3125 exactly');
  assert.deepEqual(await alphas(page, FOUR_XY), [0.3125, 0, 0.0625, 0.25]);
  assert.deepEqual(frame.w, [0.375, -0.5]);
  // b is the mean over the free support vectors of y − w·x: 0.375 to the last bit or two.
  assert.ok(Math.abs(frame.bias - 0.375) < 1e-12, `b = ${frame.bias}`);
  assert.equal(await page.inputValue('#C-value'), '0.3125', 'the readout shows the exact value');
  assert.match(await link(page), /[#&]C=0\.3125&/, 'the link carries C = 0.3125');
  // The slider shows the nearest position: log10(0.3125) = −0.505 → −0.51 (or −0.5).
  assert.ok(Math.abs(Number(await page.inputValue('#C')) - Math.log10(0.3125)) <= 0.01);
  assert.match(await page.textContent('#status'), /b = 0\.375/);

  // It is one undo step, and reopening the link gives the same C.
  await page.click('#undo');
  await settle(page);
  assert.equal(await page.inputValue('#C-value'), '1');
  await page.click('#redo');
  await settle(page);
  assert.equal(await page.inputValue('#C-value'), '0.3125');

  // A value the lab refuses says why on one line and leaves C as it was.
  await typeInto(page, '#C-value', '-2');
  assert.equal(await page.inputValue('#C-value'), '0.3125');
  assert.match(await page.textContent('#message'), /C <= 0/);
  await typeInto(page, '#C-value', 'abc');
  assert.equal(await page.inputValue('#C-value'), '0.3125');
  assert.equal((await lastFrame(page)).C, 0.3125);
  // Escape puts the readout back without a change.
  await page.fill('#C-value', '7');
  await page.press('#C-value', 'Escape');
  assert.equal(await page.inputValue('#C-value'), '0.3125');

  // Beyond the slider's range still counts: the readout keeps it, the slider sits at its end.
  await typeInto(page, '#C-value', '25000');
  assert.equal((await lastFrame(page)).C, 25000);
  assert.equal(await page.inputValue('#C-value'), '25000');
  assert.equal(await page.inputValue('#C'), '4');
  // A readout is off where its slider is (γ does not matter to a linear kernel).
  assert.ok(await page.isDisabled('#gamma-value'));
  assert.ok(await page.isEnabled('#C-value'));
  // A linear slider takes a typed value too.
  await typeInto(page, '#noise-value', '0.123');
  assert.equal(await page.inputValue('#noise-value'), '0.123');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the points table shows, edits, adds, deletes and takes pasted CSV; the plane follows', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#model=svm&kernel=linear&C=0.3125&points=${FOUR}`);
  await openTable(page);
  assert.equal(await page.locator('#points-rows tr').count(), 4);
  assert.equal(await page.getByLabel('x of point 2', { exact: true }).inputValue(), '3');

  // Edit a coordinate, exactly as written.
  await typeInto(page, '[aria-label="y of point 2"]', '1.50');
  assert.deepEqual(await points(page), ['1,1,1', '3,1.50,1', '3,5,0', '-1,2,0']);
  assert.match(await link(page), /points=1,1,1;3,1\.50,1;/, 'the link keeps the text as typed');
  // A bad number says so and changes nothing.
  await typeInto(page, '[aria-label="x of point 1"]', '1..2');
  assert.match(await page.textContent('#message'), /not a number/);
  assert.equal((await points(page))[0], '1,1,1');
  assert.equal(await page.getByLabel('x of point 1', { exact: true }).inputValue(), '1');
  await typeInto(page, '[aria-label="x of point 1"]', '1e16');
  assert.match(await page.textContent('#message'), /within ±1e15/);
  assert.equal((await points(page))[0], '1,1,1');

  // Back to the example, by the table; its model is the worked one.
  await typeInto(page, '[aria-label="y of point 2"]', '1');
  assert.deepEqual(await alphas(page, FOUR_XY), [0.3125, 0, 0.0625, 0.25]);
  let frame;

  // A label and the test role.
  await typeInto(page, '[aria-label="label of point 1"]', '0');
  assert.equal((await points(page))[0], '1,1,0');
  await page.getByLabel('point 4 is a test point').check();
  await settle(page);
  frame = await lastFrame(page);
  assert.equal(frame.test_points, 1);
  assert.match(await link(page), /;-1,2,0,t/);

  // Add a row (beyond [−1, 1]² and the current view) and delete another.
  await page.fill('#new-x', '12.5');
  await page.fill('#new-y', '-7');
  await page.fill('#new-label', '1');
  await page.press('#new-label', 'Enter');
  await settle(page);
  assert.equal((await points(page)).at(-1), '12.5,-7,1');
  assert.equal(await page.locator('#points-rows tr').count(), 5);
  const [x0, x1, y0, y1] = await page.evaluate(() => Array.from(window.kernelPlayground.window()));
  assert.ok(x0 <= 12.5 && 12.5 <= x1 && y0 <= -7 && -7 <= y1, 'the view holds the new point');
  await page.getByLabel('delete point 1', { exact: true }).click();
  await settle(page);
  assert.deepEqual(await points(page), ['3,1,1', '3,5,0', '-1,2,0', '12.5,-7,1']);
  assert.equal((await lastFrame(page)).points, 4);

  // The table follows a click on the plane.
  const [cx, cy] = await page.evaluate(() => window.kernelPlayground.toClient(0, 0));
  await page.mouse.click(cx, cy);
  await settle(page);
  await page.waitForFunction(() => document.querySelectorAll('#points-rows tr').length === 5);

  // Pasted CSV replaces the points through the files' reader.
  await page.fill('#paste-csv', 'x,y,label\n0.25,0.5,0\n-0.75,1e-3,1\n2,2,1\n');
  await page.click('#paste-points');
  await settle(page);
  assert.deepEqual(await points(page), ['0.25,0.5,0', '-0.75,1e-3,1', '2,2,1']);
  assert.equal(await page.locator('#points-rows tr').count(), 3);
  await page.fill('#paste-csv', 'x,y,label\n1,oops,0\n');
  await page.click('#paste-points');
  assert.match(await page.textContent('#message'), /Pasted text/);
  assert.equal((await points(page)).length, 3, 'a bad paste changes nothing');
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.locator('#points-table-panel').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'points-table.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('after Clear, a typed point (3, 1) is shown; fit view, zoom and pan', async () => {
  const { page, errors } = await openPage(env.browser, env.base);
  await page.click('#clear');
  await settle(page);
  await page.click('#points-table-panel > summary'); // no rows yet
  await page.fill('#new-x', '3');
  await page.fill('#new-y', '1');
  await page.click('#add-point');
  await settle(page);
  assert.deepEqual(await points(page), ['3,1,0']);
  let [x0, x1, y0, y1] = await page.evaluate(() => Array.from(window.kernelPlayground.window()));
  assert.ok(x0 < 3 && 3 < x1 && y0 < 1 && 1 < y1, `the view [${x0}, ${x1}] × [${y0}, ${y1}] holds (3, 1)`);
  // Its mark is on the plot: the tooltip there names it.
  const info = await page.evaluate(() => window.kernelPlayground.inspectAt(3, 1));
  assert.equal(info.index, 0);

  // The wheel zooms about the pointer; the window rides in the link.
  const fitted = await page.evaluate(() => Array.from(window.kernelPlayground.window()));
  const [px, py] = await page.evaluate(() => window.kernelPlayground.toClient(3, 1));
  await page.mouse.move(px, py);
  await page.mouse.wheel(0, 300);
  await settle(page);
  let out = await windowOf(page);
  assert.ok(out && out[1] - out[0] > fitted[1] - fitted[0], 'zoomed out');
  const [qx, qy] = await page.evaluate(() => window.kernelPlayground.toClient(3, 1));
  assert.ok(Math.abs(qx - px) < 2 && Math.abs(qy - py) < 2, 'the point under the pointer stays put');
  // A lone point's fitted view is small; a few more turns of the wheel bring (−8, −8) in.
  for (let i = 0; i < 4; i++) await page.mouse.wheel(0, 300);
  await settle(page);
  out = await windowOf(page);
  [x0, x1, y0, y1] = out;
  assert.ok(x0 < -8 && y0 < -8, `window ${out}`);
  const [ax, ay] = await page.evaluate(() => window.kernelPlayground.toClient(-8, -8));
  await page.mouse.click(ax, ay);
  await settle(page);
  const added = (await points(page))[1].split(',').map(Number);
  assert.ok(Math.abs(added[0] + 8) < 0.2 && Math.abs(added[1] + 8) < 0.2, `clicked at ${added}`);

  // Keys on the plot: + zooms in, Ctrl+arrow pans, 0 fits.
  await page.focus('#plot');
  const before = await windowOf(page);
  await page.keyboard.press('+');
  await settle(page);
  const zoomed = await windowOf(page);
  assert.ok(zoomed[1] - zoomed[0] < before[1] - before[0], 'zoomed in');
  await page.keyboard.press('Control+ArrowRight');
  await settle(page);
  const panned = await windowOf(page);
  assert.ok(panned[0] > zoomed[0] && Math.abs(panned[1] - panned[0] - (zoomed[1] - zoomed[0])) < 1e-9, 'panned right');
  // Ctrl-drag on the plot pans, and adds nothing.
  const n = (await points(page)).length;
  const [mx, my] = await page.evaluate(() => window.kernelPlayground.toClient(0, 0));
  await page.keyboard.down('Control');
  await page.mouse.move(mx, my);
  await page.mouse.down();
  await page.mouse.move(mx + 60, my, { steps: 4 });
  await page.mouse.up();
  await page.keyboard.up('Control');
  await settle(page);
  const dragged = await windowOf(page);
  assert.ok(dragged[0] < panned[0], 'dragged right: the window moved left');
  assert.equal((await points(page)).length, n, 'no point added by panning');
  // The link reopens the zoomed window.
  const zoomedLink = await link(page);
  await page.keyboard.press('0');
  await settle(page);
  assert.equal(await windowOf(page), null, 'fit view: no window in the link');
  const refit = await page.evaluate(() => Array.from(window.kernelPlayground.window()));
  assert.ok(refit[0] < -8 && refit[1] > 3, 'the fitted view holds both points');
  await page.goto(`${env.base}${zoomedLink}`);
  await page.waitForFunction(() => window.kernelPlayground && window.kernelPlayground.link);
  assert.deepEqual(await windowOf(page), dragged);
  await page.click('#fit-view');
  await settle(page);
  assert.equal(await windowOf(page), null);

  // Clear fits again: back to [−1, 1]².
  await page.click('#zoom-out');
  await page.click('#clear');
  await settle(page);
  assert.deepEqual(await page.evaluate(() => Array.from(window.kernelPlayground.window())), [-1, 1, -1, 1]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a two-finger pinch zooms and adds no point', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#model=svm&kernel=linear&points=${FOUR}`);
  await page.evaluate(() => document.getElementById('plot').scrollIntoView({ block: 'center' }));
  const fitted = await page.evaluate(() => Array.from(window.kernelPlayground.window()));
  const [cx, cy] = await page.evaluate(() => window.kernelPlayground.toClient(1, 2));
  const cdp = await page.context().newCDPSession(page);
  const touch = (type, points) => cdp.send('Input.dispatchTouchEvent', {
    type, touchPoints: points.map(([x, y], id) => ({ x, y, id })),
  });
  await touch('touchStart', [[cx - 20, cy]]);
  await touch('touchStart', [[cx - 20, cy], [cx + 20, cy]]);
  for (let d = 30; d <= 80; d += 10) await touch('touchMove', [[cx - d, cy], [cx + d, cy]]);
  await touch('touchEnd', []);
  await settle(page);
  const pinched = await windowOf(page);
  assert.ok(pinched, 'the window is set');
  assert.ok(pinched[1] - pinched[0] < (fitted[1] - fitted[0]) / 3, `zoomed in about 4×: ${pinched} from ${fitted}`);
  assert.ok(pinched[0] < 1 && 1 < pinched[1] && pinched[2] < 2 && 2 < pinched[3], 'about the fingers');
  assert.deepEqual(await points(page), ['1,1,1', '3,1,1', '3,5,0', '-1,2,0'], 'no point added or moved');
  assert.deepEqual(errors, []);
  await page.close();
});

test('comparing, both plots share the window; the wheel on either zooms both', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#model=svm&kernel=linear&points=${FOUR}`);
  await page.check('#compare');
  await settle(page);
  // Where data point (x, y) is within each plot, as a share of its width and height.
  const shares = (x, y) => page.evaluate(([a, b]) => {
    const share = (id, [cx, cy]) => {
      const r = document.getElementById(id).getBoundingClientRect();
      return [(cx - r.left) / r.width, (cy - r.top) / r.height].map((v) => Math.round(v * 1000));
    };
    const k = window.kernelPlayground;
    return [share('plot', k.toClient(a, b)), share('plot-b', k.toClientB(a, b))];
  }, [x, y]);
  const [bx, by] = await page.evaluate(() => window.kernelPlayground.toClientB(3, 1));
  await page.mouse.move(bx, by);
  await page.mouse.wheel(0, -300);
  await settle(page);
  assert.ok(await windowOf(page), 'zoomed from the right-hand plot');
  const [left, right] = await shares(-1, 2);
  assert.deepEqual(left, right, 'the same window on both sides');
  await page.click('#fit-view');
  await settle(page);
  assert.equal(await windowOf(page), null);
  const [l2, r2] = await shares(-1, 2);
  assert.deepEqual(l2, r2);
  assert.notDeepEqual(l2, left);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a large scene: the table shows its first 300 rows, and an edit keeps the rest', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#model=knn`);
  await openTable(page);
  const rows = ['x,y,label'];
  for (let i = 0; i < 5000; i++) rows.push(`${(i % 100) / 10},${Math.floor(i / 100) / 10},${i % 2}`);
  // As a paste puts it there (typing 60 kB key by key would take the test's time).
  await page.$eval('#paste-csv', (box, text) => { box.value = text; }, rows.join('\n'));
  await page.click('#paste-points');
  await settle(page);
  assert.equal(await page.locator('#points-rows tr').count(), 300);
  assert.match(await page.textContent('#points-note'), /first 300 of 5000 points/);
  const started = Date.now();
  await typeInto(page, '[aria-label="x of point 2"]', '-2.5');
  const csv = await points(page);
  assert.equal(csv.length, 5000);
  assert.equal(csv[1], '-2.5,0,1');
  assert.equal(csv[4999], '9.9,4.9,1');
  assert.ok(Date.now() - started < 15000, `the edit took ${Date.now() - started} ms`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('small screens: the readouts and the table fit', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#model=svm&kernel=linear&C=0.3125&points=${FOUR}`, { width: 390, height: 844 });
  await openTable(page);
  assert.equal(await page.inputValue('#C-value'), '0.3125');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no sideways scrolling (${overflow} px)`);
  await page.locator('#C-value').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'entry-phone-readout.png') });
  await page.locator('#points-table-panel').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'entry-phone-table.png') });
  assert.deepEqual(errors, []);
  await page.close();
});
