// The page's module packed with LZMA by the build (scripts/build-web.sh, `xz --format=lzma`) and
// unpacked as it downloads by a small module of its own (unpack/, www/wasm.js):
// - the unpacker gives back the built module byte for byte, however the packed bytes arrive,
//   and its CRC-32 is zlib's;
// - a damaged packed module is caught, by the unpacker or by the size and CRC the build writes
//   into the page, and the page then loads the module unpacked;
// - the page loads it packed unless the browser estimates a line of 8 Mbit/s or more, and
//   itself asks for nothing else (the service worker, after the first frame, keeps the packed
//   one: scripts/service-worker.mjs).
// (The decoder's own tests, on small streams of every kind, are unpack/'s: `cargo test`.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { start, siteDir, waitForFrame, settle, lastFrame, frontServer } from './browser.mjs';

const MODULE = path.join(siteDir, 'www/pkg/kernel_playground_bg.wasm');
const module = fs.readFileSync(MODULE);
const packed = fs.readFileSync(`${MODULE}.lzma`);
const unpacker = new WebAssembly.Module(fs.readFileSync(path.join(siteDir, 'www/pkg/kernel_playground_unpack.wasm')));

// Feeds `bytes` to a new unpacker `piece` bytes at a time, as www/wasm.js does: its output and
// CRC, or null when it says the stream is damaged.
function unpack(bytes, piece, capacity = module.length) {
  const { memory, begin, decode, output, checksum } = new WebAssembly.Instance(unpacker).exports;
  const input = begin(bytes.length, capacity);
  let written = 0;
  for (let at = 0; at < bytes.length; at += piece) {
    const part = bytes.subarray(at, at + piece);
    new Uint8Array(memory.buffer, input + at, part.length).set(part);
    written = decode(at + part.length, 0);
    if (written < 0) return null;
  }
  written = decode(bytes.length, 1);
  if (written < 0) return null;
  return { out: Buffer.from(new Uint8Array(memory.buffer, output(), written)), sum: checksum() >>> 0 };
}

test('the packed module unpacks to the built module, byte for byte, in pieces of any size', () => {
  assert.ok(packed.length < 0.8 * zlib.gzipSync(module, { level: 6 }).length, `${packed.length} bytes packed`);
  for (const piece of [packed.length, 65536, 1500, 7, 1]) {
    const { out, sum } = unpack(packed, piece);
    assert.equal(out.length, module.length, `pieces of ${piece}`);
    assert.ok(out.equals(module), `pieces of ${piece}: the same bytes`);
    assert.equal(sum, zlib.crc32(module), `pieces of ${piece}: the CRC`);
  }
});

test('the page carries the module\'s size and the packed module\'s size and CRC', () => {
  const html = fs.readFileSync(path.join(siteDir, 'index.html'), 'utf8');
  assert.match(html, new RegExp(`<meta name="kp-wasm-bytes" content="${module.length}">`));
  const crc = zlib.crc32(module).toString(16).padStart(8, '0');
  assert.match(html, new RegExp(`<meta name="kp-wasm-packed" content="${packed.length} ${crc}">`));
});

test('a damaged packed module is caught: by the unpacker, or by its size and CRC', () => {
  const expected = zlib.crc32(module);
  const caught = (bytes) => {
    const unpacked = unpack(bytes, 4096);
    return unpacked === null || unpacked.out.length !== module.length || unpacked.sum !== expected;
  };
  // Cut short, anywhere.
  for (const end of [0, 5, 13, 17, 100, packed.length >> 1, packed.length - 1]) assert.ok(caught(packed.subarray(0, end)), `cut at ${end}`);
  // One byte changed, in the header and through the stream.
  for (const at of [0, 13, 20, 1000, packed.length >> 2, packed.length >> 1, packed.length - 10]) {
    const bytes = Buffer.from(packed);
    bytes[at] ^= 0x5a;
    assert.ok(caught(bytes), `byte ${at} changed`);
  }
  // More than the module's size: the output has no room.
  assert.equal(unpack(packed, 65536, module.length - 1), null);
});

