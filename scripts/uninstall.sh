#!/usr/bin/env bash
# Removes what `make install` (cmake --install) installed: the files listed in the build's install_manifest.txt,
# then schedlab's own directories that became empty.
# usage: scripts/uninstall.sh [MANIFEST]   (default build/install_manifest.txt)
set -euo pipefail
manifest=${1:-build/install_manifest.txt}
if [ ! -f "$manifest" ]; then
  echo "uninstall: $manifest is absent: it is written by make install (cmake --install), so nothing is recorded" >&2
  exit 1
fi
removed=0
while IFS= read -r f || [ -n "$f" ]; do  # the manifest's last line has no newline
  [ -n "$f" ] || continue
  if [ -e "$f" ] || [ -L "$f" ]; then
    rm -f -- "$f"
    removed=$((removed + 1))
  fi
done <"$manifest"
# The directories of schedlab's own (share/schedlab, include/schedlab/..., lib/cmake/schedlab, the Python package)
# that became empty, deepest first; never a directory shared with other software (/usr/local/include stays even
# when empty).
while IFS= read -r d; do
  rmdir --ignore-fail-on-non-empty -- "$d" 2>/dev/null || true
done < <(sed 's|/[^/]*$||' "$manifest" | awk '{
    d = $0
    while (d ~ /\/schedlab(\/|$)/) { print length(d) "\t" d; sub(/\/[^\/]*$/, "", d) }
  }' | sort -u -t$'\t' -k1,1nr -k2 | cut -f2-)
echo "uninstall: removed $removed of the $(grep -c . "$manifest") files listed in $manifest"
