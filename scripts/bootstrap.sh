#!/usr/bin/env bash
# Install what the build and the tests need, and nothing when it is all there.
# Works on a fresh Debian bookworm as root without stdin (CI), or as a user with sudo.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

say() { echo "bootstrap: $*"; }
die() { echo "bootstrap: ERROR: $*" >&2; exit 1; }

# --- Node.js (not installed here: Debian's is too old for Vitest 4) ---------------------------
command -v node >/dev/null 2>&1 || die "node not found: install Node.js >= 20 first"
command -v npm >/dev/null 2>&1 || die "npm not found: install Node.js >= 20 (with npm) first"
node_major="$(node -p 'process.versions.node.split(".")[0]')"
[ "$node_major" -ge 20 ] || die "Node.js >= 20 required, found $(node -v)"

# --- Debian packages -----------------------------------------------------------------------------
pkgs=()
command -v em++ >/dev/null 2>&1 && command -v emcmake >/dev/null 2>&1 || pkgs+=(emscripten)
command -v wasm-opt >/dev/null 2>&1 || pkgs+=(binaryen)
[ -x /usr/bin/chromium ] || pkgs+=(chromium fonts-liberation)
command -v cmake >/dev/null 2>&1 || pkgs+=(cmake)
command -v g++ >/dev/null 2>&1 || pkgs+=(g++)
command -v make >/dev/null 2>&1 || pkgs+=(make)
[ -f /usr/include/gtest/gtest.h ] || pkgs+=(libgtest-dev)
# Reliability suites: clang with libFuzzer and the sanitizer runtimes; libccd and qhull as
# differential-test oracles; pkg-config to find them.
command -v clang++ >/dev/null 2>&1 || pkgs+=(clang)
compgen -G '/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a' >/dev/null || pkgs+=(libclang-rt-14-dev)
[ -f /usr/include/ccd/ccd.h ] || pkgs+=(libccd-dev)
[ -f /usr/include/libqhull_r/libqhull_r.h ] || pkgs+=(libqhull-dev)
command -v pkg-config >/dev/null 2>&1 || pkgs+=(pkg-config)

if [ "${#pkgs[@]}" -gt 0 ]; then
  say "installing Debian packages: ${pkgs[*]}"
  if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
  elif command -v sudo >/dev/null 2>&1; then
    # No terminal (CI): never wait for a password prompt.
    if [ -t 0 ]; then SUDO=(sudo); else SUDO=(sudo -n); fi
  else
    die "need root or sudo to install: ${pkgs[*]}"
  fi
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${pkgs[@]}"
  hash -r
  for c in em++ emcmake wasm-opt cmake g++ make; do
    command -v "$c" >/dev/null 2>&1 || die "$c still missing after apt-get install"
  done
  [ -x /usr/bin/chromium ] || die "/usr/bin/chromium still missing after apt-get install"
  [ -f /usr/include/gtest/gtest.h ] || die "gtest headers still missing after apt-get install"
else
  say "system packages present"
fi

# --- npm packages --------------------------------------------------------------------------------
if [ ! -d node_modules ] || [ ! -f node_modules/.package-lock.json ] \
   || { [ -f package-lock.json ] && [ package-lock.json -nt node_modules/.package-lock.json ]; } \
   || [ package.json -nt node_modules/.package-lock.json ]; then
  if [ -f package-lock.json ]; then
    say "npm ci"
    npm ci --no-audit --no-fund
  else
    say "npm install (no package-lock.json)"
    npm install --no-audit --no-fund
  fi
else
  say "node_modules up to date"
fi
