// End-to-end: the marks on the plane as the page draws and exports them. At a small C the
// slack segments run along w and stop at the plot's edge (they do not fan out into a corner);
// each class has its own marker shape, in the plane, the SVG export and the class buttons.
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

// The pixels around data point (x, y) on the plot's canvas that are not white, as a string of
// 0s and 1s over a square `half` pixels each side of its centre.
function markerMask(page, [x, y], half) {
  return page.evaluate(([x, y, half]) => {
    const canvas = document.getElementById('plot');
    const [cx, cy] = window.kernelPlayground.toClient(x, y);
    const r = canvas.getBoundingClientRect();
    const px = Math.round((cx - r.left) * canvas.width / r.width);
    const py = Math.round((cy - r.top) * canvas.height / r.height);
    const data = canvas.getContext('2d').getImageData(px - half, py - half, 2 * half + 1, 2 * half + 1).data;
    let mask = '';
    for (let i = 0; i < data.length; i += 4) mask += data[i] + data[i + 1] + data[i + 2] < 720 ? '1' : '0';
    return mask;
  }, [x, y, half]);
}

test('not by colour alone: each class has its own shape in the plane, the export and the class buttons', async () => {
  // Two lone points on white, no marks around them.
  const points = [[-0.5, 0.3, 0], [0.5, 0.3, 1], [-0.5, -0.4, 2]];
  const link = `#kernel=linear&regions=0&sv=0&margins=0&slack=0&w=0&points=${points.map((p) => p.join(',')).join(';')}`;
  const { page, errors } = await openPage(env.browser, env.base + link, { width: 1280, height: 720 });
  const masks = [];
  for (const [x, y] of points) masks.push(await markerMask(page, [x, y], 14));
  // Two masks compared at the best of the shifts by up to a pixel either way (a point's centre
  // falls anywhere within its pixel): [pixels that differ, pixels either covers].
  const side = 2 * 14 + 1;
  const compare = (a, b) => {
    let best = null;
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        let [differ, union] = [0, 0];
        for (let y = 1; y < side - 1; y++) {
          for (let x = 1; x < side - 1; x++) {
            const p = a[y * side + x] === '1';
            const q = b[(y + dy) * side + x + dx] === '1';
            union += p || q;
            differ += p !== q;
          }
        }
        if (best === null || differ / union < best[0] / best[1]) best = [differ, union];
      }
    }
    return best;
  };
  for (let i = 0; i < masks.length; i++) {
    assert.ok(masks[i].includes('1'), `class ${i}'s marker is drawn`);
    for (let j = i + 1; j < masks.length; j++) {
      const [differ, union] = compare(masks[i], masks[j]);
      assert.ok(differ * 6 >= union, `classes ${i} and ${j} differ in ${differ} of ${union} pixels`);
    }
  }
  // The export: a disc for the first class, polygons for the others.
  const svg = await page.evaluate(() => window.kernelPlayground.svg());
  assert.match(svg, /<circle[^>]*fill="#0072B2"/);
  assert.match(svg, /<polygon[^>]*fill="#E69F00"/);
  assert.match(svg, /<polygon[^>]*fill="#009E73"/);
  // The class buttons show the same shapes.
  const swatches = await page.evaluate(() => [0, 1, 2].map((k) => getComputedStyle(document.querySelector(`.swatch.c${k}`)).backgroundImage));
  assert.match(swatches[0], /circle/);
  assert.match(swatches[1], /polygon points='0,-7 /);
  assert.match(swatches[2], /polygon points='0,-7 7,0 /);
  await page.screenshot({ path: path.join(shots, 'class-shapes.png') });
  assert.deepEqual(errors, []);
  await page.close();
});
