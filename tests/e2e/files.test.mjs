// End-to-end: ways in and out. LIBSVM's format loads, a scene file saves and reopens the same
// scene, a file dropped on the plot loads, "Save SVG" draws the plot with the scene code the
// command line uses, and "Save Python" downloads a script with the points as written.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { start, openPage, lastFrame, settle, canvasSignature } from './browser.mjs';

let env;

before(async () => { env = await start(); });
after(async () => env && env.close());

const LIBSVM = '+1 1:0.5 2:0.25\n-1 1:-0.5 2:-0.125\n+1 1:0.75 2:-0.5 # a comment\n-1 2:0.625\n';

test("LIBSVM's format loads, and saves back", async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=40`);
  await page.setInputFiles('#load-csv', { name: 'four.libsvm', mimeType: 'text/plain', buffer: Buffer.from(LIBSVM) });
  await settle(page);
  const frame = await lastFrame(page);
  assert.equal(frame.points, 4);
  assert.equal(frame.classes, 2);
  assert.equal(await page.evaluate(() => window.kernelPlayground.csv()),
    'x,y,label\n0.5,0.25,+1\n-0.5,-0.125,-1\n0.75,-0.5,+1\n0,0.625,-1\n');
  // Labels keep their text (`+1`), as the file wrote them.
  assert.equal(await page.evaluate(() => window.kernelPlayground.libsvm()),
    '+1 1:0.5 2:0.25\n-1 1:-0.5 2:-0.125\n+1 1:0.75 2:-0.5\n-1 1:0 2:0.625\n');
  // A bad line is a message naming it, and the points stay.
  await page.setInputFiles('#load-csv', { name: 'bad.libsvm', mimeType: 'text/plain', buffer: Buffer.from('1 1:0 2:0\n-1 1:2 3:1\n') });
  await page.waitForFunction(() => document.getElementById('message').textContent.includes('line 2'));
  assert.match(await page.textContent('#message'), /bad\.libsvm: line 2: feature '3'/);
  assert.equal((await lastFrame(page)).points, 4);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a scene file reopens the same scene, pixel for pixel', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=overlapping&n=60&kernel=poly&degree=3&C=10&test=0.2&views=loss`);
  // An edit, so the points are the scene's own.
  const [x, y] = await page.evaluate(() => window.kernelPlayground.toClient(0.9, -0.9));
  await page.mouse.click(x, y);
  await page.mouse.move(2, 2); // off the plot: no point is ringed under the pointer
  await settle(page);
  const scene = await page.evaluate(() => window.kernelPlayground.sceneJson());
  const parsed = JSON.parse(scene);
  assert.equal(parsed.format, 'kernel-playground scene');
  assert.equal(parsed.settings.kernel, 'poly');
  assert.equal(parsed.points.length, 61);
  const before = await canvasSignature(page);
  const frame = await lastFrame(page);

  const other = await openPage(env.browser, `${env.base}#preset=xor&n=20`);
  await other.page.setInputFiles('#load-csv', { name: 'scene.json', mimeType: 'application/json', buffer: Buffer.from(scene) });
  await other.page.waitForFunction(() => window.kernelPlayground.lastFrame.points === 61);
  await settle(other.page);
  const reopened = await lastFrame(other.page);
  assert.equal(reopened.test_points, frame.test_points);
  assert.equal(reopened.train_accuracy, frame.train_accuracy);
  assert.equal(await other.page.inputValue('#kernel'), 'poly');
  assert.equal((await canvasSignature(other.page)).hash, before.hash, 'the same pixels');
  assert.equal(await other.page.evaluate(() => window.kernelPlayground.sceneJson()), scene, 'the same file');
  // A file that is not a scene is a message; the scene stays.
  await other.page.setInputFiles('#load-csv', { name: 'other.json', mimeType: 'application/json', buffer: Buffer.from('{"format": "something else", "version": 1, "settings": {}, "points": []}') });
  await other.page.waitForFunction(() => document.getElementById('message').textContent.includes('other.json'));
  assert.equal((await lastFrame(other.page)).points, 61);
  assert.deepEqual(errors, []);
  assert.deepEqual(other.errors, []);
  await other.page.close();
  await page.close();
});

