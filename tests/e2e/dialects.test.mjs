// End-to-end: the page reads every dialect fixture (tests/fixtures/dialects/, made by
// make_dialect_fixtures.py) through its file input into the same points and labels as the
// command line: its "Save CSV" text is the fixture's expected reading, which
// tests/dialects.rs checks the library and the command line against. A file with more than
// three columns asks which to use, and remembers the choice; a refused file is one message
// naming its line; a link keeps the classes' texts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, openPage, settle } from './browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dialects = path.resolve(here, '../fixtures/dialects');
// Files with more than three columns: the column dialog opens for them.
const WIDE = new Set(['extra_columns.csv', 'iris.csv']);

let env;

before(async () => { env = await start(); });
after(async () => env && env.close());

function fixtures() {
  return fs.readdirSync(dialects)
    .filter((name) => fs.statSync(path.join(dialects, name)).isFile())
    .sort()
    .map((name) => ({
      name,
      bytes: fs.readFileSync(path.join(dialects, name)),
      expected: fs.readFileSync(path.join(dialects, 'expected', name.replace(/\.[^.]*$/, '.csv')), 'utf8'),
    }));
}

async function choose(page, name, bytes) {
  await page.setInputFiles('#load-csv', { name, mimeType: 'text/plain', buffer: bytes });
}

// Waits until the page's "Save CSV" text is `expected`, or fails showing what it is.
async function csvBecomes(page, expected, what) {
  try {
    await page.waitForFunction((want) => window.kernelPlayground.csv() === want, expected, { timeout: 10000 });
  } catch {
    const got = await page.evaluate(() => window.kernelPlayground.csv());
    const message = await page.textContent('#message');
    assert.equal(got, expected, `${what} (message: ${message})`);
  }
}

test('every dialect reads as the command line reads it', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=40`);
  const all = fixtures();
  assert.ok(all.length >= 18, `${all.length} fixtures`);
  for (const { name, bytes, expected } of all) {
    // Cleared first, so a load that did nothing cannot pass for the one before.
    await page.click('#clear');
    await page.waitForFunction(() => window.kernelPlayground.csv() === 'x,y,label\n');
    await choose(page, name, bytes);
    if (WIDE.has(name)) {
      await page.waitForSelector('#columns-dialog[open]');
      await page.click('#columns-load');
    }
    await csvBecomes(page, expected, name);
  }
  await settle(page);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a wide file asks for its columns, remembers them, and its link keeps the class names', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=40`);
  const iris = fs.readFileSync(path.join(dialects, 'iris.csv'));
  await choose(page, 'iris.csv', iris);
  await page.waitForSelector('#columns-dialog[open]');
  // The preview shows the header and the first rows; the defaults are preselected.
  assert.match(await page.textContent('#columns-dialog thead'), /sepal_length.*species/);
  assert.match(await page.textContent('#columns-dialog tbody'), /setosa/);
  assert.deepEqual(
    await page.evaluate(() => ['x', 'y', 'label'].map((r) => document.getElementById(`columns-${r}`).value)),
    ['0', '1', '4'],
  );
  // The same column twice is refused in the dialog.
  await page.selectOption('#columns-y', '0');
  await page.click('#columns-load');
  assert.match(await page.textContent('#columns-dialog .columns-note'), /three different columns/);
  await page.selectOption('#columns-x', '2');
  await page.selectOption('#columns-y', '3');
  await page.click('#columns-load');
  const petals = 'x,y,label\n1.4,0.2,setosa\n1.5,0.2,versicolor\n1.6,0.2,virginica\n'
    + '1.7,0.2,setosa\n1.8,0.2,virginica\n1.9,0.2,versicolor\n';
  await csvBecomes(page, petals, 'petal columns');
  await settle(page);
  // The link carries the texts of the classes: it reopens as setosa, not as 0.
  const link = await page.evaluate(() => window.kernelPlayground.link);
  assert.match(link, /&names=0:setosa;1:versicolor;2:virginica/);
  const reopened = await openPage(env.browser, `${env.base}${link}`);
  await csvBecomes(reopened.page, petals, 'reopened link');
  assert.deepEqual(reopened.errors, []);
  await reopened.page.close();
  // The choice is remembered for a file with the same header; Cancel keeps the points.
  await choose(page, 'iris-again.csv', iris);
  await page.waitForSelector('#columns-dialog[open]');
  assert.deepEqual(
    await page.evaluate(() => ['x', 'y', 'label'].map((r) => document.getElementById(`columns-${r}`).value)),
    ['2', '3', '4'],
  );
  await page.click('#columns-cancel');
  await page.waitForSelector('#columns-dialog', { state: 'detached' });
  assert.equal(await page.evaluate(() => window.kernelPlayground.csv()), petals);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a refused file is one message naming its line, and the points stay', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=40`);
  const before = await page.evaluate(() => window.kernelPlayground.csv());
  const cases = [
    ['ragged.csv', 'line 3: expected 3 fields (as line 1) but found 2'],
    ['not_a_number.csv', "line 3: y 'abc' is not a number"],
    ['unclosed_quote.csv', 'line 3: a quote opened in field 1 does not close on its line'],
    ['binary.png', 'line 2: control character U+001A: this is not a text file of points'],
    ['empty_label.csv', 'line 3: the label is empty'],
  ];
  for (const [name, message] of cases) {
    await choose(page, name, fs.readFileSync(path.join(dialects, 'refused', name)));
    await page.waitForFunction((n) => document.getElementById('message').textContent.includes(n), name);
    const shown = await page.textContent('#message');
    assert.ok(shown.includes(`${name}: ${message}`), shown);
    assert.equal(await page.evaluate(() => window.kernelPlayground.csv()), before);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
