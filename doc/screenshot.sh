#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The first screen of a run's report.html as a PNG, the way a reader with a
# 1400x900 window sees it (headless Chromium; nothing fetched: the page
# has no script and links nowhere outside).
# usage: doc/screenshot.sh RUN_DIR [OUT.png]   (default doc/first-screen.png)
set -eu
run=${1:?usage: doc/screenshot.sh RUN_DIR [OUT.png]}
out=${2:-$(dirname "$0")/first-screen.png}
chromium=
for c in chromium chromium-browser; do
	command -v "$c" >/dev/null 2>&1 && { chromium=$c; break; }
done
[ -n "$chromium" ] || { echo "doc/screenshot.sh: needs chromium (apt-get install chromium)" >&2; exit 1; }
[ -s "$run/report.html" ] || { echo "doc/screenshot.sh: '$run/report.html': no report (kbench report '$run')" >&2; exit 1; }
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
page=$(cd "$run" && pwd)/report.html
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
	--disable-component-update --disable-sync --hide-scrollbars --user-data-dir="$profile" \
	--window-size=1400,900 --screenshot="$out" "file://$page" > /dev/null 2>&1
[ -s "$out" ] || { echo "doc/screenshot.sh: chromium wrote no screenshot" >&2; exit 1; }
echo "$out"
