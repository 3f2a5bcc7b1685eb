#!/usr/bin/env bash
# ./wsjava release [maven options]: builds the release into dist/, the same way here and in CI
# (.github/workflows/release.yml runs this after the tests, on a version tag):
#   WSJava-<v>.paclet                 what PacletInstall takes (its Java/ holds the jar beside it)
#   wsjava-<v>.jar, -sources, -javadoc            the library
#   wsjava-redis-<v>.jar, -sources, -javadoc      the Redis fan-out module
#   SHA256SUMS
# It needs no network once Maven's cache has the build's plugins (`./wsjava release -o` to be sure).
# The jars and the paclet are reproducible: their entries carry the POM's
# project.build.outputTimestamp, so two builds of one commit give the same SHA256SUMS.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MAVEN="$ROOT/scripts/maven.sh"
DIST="$ROOT/dist"

# The project's version, from the POM (the first <version> at the project's own level).
VERSION="$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' "$ROOT/pom.xml" | head -n 1)"
[ -n "$VERSION" ] || { echo "wsjava release: no <version> in pom.xml" >&2; exit 1; }

# Maven's output goes to a log outside target/ (clean deletes target/), kept there when a build fails.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
run() {
  local what=$1 dir=$2; shift 2
  echo "wsjava release: building the $what..." >&2
  if ! (cd "$dir" && "$MAVEN" "$@") >"$work/$what.log" 2>&1; then
    mkdir -p "$ROOT/target"
    cp "$work/$what.log" "$ROOT/target/release-$what.log"
    echo "wsjava release: building the $what failed; see target/release-$what.log" >&2
    exit 1
  fi
}

# From clean: nothing left over from an older build reaches a release. The tests are not run here
# (./wsjava test runs them; the workflow runs it first). The library is installed into the local
# Maven repository, where the Redis module's build takes it from.
# Every release carries the FFM transport (META-INF/versions/22), compiled by a JDK 22 or later's
# javac: the launcher passes the newest it found (WSJAVA_JDK22), and a release without one stops here.
JDK22="${WSJAVA_JDK22:-}"
if [ -z "$JDK22" ] || [ ! -x "$JDK22/bin/javac" ]; then
  echo "wsjava release: needs a JDK 22 or later for the FFM transport; none under /usr/lib/jvm (WSJAVA_JDK22 names one)" >&2
  exit 1
fi
run library "$ROOT" clean install -Dmaven.test.skip=true -Dwsjava.jdk22="$JDK22" "$@"
run redis "$ROOT/redis" clean package -Dmaven.test.skip=true "$@"

rm -rf "$DIST"
mkdir -p "$DIST"
cp "$ROOT/target/WSJava-$VERSION.paclet" \
   "$ROOT/target/wsjava-$VERSION.jar" "$ROOT/target/wsjava-$VERSION-sources.jar" "$ROOT/target/wsjava-$VERSION-javadoc.jar" \
   "$ROOT/redis/target/wsjava-redis-$VERSION.jar" "$ROOT/redis/target/wsjava-redis-$VERSION-sources.jar" \
   "$ROOT/redis/target/wsjava-redis-$VERSION-javadoc.jar" \
   "$DIST/"

entries="$(unzip -Z1 "$DIST/wsjava-$VERSION.jar")"      # whole, not piped to grep -q: pipefail would see unzip's SIGPIPE
if ! grep -qx 'META-INF/versions/22/wsjava/server/FfmProvider.class' <<<"$entries"; then
  echo "wsjava release: the jar has no FFM transport (META-INF/versions/22)" >&2
  exit 1
fi
sources="$(unzip -Z1 "$DIST/wsjava-$VERSION-sources.jar")"
if ! grep -qx 'META-INF/versions/22/wsjava/server/FfmProvider.java' <<<"$sources"; then
  echo "wsjava release: the sources jar has no sources of the FFM transport (META-INF/versions/22)" >&2
  exit 1
fi

# The paclet holds the very jar shipped beside it, and says the POM's version.
check="$work/check"
mkdir -p "$check"
(cd "$check" && jar xf "$DIST/WSJava-$VERSION.paclet" WSJava/PacletInfo.wl "WSJava/Java/wsjava-$VERSION.jar")
if ! cmp -s "$check/WSJava/Java/wsjava-$VERSION.jar" "$DIST/wsjava-$VERSION.jar"; then
  echo "wsjava release: the paclet's Java/wsjava-$VERSION.jar is not the jar in dist/" >&2
  exit 1
fi
if ! grep -q "\"Version\" -> \"$VERSION\"" "$check/WSJava/PacletInfo.wl"; then
  echo "wsjava release: the paclet's PacletInfo.wl does not say \"Version\" -> \"$VERSION\"" >&2
  exit 1
fi

(cd "$DIST" && sha256sum -- *.paclet *.jar >SHA256SUMS)
echo "wsjava release: wrote $DIST" >&2
(cd "$DIST" && ls -l -- *.paclet *.jar SHA256SUMS | awk '{printf "  %-40s %9d bytes\n", $NF, $5}')
