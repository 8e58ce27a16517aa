// The hard scene of issue 10 in headless Chromium: two moons with noise 0.3, RBF, C = 1, γ = 1,
// at n = 500, 2000, 5000 and 10 000. For each n it records
//   - the slider step: from the input event to the end of the frame that paints the new model,
//     median and p90 over C steps;
//   - the longest main-thread task while a point is dragged (PerformanceObserver 'longtask',
//     which reports tasks over 50 ms; '< 50' when there were none);
//   - fit, field (the scene: field and contours) and paint (regions and overlay), medians;
//   - a cold fit of ours against LIBSVM's (libsvm-js, LIBSVM 3.22 in wasm, a dev dependency of
//     the tests only) on the same points in the same page: medians and the ratio.
// Each n is measured twice: with the worker behind the page (the default) and with everything
// on the page's thread (`?sync`).
// Run after scripts/build-web.sh:   node tests/e2e/bench-hard.mjs [n ...]
// Timings only; nothing here passes or fails.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, openPage, settle } from './browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const libsvmDir = path.join(here, 'node_modules/libsvm-js/dist/browser/wasm');
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const quantile = (xs, q) => sorted(xs)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const median = (xs) => quantile(xs, 0.5);
const f1 = (v) => (typeof v === 'number' ? v.toFixed(1) : String(v)).padStart(8);

// A C step: from the slider's input event to the end of the frame that paints the new model
// (the page's 'kernel-playground-frame' event for a frame that is not a step behind).
async function sliderSteps(page, count) {
  const steps = [];
  for (let i = 0; i < count; i += 1) {
    // C from 10^-0.3 to 10^0.3 and back: every step a new model.
    const value = -0.3 + 0.6 * Math.abs(((i * 2) / count) % 2 - 1);
    await settle(page);
    steps.push(await page.evaluate((v) => new Promise((resolve) => {
      const el = document.getElementById('C');
      const t0 = performance.now();
      const painted = () => {
        if (window.kernelPlayground.lastFrame.behind) return;
        window.removeEventListener('kernel-playground-frame', painted);
        resolve(performance.now() - t0);
      };
      window.addEventListener('kernel-playground-frame', painted);
      el.value = String(v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }), value));
  }
  return steps;
}

async function drag(page, moves) {
  await page.evaluate(() => {
    window.__longest = 0;
    window.__observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
    });
    window.__observer.observe({ type: 'longtask' });
  });
  const frames = [];
  const [sx, sy] = await page.evaluate(() => window.kernelPlayground.toClient(0.0, 0.0));
  await page.mouse.move(sx, sy);
  await page.mouse.down();
  for (let i = 0; i < moves; i += 1) {
    const t = (i / moves) * 2 * Math.PI;
    await page.mouse.move(sx + 100 * Math.sin(t), sy + 60 * Math.sin(2 * t));
    await settle(page);
    frames.push(await page.evaluate(() => window.kernelPlayground.lastFrame));
  }
  await page.mouse.up();
  const longest = await page.evaluate(() => { window.__observer.disconnect(); return window.__longest; });
  return { frames: frames.filter((f) => f.refit), longest };
}

async function coldFits(page, repeats) {
  await page.addScriptTag({ url: '/libsvm/libsvm.js' });
  return page.evaluate(async (times) => {
    const SVM = await window.libsvm;
    const csv = window.kernelPlayground.csv().trim().split('\n').slice(1).map((r) => r.split(',').map(Number));
    const features = csv.map((r) => [r[0], r[1]]);
    const labels = csv.map((r) => r[2]);
    const ours = [];
    const theirs = [];
    for (let i = 0; i < times; i += 1) {
      ours.push(window.kernelPlayground.coldFitMs());
      const svm = new SVM({ kernel: SVM.KERNEL_TYPES.RBF, type: SVM.SVM_TYPES.C_SVC, gamma: 1, cost: 1, quiet: true });
      const t0 = performance.now();
      svm.train(features, labels);
      theirs.push(performance.now() - t0);
      svm.free();
    }
    return { ours, theirs };
  }, repeats);
}

const env = await start();
try {
  console.log('two moons, noise 0.3, RBF, C = 1, γ = 1; ms');
  console.log(`${'mode'.padStart(6)} ${'n'.padStart(6)} ${'step med'.padStart(8)} ${'step p90'.padStart(8)} ${'longest'.padStart(8)} ${'fit'.padStart(8)} ${'field'.padStart(8)} ${'paint'.padStart(8)} ${'frame'.padStart(8)} ${'cold fit'.padStart(8)} ${'libsvm'.padStart(8)} ${'ratio'.padStart(8)}`);
  for (const n of sizes.length ? sizes : [500, 2000, 5000, 10000]) for (const mode of ['worker', 'sync']) {
    const { page, errors } = await openPage(env.browser, `${env.base}${mode === 'sync' ? '?sync' : ''}#preset=moons&n=${n}&noise=0.3&seed=1&model=svm&kernel=rbf&C=1&gamma=1`, { width: 1400, height: 1000 });
    await page.route('**/libsvm/*', (route) => route.fulfill({ path: path.join(libsvmDir, path.basename(new URL(route.request().url()).pathname)) }));
    await page.evaluate(() => document.getElementById('plot').scrollIntoView({ block: 'center' }));
    const steps = await sliderSteps(page, n >= 5000 ? 12 : 30);
    const { frames, longest } = await drag(page, n >= 5000 ? 12 : 30);
    const fits = await coldFits(page, n >= 5000 ? 3 : 7);
    const pick = (k) => median(frames.map((f) => f[k] || 0));
    const ratio = median(fits.ours) / median(fits.theirs);
    console.log(`${mode.padStart(6)} ${String(n).padStart(6)} ${f1(median(steps))} ${f1(quantile(steps, 0.9))} ${f1(longest > 0 ? longest : '< 50')} ${f1(pick('fit_ms'))} ${f1(pick('scene_ms'))} ${f1(pick('regions_ms') + pick('overlay_ms'))} ${f1(pick('frame_ms'))} ${f1(median(fits.ours))} ${f1(median(fits.theirs))} ${ratio.toFixed(2).padStart(8)}`);
    if (errors.length) console.log('errors:', errors);
    await page.close();
  }
} finally {
  await env.close();
}
