// The hard scene of issue 10 in headless Chromium: two moons with noise 0.3, RBF, C = 1, γ = 1,
// at n = 500, 2000, 5000 and 10 000. For each n it records
//   - the slider step: from the input event to the end of the task that paints the new model,
//     median and p90 over C steps;
//   - the longest main-thread task while a point is dragged (PerformanceObserver 'longtask',
//     which reports tasks over 50 ms; '< 50' when there were none);
//   - fit, field (the scene: field and contours) and paint (regions and overlay), medians;
//   - a cold fit of ours against LIBSVM's (libsvm-js, LIBSVM 3.22 in wasm, a dev dependency of
//     the tests only) on the same points in the same page: medians and the ratio.
// Each n is measured twice: with the worker behind the page (`?worker`, which keeps even a
// small scene there: www/remote.js) and with everything on the page's thread (`?sync`). Then
// the other tasks' kernel methods (ε-SVR, ν-SVR, the one-class SVM) at the largest n, with the
// worker: the longest main-thread task while their slider moves and a point is dragged, and
// their fit and frame (OTHERS=0 skips them; ONLY=name times only those of them, without the
// two moons).
// Run after scripts/build-web.sh:   node tests/e2e/bench-hard.mjs [n ...]   (CPU=4 slows the
// page's CPU four times, as on Lighthouse's mobile profile, and the worker's as much with the
// page's `?worker-slowdown=4`, since Chromium's throttling leaves workers at full speed;
// WORKER_SLOWDOWN=1 leaves the worker at full speed)
// Timings only; nothing here passes or fails.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, openPage, settle, slowCpu, watchStep, stepFrame, benchQuery } from './browser.mjs';

const CPU = Number(process.env.CPU || 1);
const WORKER_SLOWDOWN = Number(process.env.WORKER_SLOWDOWN || CPU);
const query = (mode) => benchQuery(mode, WORKER_SLOWDOWN);

const here = path.dirname(fileURLToPath(import.meta.url));
const libsvmDir = path.join(here, 'node_modules/libsvm-js/dist/browser/wasm');
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const quantile = (xs, q) => sorted(xs)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const median = (xs) => quantile(xs, 0.5);
const f1 = (v) => (typeof v === 'number' ? v.toFixed(1) : String(v)).padStart(8);

// A slider step: from the slider's input event to the end of the task that paints the new
// model (the page's 'kernel-playground-frame' event for a frame that is not a step behind,
// and the rest of that task).
// By default C from 10^-0.3 to 10^0.3 and back: every step a new model.
async function sliderSteps(page, count, id = 'C', at = (u) => -0.3 + 0.6 * u) {
  const steps = [];
  for (let i = 0; i < count; i += 1) {
    const value = at(Math.abs(((i * 2) / count) % 2 - 1));
    await settle(page);
    steps.push(await page.evaluate((v) => new Promise((resolve) => {
      const el = document.getElementById(v.id);
      const t0 = performance.now();
      const painted = () => {
        if (window.kernelPlayground.lastFrame.behind) return;
        window.removeEventListener('kernel-playground-frame', painted);
        // The event comes in the middle of the frame: its view, status line and message
        // follow in the same task, and the step ends with them.
        queueMicrotask(() => resolve(performance.now() - t0));
      };
      window.addEventListener('kernel-playground-frame', painted);
      // A model that is refused may paint no new frame: give up on the step after 20 s.
      setTimeout(() => resolve(NaN), 20000);
      el.value = String(v.value);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }), { id, value }));
  }
  return steps;
}

// The longest main-thread task from watchTasks to longestTask (the Long Tasks API reports
// those over 50 ms; 0 when there were none).
async function watchTasks(page) {
  await page.evaluate(() => {
    window.__longest = 0;
    window.__observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
    });
    window.__observer.observe({ type: 'longtask' });
  });
}

const longestTask = (page) => page.evaluate(() => { window.__observer.disconnect(); return window.__longest; });

