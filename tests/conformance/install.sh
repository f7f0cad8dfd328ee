#!/usr/bin/env bash
# Installs the pinned agents a conformance suite runs with `npm ci`: by default the pi releases and Claude Code
# (tests/conformance/package-lock.json), or the lock in the folder given (`install.sh codex-cli`: Codex), into that
# folder's node_modules. Cached: skipped when the lock's hash matches the stamp the last install wrote.
set -euo pipefail
cd "$(dirname "$0")/${1:-.}"
hash=$(sha256sum package-lock.json | cut -d' ' -f1)
stamp=node_modules/.lock-sha256
if [[ -f $stamp && "$(cat "$stamp")" == "$hash" ]]; then
    exit 0
fi
npm ci --no-audit --no-fund --loglevel=error
echo "$hash" > "$stamp"
