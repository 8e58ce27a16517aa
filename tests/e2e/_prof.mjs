// Wasm CPU profile of 3-class C-slider steps at CPU 4x (site from KP_SITE).
import { start, openPage, settle, slowCpu, watchStep, stepFrame } from '/work/main/tests/e2e/browser.mjs';
const CPU = Number(process.env.CPU || 4);
const hash = process.env.HASH || 'model=svm&kernel=rbf&C=1&gamma=1';
const preset = process.env.PRESET || 'moons'; const slider = process.env.SLIDER || 'C'; const lo = Number(process.env.LO ?? -0.3), hi = Number(process.env.HI ?? 0.3); const lin = !!process.env.LIN;
const env = await start();
const self = new Map(); const incl = new Map(); let total = 0; const callers = new Map(); const stacks = new Map();
try {
  const { page } = await openPage(env.browser, `${env.base}${process.env.SYNC ? '?sync' : ''}#preset=${preset}&n=500&noise=0.3&seed=1&${hash}`, { width: 1400, height: 1000 });
  await slowCpu(page, CPU);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  for (let i = 0; i < 120; i += 1) {
    const t = lo + (hi - lo) * (i % 60) / 59; const v = lin ? t : 10 ** t;
    await watchStep(page);
    await page.evaluate(([value, slider]) => { const el = document.getElementById(slider); el.value = String(value); el.dispatchEvent(new Event('input', { bubbles: true })); }, [v, slider]);
    await settle(page);
    await stepFrame(page);
  }
  const { profile } = await cdp.send('Profiler.stop');
  const byId = new Map(profile.nodes.map((nd) => [nd.id, nd]));
  const parent = new Map(); for (const nd of profile.nodes) for (const c of nd.children || []) parent.set(c, nd.id);
  const dt = profile.timeDeltas;
  const nm = (c) => c.callFrame.functionName || `(${c.callFrame.url.split('/').pop()}:${c.callFrame.lineNumber})`;
  profile.samples.forEach((id, k) => {
    const ms = (dt[k + 1] ?? 0) / 1000;
    const nd = byId.get(id); const name = nm(nd);
    if (name === '(idle)' || name === '(program)') return;
    total += ms;
    self.set(name, (self.get(name) || 0) + ms);
    const seen = new Set(); let cur = id;
    if (process.env.CALLERS && new RegExp(process.env.CALLERS).test(name)) { const chain = []; let c2 = parent.get(id); for (let j = 0; j < 4 && c2 !== undefined; j += 1) { chain.push(nm(byId.get(c2)).replace(/::h[0-9a-f]{16}/g, '').slice(-60)); c2 = parent.get(c2); } const key = name.slice(0, 50) + ' <- ' + chain.join(' <- '); callers.set(key, (callers.get(key) || 0) + ms); }
    if (process.env.STACKS) { const names = []; let c3 = id; while (c3 !== undefined) { names.push(nm(byId.get(c3))); c3 = parent.get(c3); } const hit = process.env.STACKS.split(',').find((re) => names.some((n2) => new RegExp(re).test(n2))); if (hit) stacks.set(hit, (stacks.get(hit) || 0) + ms); }
    while (cur !== undefined) { const c = byId.get(cur); const n2 = nm(c); if (!seen.has(n2)) { seen.add(n2); incl.set(n2, (incl.get(n2) || 0) + ms); } cur = parent.get(cur); }
  });
  await page.close();
} finally { await env.close(); }
const top = (m, k) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([n, ms]) => `${ms.toFixed(1).padStart(7)}  ${n.replace(/kernel_playground::/g, '').slice(0, 120)}`).join('\n');
console.log('busy', total.toFixed(0));
if (process.env.STACKS) console.log('STACKS\n' + top(stacks, 30));
if (process.env.CALLERS) console.log('CALLERS\n' + top(callers, 30));
console.log('SELF\n' + top(self, 45)); console.log('INCL\n' + top(incl, 50));
