#!/usr/bin/env bash
# Records the scene each link of tests/fixtures/link_corpus.txt opens, as the lab of the checked
# out commit opens it, into tests/fixtures/link_corpus.json (read by tests/link_corpus.rs).
# Run it only to add links: the record's worth is that it was made by an older lab.
set -euo pipefail
cd "$(dirname "$0")/.."
LINK_CORPUS_MADE_BY="the lab at commit $(git rev-parse --short HEAD) ($(git log -1 --format=%cs))" \
  cargo test --test link_corpus -- --ignored --exact record
