#!/usr/bin/env bash
# Command two: every test. Formatting, lints, docs, native unit and integration tests (including
# the LIBSVM and scikit-learn fixtures), the wasm build, and the end-to-end tests in headless
# Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

bash scripts/setup.sh --browser
rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy

say "cargo fmt --check"
cargo fmt --check
cargo fmt --check --manifest-path unpack/Cargo.toml

say "cargo clippy (native and wasm32)"
cargo clippy --all-targets -- -D warnings
cargo clippy --lib --target wasm32-unknown-unknown -- -D warnings
# The small module that unpacks the page's (unpack/, a workspace of its own).
cargo clippy --all-targets --manifest-path unpack/Cargo.toml --target-dir target/unpack -- -D warnings
cargo clippy --lib --target wasm32-unknown-unknown --manifest-path unpack/Cargo.toml --target-dir target/unpack -- -D warnings

say "cargo doc (no warnings)"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --quiet
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --quiet --manifest-path unpack/Cargo.toml --target-dir target/unpack

say "native tests"
cargo test
cargo test --manifest-path unpack/Cargo.toml --target-dir target/unpack

say "wasm build"
bash scripts/build-web.sh

say "wasm size within its budget (gzipped)"
node scripts/check-wasm-size.mjs

say "browser end-to-end test (headless Chromium)"
node --test tests/e2e/
