// End-to-end: the plot and the open view together. At the sizes of a projector and a laptop,
// a link that opens a view shows the plane's canvas and the view's canvas wholly in the
// window, without scrolling, in presenter mode too; comparing keeps each plot at least 45 % of
// the window's height; and nothing runs past the window's width.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { start, openPage, settle } from './browser.mjs';

let env;
const shots = path.resolve('tests/e2e/screenshots');
before(async () => { env = await start(); });
after(async () => env && env.close());

// Where an element is, and whether it lies wholly in the window.
const place = (page, selector) => page.evaluate((s) => {
  const r = document.querySelector(s).getBoundingClientRect();
  const inside = r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0
    && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5;
  return { inside, top: Math.round(r.top), bottom: Math.round(r.bottom), height: Math.round(r.height) };
}, selector);

const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - innerWidth);

for (const [width, height] of [[1280, 720], [1366, 768], [1920, 1080]]) {
  test(`at ${width} × ${height} a link with a view opens the plot and the view together`, async () => {
    const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=120&views=cv`, { width, height });
    await settle(page);
    for (const selector of ['#plot', '#view']) {
      const at = await place(page, selector);
      assert.ok(at.inside, `${selector} at ${JSON.stringify(at)} in ${width} × ${height}`);
    }
    assert.ok((await place(page, '#plot')).height >= 0.7 * height, 'the plot keeps the height');
    assert.ok(await overflow(page) <= 0, 'no horizontal scrolling');
    // Presenter mode shows the open view too, beside the plot.
    await page.keyboard.press('p');
    await settle(page);
    for (const selector of ['#plot', '#view']) {
      const at = await place(page, selector);
      assert.ok(at.inside, `presenter: ${selector} at ${JSON.stringify(at)}`);
    }
    // Its own button sits in the panel, over nothing.
    assert.equal(await page.evaluate(() => Boolean(document.getElementById('presenter').closest('.panel'))), true);
    assert.ok(await overflow(page) <= 0);
    if (width === 1280) await page.screenshot({ path: path.join(shots, 'view-presenter-1280x720.png') });
    await page.keyboard.press('p');
    await settle(page);
    if (width === 1280) await page.screenshot({ path: path.join(shots, 'view-1280x720.png') });
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('comparing at 1280 × 720 keeps each plot at least 45 % of the height, with the view', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=120&views=loss&compare=kernel%3Dlinear`, { width: 1280, height: 720 });
  await settle(page);
  for (const selector of ['#plot', '#plot-b', '#view']) {
    const at = await place(page, selector);
    assert.ok(at.inside, `${selector} at ${JSON.stringify(at)}`);
  }
  for (const selector of ['#plot', '#plot-b']) {
    const { height } = await place(page, selector);
    assert.ok(height >= 0.45 * 720, `${selector} is ${height} px high`);
  }
  assert.ok(await overflow(page) <= 0);
  await page.screenshot({ path: path.join(shots, 'compare-1280x720.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('at 390 × 844 a link with a view opens the plot and the view together, in presenter mode too', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=120&views=cv`, { width: 390, height: 844 });
  await settle(page);
  for (const presenting of [false, true]) {
    for (const selector of ['#plot', '#view']) {
      const at = await place(page, selector);
      assert.ok(at.inside, `${presenting ? 'presenter: ' : ''}${selector} at ${JSON.stringify(at)}`);
    }
    assert.ok(await overflow(page) <= 0, 'no horizontal scrolling');
    if (!presenting) {
      await page.keyboard.press('p');
      await settle(page);
    }
  }
  assert.deepEqual(errors, []);
  await page.close();
});

// Every part of a slider's row within its panel, and its value whole in its box: on a phone
// (where the slider takes the row's width, under its name), in presenter mode there, and on
// the narrower panel of a comparison at 1280 × 720.
test('a slider\'s row fits its panel, its value is never cut off, and on a phone it spans the row', async () => {
  const rowOf = (page) => page.evaluate(() => {
    const box = (el) => el.getBoundingClientRect().toJSON();
    const slider = document.getElementById('C');
    const value = document.getElementById('C-value');
    return {
      slider: box(slider), row: box(slider.closest('.row')), panel: box(slider.closest('.panel')), value: box(value),
      text: value.value, cut: value.scrollWidth - value.clientWidth,
    };
  });
  const check = (at, where) => {
    assert.equal(at.text, '12345.678', where);
    assert.ok(at.cut <= 0, `${where}: the value's box cuts ${at.cut} px of ${at.text}`);
    for (const part of ['slider', 'value']) {
      assert.ok(at[part].left >= at.panel.left - 0.5 && at[part].right <= at.panel.right + 0.5, `${where}: the ${part} ${at[part].left}–${at[part].right} outside the panel ${at.panel.left}–${at.panel.right}`);
    }
  };
  const phone = { width: 390, height: 844, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
  const { page, errors } = await openPage(env.browser, `${env.base}#C=12345.678`, phone);
  await settle(page);
  // A slider reached with the keyboard is scrolled into view below the plot that stays at the
  // top, not behind it.
  await page.evaluate(() => document.getElementById('C').focus());
  await page.waitForTimeout(300);
  const covered = await page.evaluate(() => {
    const [slider, stage] = [document.getElementById('C'), document.querySelector('.stage')].map((el) => el.getBoundingClientRect());
    return { top: slider.top, bottom: slider.bottom, under: stage.bottom, height: innerHeight };
  });
  assert.ok(covered.top >= covered.under - 0.5 && covered.bottom <= covered.height, `the focused slider at ${covered.top}–${covered.bottom}, the plot down to ${covered.under}`);
  for (const presenting of [false, true]) {
    const at = await rowOf(page);
    check(at, presenting ? 'phone, presenter' : 'phone');
    assert.ok(at.slider.width >= 0.9 * at.row.width, `phone: the slider is ${at.slider.width} px of its row's ${at.row.width}`);
    if (!presenting) {
      await page.click('#presenter');
      await settle(page);
    }
  }
  await page.close();
  const wide = await openPage(env.browser, `${env.base}#C=12345.678&compare=kernel%3Dlinear`, { width: 1280, height: 720 });
  await settle(wide.page);
  check(await rowOf(wide.page), 'comparing at 1280 × 720');
  assert.ok(await overflow(wide.page) <= 0);
  assert.deepEqual([...errors, ...wide.errors], []);
  await wide.page.close();
});
