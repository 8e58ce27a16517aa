// End-to-end: the marks on the plane as the page draws and exports them. At a small C the
// slack segments run along w and stop at the plot's edge (they do not fan out into a corner).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { start, openPage } from './browser.mjs';

let env;
const shots = path.resolve('tests/e2e/screenshots');

before(async () => {
  env = await start();
  fs.mkdirSync(shots, { recursive: true });
});
after(async () => env && env.close());

// The plot's rectangle in an exported SVG: where the region image is embedded.
function plotRect(svg) {
  const image = svg.match(/<image[^>]*>/);
  assert.ok(image, 'the regions are embedded as an image');
  const attr = (name) => Number(image[0].match(new RegExp(`\\s${name}="([-\\d.]+)"`))[1]);
  const [left, top] = [attr('x'), attr('y')];
  return { left, top, right: left + attr('width'), bottom: top + attr('height') };
}

// The pixel ends [[x0, y0], [x1, y1]] of the lines drawn in `stroke`.
function lines(svg, stroke) {
  return [...svg.matchAll(/<polyline[^>]*>/g)]
    .map((m) => m[0])
    .filter((element) => element.includes(`stroke="${stroke}"`))
    .map((element) => {
      const xy = element.match(/points="([^"]*)"/)[1].trim().split(/\s+/).map((p) => p.split(',').map(Number));
      return [xy[0], xy[xy.length - 1]];
    });
}

const SLACK = '#78288C';

test('at C = 0.001 the slack segments run along w and stop at the plot edge, not in a corner', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=separable&n=60&seed=3&kernel=linear&C=0.001&slack=1`, { width: 1280, height: 720 });
  const svg = await page.evaluate(() => window.kernelPlayground.svg());
  const rect = plotRect(svg);
  const segments = lines(svg, SLACK);
  assert.ok(segments.length >= 50, `${segments.length} slack segments`);
  const corners = [[rect.left, rect.top], [rect.right, rect.top], [rect.left, rect.bottom], [rect.right, rect.bottom]];
  let atCorner = 0;
  // Every end inside the plot; every segment parallel to the others (all run along w), to
  // within the pixels' rounding; the far ends on the edge, spread along it.
  const [[ax, ay], [bx, by]] = segments[0];
  const reference = [bx - ax, by - ay];
  for (const [[x0, y0], [x1, y1]] of segments) {
    for (const [x, y] of [[x0, y0], [x1, y1]]) {
      assert.ok(x >= rect.left - 1 && x <= rect.right + 1 && y >= rect.top - 1 && y <= rect.bottom + 1,
        `an end at (${x}, ${y}) outside the plot ${JSON.stringify(rect)}`);
    }
    const d = [x1 - x0, y1 - y0];
    const length = Math.hypot(...d);
    const sine = (d[0] * reference[1] - d[1] * reference[0]) / (length * Math.hypot(...reference));
    // An end is rounded to a pixel: a segment L pixels long may turn by about 2/L.
    assert.ok(Math.abs(sine) <= 3 / Math.min(length, Math.hypot(...reference)),
      `segment (${x0}, ${y0}) → (${x1}, ${y1}) is not parallel to the others (sine ${sine})`);
    const onEdge = Math.min(Math.abs(x1 - rect.left), Math.abs(x1 - rect.right), Math.abs(y1 - rect.top), Math.abs(y1 - rect.bottom)) <= 1.5;
    assert.ok(onEdge, `segment (${x0}, ${y0}) → (${x1}, ${y1}) stops short of the edge (its margin is far beyond it)`);
    if (corners.some(([cx, cy]) => Math.hypot(x1 - cx, y1 - cy) <= 3)) atCorner += 1;
  }
  assert.ok(atCorner <= 2, `${atCorner} of ${segments.length} segments end in a corner`);
  const ends = new Set(segments.map(([, [x, y]]) => `${x},${y}`));
  assert.ok(ends.size > segments.length / 2, `the segments share ${ends.size} ends`);
  await page.screenshot({ path: path.join(shots, 'slack-small-c.png') });
  assert.deepEqual(errors, []);
  await page.close();
});
