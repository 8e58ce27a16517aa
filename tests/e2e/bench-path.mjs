// The regularisation path's cost in the page: 50 values of C from 10⁻³ to 10⁴, each SVM fit
// warm-started from the last, on two moons (noise 0.3) with the linear and the RBF kernel (γ =
// 2), computed in the page's Web Worker. Prints the time from opening the view until the path
// is complete (the worker's start-up included), and the same path computed alone by the wasm
// on the page's thread. Run after scripts/build-web.sh:
//   node tests/e2e/bench-path.mjs [points ...]      (default: 100 500)
// Timings only; nothing here passes or fails.
import { start, openPage } from './browser.mjs';

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const env = await start();
try {
  for (const n of sizes.length ? sizes : [100, 500]) {
    for (const kernel of ['linear', 'rbf']) {
      const { page } = await openPage(env.browser, `${env.base}#preset=moons&n=${n}&noise=0.3&seed=1&kernel=${kernel}`, { width: 1400, height: 1000 });
      const started = Date.now();
      await page.click('.view-tab[data-view="path"]');
      await page.waitForFunction(() => {
        const note = document.getElementById('view-note').textContent;
        return note.includes('Small C') && !note.includes('solved…');
      }, null, { timeout: 900000, polling: 50 });
      const seconds = (Date.now() - started) / 1000;
      const where = await page.evaluate(() => window.kernelPlayground.background);
      const alone = await page.evaluate(async (hash) => {
        const wasm = await import('./www/pkg/kernel_playground.js');
        await wasm.default();
        const started = performance.now();
        const job = new wasm.GridWorker(hash, 'path', '');
        while (job.work(1000)) { /* to the end */ }
        const ms = performance.now() - started;
        job.free();
        return ms;
      }, `preset=moons&n=${n}&noise=0.3&seed=1&kernel=${kernel}`);
      console.log(`n = ${n}, ${kernel}: the view complete ${seconds.toFixed(2)} s after opening it (${where}); the path alone ${alone.toFixed(0)} ms`);
      await page.close();
    }
  }
} finally {
  await env.close();
}
