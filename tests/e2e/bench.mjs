// The browser frame budget: medians of one retrain + redraw (as Lab.render measures it with
// performance.now) while a slider and a point are dragged, for every model, on two moons with
// noise 0.3 (and a 3-arm spiral for three classes), in headless Chromium. With a view open
// beside the plane, the frame includes drawing it. The page runs with `?sync`, everything on
// its own thread, so a frame's fit and draw are one measured call (bench-hard.mjs compares
// that with the worker behind the page). Run after scripts/build-web.sh:
//   node tests/e2e/bench.mjs [points ...]      (default: 500; ONLY=name for some models;
//   CPU=4 slows the page's CPU four times, as on Lighthouse's mobile profile)
// On a slow device a step is answered by a draft (www/draft.js): the frames timed are the
// first of each step, and "drafts" counts the drafts among them (with their levels).
// Timings only; nothing here passes or fails.
import { start, openPage, settle, slowCpu, watchStep, stepFrame } from './browser.mjs';

const CPU = Number(process.env.CPU || 1);

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const STEPS = 60;

async function sweep(page, id, values) {
  const frames = [];
  for (const v of values) {
    await watchStep(page);
    await page.evaluate(([sel, value]) => {
      const el = document.getElementById(sel);
      el.value = String(value);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, [id, v]);
    await settle(page);
    frames.push(await stepFrame(page));
  }
  return frames.filter((f) => f && f.refit);
}

async function drag(page) {
  const frames = [];
  const [sx, sy] = await page.evaluate(() => window.kernelPlayground.toClient(0.0, 0.0));
  await page.mouse.move(sx, sy);
  await page.mouse.down();
  for (let i = 0; i < STEPS; i++) {
    const t = (i / STEPS) * 2 * Math.PI;
    await watchStep(page);
    await page.mouse.move(sx + 120 * Math.sin(t), sy + 80 * Math.sin(2 * t));
    await settle(page);
    frames.push(await stepFrame(page));
  }
  await page.mouse.up();
  return frames.filter((f) => f && f.refit);
}

function report(name, frames) {
  const fit = median(frames.map((f) => f.fit_ms));
  const draw = median(frames.map((f) => f.draw_ms));
  const total = median(frames.map((f) => f.fit_ms + f.draw_ms + (f.view_ms || 0)));
  const parts = ['scene_ms', 'regions_ms', 'overlay_ms', 'view_ms'].map((k) => median(frames.map((f) => f[k] || 0)).toFixed(1).padStart(7));
  const drafts = frames.filter((f) => f.draft).length;
  // The drafts' levels (www/draft.js): 1 for half the intervals a side, 2 for a third.
  const levels = [...new Set(frames.filter((f) => f.draft).map((f) => f.draft_level))].sort().join('+');
  console.log(`${name.padEnd(28)} ${String(frames.length).padStart(6)} ${fit.toFixed(1).padStart(8)} ${draw.toFixed(1).padStart(8)} ${total.toFixed(1).padStart(9)}   ${parts.join(' ')} ${String(drafts).padStart(7)}${drafts ? ` (level ${levels})` : ''}`);
  return total;
}

const log10 = (from, to) => Array.from({ length: STEPS }, (_, i) => from + ((to - from) * i) / STEPS);
const models = [
  { name: 'svm', hash: 'model=svm&kernel=rbf&C=1&gamma=2', slider: 'C', values: log10(-1, 1) },
  { name: 'svm', hash: 'model=svm&kernel=rbf&C=1&gamma=2', slider: 'gamma', values: log10(0, 1) },
  { name: 'perceptron', hash: 'model=perceptron&kernel=rbf&gamma=2&epochs=100', slider: 'gamma', values: log10(0, 1) },
  { name: 'logistic', hash: 'model=logistic&features=poly&degree=3&lambda=0.01', slider: 'lambda', values: log10(-3, 0) },
  { name: 'knn', hash: 'model=knn&k=5', slider: 'k', values: Array.from({ length: STEPS }, (_, i) => 1 + (i % 25)) },
  { name: 'svm, 3 classes', hash: 'model=svm&kernel=rbf&C=1&gamma=2&preset=spiral3', slider: 'C', values: log10(-1, 1) },
  { name: 'knn, 3 classes', hash: 'model=knn&k=5&preset=spiral3', slider: 'k', values: Array.from({ length: STEPS }, (_, i) => 1 + (i % 25)) },
  { name: 'lda', hash: 'model=lda' },
  { name: 'qda', hash: 'model=qda&reg=0', slider: 'reg', values: Array.from({ length: STEPS }, (_, i) => i / STEPS) },
  { name: 'nb', hash: 'model=nb' },
  { name: 'lda, 3 classes', hash: 'model=lda&preset=spiral3' },
  { name: 'lsq', hash: 'model=lsq' },
  { name: 'class means', hash: 'model=nearest_mean' },
  { name: 'bayes logistic', hash: 'model=bayeslogistic&features=poly&degree=3&lambda=0.01', slider: 'lambda', values: log10(-3, 0) },
  { name: 'krr', hash: 'model=krr&kernel=rbf&gamma=2&lambda=0.01', slider: 'lambda', values: log10(-3, 0) },
  { name: 'nusvc', hash: 'model=nusvc&kernel=rbf&nu=0.3&gamma=2', slider: 'nu', values: Array.from({ length: STEPS }, (_, i) => 0.1 + 0.5 * i / STEPS) },
  { name: 'svm, kernel by rule', hash: 'model=svm&kernel=composed&kexpr=rbf%2B0.5*linear&C=1&gamma=2', slider: 'C', values: log10(-1, 1) },
  { name: 'softmax, 3 classes', hash: 'model=logistic&multi=multinomial&features=poly&degree=3&lambda=0.01&preset=spiral3', slider: 'lambda', values: log10(-3, 0) },
  { name: 'svm + loss view', hash: 'model=svm&kernel=rbf&C=1&gamma=2&views=loss', slider: 'C', values: log10(-1, 1) },
  // The other tasks, on their own presets.
  { name: 'ε-SVR', preset: 'sine', hash: 'task=regression&model=svr&kernel=rbf&C=1&epsilon=0.1&gamma=2', slider: 'C', values: log10(-1, 1) },
  { name: 'ν-SVR', preset: 'sine', hash: 'task=regression&model=nusvr&kernel=rbf&C=1&nu=0.3&gamma=2', slider: 'nu', values: Array.from({ length: STEPS }, (_, i) => 0.1 + 0.5 * i / STEPS) },
  { name: 'kernel ridge regression', preset: 'sine', hash: 'task=regression&model=krr&kernel=rbf&gamma=2&lambda=0.01', slider: 'lambda', values: log10(-3, 0) },
  { name: 'LAD line', preset: 'line_outliers', hash: 'task=regression&model=lad' },
  { name: 'one-class SVM', preset: 'blob', hash: 'task=novelty&model=oneclass&kernel=rbf&nu=0.1&gamma=2', slider: 'nu', values: Array.from({ length: STEPS }, (_, i) => 0.05 + 0.3 * i / STEPS) },
];

const env = await start();
try {
  for (const n of sizes.length ? sizes : [500]) {
    let header = false;
    // ONLY=krr (a substring of the interaction names) times just those.
    for (const model of models.filter((m) => !process.env.ONLY || m.name.includes(process.env.ONLY))) {
      const url = `${env.base}?sync#preset=${model.preset || 'moons'}&n=${n}&noise=0.3&seed=1&${model.hash}`;
      const { page, errors } = await openPage(env.browser, url, { width: 1400, height: 1000 });
      await slowCpu(page, CPU);
      if (!header) {
        const canvas = await page.evaluate(() => document.getElementById('plot').width);
        console.log(`\n${n} points, two moons (noise 0.3), canvas ${canvas}×${canvas} px${CPU > 1 ? `, CPU ${CPU}× slower` : ''}; medians in ms`);
        console.log(`${'interaction'.padEnd(28)} ${'frames'.padStart(6)} ${'fit'.padStart(8)} ${'draw'.padStart(8)} ${'fit+draw'.padStart(9)}   (scene regions overlay view) drafts`);
        header = true;
      }
      if (model.slider) report(`${model.name}: ${model.slider} slider`, await sweep(page, model.slider, model.values));
      if (model.slider !== 'gamma') report(`${model.name}: drag a point`, await drag(page));
      if (errors.length) console.log('errors:', errors);
      await page.close();
    }
  }
} finally {
  await env.close();
}
