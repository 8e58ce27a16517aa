// Builds "Download the lab": site/kernel-playground.html, the whole lab in one HTML file that
// works opened from disk (file://), with no server and no network.
// Usage: node scripts/single-file.mjs [site]   (run by scripts/build-web.sh after the copy).
//
// From the built site's index.html:
// - each stylesheet is inlined as a <style>, each icon as a data: URL; the preloads, the
//   manifest and the rows marked `data-site-only` (the download link itself) are left out;
// - every ES module the page's module scripts reach (their imports, and a worker started with
//   `new Worker(new URL('./worker.js', import.meta.url)`) is kept as text in a <script type="text/plain">,
//   its relative imports rewritten to the module's path in the site ('www/page.js'); a small
//   classic script then makes each a blob: URL and names them in an import map (the page's
//   modules import each other in cycles, so they cannot simply be linked in order). A worker
//   sees no import map, and from a page opened as a file Chromium starts a module worker from
//   a data: URL but not from a blob: URL: the modules a worker starts become data: URLs, in
//   dependency order, each with its imports replaced by theirs (the page imports them by the
//   same URLs), and `new Worker(new URL('./worker.js', import.meta.url)` becomes
//   `new Worker(new URL(import.meta.resolve('www/worker.js'))`. Such a worker may not take
//   Web Locks; www/worker.js then says so and the page watches it by its pings alone;
// - the word catalogues www/i18n/*.json are kept in <script type="application/json">s;
// - the first scene's picture (www/first-picture.svg, shown while the module loads) becomes a
//   data: URL;
// - www/wasm.js is replaced by a module with the same export that decodes the wasm from base64
//   in the page and compiles it once; the page hands that module to its worker as the site does.
//   When the build packed the module, the page holds it packed, with its unpacker (a file of
//   1.5 MB instead of 3.3), and unpacks it in one piece, checked against its size and CRC-32.
// Anything else the page refers to by a relative URL stops the build with a message, so a new
// kind of file cannot be silently missing from the download.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SINGLE_FILE = 'kernel-playground.html';
const WASM_MODULE = 'www/wasm.js';
const WASM_FILE = 'www/pkg/kernel_playground_bg.wasm';
const WASM_ELEMENT = 'kernel-playground-wasm';
const PACKED_FILE = `${WASM_FILE}.lzma`;
const UNPACK_FILE = 'www/pkg/kernel_playground_unpack.wasm';
const UNPACK_ELEMENT = 'kernel-playground-unpack';
const CATALOGUES = 'www/i18n';
const FIRST_PICTURE = 'www/first-picture.svg';
const DROPPED_LINKS = ['preload', 'modulepreload', 'manifest', 'apple-touch-icon'];
const MIME = { '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon' };

// The stand-in for www/wasm.js: the same `compileWasm`, from the bytes inside the page.
const INLINE_WASM = `// The page's WebAssembly in the one-file lab: its bytes are in this page, as base64 in the
// element #${WASM_ELEMENT}: the module itself, or, with data-size and data-crc, the module
// packed with LZMA, unpacked in one piece by the small module in #${UNPACK_ELEMENT} (the
// crate in unpack/, as www/wasm.js uses it on the site) and checked against that size and
// CRC-32 (a damaged one is an error marked \`damaged\`, which the page reports as such). It is
// compiled once, and the compiled module serves the page and the worker behind it, as on the
// site.
let compiled = null;

export function compileWasm() {
  if (!compiled) compiled = compile();
  return compiled;
}

function bytesOf(id) {
  const binary = atob(document.getElementById(id).textContent.trim());
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function compile() {
  const held = bytesOf('${WASM_ELEMENT}');
  const { size, crc } = document.getElementById('${WASM_ELEMENT}').dataset;
  if (!size) return WebAssembly.compile(held);
  const unpacker = (await WebAssembly.instantiate(bytesOf('${UNPACK_ELEMENT}'))).instance.exports;
  const input = unpacker.begin(held.length, Number(size));
  new Uint8Array(unpacker.memory.buffer, input, held.length).set(held);
  const written = unpacker.decode(held.length, 1);
  if (written !== Number(size) || unpacker.checksum() >>> 0 !== parseInt(crc, 16)) {
    throw Object.assign(new Error('the module in this file is damaged (' + written + ' bytes unpacked)'), { damaged: true });
  }
  return WebAssembly.compile(new Uint8Array(unpacker.memory.buffer, unpacker.output(), written));
}
`;

