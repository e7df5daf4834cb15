#!/usr/bin/env bash
# Configure (once), build everything, run the whole lit suite through ctest.
# The last line is ctest's summary ("100% tests passed, 0 tests failed out of N").
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/configure.sh
ninja -C "$BUILD" -j"${JOBS:-2}"
cd "$BUILD" && ctest --output-on-failure --no-tests=error
