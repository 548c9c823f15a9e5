#!/usr/bin/env bash
# Rebuild the front-end from package-lock.json in a scratch copy and compare it, file by file,
# with the bundle committed in judge/web/static/. Exit 0 when identical.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cp "$here/package.json" "$here/package-lock.json" "$here/build.mjs" "$scratch/"
cp -r "$here/src" "$scratch/src"
(cd "$scratch" && npm ci --no-audit --no-fund --loglevel=error >/dev/null && node build.mjs "$scratch/out")
committed="$here/../judge/web/static"
(cd "$scratch/out" && find . -type f | sort | xargs sha256sum) > "$scratch/built.sha256"
(cd "$committed" && find . -type f | sort | xargs sha256sum) > "$scratch/committed.sha256"
if diff -u "$scratch/committed.sha256" "$scratch/built.sha256"; then
  echo "bundle reproducible: $(wc -l < "$scratch/built.sha256") files identical"
else
  echo "bundle differs from a rebuild from package-lock.json (run: cd web && npm ci && npm run build)" >&2
  exit 1
fi
