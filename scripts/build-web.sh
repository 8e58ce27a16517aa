#!/usr/bin/env bash
# Builds the page: Rust → wasm32 → wasm-bindgen glue in www/pkg, then the static site in site/
# (index.html and www/, relative URLs only, ready for GitHub Pages or any static server).
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --lib --target wasm32-unknown-unknown
rm -rf www/pkg
wasm-bindgen --target web --no-typescript --out-dir www/pkg \
  target/wasm32-unknown-unknown/release/kernel_playground.wasm

rm -rf site
mkdir -p site
cp index.html site/
cp -r www site/www
echo "built site/ ($(du -sh site | cut -f1))"
