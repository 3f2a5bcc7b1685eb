#!/usr/bin/env bash
# Installs what the interop tests drive, where this machine allows it:
#   Debian: python3-websockets (Python client), chromium (demo page in a real browser)
#   npm:    ws (Node client), into src/test/node
# Without root or a registry it says what is missing; the tests that need it then report
# themselves as skipped, by name. CI runs as root, so there nothing is skipped.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

need_apt=()
/usr/bin/python3 -c 'import websockets' 2>/dev/null || need_apt+=(python3-websockets)
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)

if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "install-test-tools: apt-get install ${need_apt[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null 2>&1 || true
    apt-get install -y -qq "${need_apt[@]}" >/dev/null 2>&1 || echo "install-test-tools: apt-get failed for ${need_apt[*]}"
  else
    echo "install-test-tools: not root; missing ${need_apt[*]} (the tests that need them will be skipped)"
  fi
fi

if command -v npm >/dev/null 2>&1; then
  if [ ! -d "$ROOT/src/test/node/node_modules/ws" ]; then
    echo "install-test-tools: npm install (ws) in src/test/node"
    (cd "$ROOT/src/test/node" && npm install --no-audit --no-fund --loglevel=error >/dev/null) \
      || echo "install-test-tools: npm install failed (the Node tests will be skipped)"
  fi
else
  echo "install-test-tools: no npm; the Node client tests will be skipped"
fi
exit 0
