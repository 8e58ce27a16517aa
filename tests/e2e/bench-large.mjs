// Large scenes from a file, in headless Chromium with the worker behind the page: a noisy disc
// of N points (default 100 000; two classes, 4-decimal coordinates, from a fixed sequence) is
// loaded through the page's file input, then a point is dragged. For each method it records
//   - on screen: from choosing the file to its fitted model on screen (ms);
//   - the drag: over 12 moves, each waited for, the page's paint of a frame (regions and
//     overlay, `paint_ms`) and the worker's frame (`frame_ms`) with its fit (`fit_ms`), its
//     scene (field, contours and marks: `scene_ms`) and its status line's numbers
//     (`status_ms`), medians; and from the request to the worker's answer (`request_ms`),
//     median and p90;
//   - the longest main-thread task over the drag (PerformanceObserver 'longtask', which
//     reports tasks over 50 ms; '< 50' when there were none).
// A method that takes over 5 s to be on screen is not dragged.
// Run after scripts/build-web.sh:   node tests/e2e/bench-large.mjs [N]   (CPU=4 slows the
// page's CPU four times; MODELS=lda,knn picks the methods: model= values of a link)
// Timings only; nothing here passes or fails.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { start, openPage, rehearsed, settle, slowCpu } from './browser.mjs';

const CPU = Number(process.env.CPU || 1);
const N = Number(process.argv[2] || 100000);
const MODELS = (process.env.MODELS || 'lda,knn,logistic').split(',');

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const quantile = (xs, q) => sorted(xs)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const median = (xs) => quantile(xs, 0.5);
const f1 = (v) => (typeof v === 'number' ? v.toFixed(1) : String(v)).padStart(9);

// A disc of radius 0.9 (class 1) in a square of side 3 (class −1), the radius blurred by a
// normal of sd 0.15, from a fixed linear congruential sequence.
function writeDisc(file, n) {
  let state = 7;
  const next = () => { state = (state * 1103515245 + 12345) % 2147483648; return state / 2147483648; };
  const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  const lines = ['x,y,label'];
  for (let i = 0; i < n; i += 1) {
    const x = 3 * next() - 1.5;
    const y = 3 * next() - 1.5;
    const r = Math.hypot(x, y) + 0.15 * normal();
    lines.push(`${x.toFixed(4)},${y.toFixed(4)},${r < 0.9 ? 1 : -1}`);
  }
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kernel-playground-'));
const file = path.join(dir, `disc-${N}.csv`);
writeDisc(file, N);

const env = await start();
try {
  console.log(`a noisy disc of ${N} points from a file, worker${CPU > 1 ? `, CPU ${CPU}× slower` : ''}; ms`);
  console.log(`${'method'.padEnd(10)} ${['on screen', 'paint', 'frame', 'fit', 'scene', 'status', 'move med', 'move p90', 'longest'].map((h) => h.padStart(9)).join(' ')}`);
  for (const model of MODELS) {
    const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=100&model=${model}`, { width: 1400, height: 1000 });
    await slowCpu(page, CPU);
    await page.evaluate(() => document.getElementById('plot').scrollIntoView({ block: 'center' }));
    await settle(page);
    await rehearsed(page);
    const t0 = Date.now();
    await page.setInputFiles('#load-csv', file);
    await page.waitForFunction((n) => {
      const f = window.kernelPlayground.lastFrame;
      return f && f.points === n && !f.behind && document.getElementById('loading-file').hidden;
    }, N, { timeout: 600000, polling: 50 });
    await settle(page);
    const onScreen = Date.now() - t0;
    // A method whose fit takes seconds at this size is not dragged: each move would wait for
    // a fit the next move cancels.
    if (onScreen > 5000) {
      console.log(`${model.padEnd(10)} ${f1(onScreen)} ${Array(8).fill(f1('—')).join(' ')}`);
      await page.close();
      continue;
    }
    await page.waitForTimeout(1000);
    await page.evaluate(() => {
      window.__longest = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
      }).observe({ type: 'longtask' });
    });
    const frames = [];
    const [sx, sy] = await page.evaluate(() => window.kernelPlayground.toClient(0.0, 0.0));
    await page.mouse.move(sx, sy);
    await page.mouse.down();
    for (let i = 0; i < 12; i += 1) {
      const t = ((i + 1) / 12) * 2 * Math.PI;
      await page.mouse.move(sx + 100 * Math.sin(t), sy + 60 * Math.sin(2 * t));
      await settle(page);
      frames.push(await page.evaluate(() => window.kernelPlayground.lastFrame));
    }
    await page.mouse.up();
    const longest = await page.evaluate(() => window.__longest);
    const of = (k) => frames.map((f) => f[k]).filter((v) => typeof v === 'number');
    console.log(`${model.padEnd(10)} ${f1(onScreen)} ${f1(median(of('paint_ms')))} ${f1(median(of('frame_ms')))} ${f1(median(of('fit_ms')))} ${f1(median(of('scene_ms')))} ${f1(median(of('status_ms')))} ${f1(median(of('request_ms')))} ${f1(quantile(of('request_ms'), 0.9))} ${f1(longest > 0 ? longest : '< 50')}`);
    if (errors.length) console.log('errors:', errors);
    await page.close();
  }
} finally {
  await env.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