async function drag(page, moves) {
  await watchTasks(page);
  const frames = [];
  const [sx, sy] = await page.evaluate(() => window.kernelPlayground.toClient(0.0, 0.0));
  await page.mouse.move(sx, sy);
  await page.mouse.down();
  for (let i = 0; i < moves; i += 1) {
    const t = (i / moves) * 2 * Math.PI;
    await watchStep(page);
    await page.mouse.move(sx + 100 * Math.sin(t), sy + 60 * Math.sin(2 * t));
    await settle(page);
    frames.push(await stepFrame(page));
  }
  await page.mouse.up();
  const longest = await longestTask(page);
  return { frames: frames.filter((f) => f && f.refit), longest };
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
  console.log(`two moons, noise 0.3, RBF, C = 1, γ = 1${CPU > 1 ? `, CPU ${CPU}× slower` : ''}${WORKER_SLOWDOWN > 1 ? `, the worker ${WORKER_SLOWDOWN}× slower` : ''}; ms`);
  console.log(`${'mode'.padStart(6)} ${'n'.padStart(6)} ${'step med'.padStart(8)} ${'step p90'.padStart(8)} ${'longest'.padStart(8)} ${'fit'.padStart(8)} ${'field'.padStart(8)} ${'paint'.padStart(8)} ${'frame'.padStart(8)} ${'cold fit'.padStart(8)} ${'libsvm'.padStart(8)} ${'ratio'.padStart(8)}`);
  for (const n of process.env.ONLY ? [] : sizes.length ? sizes : [500, 2000, 5000, 10000]) for (const mode of ['worker', 'sync']) {
    const { page, errors } = await openPage(env.browser, `${env.base}${query(mode)}#preset=moons&n=${n}&noise=0.3&seed=1&model=svm&kernel=rbf&C=1&gamma=1`, { width: 1400, height: 1000 });
    await slowCpu(page, CPU);
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
  // The regression and novelty methods at the largest n: the hard-scene rule (nothing on the
  // page's thread over 50 ms) while a slider moves and a point is dragged.
  const others = [
    { name: 'ε-SVR', hash: 'preset=sine&task=regression&model=svr&kernel=rbf&C=1&epsilon=0.1&gamma=2', slider: 'C' },
    { name: 'ν-SVR', hash: 'preset=sine&task=regression&model=nusvr&kernel=rbf&C=1&nu=0.3&gamma=2', slider: 'nu', at: (u) => 0.2 + 0.2 * u },
    { name: 'kernel ridge regression', hash: 'preset=sine&task=regression&model=krr&kernel=rbf&gamma=2&lambda=0.01', slider: 'lambda', at: (u) => -2 - u },
    { name: 'least squares', hash: 'preset=line_outliers&task=regression&model=lsq' },
    { name: 'least abs. deviations', hash: 'preset=line_outliers&task=regression&model=lad' },
    { name: 'one-class SVM', hash: 'preset=blob&task=novelty&model=oneclass&kernel=rbf&nu=0.1&gamma=2', slider: 'nu', at: (u) => 0.05 + 0.1 * u },
  ].filter((m) => process.env.OTHERS !== '0' && (!process.env.ONLY || m.name.includes(process.env.ONLY)));
  const n = Math.max(...(sizes.length ? sizes : [10000]));
  if (others.length) console.log(`\nother tasks, n = ${n}, worker; ms\n${'method'.padEnd(24)} ${'longest'.padStart(8)} ${'step med'.padStart(8)} ${'fit'.padStart(8)} ${'frame'.padStart(8)}  message`);
  for (const m of others) {
    const { page, errors } = await openPage(env.browser, `${env.base}${query('worker')}#${m.hash}&n=${n}&noise=0.3&seed=1`, { width: 1400, height: 1000 });
    await slowCpu(page, CPU);
    await page.evaluate(() => document.getElementById('plot').scrollIntoView({ block: 'center' }));
    await settle(page);
    await watchTasks(page);
    // The lines have no slider of their own: only the drag is timed.
    const steps = m.slider ? await sliderSteps(page, 12, m.slider, m.at) : [];
    const sliderLongest = await longestTask(page);
    const { frames, longest } = await drag(page, 12);
    const pick = (k) => median(frames.map((f) => f[k] || 0));
    const worst = Math.max(sliderLongest, longest);
    const message = await page.evaluate(() => document.getElementById('status')?.textContent.trim().slice(0, 80) || '');
    console.log(`${m.name.padEnd(24)} ${f1(worst > 0 ? worst : '< 50')} ${f1(steps.length ? median(steps) : '—')} ${f1(pick('fit_ms'))} ${f1(pick('frame_ms'))}  ${message}`);
    if (errors.length) console.log('errors:', errors);
    await page.close();
  }
} finally {
  await env.close();
}
