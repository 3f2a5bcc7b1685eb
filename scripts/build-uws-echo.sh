#!/usr/bin/env bash
# Builds bench/uws/uws_echo.cpp against a uWebSockets checkout that holds uSockets (its
# submodule): scripts/build-uws-echo.sh UWS_DIR OUT. -O3, no TLS (LIBUS_NO_SSL), no zlib
# (UWS_NO_ZLIB), epoll. Prints nothing on success.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
UWS="$1"
OUT="$2"
[ -f "$UWS/src/App.h" ] || { echo "build-uws-echo: no uWebSockets in $UWS (src/App.h)" >&2; exit 1; }
[ -f "$UWS/uSockets/src/libusockets.h" ] || { echo "build-uws-echo: no uSockets in $UWS/uSockets" >&2; exit 1; }
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
for c in "$UWS"/uSockets/src/*.c "$UWS"/uSockets/src/eventing/epoll_kqueue.c; do
  gcc -O3 -DLIBUS_NO_SSL -I"$UWS/uSockets/src" -c "$c" -o "$WORK/$(basename "$c" .c).o"
done
g++ -O3 -std=c++20 -DLIBUS_NO_SSL -DUWS_NO_ZLIB -I"$UWS/src" -I"$UWS/uSockets/src" \
  "$ROOT/bench/uws/uws_echo.cpp" "$WORK"/*.o -o "$OUT"
