// Makes the built site's scripts, style sheets and word catalogues smaller, in place: on a phone's
// link every byte shares the line with the wasm module, and the page's sources are mostly their
// comments. Each ES module and style sheet goes through esbuild's minifier on its own (no
// bundling: every file keeps its path, its imports and its exports, so the page, its worker and
// the tests load the same modules as before); each JSON catalogue loses its indentation.
// Usage: node scripts/minify.mjs [site]   (run by scripts/build-web.sh after the one-file
// download is made from the readable files, before the service worker lists them).
// Without esbuild (scripts/setup.sh installs it from npm) the site is left as written.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = path.dirname(fileURLToPath(import.meta.url));
const site = path.resolve(process.argv[2] || path.join(here, '..', 'site'));

let esbuild;
try {
  esbuild = createRequire(path.join(here, 'package.json'))('esbuild');
} catch {
  console.log('no esbuild (bash scripts/setup.sh installs it): the scripts are served as written');
  process.exit(0);
}

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

let before = 0;
let after = 0;
for (const file of files(path.join(site, 'www'))) {
  const ext = path.extname(file);
  if (!['.js', '.css', '.json'].includes(ext)) continue;
  const text = fs.readFileSync(file, 'utf8');
  let out;
  if (ext === '.json') {
    out = JSON.stringify(JSON.parse(text));
  } else {
    // Syntax as written (no lowering for older browsers), and `format` only for the modules, so
    // that their imports and exports stay as they are.
    const options = ext === '.js' ? { loader: 'js', format: 'esm' } : { loader: 'css' };
    out = esbuild.transformSync(text, { ...options, minify: true, legalComments: 'none', charset: 'utf8' }).code;
  }
  before += Buffer.byteLength(text);
  after += Buffer.byteLength(out);
  fs.writeFileSync(file, out);
}
console.log(`minified the site's scripts, styles and catalogues: ${before} → ${after} bytes`);
