#!/usr/bin/env bash
# Runs issue 15's structure-aware fuzzer without Jazzer (org.codese.fuzz.StructureCampaign): builds
# the test classes, then starts a supervised campaign in a JVM with the flags the harness needs,
# with user.home pointed at a fresh temporary directory (the file canary watches it).
#
# Usage: scripts/fuzz-structure.sh [StructureCampaign options]
#   e.g. scripts/fuzz-structure.sh --seed 1 --runs 1000000 --out target/structure-fuzz-jdk17
# Environment: JAVA (the java to fuzz with; default $JAVA_HOME/bin/java or java), FUZZ_CPUS
# (a taskset CPU list for the fuzzing JVM, e.g. 1), MVN_FLAGS (extra Maven flags, e.g. -o).
# The build uses the JDK Maven runs on; on JDK 25 export
# MAVEN_OPTS=--sun-misc-unsafe-memory-access=allow for Maven itself.
set -euo pipefail
cd "$(dirname "$0")/.."
java=${JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/}java}
cpfile=codese-core/target/structure-fuzz-classpath.txt
# shellcheck disable=SC2086
mvn -B -q ${MVN_FLAGS:-} -pl codese-core -am test-compile -DskipTests
# shellcheck disable=SC2086
mvn -B -q ${MVN_FLAGS:-} -pl codese-core dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$PWD/$cpfile" >/dev/null
# the campaign runs from a copy of the classes, so rebuilding while it runs is safe
classes=$(mktemp -d -t codese-fuzz-classes.XXXXXX)
cp -r codese-core/target/test-classes "$classes/test-classes"
cp -r codese-core/target/classes "$classes/classes"
cp -r codese-samples/target/classes "$classes/samples"
cp="$classes/test-classes:$classes/classes:$classes/samples:$(cat "$cpfile")"
feature=$("$java" -XshowSettings:properties -version 2>&1 \
  | sed -n 's/^ *java.specification.version = //p')
# the default thread stack size, as callers have; full stack traces (findings are told apart by them)
flags=(-Xmx3g -XX:-OmitStackTraceInFastThrow)
if [ "${feature%%.*}" -ge 24 ]; then
  flags+=(--sun-misc-unsafe-memory-access=allow) # the canaries read and repair with sun.misc.Unsafe
fi
home=$(mktemp -d -t codese-fuzz-home.XXXXXX)
trap 'rm -rf "$home" "$classes"' EXIT
run=("$java" "${flags[@]}" -Duser.home="$home" -cp "$cp" org.codese.fuzz.StructureCampaign)
if [ -n "${FUZZ_CPUS:-}" ]; then
  run=(taskset -c "$FUZZ_CPUS" "${run[@]}")
fi
if [[ " $* " == *" --replay "* || " $* " == *" --minimize "* || " $* " == *" --write-corpus "* ]]
then
  "${run[@]}" "$@"
else
  "${run[@]}" --supervise "$@"
fi
