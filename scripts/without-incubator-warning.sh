#!/usr/bin/env bash
# Runs a command (a JVM) with its stderr passed through except for one line: the warning every JVM
# started with --add-modules jdk.incubator.vector prints, which tells a user of ./wsjava nothing they
# can act on (the SIMD masking kernel is chosen at run time; see wsjava.mask.MaskKernels).
# exec keeps the process id and the exit code the command's own (a SIGTERM reaches the JVM). The
# filter ignores SIGINT and SIGTERM so that, on Ctrl-C, it still passes on what the JVM prints while
# it stops; it ends when the JVM closes its stderr.
set -euo pipefail
WARNING='WARNING: Using incubator modules: jdk.incubator.vector'
exec "$@" 2> >(trap '' INT TERM; grep --line-buffered -v -x -F "$WARNING" >&2 || true)
