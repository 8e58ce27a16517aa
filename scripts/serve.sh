#!/usr/bin/env bash
# Command one: set up, build and serve the app locally; prints the URL.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build-web.sh
exec node scripts/serve.mjs site "${PORT:-8000}"