test('a file dropped on the plot loads', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=40`);
  const transfer = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'dropped.libsvm', { type: 'text/plain' }));
    return dt;
  }, LIBSVM);
  await page.dispatchEvent('.canvas-wrap', 'dragover', { dataTransfer: transfer });
  await page.dispatchEvent('.canvas-wrap', 'drop', { dataTransfer: transfer });
  await page.waitForFunction(() => window.kernelPlayground.lastFrame.points === 4);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Save SVG draws the plot as the command line does', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=30&kernel=linear`);
  const svg = await page.evaluate(() => window.kernelPlayground.svg());
  assert.match(svg, /^<svg[^>]*width="\d+"/);
  assert.match(svg, /<image[^>]*href="data:image\/png;base64,/, 'the regions, as one embedded PNG');
  const circles = (svg.match(/<circle/g) || []).length;
  assert.ok(circles >= 30, `${circles} circles for 30 points`);
  assert.match(svg, />\s*x₁\s*<\/text>/, 'the axis labels are text');
  assert.ok(svg.length < 2e6, `a compact file (${svg.length} bytes)`);
  // The browser writes that PNG: a whole image of the field grid's shades, every pixel opaque.
  const png = await page.evaluate(async (uri) => {
    const image = new Image();
    image.src = uri;
    await image.decode();
    const c = document.createElement('canvas');
    c.width = image.naturalWidth;
    c.height = image.naturalHeight;
    const context = c.getContext('2d');
    context.drawImage(image, 0, 0);
    const { data } = context.getImageData(0, 0, c.width, c.height);
    const colours = new Set();
    let opaque = true;
    for (let i = 0; i < data.length; i += 4) {
      colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      opaque &&= data[i + 3] === 255;
    }
    return { width: c.width, height: c.height, colours: colours.size, opaque };
  }, svg.match(/href="(data:image\/png;base64,[^"]+)"/)[1]);
  assert.ok(png.width >= 20 && png.height >= 20, `a ${png.width} × ${png.height} image`);
  assert.ok(png.colours > 10, `shades of the field (${png.colours} colours)`);
  assert.equal(png.opaque, true);
  // And it is lossless: a bitmap of every byte value comes back from its PNG as it went in.
  const mismatches = await page.evaluate(async () => {
    const [width, height] = [37, 23];
    const rgb = new Uint8Array(width * height * 3).map((_, i) => (i * 97 + (i >> 8)) % 256);
    const image = new Image();
    image.src = `data:image/png;base64,${globalThis.kernelPlaygroundPng(rgb, width, height)}`;
    await image.decode();
    const c = document.createElement('canvas');
    [c.width, c.height] = [width, height];
    c.getContext('2d').drawImage(image, 0, 0);
    const { data } = c.getContext('2d').getImageData(0, 0, width, height);
    let wrong = 0;
    for (let p = 0; p < width * height; p += 1) {
      for (let k = 0; k < 3; k += 1) if (data[4 * p + k] !== rgb[3 * p + k]) wrong += 1;
    }
    return wrong;
  });
  assert.equal(mismatches, 0, 'every byte of the bitmap kept');
  // The button downloads it.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save-svg')]);
  assert.equal(download.suggestedFilename(), 'kernel-playground.svg');
  assert.deepEqual(errors, []);
  await page.close();
});

test('Save Python downloads a script that rebuilds the scene with scikit-learn', async () => {
  const link = '#model=svm&kernel=poly&degree=2&C=0.3125&points=1.50,2,0;-0.25,6.02E8,1,t;0.5,-1,0;2,0.125,1';
  const { page, errors } = await openPage(env.browser, `${env.base}${link}`);
  await settle(page);
  // Described like every other control, and a click away under "more" (not on the first screen).
  const described = await page.evaluate(() => {
    const button = document.getElementById('save-python');
    const ids = (button.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
    return { folded: button.closest('details').id, text: ids.map((id) => document.getElementById(id).textContent).join(' ') };
  });
  assert.equal(described.folded, 'points-more');
  assert.match(described.text, /scikit-learn/);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save-python')]);
  assert.equal(download.suggestedFilename(), 'kernel-playground.py');
  const script = await readFile(await download.path(), 'utf8');
  for (const row of ['(1.50, 2, 0, False),', '(-0.25, 6.02E8, 1, True),', '(0.5, -1, 0, False),', '(2, 0.125, 1, False),']) {
    assert.ok(script.includes(row), `${row} in the script`);
  }
  assert.match(script, /return SVC\(kernel="poly", gamma=2\.0, degree=2, coef0=0\.0, C=0\.3125, tol=0\.001\)/);
  assert.match(script, /^#!\/usr\/bin\/env python3/);
  assert.deepEqual(errors, []);
  await page.close();
});
