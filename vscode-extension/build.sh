#!/usr/bin/env bash
# Builds the .vsix: type-checks and bundles the extension with esbuild, copies the session-lsp server and its
# dependencies into bundled/, and packages with vsce for one platform (msgspec is compiled, so a .vsix is per
# platform).
#
#   ./build.sh                       linux-x64 (the default)
#   ./build.sh --target darwin-arm64 another platform (linux-x64, linux-arm64, alpine-x64, darwin-x64,
#                                    darwin-arm64, win32-x64, win32-arm64)
#   ./build.sh --no-bundle           no bundled server: session-lsp must be on PATH or set in sessionLsp.server.path
#
# Output: session-lsp-<target>-<version>.vsix here. Needs Node 20 and network access to npm and PyPI.
set -euo pipefail
cd "$(dirname "$0")"
root="$(cd .. && pwd)"
target=linux-x64
bundle=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --target) target="$2"; shift 2 ;;
        --no-bundle) bundle=0; shift ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done
case "$target" in
    linux-x64) platform=manylinux2014_x86_64 ;;
    linux-arm64) platform=manylinux2014_aarch64 ;;
    alpine-x64) platform=musllinux_1_2_x86_64 ;;
    darwin-x64) platform=macosx_10_13_x86_64 ;;
    darwin-arm64) platform=macosx_11_0_arm64 ;;
    win32-x64) platform=win_amd64 ;;
    win32-arm64) platform=win_arm64 ;;
    *) echo "unsupported target $target" >&2; exit 2 ;;
esac
PYTHON="${PYTHON:-$([[ -x "$root/.venv/bin/python" ]] && echo "$root/.venv/bin/python" || echo python3)}"
PYTHON_VERSIONS="${PYTHON_VERSIONS:-3.11 3.12 3.13 3.14}"

if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
    timeout 300 npm ci --no-audit --no-fund --loglevel=error
fi
npx tsc --noEmit -p .
npm run --silent bundle -- --log-level=warning

rm -rf bundled/libs bundled/native
if [[ $bundle == 1 ]]; then
    pip=("$PYTHON" -m pip install --quiet --disable-pip-version-check --no-compile --only-binary=:all: --platform "$platform")
    grep -v -e '^#' -e '^msgspec' -e '^lz4' -e '^backports.zstd' bundled/requirements.txt > bundled/.pure-requirements.txt
    timeout 300 "${pip[@]}" --python-version 3.11 --no-deps --target bundled/libs -r bundled/.pure-requirements.txt
    rm bundled/.pure-requirements.txt
    msgspec="$(grep '^msgspec==' bundled/requirements.txt)"
    lz4="$(grep '^lz4==' bundled/requirements.txt)"
    zstd="$(grep '^backports.zstd==' bundled/requirements.txt)"
    for version in $PYTHON_VERSIONS; do
        native="bundled/native/cp${version/./}"
        timeout 300 "${pip[@]}" --python-version "$version" --no-deps --target "$native" "$msgspec"
        # lz4 publishes no musllinux wheels; without it the server keeps its lines zlib-compressed instead.
        timeout 300 "${pip[@]}" --python-version "$version" --no-deps --target "$native" "$lz4" \
            || echo "no $lz4 wheel for $target, Python $version: the server falls back to zlib" >&2
        # `.jsonl.zst`: the standard library reads it from Python 3.14 (compression.zstd), earlier ones need the backport
        if [[ $version != 3.14 ]]; then
            timeout 300 "${pip[@]}" --python-version "$version" --no-deps --target "$native" "$zstd"
        fi
    done
    # The server itself, from this checkout (pure Python).
    "$PYTHON" - "$root/session_lsp" bundled/libs/session_lsp <<'PY'
import shutil, sys
shutil.copytree(sys.argv[1], sys.argv[2], ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
PY
    rm -rf bundled/libs/bin bundled/native/*/bin
fi
npx vsce package --target "$target" --allow-missing-repository --no-dependencies --no-update-package-json --out . 2>&1 \
    | grep -v -e '^ INFO ' -e '^$' || true
ls -1 ./*.vsix
