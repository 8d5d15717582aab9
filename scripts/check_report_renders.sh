#!/usr/bin/env bash
# Render grade-report.html in real headless Chromium (Debian's package) and save a screenshot.
# Usage: scripts/check_report_renders.sh [report.html] [out.png]
set -euo pipefail
html=$(realpath "${1:-grade-report.html}")
png=${2:-grade-report.png}
command -v chromium >/dev/null || { apt-get update -qq && apt-get install -y -qq chromium; }
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
# The flags keep Chromium off the network (this machine has none) and out of the sandbox (root).
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$profile" --window-size=1100,1600 --screenshot="$png" "file://$html" 2>/dev/null
test -s "$png" && echo "rendered $html -> $png"
