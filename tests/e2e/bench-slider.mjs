// The C slider moved by the mouse, as a lecturer moves it: real input events, which the browser
// delivers at the start of a frame (bench-hard.mjs dispatches its `input` events from a script,
// at any moment). The hard scene of bench-hard.mjs (two moons, noise 0.3, RBF, C = 1, γ = 1) at
// each n, as the page chooses ('auto': a small, quick scene is fitted on the page once the
// slider has paused, www/remote.js), with `?worker` (every scene behind the page) and with
// `?sync` (the page fits in the frame itself); each step is from the slider's `input` event to
// the end of the task that paints the model for it (a frame that is not a step behind), the
// page settling between steps. Median and p90 of STEPS steps after WARM that warm the page and
// a pause; "on page": how many of the steps the page fitted itself.
// Run after scripts/build-web.sh:   node tests/e2e/bench-slider.mjs [n ...]   (default 500;
// CPU=4 slows the page's CPU four times and the worker as much, `?worker-slowdown`)
// Timings only; nothing here passes or fails.
import { start, openPage, settle, slowCpu, benchQuery } from './browser.mjs';

const CPU = Number(process.env.CPU || 1);
const STEPS = Number(process.env.STEPS || 24);
// Steps that warm the page (the first fits after it opens are slow ones) before a pause.
const WARM = 10;
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const quantile = (xs, q) => sorted(xs)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

// Each `input` of the slider, timed to the frame that paints its model.
function timeSteps() {
  window.__steps = [];
  window.addEventListener('input', (ev) => {
    if (ev.target.id !== 'C') return;
    const t0 = performance.now();
    const painted = () => {
      if (window.kernelPlayground.lastFrame.behind) return;
      window.removeEventListener('kernel-playground-frame', painted);
      // The frame's view, status line and message follow the event in the same task.
      const where = window.kernelPlayground.frames;
      queueMicrotask(() => window.__steps.push([performance.now() - t0, where]));
    };
    window.addEventListener('kernel-playground-frame', painted);
  }, true);
}

const env = await start();
try {
  console.log(`the C slider moved by the mouse; two moons, noise 0.3, RBF, C = 1, γ = 1${CPU > 1 ? `, CPU ${CPU}× slower (the worker too)` : ''}; ms`);
  console.log(`${'mode'.padStart(6)} ${'n'.padStart(6)} ${'step med'.padStart(8)} ${'step p90'.padStart(8)} ${'on page'.padStart(8)}`);
  for (const n of sizes.length ? sizes : [500]) for (const mode of ['auto', 'worker', 'sync']) {
    const { page, errors } = await openPage(env.browser, `${env.base}${benchQuery(mode, CPU)}#preset=moons&n=${n}&noise=0.3&seed=1&model=svm&kernel=rbf&C=1&gamma=1`, { width: 1400, height: 1000 });
    await slowCpu(page, CPU);
    await page.evaluate(() => document.getElementById('C').scrollIntoView({ block: 'center' }));
    await settle(page);
    await page.evaluate(timeSteps);
    // The thumb's place: the slider's value along its width.
    const { x0, width, y, at } = await page.evaluate(() => {
      const el = document.getElementById('C');
      const r = el.getBoundingClientRect();
      return { x0: r.x, width: r.width, y: r.y + r.height / 2, at: (el.value - el.min) / (el.max - el.min) };
    });
    let x = x0 + at * width;
    await page.mouse.move(x, y);
    await page.mouse.down();
    // Four pixels a step, eight steps one way and eight back.
    for (let i = 0; i < STEPS + WARM; i += 1) {
      x += (i % 16 < 8 ? 1 : -1) * 4;
      await page.mouse.move(x, y);
      await settle(page);
      // A pause after the warm-up steps, as a lecturer's hand pauses: the page may then take
      // the plane over from the worker (www/remote.js).
      if (i === WARM - 1) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await page.mouse.up();
    const timed = (await page.evaluate(() => window.__steps)).slice(WARM);
    const steps = timed.map(([ms]) => ms);
    const onPage = timed.filter(([, where]) => where === 'page').length;
    console.log(`${mode.padStart(6)} ${String(n).padStart(6)} ${quantile(steps, 0.5).toFixed(1).padStart(8)} ${quantile(steps, 0.9).toFixed(1).padStart(8)} ${`${onPage}/${steps.length}`.padStart(8)}${steps.length < STEPS ? `  (${steps.length} steps)` : ''}`);
    if (errors.length) console.log('errors:', errors);
    await page.close();
  }
} finally {
  await env.close();
}