// The classic script that starts the page's modules (see the header). MODULES is filled in.
const BOOT = `// Starts the one-file lab: each module below becomes a blob: URL, named in an import map by its
// path in the site. A page opened from a file may start a module worker only from a data: URL,
// and a worker has no import map: the worker's modules become data: URLs, their imports
// replaced by the data: URLs of the modules they import.
(() => {
  const { entries, worker } = MODULES;
  const texts = new Map([...document.querySelectorAll('script[data-module]')].map((el) => [el.dataset.module, el.textContent]));
  const blob = (text) => URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
  const imports = {};
  for (const [name, text] of texts) imports[name] = blob(text);
  for (const [name, deps] of worker) {
    let text = texts.get(name);
    for (const dep of deps) text = text.split("'" + dep + "'").join("'" + imports[dep] + "'");
    imports[name] = 'data:text/javascript;charset=utf-8,' + encodeURIComponent(text).replaceAll("'", '%27');
  }
  const map = document.createElement('script');
  map.type = 'importmap';
  map.textContent = JSON.stringify({ imports });
  document.head.append(map);
  for (const name of entries) {
    const script = document.createElement('script');
    script.type = 'module';
    script.async = false;
    script.src = imports[name];
    document.body.append(script);
  }
})();
`;

const fail = (message) => {
  throw new Error(`single file: ${message}`);
};

