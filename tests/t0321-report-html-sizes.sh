#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# report.html at two window sizes (issue 34, item 4), rendered in headless
# Chromium from a run directory mkrun.py writes (no kernel booted): at
# 390x844, a phone, the page is no wider than the window, the first
# screen's two columns (the forest plot, then the size table) stack into
# one, and every table (the folded ones opened) either fits the window or
# scrolls sideways inside a box of its own that does; at 1280x800 the two
# columns stand side by side as before, and nothing is wider than the page.
# Both screenshots stay in the test's output directory, and go to
# $KBENCH_SCREENSHOT_DIR too where that is set.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
chromium=
for c in chromium chromium-browser; do
	command -v "$c" >/dev/null 2>&1 && { chromium=$c; break; }
done
[ -n "$chromium" ] || skip_all "needs:chromium" "report.html at phone and desktop width"
needs_python 'json, re, struct' python3 "report.html at phone and desktop width"
cases='[{"workload": "getppid", "case": "getppid", "ns": 400, "counts": {"ins_k": 263, "l1i_k": 3, "model_cycles": 400}},
	{"workload": "pipe", "case": "pipe", "ns": 3000, "counts": {"ins_k": 2000, "l1i_k": 40, "model_cycles": 3000}},
	{"workload": "read", "case": "read", "ns": 700, "counts": {"ins_k": 500, "l1i_k": 9, "model_cycles": 700}},
	{"workload": "icache", "case": "icache/k=4", "ns": 900, "counts": {"ins_k": 700, "l1i_k": 20, "model_cycles": 900}},
	{"workload": "icache", "case": "icache/k=64", "ns": 5000, "counts": {"ins_k": 4000, "l1i_k": 90, "model_cycles": 5000}}]'
