#!/usr/bin/env bash
# The new-user trial of docs/packaging.md: build and pack the six packages, install the tarballs
# in a fresh app outside the repository (express, fastify and the dev tools come from the npm
# registry), then run that app's checks. Usage: scripts/packed-trial.sh [folder] (default: a new
# temporary folder). Takes a few minutes: better-sqlite3 compiles when no prebuilt binary fits.
set -euo pipefail
repository="$(cd "$(dirname "$0")/.." && pwd)"
trial="${1:-$(mktemp -d /tmp/mailpulse-trial.XXXXXX)}"
mkdir -p "$trial/tarballs"

echo "== build and pack (in $trial/tarballs)"
cd "$repository"
npm run build >/dev/null
npm pack --silent --pack-destination "$trial/tarballs" -w @mailpulse/core -w @mailpulse/storage-sqlite \
  -w @mailpulse/storage-postgres -w @mailpulse/adapter-express -w @mailpulse/adapter-fastify \
  -w @mailpulse/testing

echo "== a fresh app (in $trial/app)"
rm -rf "$trial/app"
cp -r "$repository/scripts/packed-trial" "$trial/app"
# This machine cannot download better-sqlite3's prebuilt binaries; see docs/packaging.md.
cp "$repository/.prebuild-installrc" "$trial/app/"
cd "$trial/app"
tarballs=("$trial"/tarballs/mailpulse-*.tgz)
npm install --no-audit --no-fund "${tarballs[@]}" express@5 fastify@5
npm install --no-audit --no-fund -D vitest@4 typescript@5.9 @types/express@5 @types/node@20 tsx@4

echo "== strict tsc, nodenext"
npx tsc -p tsconfig.json
echo "== strict tsc, node10"
npx tsc -p tsconfig.node10.json
echo "== the testing.md recipe, with neither smtp-server nor mailparser installed"
test ! -e node_modules/smtp-server && test ! -e node_modules/mailparser
npx vitest run
echo "== Express host: its own /api routes and express.json() beside MailPulse"
npx tsx src/express-app.ts
echo "== Fastify host: MailPulse logs through app.log"
npx tsx src/fastify-app.ts
echo "== CommonJS host: require() and a SQLite file"
node src/commonjs-app.cjs
echo "== all checks passed ($trial)"
