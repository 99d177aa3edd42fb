#!/usr/bin/env bash
# `npm test`: everything CI checks, on a fresh machine too. Installs what is missing (npm dependencies,
# Debian chromium and Chinese fonts), uses a local PostgreSQL when one answers, then runs lint,
# typecheck, vitest and Playwright, and ends with one summary line.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .test-output
rm -f .test-output/vitest.json .test-output/playwright.json

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "==> npm ci"
  npm ci --no-audit --no-fund || exit 1
fi

missing=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || missing+=(chromium)
dpkg -s fonts-wqy-microhei >/dev/null 2>&1 || missing+=(fonts-wqy-microhei)
if [ ${#missing[@]} -gt 0 ]; then
  echo "==> apt-get install ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null \
    || { echo "Could not install ${missing[*]}: install them yourself, then rerun."; exit 1; }
fi

TEST_DATABASE_URL="$(node node_modules/tsx/dist/cli.mjs scripts/test-db-url.ts)"
export TEST_DATABASE_URL
if [ -n "$TEST_DATABASE_URL" ]; then echo "==> server tests also run on PostgreSQL ($TEST_DATABASE_URL)"; else
  unset TEST_DATABASE_URL; echo "==> no local PostgreSQL: server tests run on PGlite only"; fi

TEST_REDIS_URL="$(node node_modules/tsx/dist/cli.mjs scripts/test-redis-url.ts)"
if [ -n "$TEST_REDIS_URL" ]; then export TEST_REDIS_URL; echo "==> multi-instance tests use Redis ($TEST_REDIS_URL)"; else
  unset TEST_REDIS_URL; echo "==> no local Redis: multi-instance tests are skipped"; fi

failed=()
step() {
  local name=$1; shift
  echo; echo "==> $name"
  "$@" || failed+=("$name")
}

step lint npm run --silent lint
step typecheck npx tsc -p tsconfig.json --noEmit
step vitest npx vitest run --reporter=default --reporter=json --outputFile.json=.test-output/vitest.json
step playwright env CI=1 npx playwright test

echo
node node_modules/tsx/dist/cli.mjs scripts/test-summary.ts .test-output/vitest.json .test-output/playwright.json "${failed[*]:-}"
[ ${#failed[@]} -eq 0 ]
