#!/usr/bin/env bash
# What idle connections cost a running ./wsjava serve: scripts/idle-memory.sh [connections] [port]
# Starts the server through the launcher (its JVM flags; WSJAVA_JAVA_OPTS adds more), reads its RSS
# and its live heap after a full GC (jcmd GC.run, then GC.heap_info) at rest, holds the connections
# (scripts/IdleHold.java with the benchmarks' client), waits for the RSS to settle (the JIT's
# compilations after the burst of handshakes use tens of MiB of native arenas for a while, which the
# launcher's native trim every 5 s, on JDKs that have it, gives back), reads both again and prints
# them per connection, with the highest RSS seen while it settled.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
COUNT="${1:-2000}"
PORT="${2:-20599}"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
BENCH_JAR="$ROOT/bench/target/wsjava-bench.jar"
[ -f "$BENCH_JAR" ] || { echo "idle-memory: $BENCH_JAR is missing (./wsjava bench builds it)" >&2; exit 2; }
ulimit -n $((COUNT + 1000)) 2>/dev/null || ulimit -n "$(ulimit -Hn)"
work="$(mktemp -d)"
server=""
# A failure part-way must not leave the server holding the port.
trap '[ -z "$server" ] || kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

"$ROOT/wsjava" serve --port "$PORT" >"$work/serve.out" 2>&1 &
server=$!
for _ in $(seq 300); do grep -q listening "$work/serve.out" && break; sleep 0.1; done
grep -q listening "$work/serve.out" || { cat "$work/serve.out" >&2; exit 1; }
sleep 1
# jcmd of the JDK the server runs on (the launcher may choose a newer one than this shell's java).
JCMD="$(dirname "$(readlink -f "/proc/$server/exe")")/jcmd"
grep '^running on' "$work/serve.out" || true

rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$server/status"; }
# The used heap after a full collection, in KiB, summed over the generations (G1 reports one heap).
# Their lines say "total NK, used NK" ("def new generation" on JDK 17, "DefNew" on JDK 25; G1 on
# JDK 25 says "total reserved NK, committed NK, used NK"); the spaces inside them say "N% used",
# and Metaspace has no total.
heap_kib() {
  "$JCMD" "$server" GC.run >/dev/null
  local info used
  info=$("$JCMD" "$server" GC.heap_info)
  used=$(grep -oE 'total (reserved )?[0-9]+K, (committed [0-9]+K, )?used [0-9]+K' <<<"$info" | grep -oE 'used [0-9]+K' | tr -dc '0-9\n' | paste -sd+ | bc)
  [ -n "$used" ] || { printf 'idle-memory: no heap figures in jcmd GC.heap_info:\n%s\n' "$info" >&2; exit 1; }
  echo "$used"
}

rss_rest=$(rss_kib); heap_rest=$(heap_kib)
mkfifo "$work/hold"
"$JAVA" -cp "$BENCH_JAR" "$ROOT/scripts/IdleHold.java" "$PORT" "$COUNT" <"$work/hold" >"$work/hold.out" 2>&1 &
holder=$!
exec 3>"$work/hold"
until grep -q held "$work/hold.out" 2>/dev/null; do
  kill -0 "$holder" 2>/dev/null || { cat "$work/hold.out" >&2; exit 1; }
  sleep 0.2
done
# Settled: none of the last 10 samples, a second apart, more than 1% below the highest of them (at most 90 s).
samples=()
peak=0
settled=""
for second in $(seq 90); do
  sleep 1
  now=$(rss_kib)
  [ "$now" -gt "$peak" ] && peak=$now
  samples+=("$now")
  [ "${#samples[@]}" -gt 10 ] && samples=("${samples[@]:1}")
  if [ "${#samples[@]}" -eq 10 ]; then
    high=$(printf '%s\n' "${samples[@]}" | sort -n | tail -1)
    low=$(printf '%s\n' "${samples[@]}" | sort -n | head -1)
    if [ $(( (high - low) * 100 )) -le "$high" ]; then settled=yes; break; fi
  fi
done
rss_held=$now; heap_held=$(heap_kib)
if [ -n "$settled" ]; then
  settling="settled ${second} s after the last opened"
else
  settling="NOT settled within ${second} s, the last sample"
  echo "idle-memory: the RSS did not settle within ${second} s" >&2
fi
exec 3>&-
wait "$holder" || true
kill "$server"; wait "$server" 2>/dev/null || true
server=""

echo "$(cat "$work/hold.out") idle connections"
echo "RSS: ${rss_rest} KiB at rest, ${rss_held} KiB holding them ($(( (rss_held - rss_rest) * 1024 / COUNT )) bytes per connection), ${settling} (at most ${peak} KiB while settling)"
echo "live heap after a full GC: ${heap_rest} KiB at rest, ${heap_held} KiB holding them ($(( (heap_held - heap_rest) * 1024 / COUNT )) bytes per connection)"
