import { start, openPage, settle } from './browser.mjs';
const lab = await start();
for (const n of [50000, 100000]) {
  const { page, errors } = await openPage(lab.browser, lab.base + '#preset=moons&n=100&kernel=rbf&gamma=1');
  let state = 12345;
  const next = () => { state = (state * 1103515245 + 12345) % 2147483648; return state / 2147483648; };
  const rows = ['x,y,label'];
  for (let i = 0; i < n; i += 1) { const a = 2 * next() - 1, b = 2 * next() - 1; rows.push(`${a.toFixed(4)},${b.toFixed(4)},${a * a + b * b < 0.5 + 0.2 * (next() - 0.5) ? 0 : 1}`); }
  const t0 = Date.now();
  await page.setInputFiles('#load-csv', { name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(rows.join('\n')) });
  await page.waitForFunction(() => window.kernelPlayground.idle && window.kernelPlayground.lastFrame.points > 1000, null, { timeout: 600000 }).catch((e) => console.log('timeout', e.message));
  await new Promise((r) => setTimeout(r, 1000));
  console.log(n, 'done after', Date.now() - t0, await page.evaluate(() => { const f = window.kernelPlayground.lastFrame; return JSON.stringify([f.fit_ms, f.scene_ms, f.frame_ms, f.support, f.paint_ms, f.message, location.hash.length]); }));
  await page.screenshot({ path: `/tmp/big${n}.png` });
  console.log(errors);
  await page.close();
}
await lab.close();
