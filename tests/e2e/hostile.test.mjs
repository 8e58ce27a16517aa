// End-to-end: hostile text in a loaded CSV or in the link is shown as text, never as HTML
// (issue 9, "nothing a class can break"). The page says what is wrong in its message line, no
// element is injected, and no injected handler runs (`window.__pwned` stays undefined).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, settle } from './browser.mjs';

let env;

before(async () => { env = await start(); });
after(async () => env && env.close());

const IMG = '<img src=x onerror=window.__pwned=1>';
const SCRIPT = '<script>window.__pwned=2</script>';

// Nothing hostile reached the DOM: no injected element, no handler run, the message is text.
async function assertNothingInjected(page) {
  // An <img src=x> fails to load at once; give its onerror a chance to run.
  await page.waitForTimeout(300);
  await settle(page);
  const found = await page.evaluate(() => ({
    pwned: window.__pwned,
    images: document.querySelectorAll('img[src="x"]').length,
    scripts: [...document.scripts].filter((s) => s.textContent.includes('__pwned')).length,
    bold: document.querySelectorAll('#message *, #status *').length,
  }));
  assert.deepEqual(found, { pwned: undefined, images: 0, scripts: 0, bold: 0 });
}

test('a CSV with markup in its fields and its name is reported as text', async () => {
  const { page, errors } = await openPage(env.browser, env.base);
  const csv = `x,y,label\n0,0,0\n1,1,1\n${IMG},0.5,1\n`;
  await page.setInputFiles('#load-csv', {
    name: `${IMG}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv),
  });
  await page.waitForFunction(() => !document.getElementById('message').hidden);
  const message = await page.textContent('#message');
  assert.ok(message.includes(`line 4: x '${IMG}' is not a number`), message);
  assert.ok(message.startsWith(`${IMG}.csv: `), message);
  await assertNothingInjected(page);

  // A coordinate that is markup, and a line break smuggled into a field: one line of text.
  // (A label may be any text: a class named by markup is a class, shown nowhere as markup.)
  await page.setInputFiles('#load-csv', {
    name: 'labels.csv', mimeType: 'text/csv', buffer: Buffer.from(`0,0,${SCRIPT}\n1,${SCRIPT},1\n2,\r${IMG},1\n`),
  });
  await page.waitForFunction(() => document.getElementById('message').textContent.startsWith('labels.csv'));
  const second = await page.textContent('#message');
  assert.ok(second.includes(`line 2: y '${SCRIPT}' is not a number`), second);
  await assertNothingInjected(page);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a link with markup in every kind of value opens with the warnings as text', async () => {
  const hostile = encodeURIComponent(IMG);
  const hash = [
    `kernel=${hostile}`,
    `C=${encodeURIComponent(SCRIPT)}`,
    `gamma=${IMG}`,
    'model=%22%3E%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D3%3E',
    `views=${hostile}`,
    `points=0,0,0;1,1,1;${hostile},2,1`,
  ].join('&');
  const { page, errors } = await openPage(env.browser, `${env.base}#${hash}`);
  await page.waitForFunction(() => !document.getElementById('message').hidden);
  const message = await page.textContent('#message');
  assert.ok(message.includes('Parts of the link could not be read'), message);
  assert.ok(message.includes(`unknown kernel '${IMG}'`), message);
  assert.ok(message.includes(`C '${SCRIPT}' is not a number`), message);
  assert.ok(message.includes(`('${IMG},2,1') is not x,y,label`), message);
  // The defaults stand in for what could not be read, and the page still draws.
  const frame = await page.evaluate(() => window.kernelPlayground.lastFrame);
  assert.equal(frame.points, 100);
  await assertNothingInjected(page);
  // Hovering the plot (the one place that builds HTML) shows nothing from the link either.
  const box = await page.locator('#plot').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await settle(page);
  await assertNothingInjected(page);
  assert.deepEqual(errors, []);
  await page.close();
});
