#!/bin/sh
# edit.sh DIR NAME SED: copies DIR/good.tgb to DIR/NAME.tgb, applies SED to
# its manifest, and runs tilegym-runner on it, which must fail; prints what
# it said. Used by malformed.test.
set -e
dir=$1 name=$2 script=$3
rm -rf "$dir/$name.tgb"
cp -r "$dir/good.tgb" "$dir/$name.tgb"
sed "$script" "$dir/good.tgb/manifest.json" >"$dir/$name.tgb/manifest.json"
if tilegym-runner "$dir/$name.tgb" --dry-run 2>&1; then
  echo "edit.sh: tilegym-runner accepted $name.tgb" >&2
  exit 1
fi
