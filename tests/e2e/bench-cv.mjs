// The cross-validation grid's cost in the page: the 13 × 13 C × γ grid of the SVM (RBF) with
// 5-fold cross-validation on two moons (noise 0.3), filled in a slice of every frame. Prints
// the time until the grid is complete and the longest main-thread task meanwhile (Long Tasks
// API). Run after scripts/build-web.sh:
//   node tests/e2e/bench-cv.mjs [points ...]      (default: 500)
// Timings only; nothing here passes or fails.
import { start, openPage } from './browser.mjs';

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const env = await start();
try {
  for (const n of sizes.length ? sizes : [500]) {
    const { page } = await openPage(env.browser, `${env.base}#preset=moons&n=${n}&noise=0.3&seed=1`, { width: 1400, height: 1000 });
    await page.evaluate(() => {
      window.longest = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.longest = Math.max(window.longest, e.duration);
      }).observe({ type: 'longtask', buffered: false });
    });
    const started = Date.now();
    await page.click('.view-tab[data-view="cv"]');
    await page.waitForFunction(() => {
      const note = document.getElementById('view-note').textContent;
      return note.includes('best') && !note.includes('cells done');
    }, null, { timeout: 900000, polling: 100 });
    const seconds = (Date.now() - started) / 1000;
    const longest = await page.evaluate(() => window.longest);
    console.log(`n = ${n}: 13 × 13 × 5-fold grid in ${seconds.toFixed(1)} s; longest main-thread task ${longest.toFixed(0)} ms`);
    await page.close();
  }
} finally {
  await env.close();
}
