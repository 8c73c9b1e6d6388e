#!/usr/bin/env bash
# Prints the test executables (tests_<folder>) a ctest label filter would run, so a stage builds
# only those: scripts/test-targets.sh -L|-LE REGEX. A folder's labels are its name and the lines
# of its LABELS file (the same rule as tests/CMakeLists.txt). -L: folders with a label matching
# REGEX (anchored, like ctest's whole-label use here); -LE: folders with none.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:?usage: $0 -L|-LE REGEX}; regex=${2:?usage: $0 -L|-LE REGEX}
[[ "$mode" == -L || "$mode" == -LE ]] || { echo "usage: $0 -L|-LE REGEX" >&2; exit 2; }
for dir in tests/*/; do
  name=$(basename "$dir")
  [[ "$name" == support ]] && continue
  compgen -G "$dir*.cpp" >/dev/null || continue
  labels=("$name")
  [[ -f "$dir/LABELS" ]] && mapfile -t -O 1 labels < "$dir/LABELS"
  hit=0 partial=0
  for l in "${labels[@]}"; do
    [[ -n "$l" && "$l" =~ ^($regex)$ ]] && hit=1
    [[ -n "$l" && "$l" =~ ($regex) ]] && partial=1
  done
  # ctest's -L/-LE match inside a label: a folder whose name only contains a word of REGEX
  # ("house_inband") would be left out of both stages. It must carry the label itself (LABELS).
  if (( partial != hit )); then
    echo "$0: tests/$name: a label contains a word of '$regex' without being one; add that label to tests/$name/LABELS" >&2
    exit 1
  fi
  if [[ "$mode" == -L && $hit == 1 ]] || [[ "$mode" == -LE && $hit == 0 ]]; then echo "tests_$name"; fi
done
