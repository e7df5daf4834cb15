#!/usr/bin/env bash
# differential.sh DIR [cpu|gpu]: runs the kernels scripts/random-kernels.py
# wrote into DIR (DIR/cases.txt) and prints one line per kernel, then
# "N passed, N failed".
#   cpu (default): each kernel compiles to PTX for sm_80 and sm_90a (a limit
#                  the backend states, exit 1 with a diagnostic, counts as
#                  refused, not failed; a crash or any other exit fails), and
#                  runs on the CPU JIT against its own float64 version (--ref
#                  the same file);
#   gpu:           each kernel runs on the GPU against the CPU JIT of the same
#                  kernel on the same inputs (--compare=cpu); one the GPU
#                  backend refuses with a diagnostic counts as refused.
# Tools come from $TILEGYM_BIN (default: build/bin, else PATH). Logs go to
# DIR/logs/. Exit code 0 only if nothing failed.
set -uo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 DIR [cpu|gpu]" >&2
  exit 2
fi
dir=$1 mode=${2:-cpu}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${TILEGYM_BIN:-$here/build/bin}
[ -x "$bin/tilegym-run" ] || bin=$(dirname "$(command -v tilegym-run)")
mkdir -p "$dir/logs"
pass=0 fail=0 refused=0
verdict() { # name what rc log
  case $3 in
    0) return 0 ;;
    1) if grep -q 'error:' "$4"; then return 1; fi ;;
  esac
  echo "$1: $2 exited $3 (crash or unexplained failure)"
  tail -5 "$4" | sed 's/^/    | /'
  return 2
}
while IFS='|' read -r file args; do
  name=${file%.tile}
  status=PASS
  if [ "$mode" = cpu ]; then
    for chip in sm_80 sm_90a; do
      log="$dir/logs/$name.$chip.log"
      timeout 120 "$bin/tilegym-cc" "$dir/$file" --target=$chip --emit=ptx \
        -o /dev/null >"$log" 2>&1
      verdict "$name" "tilegym-cc --target=$chip" $? "$log"
      case $? in
        1) status=REFUSED; echo "$name: $chip refused: $(grep -m1 error: "$log")" ;;
        2) status=FAIL ;;
      esac
    done
    check=(--backend=cpu --ref "$dir/$file")
  else
    check=(--backend=gpu --compare=cpu)
  fi
  log="$dir/logs/$name.$mode.log"
  # shellcheck disable=SC2086
  timeout 300 "$bin/tilegym-run" "$dir/$file" "${check[@]}" --seed 1 $args \
    >"$log" 2>&1
  rc=$?
  if [ $rc -eq 1 ] && [ "$mode" = gpu ] && ! grep -q '^verdict:' "$log" &&
      grep -q 'error:' "$log"; then
    # The GPU backend refused it before anything ran: a stated limit.
    status=REFUSED
    echo "$name: refused: $(grep -m1 error: "$log")"
  elif [ $rc -ne 0 ]; then
    status=FAIL
    tail -6 "$log" | sed 's/^/    | /'
  fi
  rel=$(grep -o ' rel_err=[^ ]*' "$log" | cut -d= -f2 | sort -g | tail -1)
  printf '%-16s %-8s %-10s %s\n' "$name" "$mode" "$status" "${rel:--}"
  case $status in
    PASS) pass=$((pass + 1)) ;;
    REFUSED) refused=$((refused + 1)) ;;
    *) fail=$((fail + 1)) ;;
  esac
done <"$dir/cases.txt"
echo "refused by a stated limit: $refused"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
