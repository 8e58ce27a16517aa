import { start, openPage, settle } from './browser.mjs';
const lab = await start();
for (const n of [2000, 10000]) {
const { page } = await openPage(lab.browser, lab.base + `#preset=moons&n=${n}&noise=0.3&seed=1&kernel=rbf&C=1&gamma=1`);
await settle(page);
for (let i = 0; i < 6; i++) {
  await settle(page);
  const r = await page.evaluate((v) => new Promise((resolve) => {
    const el = document.getElementById('C');
    const t0 = performance.now();
    const painted = () => {
      const f = window.kernelPlayground.lastFrame;
      if (f.behind) return;
      window.removeEventListener('kernel-playground-frame', painted);
      resolve(['step', performance.now() - t0, 'req', f.request_ms, 'wframe', f.frame_ms, 'fit', f.fit_ms, 'scene', f.scene_ms, 'img', f.image_ms, 'status', f.status_ms, 'json', f.json_ms, 'paint', f.paint_ms].map((x) => typeof x === 'number' ? +x.toFixed(1) : x));
    };
    window.addEventListener('kernel-playground-frame', painted);
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }), -0.3 + 0.1 * i);
  console.log(n, JSON.stringify(r));
}
await page.close();
}
await lab.close();
