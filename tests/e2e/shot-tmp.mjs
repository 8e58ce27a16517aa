import { start, openPage, settle } from './browser.mjs';
const [,, hash, w, h, out, ...actions] = process.argv;
const env = await start();
try {
  const { page } = await openPage(env.browser, `${env.base}${hash}`, { width: Number(w), height: Number(h) });
  for (const a of actions) { if (a.startsWith('key:')) await page.keyboard.press(a.slice(4)); else if (a.startsWith('click:')) await page.click(a.slice(6)); }
  await settle(page); await page.waitForTimeout(300);
  await page.screenshot({ path: out });
} finally { await env.close(); }
