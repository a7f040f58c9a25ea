#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests (`npm run test:browser`) when it is missing.
# playwright-core never downloads a browser: the tests launch /usr/bin/chromium (and the
# screenshots need a font).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
$sudo apt-get update
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium fonts-dejavu-core
test -x /usr/bin/chromium
