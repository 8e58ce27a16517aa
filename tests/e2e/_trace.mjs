// Trace a few worker-mode slider steps at CPU 4x; per step, the tasks on the page's thread and the worker's.
import { start, openPage, settle, slowCpu } from './browser.mjs';
import fs from 'node:fs';
const CPU = Number(process.env.CPU || 4);
const env = await start();
try {
  const { page } = await openPage(env.browser, `${env.base}${process.env.SYNC ? '?sync' : ''}#preset=moons&n=500&noise=0.3&seed=1&model=svm&kernel=rbf&C=1&gamma=1`, { width: 1400, height: 1000 });
  await slowCpu(page, CPU);
  await page.evaluate(() => document.getElementById('plot').scrollIntoView({ block: 'center' }));
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  for (let w = 0; w < 5; w += 1) { await settle(page); }
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,blink.user_timing', transferMode: 'ReportEvents' });
  const steps = [];
  for (let i = 0; i < 12; i += 1) {
    await settle(page);
    const value = 10 ** (-0.3 + 0.6 * Math.abs(((i * 2) / 12) % 2 - 1));
    steps.push(await page.evaluate((v) => new Promise((resolve) => {
      const el = document.getElementById('C');
      performance.mark('step-start');
      const t0 = performance.now();
      const painted = () => {
        if (window.kernelPlayground.lastFrame.behind) return;
        window.removeEventListener('kernel-playground-frame', painted);
        queueMicrotask(() => { performance.mark('step-end'); resolve(performance.now() - t0); });
      };
      window.addEventListener('kernel-playground-frame', painted);
      el.value = String(v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }), value));
    await page.waitForTimeout(100);
  }
  await cdp.send('Tracing.end');
  await done;
  fs.writeFileSync('/tmp/s16/trace.json', JSON.stringify(events));
  console.log('steps', steps.map((s) => s.toFixed(1)).join(' '));
} finally { await env.close(); }
