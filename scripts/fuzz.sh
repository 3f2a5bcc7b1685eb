#!/usr/bin/env bash
# Fuzzes every parser for real with Jazzer's command line: ./wsjava fuzz [seconds-per-target] [runs-per-target] [target]
# Each target starts from its committed corpus (src/test/resources/.../<Test>Inputs/<method>/, which
# mvn test replays) and grows a working corpus under target/fuzz/. A crash is copied into the
# committed corpus so that mvn test replays it from then on; the run then fails.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_PER_TARGET="${1:-60}"
RUNS="${2:-0}"      # 0: no execution limit, only the time limit
TARGETS=(FrameStreamFuzzTest:frameStream HttpRequestFuzzTest:requestHead CloseFrameFuzzTest:closePayload ExtensionHeaderFuzzTest:extensionHeader CompressedMessageFuzzTest:compressedStream)
ONLY="${3:-}"       # a target's class name, to fuzz just that one

cd "$ROOT"
"$ROOT/scripts/maven.sh" -q test-compile dependency:build-classpath -Dmdep.outputFile=target/fuzz-classpath.txt -Dmdep.includeScope=test >&2
CP="target/test-classes:target/classes:$(cat target/fuzz-classpath.txt)"
mkdir -p target/fuzz
status=0
for entry in "${TARGETS[@]}"; do
  cls="${entry%%:*}"; method="${entry##*:}"
  [ -n "$ONLY" ] && [ "$ONLY" != "$cls" ] && continue
  seeds="src/test/resources/wsjava/protocol/${cls}Inputs/${method}"
  work="target/fuzz/${cls}"
  mkdir -p "$work/corpus" "$work/findings"
  log="$work/fuzz.log"
  echo "fuzzing $cls for up to ${SECONDS_PER_TARGET}s$( [ "$RUNS" != 0 ] && echo " or $RUNS runs"); log: $log" >&2
  set +e
  java -Xmx1g -cp "$CP" com.code_intelligence.jazzer.Jazzer \
    --target_class="wsjava.protocol.$cls" --instrumentation_includes='wsjava.**' \
    -max_total_time="$SECONDS_PER_TARGET" -runs="${RUNS/#0/-1}" -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$work/findings/" "$work/corpus" "$seeds" >"$log" 2>&1
  rc=$?
  set -e
  execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
  rate=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1)
  printf '%-22s executions %12s  %8s/s  %-10s exit %s\n' "$cls" "${execs:-?}" "${rate:-?}" "${cov:-}" "$rc"
  if [ "$rc" -ne 0 ] && grep -q 'libFuzzer: fuzz target exited' "$log"; then
    # The JVM was stopped (Ctrl-C, kill): libFuzzer saves the input it was on, which is no finding.
    echo "  $cls was interrupted; nothing kept" >&2
    rm -f "$work"/findings/crash-*
    status=1
  elif [ "$rc" -ne 0 ]; then
    status=1
    for crash in "$work"/findings/*; do
      [ -f "$crash" ] && cp "$crash" "$seeds/" && echo "  finding kept for regression: $seeds/$(basename "$crash")" >&2
    done
    tail -40 "$log" >&2
  fi
done
exit $status
