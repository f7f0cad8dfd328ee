#!/usr/bin/env bash
# Installs the pinned pi releases and Claude Code (package-lock.json) into tests/conformance/node_modules with `npm ci`.
# Cached: skipped when the lock's hash matches the stamp the last install wrote.
set -euo pipefail
cd "$(dirname "$0")"
hash=$(sha256sum package-lock.json | cut -d' ' -f1)
stamp=node_modules/.lock-sha256
if [[ -f $stamp && "$(cat "$stamp")" == "$hash" ]]; then
    exit 0
fi
npm ci --no-audit --no-fund --loglevel=error
echo "$hash" > "$stamp"
