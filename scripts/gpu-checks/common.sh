# Sourced by the GPU checks: the runner of the tools kit (unpacked on first
# use: the kit ships it compressed), the GPU's name, and `t LABEL ARGS...`,
# which runs one tilegym-run check on the GPU (seeded by its number, under
# $TIMEOUT seconds), prints PASS or FAIL with the largest relative error,
# and counts them in $pass and $fail. Logs go to $OUT/logs/$LOG_PREFIX$n.log.
K=.gpukit/tools
[ -x $K/bin/tilegym-run ] || { python3 -c 'import lzma, sys; open(sys.argv[2], "wb").write(lzma.open(sys.argv[1]).read())' $K/bin/tilegym-run.xz $K/bin/tilegym-run && chmod +x $K/bin/tilegym-run; }
export LD_LIBRARY_PATH=$K/lib
run=$K/bin/tilegym-run
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
mkdir -p $OUT/logs
pass=0; fail=0; n=0
t() { # label args...
  local label=$1; shift; n=$((n+1))
  local log=$OUT/logs/${LOG_PREFIX:-}$n.log
  timeout ${TIMEOUT:-60} $run "$@" --backend=gpu --seed $n > $log 2>&1
  local rc=$?
  local rel=$(grep -o ' rel_err=[^ ]*' $log | cut -d= -f2 | sort -g | tail -1)
  if [ $rc = 0 ]; then pass=$((pass+1)); v=PASS; else fail=$((fail+1)); v="FAIL rc=$rc"; fi
  printf '%-64s %-10s %s\n' "$label" "$v" "${rel:--}"
  [ $rc = 0 ] || tail -2 $log | cut -c1-300
}
