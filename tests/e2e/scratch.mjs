import { start, openPage, settle } from './browser.mjs';
const lab = await start();
const { page } = await openPage(lab.browser, lab.base + '#preset=moons&n=10000&noise=0.3&seed=1&kernel=rbf&C=1&gamma=1');
await settle(page);
for (let i = 0; i < 8; i++) {
  await settle(page);
  const r = await page.evaluate((v) => new Promise((resolve) => {
    const el = document.getElementById('C');
    const t0 = performance.now();
    const painted = () => {
      const f = window.kernelPlayground.lastFrame;
      if (f.behind) return;
      window.removeEventListener('kernel-playground-frame', painted);
      resolve([performance.now() - t0, f.request_ms, f.frame_ms, f.fit_ms, f.scene_ms, f.regions_ms, f.status_ms, f.paint_ms].map((x) => +x.toFixed(1)));
    };
    window.addEventListener('kernel-playground-frame', painted);
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }), -0.3 + 0.1 * i);
  console.log(JSON.stringify(r));
}
await lab.close();
