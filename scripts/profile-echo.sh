#!/usr/bin/env bash
# Profiles the WSJava echo server with JFR under the C load client, as the echo bench measures it:
# server pinned to core 0, client to core 1, 16 connections, one message in flight on each.
#   scripts/profile-echo.sh SIZE [SECONDS] [OUT_DIR]
# Prints the client's line (msgs, server CPU over its window), the server's user and system CPU
# over the run, and the JfrSummary tables (hot methods, allocation sites); keeps the recording.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SIZE="${1:?usage: scripts/profile-echo.sh SIZE [SECONDS] [OUT_DIR]}"
SECONDS_MEASURED="${2:-15}"
OUT="${3:-$ROOT/target/profile}"
mkdir -p "$OUT"
JAR="$ROOT/bench/target/wsjava-bench.jar"
[ -f "$JAR" ] || { echo "profile-echo: build the bench first (./wsjava bench --help)" >&2; exit 1; }
CLIENT="$OUT/wsecho"
gcc -O2 -o "$CLIENT" "$ROOT/bench/c/wsecho.c"
RECORDING="$OUT/echo-$SIZE.jfr"
PORT=$((20000 + RANDOM % 20000))
taskset -c 0 java -Xms64m -Xmx1g -XX:+UseG1GC --add-modules jdk.incubator.vector \
  -XX:StartFlightRecording=settings=profile,filename="$RECORDING",dumponexit=true \
  -cp "$JAR" wsjava.cli.Main serve --allow-any-origin --max-connections 50000 --port "$PORT" >"$OUT/server.log" 2>&1 &
PID=$!
trap 'kill "$PID" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do grep -q "listening on" "$OUT/server.log" && break; sleep 0.1; done
read -r U0 S0 < <(awk '{print $14, $15}' "/proc/$PID/stat")
taskset -c 1 "$CLIENT" 127.0.0.1 "$PORT" 16 "$SIZE" 3 "$SECONDS_MEASURED" "$PID"
read -r U1 S1 < <(awk '{print $14, $15}' "/proc/$PID/stat")
echo "server CPU over the run: user $(( (U1 - U0) ))  system $(( (S1 - S0) )) (clock ticks)"
kill -TERM "$PID"
wait "$PID" 2>/dev/null || true
trap - EXIT
java -cp "$JAR" wsjava.bench.JfrSummary "$RECORDING" 20
echo "recording: $RECORDING"
