#!/usr/bin/env bash
# Cold restore, A/B: the time from reading a snapshot file to the restored graph in a fresh JVM
# (the benchmark child's "restore" mode, #d=1), for two builds of the project, interleaved sample
# by sample so that both see the same machine. The snapshots are captured once, by build B.
#
# Usage: scripts/cold-restore-ab.sh A_CHECKOUT B_CHECKOUT
#   each checkout must have been built with: mvn -B -q install -DskipTests
# Environment: GRAPHS (comma-separated benchmark graph names), N (fresh JVMs per graph and build).
# Prints one line per graph: median ms of A, of B, and B/A. Run it on an otherwise idle machine.
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

java -Xmx8g -cp "$cp_b" org.codese.bench.Child capture "$graphs" "$work" 0 codese >/dev/null
for g in ${graphs//,/ }; do
  for ((i = 0; i < n; i++)); do
    for v in a b; do
      if [[ $v == a ]]; then cp=$cp_a; else cp=$cp_b; fi
      ms=$(java -Xmx8g -cp "$cp" org.codese.bench.Child restore codese "$work/$g.cdse" 1 |
        awk '/^@@ /{print $2}')
      echo "$g $v ${ms:-NaN}"
    done
  done
done >"$work/raw.txt"

printf '%-20s %10s %10s %8s\n' graph "A ms" "B ms" "B/A"
for g in ${graphs//,/ }; do
  ma=$(awk -v g="$g" '$1==g && $2=="a"{print $3}' "$work/raw.txt" | sort -g |
    awk '{v[NR]=$1} END{print (NR%2)? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}')
  mb=$(awk -v g="$g" '$1==g && $2=="b"{print $3}' "$work/raw.txt" | sort -g |
    awk '{v[NR]=$1} END{print (NR%2)? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}')
  printf '%-20s %10.1f %10.1f %8.3f\n' "$g" "$ma" "$mb" "$(echo "$mb / $ma" | bc -l)"
done
