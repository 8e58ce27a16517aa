// The browser frame budget: medians of one retrain + redraw (as App.render measures it with
// performance.now) while the C slider, the γ slider and a point are dragged, on two moons with
// noise, RBF, C = 1, γ = 2, in headless Chromium. Run after scripts/build-web.sh:
//   node tests/e2e/bench.mjs [points ...]      (default: 500)
// Timings only; nothing here passes or fails.
import { start, openPage, settle } from './browser.mjs';

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const STEPS = 60;

async function sweep(page, id, values) {
  const frames = [];
  for (const v of values) {
    await page.evaluate(([sel, value]) => {
      const el = document.getElementById(sel);
      el.value = String(value);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, [id, v]);
    await settle(page);
    frames.push(await page.evaluate(() => window.kernelPlayground.lastFrame));
  }
  return frames.filter((f) => f.refit);
}

async function drag(page) {
  const frames = [];
  const [sx, sy] = await page.evaluate(() => window.kernelPlayground.toClient(0.0, 0.0));
  await page.mouse.move(sx, sy);
  await page.mouse.down();
  for (let i = 0; i < STEPS; i++) {
    const t = (i / STEPS) * 2 * Math.PI;
    await page.mouse.move(sx + 120 * Math.sin(t), sy + 80 * Math.sin(2 * t));
    await settle(page);
    frames.push(await page.evaluate(() => window.kernelPlayground.lastFrame));
  }
  await page.mouse.up();
  return frames.filter((f) => f.refit);
}

function report(name, frames) {
  const fit = median(frames.map((f) => f.fit_ms));
  const draw = median(frames.map((f) => f.draw_ms));
  const total = median(frames.map((f) => f.fit_ms + f.draw_ms));
  const parts = ['scene_ms', 'regions_ms', 'overlay_ms'].map((k) => median(frames.map((f) => f[k])).toFixed(1).padStart(7));
  console.log(`${name.padEnd(22)} ${String(frames.length).padStart(6)} ${fit.toFixed(1).padStart(8)} ${draw.toFixed(1).padStart(8)} ${total.toFixed(1).padStart(9)}   ${parts.join(' ')}`);
  return total;
}

const env = await start();
try {
  for (const n of sizes.length ? sizes : [500]) {
    const url = `${env.base}#preset=moons&n=${n}&noise=0.3&kernel=rbf&C=1&gamma=2&seed=1`;
    const { page, errors } = await openPage(env.browser, url, { width: 1400, height: 1000 });
    const canvas = await page.evaluate(() => [document.getElementById('plot').width, document.getElementById('plot').height]);
    console.log(`\n${n} points, two moons (noise 0.3), RBF C=1 γ=2, canvas ${canvas[0]}×${canvas[1]} px; medians in ms`);
    console.log(`${'interaction'.padEnd(22)} ${'frames'.padStart(6)} ${'fit'.padStart(8)} ${'draw'.padStart(8)} ${'fit+draw'.padStart(9)}   ${'(scene regions overlay)'}`);
    const cs = Array.from({ length: STEPS }, (_, i) => -1 + (2 * i) / STEPS); // log10 C from −1 to 1
    report('C slider', await sweep(page, 'C', cs));
    await page.evaluate(() => { const el = document.getElementById('C'); el.value = '0'; el.dispatchEvent(new Event('input', { bubbles: true })); });
    const gs = Array.from({ length: STEPS }, (_, i) => 0 + (1 * i) / STEPS); // log10 γ from 0 to 1
    report('γ slider', await sweep(page, 'gamma', gs));
    report('dragging a point', await drag(page));
    if (errors.length) console.log('errors:', errors);
    await page.close();
  }
} finally {
  await env.close();
}
