#!/usr/bin/env bash
# Builds the page: Rust → wasm32 → wasm-bindgen glue in www/pkg, then the static site in site/
# (index.html, www/, lessons/ and the example deck docs/embed.html, relative URLs only, ready
# for GitHub Pages or any static server), with its service worker (sw.js) and the one-file
# download (kernel-playground.html).
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --lib --target wasm32-unknown-unknown
wasm=target/wasm32-unknown-unknown/release/kernel_playground.wasm
# Smaller wasm with binaryen's wasm-opt when it is installed (Debian: binaryen). It runs on
# rustc's output, before wasm-bindgen: run on wasm-bindgen's output, binaryen 108 breaks the
# externref table wasm-bindgen sets up. Without it the page is the same, only larger.
if command -v wasm-opt >/dev/null 2>&1; then
  mkdir -p target/wasm-opt
  wasm-opt -O3 --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$wasm" -o target/wasm-opt/kernel_playground.wasm
  echo "wasm-opt: $(stat -c %s "$wasm") → $(stat -c %s target/wasm-opt/kernel_playground.wasm) bytes"
  wasm=target/wasm-opt/kernel_playground.wasm
fi
rm -rf www/pkg
# The names section (the imports' names only, after wasm-opt) and the producers section are
# left out: the page needs neither, and they are bytes a phone downloads.
wasm-bindgen --target web --no-typescript --remove-name-section --remove-producers-section \
  --out-dir www/pkg "$wasm"

# The module packed with LZMA for the page, and the small module that unpacks it as it downloads
# (unpack/, www/wasm.js): about 27 % fewer bytes than the server's gzip of the module. The
# page checks what it unpacked against the size and the CRC-32 written into it below (the CRC
# read from the trailer of Node's gzip of the module). Without xz (Debian: xz-utils) the page loads the module itself.
packed=""
if command -v xz >/dev/null 2>&1; then
  cargo build --release --target wasm32-unknown-unknown --manifest-path unpack/Cargo.toml --target-dir target/unpack
  unpack=target/unpack/wasm32-unknown-unknown/release/kernel_playground_unpack.wasm
  if command -v wasm-opt >/dev/null 2>&1; then
    wasm-opt -O3 --strip-debug --strip-producers "$unpack" -o www/pkg/kernel_playground_unpack.wasm
  else
    cp "$unpack" www/pkg/kernel_playground_unpack.wasm
  fi
  xz --format=lzma -9e --keep --stdout www/pkg/kernel_playground_bg.wasm > www/pkg/kernel_playground_bg.wasm.lzma
  crc=$(node -e "const z = require('zlib'), b = z.gzipSync(require('fs').readFileSync('www/pkg/kernel_playground_bg.wasm')); console.log(b.readUInt32LE(b.length - 8).toString(16).padStart(8, '0'))")
  packed="$(wc -c < www/pkg/kernel_playground_bg.wasm.lzma | tr -d ' ') $crc"
  echo "packed: $(wc -c < www/pkg/kernel_playground_bg.wasm | tr -d ' ') → $packed (bytes, CRC-32); unpacked by $(wc -c < www/pkg/kernel_playground_unpack.wasm | tr -d ' ') bytes"
else
  echo "no xz: the page loads its module unpacked"
fi

rm -rf site
mkdir -p site
# The page, with the wasm's size for its "Loading the lab… 40%" and the packed module's size
# and CRC (www/wasm.js; index.html's script chooses which to preload).
sed -e "s|<meta name=\"kp-wasm-bytes\" content=\"\">|<meta name=\"kp-wasm-bytes\" content=\"$(wc -c < www/pkg/kernel_playground_bg.wasm | tr -d ' ')\">|" \
  -e "s|<meta name=\"kp-wasm-packed\" content=\"\">|<meta name=\"kp-wasm-packed\" content=\"$packed\">|" \
  index.html > site/index.html
grep -q 'name="kp-wasm-bytes" content="[0-9]' site/index.html || { echo "the page's kp-wasm-bytes was not written" >&2; exit 1; }
if [ -n "$packed" ]; then
  grep -q 'name="kp-wasm-packed" content="[0-9]* [0-9a-f]\{8\}"' site/index.html || { echo "the page's kp-wasm-packed was not written" >&2; exit 1; }
fi
cp -r www site/www
# The first scene's picture, which the page shows on a visit without a link while its module
# loads (index.html): drawn by the command line as the page paints it, the regions at the field
# grid's resolution (about 25 KB gzipped). Without it (no sans-serif font for the command
# line's text, say) the page shows "Loading the lab…" on a blank plot, as before.
if ! cargo run --quiet --bin kernel-playground -- render --link '#' --regions grid \
    --width 480 --height 480 --out site/www/first-picture.svg; then
  echo "no first picture: the page loads without one"
fi
# The shipped lessons (docs/LESSONS.md), opened with ?lesson=lessons/NAME.json.
cp -r lessons site/lessons
# The example deck that embeds the lab (its links reach the lab as ../index.html, here as in
# the repository).
mkdir -p site/docs
cp docs/embed.html site/docs/
# The whole lab as one file for "Download the lab" (from the files as written), then the
# site's scripts, styles and catalogues minified in place (on a phone's link they share the line
# with the module), then the service worker, which lists every file of the site with its hash
# (so it comes last).
node scripts/single-file.mjs site
node scripts/minify.mjs site
node scripts/service-worker.mjs site
echo "built site/ ($(du -sh site | cut -f1))"
