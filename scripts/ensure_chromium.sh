#!/usr/bin/env bash
# Make sure Debian's Chromium and ChromeDriver are installed for the browser tests, installing them if needed.
set -eu
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "The browser tests need Debian's chromium and chromium-driver; run as root, or: sudo apt-get install chromium chromium-driver" >&2
  exit 1
fi
echo "Installing chromium and chromium-driver from Debian's packages for the browser tests." >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
