// Kernel Playground's service worker: the lab works with no network after a first visit.
//
// This file is a template: the build (scripts/service-worker.mjs) writes it to site/sw.js with
// VERSION, a hash of the site's files, and FILES, every file of the site with its own hash.
// Installing fetches every file into the cache named after VERSION and checks each against
// its hash (a file from another deploy fails the install, which is tried again on the next
// visit), so a cache only ever holds one deploy, whole. Requests for these files are answered
// from that cache; everything else goes to the network as usual.
//
// A new deploy is a new sw.js (another VERSION), which the browser installs beside the running
// one; it waits until a page asks it to take over (www/offline.js: at once on a page not yet
// touched, which then reloads; else the next load, through HANDOVER below), and it then deletes
// the old cache.
// The page's wasm module is kept whole, as the page asks for it once this worker serves it, so
// that a returning visit neither unpacks it again nor compiles it from a stream the browser
// cannot cache the compiled code of. On a slow line the first visit fetched the module packed
// (www/wasm.js): UNPACKED names, for the whole module, its packed file, the unpacker and its
// size, and installing makes the whole module from them, with the page's own unpacker, unless
// the browser's HTTP cache already holds it (a first visit on a fast line fetched it whole).
// Either way its bytes are checked against the module's hash in FILES.
// Every URL is relative to this file, which sits at the site's root (on GitHub Pages a project
// site's root is /repo/).

const VERSION = 'unbuilt';
const FILES = [];
const UNPACKED = {};

const PREFIX = 'kernel-playground-';
const CACHE = PREFIX + VERSION;
const root = new URL('./', self.location.href);
const urlOf = (file) => new URL(file, root).href;
const listed = new Set(FILES.map(([file]) => urlOf(file)));

// Hex SHA-256 of a response's bytes, as the build wrote it.
async function digest(response) {
  const bytes = await response.clone().arrayBuffer();
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('');
}

// 'no-cache': the HTTP cache may answer only after the server says its copy is current.
async function fetchCurrent(file) {
  const response = await fetch(new Request(urlOf(file), { cache: 'no-cache' }));
  if (!response.ok) throw new Error(`${file}: ${response.status}`);
  return response;
}

// The whole module from its packed file, unpacked in one piece by the page's unpacker
// (unpack/src/lib.rs: `begin` gives where the packed bytes go, `decode` unpacks them all).
async function unpack([packedFile, unpackerFile, size]) {
  const [packed, unpacker] = await Promise.all([packedFile, unpackerFile].map(async (f) => new Uint8Array(await (await fetchCurrent(f)).arrayBuffer())));
  const { memory, begin, decode, output } = (await WebAssembly.instantiate(unpacker)).instance.exports;
  const input = begin(packed.length, size);
  new Uint8Array(memory.buffer, input, packed.length).set(packed);
  const written = decode(packed.length, 1);
  if (written !== size) throw new Error(`${packedFile} unpacks to ${written} bytes, not ${size}`);
  const bytes = new Uint8Array(memory.buffer, output(), size).slice();
  return new Response(bytes, { headers: { 'Content-Type': 'application/wasm', 'Content-Length': String(size) } });
}

// The whole module as the browser's HTTP cache holds it, if it does (else null).
async function fromHttpCache(file) {
  try {
    const response = await fetch(new Request(urlOf(file), { cache: 'only-if-cached', mode: 'same-origin' }));
    return response.ok ? response : null;
  } catch {
    return null;
  }
}

async function precache() {
  const cache = await caches.open(CACHE);
  await Promise.all(FILES.map(async ([file, hash]) => {
    let response;
    if (UNPACKED[file]) {
      const held = await fromHttpCache(file);
      response = held && (await digest(held)) === hash ? held : await unpack(UNPACKED[file]);
    } else {
      response = await fetchCurrent(file);
    }
    if ((await digest(response)) !== hash) throw new Error(`${file} is not the one of this deploy`);
    await cache.put(urlOf(file), response);
  }));
}

self.addEventListener('install', (event) => {
  event.waitUntil(precache());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    // A first visit's page is served from the cache from now on, without a reload.
    await self.clients.claim();
  })());
});

self.addEventListener('message', (event) => {
  if (event.data === 'take-over') self.skipWaiting();
});

// The cached file a request names: the file itself, or the page for the site's folder; a
// page's query (?embed=1…) does not change the file.
function cachedName(request) {
  const url = new URL(request.url);
  url.hash = '';
  if (request.mode === 'navigate') url.search = '';
  if (url.href === root.href) url.href = urlOf('index.html');
  return url.search === '' && listed.has(url.href) ? url.href : null;
}

// The page a new load gets while a new deploy waits, instead of this deploy's page. The browser
// hands over to a waiting worker only once the running one is idle, and a whole page loading
// (some fifty files, each a request to this worker) can put that off for as long as the worker
// stays up; this page asks for nothing, lets the new worker take over and loads again from it
// (the address, with its scene, unchanged). Its two languages are the lab's.
const HANDOVER = `<!doctype html>
<html><head><meta charset="utf-8"><meta name="color-scheme" content="light dark">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Kernel Playground</title><link rel="icon" href="data:,"></head>
<body style="font: 1.2rem system-ui, sans-serif; margin: 2rem">
<p>Kernel Playground: opening its new version…</p><p lang="zh">正在打开新版本…</p>
<script>
const sw = navigator.serviceWorker;
sw.addEventListener('controllerchange', () => location.reload());
sw.getRegistration().then((r) => {
  if (!r || !r.waiting) { location.reload(); return; }
  r.waiting.addEventListener('statechange', (e) => { if (e.target.state === 'redundant') location.reload(); });
  r.waiting.postMessage('take-over');
}, () => location.reload());
</script></body></html>`;

self.addEventListener('fetch', (event) => {
  if (event.request.method !== 'GET') return;
  const name = cachedName(event.request);
  if (!name) return;
  if (event.request.mode === 'navigate' && self.registration.waiting) {
    event.respondWith(new Response(HANDOVER, { headers: { 'Content-Type': 'text/html; charset=utf-8' } }));
    return;
  }
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    return (await cache.match(name)) || fetch(event.request);
  })());
});
