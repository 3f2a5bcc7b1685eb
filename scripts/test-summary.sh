#!/usr/bin/env bash
# One closing line for the whole test command: the totals of every Surefire report given, over
# both Maven modules (each module's own summary only counts its own tests).
set -euo pipefail
run=0; failed=0; errors=0; skipped=0
for dir in "$@"; do
  for report in "$dir"/*.txt; do
    [ -f "$report" ] || continue
    line=$(grep -m1 -E '^Tests run: [0-9]+' "$report") || continue
    read -r r f e s < <(echo "$line" | sed -E 's/Tests run: ([0-9]+), Failures: ([0-9]+), Errors: ([0-9]+), Skipped: ([0-9]+).*/\1 \2 \3 \4/')
    run=$((run + r)); failed=$((failed + f)); errors=$((errors + e)); skipped=$((skipped + s))
  done
done
echo
echo "tests: $((run - failed - errors - skipped)) passed, $((failed + errors)) failed, $skipped skipped"
[ $((failed + errors)) -eq 0 ]
