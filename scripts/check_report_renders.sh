#!/usr/bin/env bash
# Render grade-report.html in real headless Chromium (Debian's package) and save a screenshot;
# with a third argument, also the page's DOM after its script ran (the missing-font notice).
# Usage: scripts/check_report_renders.sh [report.html] [out.png] [dom.html]
# FONTCONFIG_FILE in the environment chooses the fonts Chromium sees (tests: none, or no CJK one).
set -euo pipefail
html=$(realpath "${1:-grade-report.html}")
png=${2:-grade-report.png}
dom=${3:-}
command -v chromium >/dev/null || { apt-get update -qq && apt-get install -y -qq chromium; }
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
# The flags keep Chromium off the network (this machine has none) and out of the sandbox (root).
run() {
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --window-size=1100,1600 "$@" "file://$html" 2>/dev/null
}
run --screenshot="$png"
test -s "$png" && echo "rendered $html -> $png"
if [ -n "$dom" ]; then
  run --dump-dom >"$dom"
  test -s "$dom" && echo "its DOM -> $dom"
fi
