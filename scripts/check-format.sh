#!/usr/bin/env bash
# Checks that C and C++ files follow .clang-format (LLVM style).
#   scripts/check-format.sh          every tracked file
#   scripts/check-format.sh BASE     the files changed since the commit BASE
# Prints each file that differs with the diff clang-format would apply, and
# exits 1 if there is one.
set -euo pipefail
cd "$(dirname "$0")/.."
CLANG_FORMAT=${CLANG_FORMAT:-$(command -v clang-format-22 || command -v clang-format || true)}
if [ -z "$CLANG_FORMAT" ]; then
  echo "check-format: clang-format-22 not found (apt-get install clang-format-22)" >&2
  exit 1
fi
if [ $# -gt 0 ]; then
  files=$(git diff --name-only --diff-filter=d "$1" -- '*.cpp' '*.h' '*.c')
else
  files=$(git ls-files '*.cpp' '*.h' '*.c')
fi
bad=0
for f in $files; do
  if ! "$CLANG_FORMAT" --style=file "$f" | diff -u "$f" - > /tmp/check-format.$$ 2>&1; then
    echo "check-format: $f is not formatted; run: $CLANG_FORMAT -i $f"
    head -40 /tmp/check-format.$$
    bad=1
  fi
done
rm -f /tmp/check-format.$$
[ $bad = 0 ] && echo "check-format: $(echo $files | wc -w) files formatted"
exit $bad