let env;
before(async () => { env = await start(); });
after(async () => env && env.close());

test('a page given a damaged packed module loads the module unpacked', async () => {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 720 } });
  const errors = [];
  const warnings = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
  const damaged = Buffer.from(packed);
  damaged[packed.length >> 1] ^= 0x5a;
  const requests = [];
  page.on('request', (r) => { if (/kernel_playground_bg\.wasm/.test(r.url())) requests.push(r.url().split('/').pop()); });
  await page.route(/kernel_playground_bg\.wasm\.lzma$/, (route) => route.fulfill({ status: 200, contentType: 'application/octet-stream', body: damaged }));
  await page.goto(`${env.base}#preset=moons&n=40`);
  await waitForFrame(page);
  await settle(page);
  assert.equal((await lastFrame(page)).points, 40);
  assert.deepEqual(requests, ['kernel_playground_bg.wasm.lzma', 'kernel_playground_bg.wasm']);
  assert.ok(warnings.some((w) => w.startsWith('The packed module failed; loading it unpacked:')), warnings.join('\n'));
  assert.deepEqual(errors, []);
  await page.close();
});

// A server in front of the site's sends the packed module damaged at its start (the coder's
// first byte), 32 KB every 0.1 s: once the page has caught it, it stops reading, and the rest
// is never sent.
test('a damaged packed module stops downloading once it is caught', async () => {
  const damaged = Buffer.from(packed);
  damaged[13] = 1;
  const sent = { pieces: 0, whole: false, closed: false };
  const front = await frontServer(env.base, async (req, res) => {
    if (!req.url.endsWith('/kernel_playground_bg.wasm.lzma')) return false;
    res.on('close', () => { sent.closed = !res.writableFinished; });
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Cache-Control': 'no-store' });
    for (let at = 0; at < damaged.length && !res.destroyed; at += 32768) {
      res.write(damaged.subarray(at, at + 32768));
      sent.pieces += 1;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!res.destroyed) {
      res.end();
      sent.whole = true;
    }
    return true;
  });
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(`${front.url}#preset=moons&n=40`);
    await waitForFrame(page);
    assert.equal((await lastFrame(page)).points, 40);
    await page.waitForTimeout(500);
    assert.ok(sent.closed && !sent.whole, `the page read on: ${JSON.stringify(sent)}`);
    assert.ok(sent.pieces < Math.ceil(damaged.length / 32768) - 2, `${sent.pieces} pieces sent`);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await front.stop();
  }
});

// The module's files the page asks for, and its first frame's points, on a line emulated at
// `mbits` (null: the browser's own estimate, which headless Chromium puts at 1.45 Mbit/s).
async function fetchedOnLine(mbits) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  if (mbits) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: (mbits * 1e6) / 8, uploadThroughput: -1 });
  }
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const requests = [];
  page.on('request', (r) => { if (/\/pkg\/.*wasm/.test(r.url())) requests.push(r.url().split('/').pop()); });
  await page.goto(`${env.base}#preset=moons&n=40`);
  await waitForFrame(page);
  await settle(page);
  const shown = { requests: requests.sort(), points: (await lastFrame(page)).points, chosen: await page.evaluate(() => document.documentElement.dataset.wasm), downlink: await page.evaluate(() => navigator.connection.downlink) };
  assert.deepEqual(errors, []);
  await context.close();
  return shown;
}

test('the page loads the module packed on a slow line, and whole on a fast one', async () => {
  const slow = await fetchedOnLine(null);
  assert.ok(slow.downlink < 8, `${slow.downlink} Mbit/s`);
  assert.deepEqual(slow, { requests: ['kernel_playground_bg.wasm.lzma', 'kernel_playground_unpack.wasm'], points: 40, chosen: 'packed', downlink: slow.downlink });
  const fast = await fetchedOnLine(30);
  assert.deepEqual(fast, { requests: ['kernel_playground_bg.wasm'], points: 40, chosen: 'whole', downlink: 10 });
});
