#!/usr/bin/env bash
# Installs what the interop tests and the benchmark smoke tests drive, where this machine allows it:
#   Debian: python3-websockets (Python client; its speedups.c for the masking comparison),
#           python3-dev (to build that C module), chromium (the demo page in a real browser),
#           erlang-base + erlang-crypto (crypto:exor in the masking comparison), gcc,
#           openssl (traditional PEM key files for the TLS key-format tests),
#           redis-server (the Redis fan-out tests start their own on a loopback port)
#   npm:    ws and bufferutil (Node client and masking), into src/test/node
# Without root or a registry it says what is missing; the tests that need it then report
# themselves as skipped, by name. CI runs as root, so there nothing is skipped.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

need_apt=()
/usr/bin/python3 -c 'import websockets' 2>/dev/null || need_apt+=(python3-websockets)
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
command -v openssl >/dev/null 2>&1 || need_apt+=(openssl)
[ -f "$(/usr/bin/python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])' 2>/dev/null)/Python.h" ] || need_apt+=(python3-dev)
command -v escript >/dev/null 2>&1 || need_apt+=(erlang-base erlang-crypto)
command -v gcc >/dev/null 2>&1 || need_apt+=(gcc)
command -v redis-server >/dev/null 2>&1 || need_apt+=(redis-server)

if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "install-test-tools: apt-get install ${need_apt[*]}"
    export DEBIAN_FRONTEND=noninteractive
    # Another apt run may hold the lock (unattended upgrades, a parallel build): wait for it, up to 10 minutes.
    apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null 2>&1 || true
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${need_apt[@]}" >/dev/null 2>&1 || echo "install-test-tools: apt-get failed for ${need_apt[*]}"
  else
    echo "install-test-tools: not root; missing ${need_apt[*]} (the tests that need them will be skipped)"
  fi
fi

if command -v npm >/dev/null 2>&1; then
  if [ ! -d "$ROOT/src/test/node/node_modules/ws" ] || [ ! -d "$ROOT/src/test/node/node_modules/bufferutil" ]; then
    echo "install-test-tools: npm install (ws, bufferutil) in src/test/node"
    (cd "$ROOT/src/test/node" && npm install --no-audit --no-fund --loglevel=error >/dev/null) \
      || echo "install-test-tools: npm install failed (the Node tests will be skipped)"
  fi
else
  echo "install-test-tools: no npm; the Node client tests will be skipped"
fi
exit 0