// The value of attribute `name` in tag text `tag` (null when absent).
function attribute(tag, name) {
  const m = tag.match(new RegExp(`\\s${name}(?:\\s*=\\s*("[^"]*"|'[^']*'|[^\\s>]+))?`, 'i'));
  if (!m) return null;
  return m[1] === undefined ? '' : m[1].replace(/^["']|["']$/g, '');
}

const isRelative = (url) => !/^(?:[a-z][a-z0-9+.-]*:|#|\/\/)/i.test(url) && url !== '';

// Text that a <script> or <style> element can hold without ending early.
function escapeForElement(text, element) {
  let out = text.replace(new RegExp(`</(${element})`, 'gi'), '<\\/$1');
  if (element === 'script') out = out.replace(/<!--/g, '<\\!--');
  return out;
}

// ---- the modules --------------------------------------------------------------------------

const IMPORT = /(\b(?:import|export)\s*(?:[\w*${}\s,]*?\bfrom\s*)?)(['"])(\.{1,2}\/[^'"]+)\2/g;
const WORKER = /(new Worker\(\s*)new URL\((['"])(\.{1,2}\/[^'"]+)\2,\s*import\.meta\.url\)/g;
const ASSET = /new URL\((['"])(\.{1,2}\/[^'"]+)\1,\s*import\.meta\.url\)/;

// Every module reachable from `entries`, read from `site` and rewritten: { name → { text,
// deps } }, and the workers they start.
function collectModules(site, entries) {
  const modules = new Map();
  const workers = [];
  const visit = (name) => {
    if (modules.has(name)) return;
    const file = path.join(site, name);
    if (!fs.existsSync(file)) fail(`${name} is imported but not in the site`);
    const source = fs.readFileSync(file, 'utf8');
    const resolve = (spec) => path.posix.normalize(path.posix.join(path.posix.dirname(name), spec));
    const deps = [];
    let text = source;
    if (name === WASM_MODULE) {
      const exported = [...source.matchAll(/^export (?:async )?function (\w+)/gm)].map((m) => m[1]);
      if (exported.join() !== 'compileWasm') fail(`${WASM_MODULE} exports ${exported.join(', ')}; the stand-in exports compileWasm only`);
      text = INLINE_WASM;
    }
    text = text.replace(IMPORT, (_, head, quote, spec) => {
      deps.push(resolve(spec));
      return `${head}'${resolve(spec)}'`;
    });
    text = text.replace(WORKER, (whole, head, quote, spec) => {
      workers.push(resolve(spec));
      return `${head}new URL(import.meta.resolve('${resolve(spec)}'))`;
    });
    const asset = text.match(ASSET);
    if (asset) fail(`${name} refers to ${asset[2]}, which the single file cannot hold`);
    if (/\bimport\s*\(\s*['"]\.{0,2}\//.test(text)) fail(`${name} imports a module dynamically`);
    modules.set(name, { text, deps });
    for (const dep of deps) visit(dep);
  };
  for (const entry of entries) visit(entry);
  for (const worker of workers) visit(worker);
  return { modules, workers };
}

// The modules a worker starts, dependencies first, each with its imports (which must not
// form a cycle: they are linked by their blob URLs).
function workerOrder(modules, workers) {
  const order = [];
  const state = new Map();
  const visit = (name, trail) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'open') fail(`the worker's modules import each other in a cycle: ${[...trail, name].join(' → ')}`);
    state.set(name, 'open');
    for (const dep of modules.get(name).deps) visit(dep, [...trail, name]);
    state.set(name, 'done');
    order.push([name, modules.get(name).deps]);
  };
  for (const worker of workers) visit(worker, []);
  return order;
}

// ---- the page -----------------------------------------------------------------------------

// Removes every element whose opening tag carries `data-site-only`, with all it contains.
function dropSiteOnly(html) {
  for (;;) {
    const open = html.match(/<([a-z][a-z0-9]*)\b[^>]*\sdata-site-only\b[^>]*>/i);
    if (!open) return html;
    const tag = open[1].toLowerCase();
    const tags = new RegExp(`<(/?)${tag}\\b[^>]*>`, 'gi');
    tags.lastIndex = open.index + open[0].length;
    let depth = 1;
    let m;
    while (depth > 0 && (m = tags.exec(html))) depth += m[1] ? -1 : 1;
    if (depth > 0) fail(`<${tag} data-site-only> is never closed`);
    // The line it stood on goes with it.
    const start = html.lastIndexOf('\n', open.index) + 1;
    const end = html.indexOf('\n', tags.lastIndex);
    const onItsLines = html.slice(start, open.index).trim() === '' && html.slice(tags.lastIndex, end).trim() === '';
    html = onItsLines ? html.slice(0, start) + html.slice(end + 1) : html.slice(0, open.index) + html.slice(tags.lastIndex);
  }
}

export function buildSingleFile(site) {
  let html = fs.readFileSync(path.join(site, 'index.html'), 'utf8');
  html = dropSiteOnly(html);

  html = html.replace(/[ \t]*<link\b[^>]*>\n?/gi, (tag) => {
    const rel = (attribute(tag, 'rel') || '').toLowerCase();
    const href = attribute(tag, 'href') || '';
    if (!isRelative(href)) return tag;
    if (DROPPED_LINKS.includes(rel)) return '';
    const file = path.join(site, href);
    if (!fs.existsSync(file)) fail(`index.html links ${href}, which is not in the site`);
    const indent = tag.match(/^[ \t]*/)[0];
    if (rel === 'stylesheet') {
      const css = fs.readFileSync(file, 'utf8');
      for (const m of css.matchAll(/url\(\s*(['"]?)([^'")]*)\1\s*\)/g)) {
        if (isRelative(m[2])) fail(`${href} refers to ${m[2]}, which the single file cannot hold`);
      }
      if (/@import/.test(css)) fail(`${href} imports another stylesheet`);
      return `${indent}<style>/* ${href} */\n${escapeForElement(css, 'style')}</style>\n`;
    }
    if (rel === 'icon') {
      const type = MIME[path.extname(file)] || fail(`no type known for the icon ${href}`);
      const data = `data:${type};base64,${fs.readFileSync(file).toString('base64')}`;
      return tag.replace(href, data);
    }
    return fail(`index.html links ${href} as "${rel}", which the single file cannot hold`);
  });

  // The module is inside the page (www/wasm.js's stand-in): index.html's script that preloads
  // it from the site, told no size, preloads nothing.
  html = html.replace(/<meta name="kp-wasm-bytes" content="[^"]*">/, '<meta name="kp-wasm-bytes" content="">');

  // The first scene's picture, which index.html's inline script names: as a data: URL, or, for
  // a site built without it, none (the script then shows no picture).
  if (html.includes(`'${FIRST_PICTURE}'`)) {
    const file = path.join(site, FIRST_PICTURE);
    const url = fs.existsSync(file) ? `data:image/svg+xml;base64,${fs.readFileSync(file).toString('base64')}` : '';
    html = html.replaceAll(`'${FIRST_PICTURE}'`, () => `'${url}'`);
  }

  const entries = [];
  html = html.replace(/[ \t]*<script\b([^>]*)>\s*<\/script>\n?/gi, (tag, attrs) => {
    const src = attribute(`<script${attrs}>`, 'src');
    if (src === null || !isRelative(src)) return tag;
    if ((attribute(`<script${attrs}>`, 'type') || '') !== 'module') fail(`${src} is not a module script`);
    entries.push(path.posix.normalize(src));
    return entries.length === 1 ? '<!-- MODULES -->\n' : '';
  });
  if (entries.length === 0) fail('index.html starts no module');

  const left = [...html.matchAll(/\s(?:src|href)\s*=\s*["']([^"']*)["']/gi)].map((m) => m[1]).filter(isRelative);
  if (left.length) fail(`index.html still refers to ${left.join(', ')}`);

  const { modules, workers } = collectModules(site, entries);
  const worker = workerOrder(modules, workers);
  const parts = [];
  for (const [name, { text }] of modules) {
    parts.push(`<script type="text/plain" data-module="${name}">${escapeForElement(text, 'script')}</script>`);
  }
  parts.push(...wasmElements(site, html));
  // The word catalogues (www/i18n.js reads them from these elements before fetching).
  for (const file of fs.readdirSync(path.join(site, CATALOGUES)).filter((f) => f.endsWith('.json')).sort()) {
    const json = fs.readFileSync(path.join(site, CATALOGUES, file), 'utf8');
    parts.push(`<script type="application/json" data-catalogue="${path.basename(file, '.json')}">${escapeForElement(json, 'script')}</script>`);
  }
  parts.push(`<script>\n${BOOT.replace('MODULES', JSON.stringify({ entries, worker }))}</script>`);
  html = html.replace('<!-- MODULES -->\n', () => `${parts.join('\n')}\n`);
  const out = path.join(site, SINGLE_FILE);
  fs.writeFileSync(out, html);
  return { file: out, bytes: Buffer.byteLength(html), modules: modules.size };
}

// The elements holding the module: packed, with its unpacker, when the build packed it (its
// size and CRC-32 as the page's <meta name="kp-wasm-packed"> gives them), else whole.
function wasmElements(site, html) {
  const base64 = (file) => fs.readFileSync(path.join(site, file)).toString('base64');
  const element = (id, file, data = '') => `<script type="application/octet-stream" id="${id}"${data}>${base64(file)}</script>`;
  const packed = (html.match(/<meta name="kp-wasm-packed" content="(\d+) ([0-9a-f]{8})">/) || []).slice(1);
  if (packed.length === 0 || !fs.existsSync(path.join(site, PACKED_FILE)) || !fs.existsSync(path.join(site, UNPACK_FILE))) {
    return [element(WASM_ELEMENT, WASM_FILE)];
  }
  const size = fs.statSync(path.join(site, WASM_FILE)).size;
  return [element(WASM_ELEMENT, PACKED_FILE, ` data-size="${size}" data-crc="${packed[1]}"`), element(UNPACK_ELEMENT, UNPACK_FILE)];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const site = path.resolve(process.argv[2] || path.join(repo, 'site'));
  try {
    const { bytes, modules } = buildSingleFile(site);
    console.log(`${SINGLE_FILE}: ${modules} modules and the wasm in one file, ${(bytes / 1e6).toFixed(2)} MB`);
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}
