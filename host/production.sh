#!/bin/sh
# Makes DEST a directory that runs the host with `node host/dist/cli.js serve`: the built server,
# the built pages, and the host's runtime dependencies only (npm ci --omit=dev). The container
# image (Dockerfile) is this directory; test/host/production.test.ts starts it on PostgreSQL.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: host/production.sh DEST}
if [ ! -f "$root/host/app/dist/index.html" ]; then
  echo "host/production.sh: build the pages first (npm run build:app)" >&2
  exit 1
fi
node "$root/host/build.mjs"
rm -rf "$out"
mkdir -p "$out/host/app"
cp "$root/package.json" "$root/package-lock.json" "$out/"
cp "$root/host/package.json" "$out/host/"
(cd "$out" && npm ci --omit=dev --workspace host --no-audit --no-fund --prefer-offline --loglevel=error)
# The CJK font packages carry nine weights each (about 190 MB); sealed PDFs draw the regular one
# alone (host/server/pdf/text-font.ts), so the image keeps only that.
find "$out/node_modules/@expo-google-fonts" -name '*.ttf' ! -name '*_400Regular.ttf' -delete
cp -R "$root/host/dist" "$out/host/dist"
cp -R "$root/host/app/dist" "$out/host/app/dist"
