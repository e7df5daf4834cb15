#!/bin/sh
# A stand-in for ptxas -v: reports resources for every entry of the PTX (as
# CUDA 13's ptxas words them) and writes the -o file.
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
for k in $(sed -n 's/^\.visible \.entry \([A-Za-z_0-9]*\)(.*/\1/p' "$ptx"); do
  echo "ptxas info    : Compiling entry function '$k' for 'sm_90a'" >&2
  echo "ptxas info    : Function properties for $k" >&2
  echo "    0 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads" >&2
  echo "ptxas info    : Used 168 registers, used 1 barriers, 384 bytes cmem[0]" >&2
done
: > "$out"
