#!/usr/bin/env bash
# Installs what building (and, with --browser, testing) Kernel Playground needs, skipping what
# is already there: the wasm32 target, wasm-bindgen-cli at exactly the wasm-bindgen version in
# Cargo.lock, esbuild from npm (scripts/package.json), and for the browser tests Debian's
# Chromium and ChromeDriver, a sans-serif font and playwright-core from npm.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

if ! command -v cargo >/dev/null; then
  echo "cargo is missing: install Rust from rustup first" >&2
  exit 1
fi

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# The CLI must match the crate exactly, or the generated glue does not fit the module.
wanted=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)
if [ "$have" != "$wanted" ]; then
  say "installing wasm-bindgen-cli $wanted (a few minutes, once)"
  cargo install wasm-bindgen-cli --version "$wanted"
fi

# esbuild makes the site's scripts and styles smaller (scripts/minify.mjs), at the version
# scripts/package.json pins; without npm or its registry the site is built as written.
esbuild_wanted=$(sed -n 's/.*"esbuild": "\([^"]*\)".*/\1/p' scripts/package.json)
esbuild_have=$(sed -n 's/^  "version": "\([^"]*\)".*/\1/p' scripts/node_modules/esbuild/package.json 2>/dev/null || true)
if [ "$esbuild_have" != "$esbuild_wanted" ] && command -v npm >/dev/null 2>&1; then
  say "installing esbuild $esbuild_wanted from npm (it minifies the site's scripts)"
  (cd scripts && npm ci --no-audit --no-fund --loglevel=error) ||
    say "esbuild could not be installed: the site is built with its scripts as written"
fi

if [ "${1:-}" = "--browser" ]; then
  missing=()
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  [ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
  [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
  # wasm-opt makes the page's wasm smaller (scripts/build-web.sh uses it when present).
  command -v wasm-opt >/dev/null 2>&1 || missing+=(binaryen)
  # xz packs the module for a phone's line (scripts/build-web.sh, www/wasm.js).
  command -v xz >/dev/null 2>&1 || missing+=(xz-utils)
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]} from Debian"
    sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
  fi
  if [ ! -d tests/e2e/node_modules/playwright-core ]; then
    say "installing playwright-core from npm"
    (cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error)
  fi
fi
