#!/bin/sh
# A stand-in for ptxas -v whose spills follow a script: each call reports,
# for every entry of the PTX, the spill bytes on the first line of
# $SPILLS_FILE and drops that line (0 once the file is empty).
out=
ptx=
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out=$2; shift ;;
    -arch=*|-v) ;;
    *) ptx=$1 ;;
  esac
  shift
done
spills=$(head -n 1 "$SPILLS_FILE")
[ -n "$spills" ] || spills=0
tail -n +2 "$SPILLS_FILE" > "$SPILLS_FILE.rest" && mv "$SPILLS_FILE.rest" "$SPILLS_FILE"
for k in $(sed -n 's/^\.visible \.entry \([A-Za-z_0-9]*\)(.*/\1/p' "$ptx"); do
  echo "ptxas info    : Compiling entry function '$k' for 'sm_90a'" >&2
  echo "ptxas info    : Function properties for $k" >&2
  echo "    0 bytes stack frame, $spills bytes spill stores, $spills bytes spill loads" >&2
  echo "ptxas info    : Used 128 registers, used 1 barriers, 384 bytes cmem[0]" >&2
done
: > "$out"
