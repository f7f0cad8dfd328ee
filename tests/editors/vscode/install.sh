#!/usr/bin/env bash
# Installs what the VS Code end-to-end test needs: code-server 4.100.3 (VS Code 1.100.3, the last release for
# Node 20) and playwright-core 1.65.1 into a cache folder, plus the extension's build tools (npm ci in
# vscode-extension/). Chromium comes from Debian (editors/install-test-editors.sh). Idempotent: a finished install
# leaves a stamp and a second run returns at once. Every network step is bounded by a timeout.
#
# A plain `npm install code-server` does not work here: as root postinstall.sh wants unsafe-perm, @vscode/ripgrep
# downloads rg from GitHub, and node-pty's install runs `npx node-gyp`, which npmrc's yes=false blocks. So this does
# postinstall.sh's work by hand, with Debian's rg.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"

CODE_SERVER_VERSION=4.100.3
PLAYWRIGHT_VERSION=1.65.1
CACHE="${SESSION_LSP_EDITORS_CACHE:-$HOME/.cache/session-lsp-editors}"
dir="$CACHE/vscode-$CODE_SERVER_VERSION"
stamp="$dir/.installed"

log() { printf '[vscode/install] %s\n' "$*"; }
need() { command -v "$1" >/dev/null || { echo "missing $1: $2" >&2; exit 1; }; }
need node "install Node 20"
need rg "apt-get install -y --no-install-recommends ripgrep"
node_major="$(node -p 'process.versions.node.split(".")[0]')"
[[ "$node_major" == 20 ]] || { echo "code-server $CODE_SERVER_VERSION needs Node 20, this is Node $node_major" >&2; exit 1; }

npm_q() { timeout "$1" npm "${@:2}" --no-audit --no-fund --loglevel=error; }

if [[ ! -f "$stamp" ]]; then
    rm -rf "$dir"
    mkdir -p "$dir"
    cd "$dir"
    printf '{"name":"session-lsp-vscode-e2e","private":true}\n' > package.json
    log "npm install code-server@$CODE_SERVER_VERSION playwright-core@$PLAYWRIGHT_VERSION (about 25 s)"
    npm_q 300 install --ignore-scripts "code-server@$CODE_SERVER_VERSION" "playwright-core@$PLAYWRIGHT_VERSION"
    npm_q 300 rebuild argon2
    vs="$dir/node_modules/code-server/lib/vscode"
    cd "$vs"
    log "npm install in code-server/lib/vscode (about 10 s)"
    npm_q 300 install --omit=dev --ignore-scripts
    mkdir -p node_modules/@vscode/ripgrep/bin
    ln -sfn "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
    log "npm rebuild of the native modules (about 60 s)"
    npm_config_yes=true npm_q 600 rebuild
    # What postinstall.sh would do after its npm install.
    ln -sfn node_modules node_modules.asar
    (cd bin/remote-cli && ln -sfn code-linux.sh code-server)
    (cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
    (cd extensions && npm_q 300 install --omit=dev)
    "$dir/node_modules/.bin/code-server" --version --config /dev/null >/dev/null
    touch "$stamp"
fi

ext="$root/vscode-extension"
if [[ ! -f "$ext/node_modules/.package-lock.json" || "$ext/package-lock.json" -nt "$ext/node_modules/.package-lock.json" ]]; then
    log "npm ci in vscode-extension/"
    (cd "$ext" && npm_q 300 ci)
fi
log "ready: $dir"
