// End-to-end: labels are kept as the file gave them. A CSV labelled −1 / +1 (or 3 / 7) shows
// its classes as −1 and +1 on the class buttons, in increasing order, with the colours of the
// first and second class; a click adds a point of the selected class and a shift-click one of
// the other, so "Save CSV" still has exactly the labels −1 and +1; a third class appears only
// when "+ class" (or the key after the last class's) asks for one; the hover names them so too.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, settle } from './browser.mjs';

let env;

before(async () => { env = await start(); });
after(async () => env && env.close());

// Six points, two classes, within [-0.7, 0.7]².
const rows = (low, high) => `x,y,label\n-0.5,-0.5,${low}\n-0.6,0.2,${low}\n-0.3,-0.7,${low}\n`
  + `0.5,0.5,${high}\n0.6,-0.1,${high}\n0.2,0.7,${high}\n`;

async function load(page, name, text) {
  await page.setInputFiles('#load-csv', { name, mimeType: 'text/csv', buffer: Buffer.from(text) });
  await page.waitForFunction((t) => window.kernelPlayground.csv() === t, text);
  await settle(page);
}

async function clickAt(page, x, y, shift = false) {
  const [cx, cy] = await page.evaluate(([a, b]) => window.kernelPlayground.toClient(a, b), [x, y]);
  if (shift) await page.keyboard.down('Shift');
  await page.mouse.click(cx, cy);
  if (shift) await page.keyboard.up('Shift');
  await settle(page);
}

// The labels of "Save CSV", row by row.
const labels = async (page) => (await page.evaluate(() => window.kernelPlayground.csv()))
  .trim().split('\n').slice(1).map((row) => row.split(',')[2]);

const buttons = (page) => page.$$eval('.class-button', (bs) => bs.map((b) => ({
  text: b.textContent.replace(/\s+/g, ' ').trim(),
  pressed: b.getAttribute('aria-pressed') === 'true',
  swatch: b.querySelector('.swatch').className,
})));

// The colour of the plot's pixel at data point (x, y): the point's disc there.
async function colourAt(page, x, y) {
  return page.evaluate(([a, b]) => {
    const [cx, cy] = window.kernelPlayground.toClient(a, b);
    const c = document.getElementById('plot');
    const rect = c.getBoundingClientRect();
    const px = Math.round(((cx - rect.left) * c.width) / rect.width);
    const py = Math.round(((cy - rect.top) * c.height) / rect.height);
    return Array.from(c.getContext('2d').getImageData(px, py, 1, 1).data.slice(0, 3));
  }, [x, y]);
}

// scene::CLASS_COLOURS of the first and second class.
const FIRST = [0, 114, 178];
const SECOND = [230, 159, 0];
const near = (a, b) => a.every((v, i) => Math.abs(v - b[i]) <= 40);

