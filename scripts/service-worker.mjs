// Writes the site's service worker: site/sw.js from the template sw.js, with every file of the
// site listed with its SHA-256, and VERSION, a hash of them all (and of the template), so that
// each deploy has a cache of its own and the browser sees a new sw.js whenever a file changed.
// Usage: node scripts/service-worker.mjs [site]   (run by scripts/build-web.sh, last).
//
// Some files of site/ are not listed: sw.js itself (the browser keeps its service worker), the
// one-file download kernel-playground.html (scripts/single-file.mjs), which is the rest of the
// site again: caching it would store the wasm a second time, and, when the build packed the
// module, the packed module and its unpacker: the service worker keeps the module whole (a page
// it serves asks for that one), made from them when it installs (UNPACKED in sw.js).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NOT_CACHED = ['sw.js', 'kernel-playground.html'];
const MODULE = 'www/pkg/kernel_playground_bg.wasm';
const PACKED = [`${MODULE}.lzma`, 'www/pkg/kernel_playground_unpack.wasm'];
const packed = (dir) => PACKED.every((f) => fs.existsSync(path.join(dir, f)));

// The files of the site at `dir` that the service worker does not keep.
export function notCached(dir) {
  return packed(dir) ? [...NOT_CACHED, ...PACKED] : NOT_CACHED;
}

// For the module kept whole, what it is unpacked from: {module: [packed, unpacker, size]}.
export function unpackedFrom(dir) {
  return packed(dir) ? { [MODULE]: [...PACKED, fs.statSync(path.join(dir, MODULE)).size] } : {};
}

// Every file under `dir`, as paths relative to it with '/' between folders, sorted.
export function siteFiles(dir) {
  const found = [];
  const walk = (sub) => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else if (entry.isFile()) found.push(rel);
    }
  };
  walk('');
  return found.sort();
}

const sha256 = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');

// The files the service worker caches, each [path, sha256], and the deploy's version.
export function precacheList(dir, template) {
  const skipped = notCached(dir);
  const files = siteFiles(dir).filter((f) => !skipped.includes(f)).map((f) => [f, sha256(fs.readFileSync(path.join(dir, f)))]);
  const whole = crypto.createHash('sha256').update(template).update(JSON.stringify(unpackedFrom(dir)));
  for (const [file, hash] of files) whole.update(`${file}\0${hash}\n`);
  return { files, version: whole.digest('hex').slice(0, 16) };
}

export function writeServiceWorker(dir) {
  const template = fs.readFileSync(path.join(repo, 'sw.js'), 'utf8');
  const { files, version } = precacheList(dir, template);
  let out = template;
  const fill = (pattern, value) => {
    if (!pattern.test(out)) throw new Error(`sw.js: no line matching ${pattern}`);
    out = out.replace(pattern, value);
  };
  fill(/^const VERSION = .*;$/m, `const VERSION = '${version}';`);
  const list = files.map(([f, h]) => `  ['${f}', '${h}'],`).join('\n');
  fill(/^const FILES = \[\];$/m, `const FILES = [\n${list}\n];`);
  fill(/^const UNPACKED = \{\};$/m, `const UNPACKED = ${JSON.stringify(unpackedFrom(dir))};`);
  fs.writeFileSync(path.join(dir, 'sw.js'), out);
  return { files, version };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = path.resolve(process.argv[2] || path.join(repo, 'site'));
  const { files, version } = writeServiceWorker(dir);
  console.log(`sw.js: ${files.length} files, version ${version}`);
}
