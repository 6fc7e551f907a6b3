#!/usr/bin/env bash
# Vendors the report's plotting libraries (Vega, Vega-Lite, Vega-Embed) from the npm registry at the versions
# pinned in report/package.json and report/package-lock.json, into one file the report inlines.
# usage: scripts/vendor-js.sh OUT.js     (run by the build; needs npm and the registry once, then it is cached)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$1
work=$(dirname "$out")/npm
mkdir -p "$work"
cp "$root/report/package.json" "$root/report/package-lock.json" "$work/"
(cd "$work" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
tmp="$out.tmp"
: >"$tmp"
for f in vega/build/vega.min.js vega-lite/build/vega-lite.min.js vega-embed/build/vega-embed.min.js; do
  # The source-map comments would make a browser's developer tools fetch files: the page loads nothing.
  sed '/sourceMappingURL=/d' "$work/node_modules/$f" >>"$tmp"
  printf '\n' >>"$tmp"
done
mv "$tmp" "$out"