test('a file labelled −1 / +1 keeps exactly −1 and +1 through clicks; "new class" adds a third', async () => {
  // No points held out (the opening scene holds 30 % out), so every disc shows its colour.
  const { page, errors } = await openPage(env.browser, `${env.base}#test=0`, { width: 1280, height: 720 });
  await load(page, 'signs.csv', rows(-1, '+1'));
  await page.waitForFunction(() => document.querySelector('.class-button').textContent.startsWith('-1'));
  assert.deepEqual(await buttons(page), [
    { text: '-1 1', pressed: true, swatch: 'swatch c0' },
    { text: '+1 2', pressed: false, swatch: 'swatch c1' },
  ]);
  // The points table's new row offers the selected class too.
  assert.equal(await page.inputValue('#new-label'), '-1');
  // The −1 points have the first class's colour, the +1 points the second's.
  assert.ok(near(await colourAt(page, -0.5, -0.5), FIRST), `${await colourAt(page, -0.5, -0.5)}`);
  assert.ok(near(await colourAt(page, 0.5, 0.5), SECOND), `${await colourAt(page, 0.5, 0.5)}`);

  // A click adds a −1 (the selected class), a shift-click a +1.
  await clickAt(page, -0.1, -0.2);
  assert.equal((await labels(page)).at(-1), '-1');
  await clickAt(page, 0.2, 0.1, true);
  assert.equal((await labels(page)).at(-1), '+1');
  // Key 2 and the button choose +1; shift-click then adds −1.
  await page.locator('body').focus();
  await page.keyboard.press('2');
  assert.equal(await page.inputValue('#new-label'), '1');
  await clickAt(page, 0.3, 0.3);
  assert.equal((await labels(page)).at(-1), '+1');
  await clickAt(page, -0.3, -0.2, true);
  assert.equal((await labels(page)).at(-1), '-1');
  await page.click('.class-button[data-label="-1"]');
  await clickAt(page, -0.2, 0.4);
  let saved = await labels(page);
  assert.equal(saved.at(-1), '-1');
  assert.deepEqual([...new Set(saved)].sort(), ['+1', '-1'], 'exactly the labels −1 and +1');
  assert.equal(saved.length, 11);
  const frame = await page.evaluate(() => window.kernelPlayground.lastFrame);
  assert.equal(frame.classes, 2);

  // Key 3 (the one after the last class's) and "new class" ask for a class; only a click adds it.
  assert.deepEqual((await buttons(page)).map((b) => b.text), ['-1 1', '+1 2']);
  await page.click('#new-class');
  assert.deepEqual(await buttons(page), [
    { text: '-1 1', pressed: false, swatch: 'swatch c0' },
    { text: '+1 2', pressed: false, swatch: 'swatch c1' },
    { text: '2 3', pressed: true, swatch: 'swatch c2' },
  ]);
  assert.deepEqual([...new Set(await labels(page))].sort(), ['+1', '-1'], 'no point of the new class yet');
  await clickAt(page, 0.0, -0.6);
  saved = await labels(page);
  assert.equal(saved.at(-1), '2');
  assert.equal((await page.evaluate(() => window.kernelPlayground.lastFrame)).classes, 3);
  // The −1 points keep the first class's colour.
  assert.ok(near(await colourAt(page, -0.5, -0.5), FIRST));
  assert.ok(near(await colourAt(page, 0.5, 0.5), SECOND));
  // The hover's votes name the classes as the file does.
  const [hx, hy] = await page.evaluate(() => window.kernelPlayground.toClient(0.4, -0.4));
  await page.mouse.move(hx, hy);
  await page.waitForFunction(() => /votes/.test(document.getElementById('tooltip').textContent));
  assert.match(await page.textContent('#tooltip'), /votes -1: \d+, \+1: \d+, 2: \d+→ predicted label (-1|\+1|2)$/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a file labelled 3 / 7 shows 3 and 7, keys choose by rank, and hover names the label', async () => {
  const { page, errors } = await openPage(env.browser, env.base, { width: 390, height: 844 });
  await load(page, 'digits.csv', rows(7, 3));
  await page.waitForFunction(() => document.querySelector('.class-button').textContent.startsWith('3'));
  assert.deepEqual((await buttons(page)).map((b) => [b.text, b.swatch]), [['3 1', 'swatch c0'], ['7 2', 'swatch c1']]);
  // The 3s (written last in the file) have the first colour.
  assert.ok(near(await colourAt(page, 0.5, 0.5), FIRST), `${await colourAt(page, 0.5, 0.5)}`);
  await page.locator('body').focus();
  await page.keyboard.press('2');
  await clickAt(page, -0.1, 0.0);
  await clickAt(page, 0.1, -0.3, true);
  await page.keyboard.press('1');
  await clickAt(page, 0.3, 0.2);
  // Key 6 is no class and asks for none.
  await page.keyboard.press('6');
  assert.equal((await buttons(page)).length, 2);
  await clickAt(page, 0.0, 0.4);
  const saved = await labels(page);
  assert.deepEqual(saved.slice(6), ['7', '3', '3', '3']);
  assert.deepEqual([...new Set(saved)].sort(), ['3', '7']);
  // The hover says the label as the file wrote it.
  const [cx, cy] = await page.evaluate(() => window.kernelPlayground.toClient(-0.5, -0.5));
  await page.mouse.move(cx, cy);
  await page.waitForSelector('#tooltip:not([hidden])');
  assert.match(await page.textContent('#tooltip'), /point 1 · label 7/);
  // The scene's link opens with the classes named as the file named them, not "class 4".
  const link = await page.evaluate(() => window.kernelPlayground.link);
  assert.match(link, /&names=3:3/);
  const opened = await openPage(env.browser, `${env.base}${link}`, { width: 390, height: 844 });
  await settle(opened.page);
  assert.deepEqual((await buttons(opened.page)).map((b) => [b.text, b.swatch]), [['3 1', 'swatch c0'], ['7 2', 'swatch c1']]);
  assert.deepEqual(await labels(opened.page), saved);
  assert.deepEqual(opened.errors, []);
  await opened.page.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('an empty scene offers two classes; a preset\'s classes are class 1, class 2', async () => {
  const { page, errors } = await openPage(env.browser, env.base);
  assert.deepEqual((await buttons(page)).map((b) => b.text), ['class 1 1', 'class 2 2']);
  await page.click('#clear');
  await settle(page);
  assert.deepEqual((await buttons(page)).map((b) => b.text), ['class 1 1', 'class 2 2']);
  await clickAt(page, 0.2, 0.2);
  await clickAt(page, -0.2, -0.2, true);
  assert.deepEqual(await labels(page), ['0', '1']);
  assert.deepEqual(errors, []);
  await page.close();
});
