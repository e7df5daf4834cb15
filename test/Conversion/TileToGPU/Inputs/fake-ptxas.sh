#!/bin/sh
# A stand-in for ptxas -v: reports resources for every entry of the PTX (as
# CUDA 13's ptxas words them) and writes the -o file. The spills are 8 bytes
# stored and 12 loaded, or, when $SPILLS_FILE is set, follow a script: each
# call reports the bytes on that file's first line (stored and loaded) and
# drops the line (0 once the file is empty).
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
stores=8
loads=12
if [ -n "${SPILLS_FILE:-}" ]; then
  stores=$(head -n 1 "$SPILLS_FILE")
  [ -n "$stores" ] || stores=0
  loads=$stores
  tail -n +2 "$SPILLS_FILE" > "$SPILLS_FILE.rest" && mv "$SPILLS_FILE.rest" "$SPILLS_FILE"
fi
for k in $(sed -n 's/^\.visible \.entry \([A-Za-z_0-9]*\)(.*/\1/p' "$ptx"); do
  echo "ptxas info    : Compiling entry function '$k' for 'sm_90a'" >&2
  echo "ptxas info    : Function properties for $k" >&2
  echo "    0 bytes stack frame, $stores bytes spill stores, $loads bytes spill loads" >&2
  echo "ptxas info    : Used 168 registers, used 1 barriers, 384 bytes cmem[0]" >&2
done
: > "$out"
