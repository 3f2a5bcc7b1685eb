#!/usr/bin/env bash
# Maven as the launcher and scripts run it: batch mode (no progress lines, no prompts) and no colour.
# jansi.noreset: Maven 3.8's jansi writes ESC[0m on each stream even in batch mode with colour off;
# it is a JVM property read before Maven's own options, so it goes through MAVEN_OPTS.
set -euo pipefail
export MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }-Djansi.noreset=true"
exec mvn -B -Dstyle.color=never "$@"