"$PY" "$TEST_SRCDIR/mkrun.py" "{\"dir\": \"$d/r\", \"seed\": 7, \"boots\": 1, \"noise\": 0, \"backend\": \"sim\",
  \"layouts\": 6, \"layout_noise\": 0.02, \"cases\": $cases,
  \"variants\": [{\"name\": \"O2\", \"text\": 2000000},
	       {\"name\": \"Os\", \"text\": 1400000, \"factors\": {\"getppid\": 1.1, \"pipe\": 0.9, \"read\": 1.0,
							  \"icache/k=4\": 1.04, \"icache/k=64\": 0.97}}]}"
"$KBENCH" report "$d/r" > "$d/out" 2> "$d/err"
h=$d/r/report.html
check "kbench report writes report.html" test -s "$h"

# The page has no script (its content security policy forbids one), and
# headless Chromium lays out --dump-dom in a window 500 px wide at least:
# the layout is measured by a page of our own holding report.html, as it
# is, in an iframe of the window's size (its viewport, for the media
# queries as for scrollWidth), which opens every folded section and writes
# what it measured into the DOM.  The screenshots are of the page itself,
# in a window of that size.
"$PY" - "$h" "$d/measure.html" <<'PY'
import html, sys
page = open(sys.argv[1], encoding="utf-8").read()
open(sys.argv[2], "w", encoding="utf-8").write("""<!DOCTYPE html>
<html><head><meta charset="utf-8"><style>body{margin:0}iframe{border:0;display:block}</style></head><body>
<iframe id="page" srcdoc="%s"></iframe>
<script>
var size = location.search.slice(1).split("x"), f = document.getElementById("page");
f.style.width = size[0] + "px";
f.style.height = size[1] + "px";
f.onload = function () {
	var doc = f.contentDocument, win = f.contentWindow, out = [];
	doc.querySelectorAll("details").forEach(function (e) { e.open = true; });
	var vw = doc.documentElement.clientWidth;
	out.push("window=" + win.innerWidth + "x" + win.innerHeight, "viewport=" + vw,
		 "scrollwidth=" + doc.documentElement.scrollWidth);
	var screen = doc.querySelector(".screen"), items = screen ? screen.children : [];
	var fig = screen && screen.querySelector("figure"), second = null;
	for (var i = 0; i < items.length; i++)
		if (items[i] !== fig) { second = items[i]; break; }
	if (fig && second) {
		var a = fig.getBoundingClientRect(), b = second.getBoundingClientRect();
		out.push("first=" + [a.left, a.top, a.right, a.bottom].map(Math.round).join(","),
			 "second=" + [b.left, b.top, b.right, b.bottom].map(Math.round).join(","));
	}
	/* a table fits the viewport, or its box scrolls (overflow-x auto or
	 * scroll) and the box fits */
	var tables = doc.querySelectorAll("table"), fit = 0, scrolled = 0, cut = 0;
	for (var i = 0; i < tables.length; i++) {
		var t = tables[i].getBoundingClientRect(), box = tables[i].parentElement;
		var o = win.getComputedStyle(box).overflowX, r = box.getBoundingClientRect();
		if (t.left >= -1 && t.right <= vw + 1)
			fit++;
		else if ((o == "auto" || o == "scroll") && box.scrollWidth > box.clientWidth &&
			 r.left >= -1 && r.right <= vw + 1)
			scrolled++;
		else
			cut++;
	}
	out.push("tables=" + tables.length, "fit=" + fit, "scrolled=" + scrolled, "cut=" + cut);
	var p = document.createElement("pre");
	p.id = "kb-measure";
	p.textContent = out.join(" ");
	document.body.appendChild(p);
};
</script></body></html>
""" % html.escape(page, quote=True))
PY
flags="--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync --hide-scrollbars"
# measure W H: the measurements at that window size in $d/at-WxH
measure() {
	timeout 120 "$chromium" $flags --user-data-dir="$d/profile-$1" --window-size=1400,1000 --virtual-time-budget=2000 \
		--dump-dom "file://$d/measure.html?$1x$2" > "$d/dom-$1x$2.html" 2>> "$d/chromium.log"
	sed -n 's/.*id="kb-measure">\([^<]*\)<.*/\1/p' "$d/dom-$1x$2.html" | tr ' ' '\n' > "$d/at-$1x$2"
	diag "at $1x$2: $(tr '\n' ' ' < "$d/at-$1x$2")"
}
# at W H KEY: a measurement
at() { sed -n "s/^$3=//p" "$d/at-$1x$2"; }
# shot W H: the real page (no script added) as a PNG of that window
shot() {
	timeout 120 "$chromium" $flags --user-data-dir="$d/profile-$1" --window-size="$1,$2" \
		--screenshot="$d/report-$1x$2.png" "file://$h" >> "$d/chromium.log" 2>&1
}
# png_is FILE W H: a PNG of W x H pixels, not a blank one (over 20 kB)
png_is() {
	"$PY" -c 'import struct, sys
b = open(sys.argv[1], "rb").read()
w, h = struct.unpack(">II", b[16:24])
sys.exit(not (b[:8] == b"\x89PNG\r\n\x1a\n" and (w, h) == (int(sys.argv[2]), int(sys.argv[3])) and len(b) > 20000))' "$@" 2>/dev/null
}
# edges W H KEY: left top right bottom of a measured box
edges() { at "$1" "$2" "$3" | tr ',' ' '; }

measure 390 844
shot 390 844
check "390x844: the page is measured in a window of that size ($(at 390 844 window))" \
	test "$(at 390 844 window)" = 390x844
sw=$(at 390 844 scrollwidth)
check "390x844: no sideways scrolling of the page (document scrollWidth ${sw:-?} <= 390 + 2)" \
	sh -c "[ -n '$sw' ] && [ '$sw' -le 392 ]"
set -- $(edges 390 844 first) $(edges 390 844 second)
check "390x844: the columns stack: the size table's column starts below the forest plot (${6:-?} >= ${4:-?})" \
	sh -c "[ $# -eq 8 ] && [ '$6' -ge '$4' ]"
check "390x844: every table ($(at 390 844 tables)) fits ($(at 390 844 fit)) or scrolls in its own box ($(at 390 844 scrolled)), none cut ($(at 390 844 cut))" \
	sh -c "[ '$(at 390 844 tables)' -gt 0 ] && [ '$(at 390 844 cut)' = 0 ] &&
	       [ \$(($(at 390 844 fit) + $(at 390 844 scrolled))) -eq $(at 390 844 tables) ]"
# the verdict table has eight columns: too wide for a phone, so its box scrolls
check "390x844: a table too wide for the phone scrolls inside its box" \
	sh -c "[ '$(at 390 844 scrolled)' -ge 1 ]"
check "390x844: screenshot ($d/report-390x844.png)" png_is "$d/report-390x844.png" 390 844

measure 1280 800
shot 1280 800
sw=$(at 1280 800 scrollwidth)
check "1280x800: no sideways scrolling of the page (document scrollWidth ${sw:-?} <= 1280)" \
	sh -c "[ -n '$sw' ] && [ '$sw' -le 1280 ]"
set -- $(edges 1280 800 first) $(edges 1280 800 second)
check "1280x800: the columns side by side: the size table's column right of the forest plot, level with it" \
	sh -c "[ $# -eq 8 ] && [ '$5' -ge '$3' ] && [ '$6' -lt '$4' ]"
check "1280x800: every table ($(at 1280 800 tables)) fits the window" \
	sh -c "[ '$(at 1280 800 tables)' -gt 0 ] && [ '$(at 1280 800 fit)' = '$(at 1280 800 tables)' ]"
check "1280x800: screenshot ($d/report-1280x800.png)" png_is "$d/report-1280x800.png" 1280 800

if [ -n "${KBENCH_SCREENSHOT_DIR:-}" ]; then
	mkdir -p "$KBENCH_SCREENSHOT_DIR" &&
		cp "$d/report-390x844.png" "$d/report-1280x800.png" "$KBENCH_SCREENSHOT_DIR/"
	check "screenshots copied to \$KBENCH_SCREENSHOT_DIR ($KBENCH_SCREENSHOT_DIR)" \
		test -s "$KBENCH_SCREENSHOT_DIR/report-390x844.png" -a -s "$KBENCH_SCREENSHOT_DIR/report-1280x800.png"
fi
rm -rf "$d"/profile-*
test_done
