#!/usr/bin/env bash
# The paper's Figure 5 columns for the red-black tree: cumulative restore time of #d=1 and #d=10
# restores, Codese vs JDK deserialization, each sample in a fresh JVM, median of RUNS samples
# (Codese and JDK samples alternate). Sizes of both files. Needs the demo jar (README command 1).
# Usage: scripts/rbt-figures.sh [RUNS] [SIZES...]   (defaults: 5; 1000 100000 1000000)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
shift || true
sizes=("${@:-1000 100000 1000000}")
jar=codese-demo/target/codese-demo.jar
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
java_cmd=(java -Xmx6g -cp "$jar" org.codese.demo.RbtTimes)
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
echo "$(java -version 2>&1 | head -1); $runs fresh JVMs per cell; times in ms (median [min-max])"
printf '%-12s %-4s %-24s %-24s %s\n' graph '#d' Codese JDK JDK/Codese
for n in ${sizes[*]}; do
  read -r csize jsize < <("${java_cmd[@]}" prepare "$n" "$dir")
  for d in 1 10; do
    c=(); j=()
    for ((r = 0; r < runs; r++)); do
      c+=("$("${java_cmd[@]}" codese "$n" "$dir" "$d")")
      j+=("$("${java_cmd[@]}" jdk "$n" "$dir" "$d")")
    done
    cm=$(printf '%s\n' "${c[@]}" | median); jm=$(printf '%s\n' "${j[@]}" | median)
    crange=$(printf '%s\n' "${c[@]}" | sort -g | sed -n '1p;$p' | paste -sd-)
    jrange=$(printf '%s\n' "${j[@]}" | sort -g | sed -n '1p;$p' | paste -sd-)
    printf '%-12s %-4s %-24s %-24s %.2f\n' "RBT $n" "$d" "$cm [$crange]" "$jm [$jrange]" \
      "$(echo "$jm / $cm" | bc -l)"
  done
  printf '%-12s size: Codese %s B, JDK %s B (%.2fx)\n' "RBT $n" "$csize" "$jsize" \
    "$(echo "$csize / $jsize" | bc -l)"
done
