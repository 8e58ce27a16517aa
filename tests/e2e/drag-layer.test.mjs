// End-to-end: the layer of discs while a point is dragged. The first frame of a drag takes the
// dragged disc off the layer by repainting only the square it covered (src/web/discs.rs); the
// plot must then be what a layer stamped anew shows. Checked for a scene whose layer is stamped
// on its canvas and for one composited in memory (from 5000 discs on): after the drag, the plot
// is compared, pixel for pixel, with the same scene painted from nothing (the window resized
// away and back, which makes a new layer), except where the dragged disc now lies (it is drawn
// over its neighbours while held).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, settle } from './browser.mjs';

let env;
before(async () => { env = await start(); });
after(async () => env && env.close());

// Keeps the plot's pixels in the page as `name`.
const keep = (page, name) => page.evaluate((key) => {
  const c = document.getElementById('plot');
  window[key] = { width: c.width, data: c.getContext('2d').getImageData(0, 0, c.width, c.height).data };
}, name);

// How many pixels differ between two kept pictures inside (`inside`) or outside the square of
// half-side `half` round canvas pixel `at`, and the first that differs.
const differing = (page, a, b, at, half, inside) => page.evaluate(({ a, b, at, half, inside }) => {
  const [p, q] = [window[a], window[b]];
  if (p.width !== q.width) return { count: -1 };
  let count = 0;
  let first = null;
  for (let i = 0; i < p.data.length; i += 4) {
    const x = (i / 4) % p.width;
    const y = Math.floor(i / 4 / p.width);
    const near = Math.abs(x - at[0]) <= half && Math.abs(y - at[1]) <= half;
    if (near !== inside) continue;
    if (p.data[i] !== q.data[i] || p.data[i + 1] !== q.data[i + 1] || p.data[i + 2] !== q.data[i + 2] || p.data[i + 3] !== q.data[i + 3]) {
      count += 1;
      first ??= [x, y];
    }
  }
  return { count, first };
}, { a, b, at, half, inside });

for (const n of [400, 6000]) {
  test(`a dragged disc leaves the layer of ${n} discs as a layer stamped anew would be`, async () => {
    const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=${n}&noise=0.3&seed=1&kernel=rbf&C=1&gamma=1`);
    await settle(page);
    // A point whose disc shows, overlapped by a neighbour's or two (of the first 500 points,
    // the first with one to three others within 10 CSS pixels).
    const index = await page.evaluate(() => {
      const at = window.kernelPlayground.points().map(([x, y]) => window.kernelPlayground.toClient(x, y));
      const near = ([x, y]) => at.filter(([u, v]) => Math.hypot(u - x, v - y) < 10).length - 1;
      return at.slice(0, 500).findIndex((p) => near(p) >= 1 && near(p) <= 3);
    });
    assert.ok(index >= 0, 'a point with a few neighbours');
    const pixelOf = (i) => page.evaluate((k) => {
      const [x, y] = window.kernelPlayground.points()[k];
      const [cx, cy] = window.kernelPlayground.toClient(x, y);
      const c = document.getElementById('plot');
      const r = c.getBoundingClientRect();
      return { client: [cx, cy], canvas: [Math.round((cx - r.left) * c.width / r.width), Math.round((cy - r.top) * c.height / r.height)] };
    }, i);
    const from = await pixelOf(index);
    await keep(page, 'before');
    await page.mouse.move(...from.client);
    await page.mouse.down();
    for (let i = 1; i <= 8; i += 1) {
      await page.mouse.move(from.client[0] + 12 * i, from.client[1] + 9 * i);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
    }
    await page.mouse.up();
    await settle(page);
    const to = await pixelOf(index);
    await keep(page, 'dragged');
    // Where the disc was, the plot changed (the test looks at something).
    const moved = await differing(page, 'before', 'dragged', from.canvas, 6, true);
    assert.ok(moved.count > 0, 'the disc left its place');
    // The same scene painted from nothing: a new layer at another size, then at this one.
    const width = await page.evaluate(() => document.getElementById('plot').width);
    await page.setViewportSize({ width: 1200, height: 860 });
    await settle(page);
    assert.notEqual(await page.evaluate(() => document.getElementById('plot').width), width);
    await page.setViewportSize({ width: 1400, height: 1000 });
    await settle(page);
    await keep(page, 'anew');
    const diff = await differing(page, 'dragged', 'anew', to.canvas, 40, false);
    assert.equal(diff.count, 0, `${diff.count} pixels differ from the plot painted anew, the first at ${diff.first}`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}
