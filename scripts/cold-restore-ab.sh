#!/usr/bin/env bash
# Cold restore, A/B: the time from reading a snapshot file to the restored graph in a fresh JVM
# (the benchmark child's "restore" mode, #d=1), for two builds of the project, interleaved sample
# by sample so that both see the same machine, and the peers JDK, Kryo and Fory timed the same way
# with build B's harness, so that every figure is also a ratio against them. The snapshots are
# captured once, by build B; with OWN_SNAPSHOTS=1 build A restores the codese snapshots it captured
# itself, so that the comparison covers changes to what capture writes, not only to loading.
#
# Usage: scripts/cold-restore-ab.sh A_CHECKOUT B_CHECKOUT
#   each checkout must have been built with: mvn -B -q install -DskipTests
# Environment: GRAPHS (comma-separated benchmark graph names), N (fresh JVMs per graph and build),
# OWN_SNAPSHOTS (1: each build restores its own codese snapshots; default 0: both restore B's).
# Prints one line per graph: median ms of A, of B, B/A, and each peer's median divided by B's
# (above 1: B restores faster). Run it on an otherwise idle machine.
set -euo pipefail
a=$(readlink -f "$1")
b=$(readlink -f "$2")
graphs=${GRAPHS:-rbt-1000,jdk-collections,cc4-collections,guava-collections,rbt-100000}
n=${N:-11}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

class_path() {
  local jars
  jars=$(find "$1/codese-benchmarks/target/lib" -name '*.jar' | sort | tr '\n' ':')
  echo "$1/codese-benchmarks/target/classes:$jars"
}
cp_a=$(class_path "$a")
cp_b=$(class_path "$b")

peers="jdk:ser kryo:kryo fory:fory"
java -Xmx8g -cp "$cp_b" org.codese.bench.Child capture "$graphs" "$work" 0 codese jdk kryo fory \
  >/dev/null
own=${OWN_SNAPSHOTS:-0}
if [[ $own == 1 ]]; then
  mkdir -p "$work/a"
  java -Xmx8g -cp "$cp_a" org.codese.bench.Child capture "$graphs" "$work/a" 0 codese >/dev/null
fi
for g in ${graphs//,/ }; do
  for ((i = 0; i < n; i++)); do
    for v in a b; do
      file="$work/$g.cdse"
      if [[ $v == a ]]; then cp=$cp_a; else cp=$cp_b; fi
      if [[ $v == a && $own == 1 ]]; then file="$work/a/$g.cdse"; fi
      ms=$(java -Xmx8g -cp "$cp" org.codese.bench.Child restore codese "$file" 1 |
        awk '/^@@ /{print $2}')
      echo "$g $v ${ms:-NaN}"
    done
    for pe in $peers; do
      file="$work/$g.${pe#*:}"
      [[ -f $file ]] || continue
      # a peer that cannot restore the graph counts as n/a
      ms=$(java -Xmx8g -cp "$cp_b" org.codese.bench.Child restore "${pe%%:*}" "$file" 1 \
        2>/dev/null | awk '/^@@ /{print $2}' || true)
      echo "$g ${pe%%:*} ${ms:-NaN}"
    done
  done
done >"$work/raw.txt"

median() {
  awk -v g="$1" -v v="$2" '$1==g && $2==v && $3!="NaN"{print $3}' "$work/raw.txt" | sort -g |
    awk '{v[NR]=$1} END{if (NR==0) print "NaN"; else print (NR%2)? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'
}
printf '%-20s %9s %9s %7s %9s %9s %9s\n' graph "A ms" "B ms" "B/A" "jdk/B" "kryo/B" "fory/B"
for g in ${graphs//,/ }; do
  ma=$(median "$g" a)
  mb=$(median "$g" b)
  row=$(printf '%-20s %9.1f %9.1f %7.3f' "$g" "$ma" "$mb" "$(echo "$mb / $ma" | bc -l)")
  for p in jdk kryo fory; do
    mp=$(median "$g" "$p")
    if [[ $mp == NaN ]]; then row+=$(printf ' %9s' n/a); else
      row+=$(printf ' %9.2f' "$(echo "$mp / $mb" | bc -l)"); fi
  done
  echo "$row"
done
