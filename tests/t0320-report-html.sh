#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# report.html: one self-contained file (no script, nothing fetched), gnuplot
# SVG plots inlined (size, cost per case, the icache sweep, size against
# cost), hostile strings from the config and the guest escaped in the HTML
# and the markdown, names that are not plain names (a variant, a case, a
# field) dropped on load and said, and a page that headless Chromium renders
# (screenshot kept in the test output directory).  Without gnuplot the report
# is still written and says why the plots are missing.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
needs_python 'json, random' python3 "report.html"
evil='<script>alert(1)</script>'
"$PY" "$TEST_SRCDIR/mkrun.py" "{\"dir\": \"$d/r\", \"seed\": 9, \"boots\": 5, \"noise\": 0.03,
  \"brand\": \"<iframe src='https://example.invalid/x'></iframe>\", \"why\": \"\\\"><img src=x onerror=alert(2)>\",
  \"cases\": [{\"workload\": \"getppid\", \"case\": \"getppid\", \"ns\": 400},
	    {\"workload\": \"icache\", \"case\": \"icache/k=0\", \"ns\": 500},
	    {\"workload\": \"icache\", \"case\": \"icache/k=16\", \"ns\": 650},
	    {\"workload\": \"icache\", \"case\": \"icache/k=64\", \"ns\": 1100},
	    {\"workload\": \"x\", \"case\": \"$evil\", \"ns\": 900}],
  \"variants\": [{\"name\": \"O2\", \"text\": 2062329},
	       {\"name\": \"Os\", \"text\": 1356393, \"factor\": 0.9, \"flags\": \"\`rm -rf\` | <b>x</b> $evil\"},
	       {\"name\": \"$evil\", \"text\": 1700000, \"factor\": 1.05}],
  \"boot_failures\": [[\"Os\", 5, \"timeout\", \"</td></tr></table><script>alert(3)</script>\"]]}"
"$KBENCH" report "$d/r" > "$d/out" 2> "$d/err"
check "kbench report writes report.html, summary.json and summary.csv" \
	test -s "$d/r/report.html" -a -s "$d/r/summary.json" -a -s "$d/r/summary.csv"
h=$d/r/report.html
check "no script, iframe, img or event handler markup in report.html" sh -c \
	"! grep -qiE '<script|<iframe|<img|<object|<embed|<link|<b>' '$h'"
check "hostile strings are there, escaped" sh -c \
	"grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' '$h' && grep -qF '&lt;iframe src=&#39;https://example.invalid/x&#39;' '$h'"
# dropped: the markup variant's 5 boots (75 samples) and the samples of the
# markup case of the others (9 boots, Os's fifth failed: 27)
check "a markup variant and case are dropped on load, and said" sh -c \
	"jq -e '.dropped.names == {manifest: 1, samples: 102, boots: 5, timing: 0, sim: 0} and
		([.variants[].name, .cases[]] | all(test(\"<\") | not))' '$d/r/summary.json' >/dev/null &&
	 grep -qF '107 lines were dropped for a variant, case, workload, field or backend name that is not a plain name' '$d/r/report.md'"
# URLs may appear as escaped text; no src or href may point anywhere but
# inside the page.
check "nothing to fetch: every src and href is a fragment" sh -c \
	"! grep -oiE '(src|href)=[\"'\'']+[^#]' '$h'"
check "a content security policy forbids scripts and fetches" \
	grep -qF "content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\"" "$h"
n=$(grep -c '<svg' "$h")
# (issue 25: no size-against-cost plot under three variants with a size: two
# points a case are the forest plot's ratios again; here two have one)
check "four gnuplot SVG plots inlined (got $n): the forest plot, size, cost, icache sweep" test "$n" -eq 4
# (the size table is binutils size's text inside a code fence: inert there)
md_inert() { grep -qF '\<script\>alert(1)\</script\>' "$1" && ! grep -v '/vmlinux$' "$1" | grep -q '<script>'; }
check "markdown keeps the strings inert" md_inert "$d/r/report.md"
# headings: <hN>, or in the summary of a folded section a span with the
# heading role; report.html alone has the per-metric tables' headings
sed -n 's/^##* //p' "$d/r/report.md" | tr -d '\\' > "$d/md-heads"
grep -oE '<h[1-6][^>]*>[^<]*|aria-level="[1-6]">[^<]*' "$h" | sed 's/^[^>]*>//' > "$d/html-heads"
check "report.html has every section of report.md, in order (and besides only per-metric tables)" sh -c \
	"grep -v ' per operation\$' '$d/html-heads' | cmp -s - '$d/md-heads' && ! grep -q ' per operation\$' '$d/md-heads'"
check "csv: a text cell cannot start a formula" sh -c \
	"head -n 1 '$d/r/summary.csv' | grep -q '^case,metric,unit,source,variant,text' && ! grep -q ',\"[=+@-]' '$d/r/summary.csv'"

KBENCH_GNUPLOT=/nonexistent/gnuplot "$KBENCH" report "$d/r" > /dev/null 2> "$d/err2"
check "without gnuplot: report written, plots said missing" sh -c \
	"grep -q 'Plot not drawn: /nonexistent/gnuplot could not run' '$h' && grep -q 'plot' '$d/err2'"
"$KBENCH" report "$d/r" > /dev/null 2>&1

# A sample field name becomes a unit in the plots' labels: one that closes
# gnuplot's quote ran gnuplot's system command before; now the line is
# dropped on load (and kb_plot_label would keep it text).
"$PY" "$TEST_SRCDIR/mkrun.py" "{\"dir\": \"$d/inj\", \"seed\": 5, \"boots\": 2, \"noise\": 0, \"backend\": \"sim\",
  \"cases\": [{\"workload\": \"getppid\", \"case\": \"getppid\", \"ns\": 400,
	      \"counts\": {\"cycles'\\nsystem 'touch $d/pwned'\\n#\": 400}}],
  \"variants\": [{\"name\": \"O2\", \"text\": 2000000}, {\"name\": \"Os\", \"text\": 1400000, \"factor\": 0.9}]}"
"$KBENCH" report "$d/inj" > /dev/null 2>&1
check "a crafted field name never reaches gnuplot: its lines are dropped and said" sh -c \
	"[ ! -e '$d/pwned' ] && jq -e '.dropped.names.samples == 12 and (.metrics | length) == 1' '$d/inj/summary.json' >/dev/null &&
	 grep -qF '12 lines were dropped' '$d/inj/report.md'"

# The forest plot (issue 34): one layout of each variant far off (the
# baseline's at 0.6, the other's at 1.9) stretches the intervals, the
# variant's band and the baseline's spread far past the marks; the axis
# keeps the marks readable and cuts those ends at its edges, each labelled
# there with its value.  Read back from the SVG (tests/forest-check.py):
# the axis label names the source and the model (LLVM skylake here) and
# which way is faster, the grey zone is 1 +- min_effect, the outline around
# 1 the baseline's spread, and every cut end's label is summary.json's.
"$PY" "$TEST_SRCDIR/mkrun.py" "{\"dir\": \"$d/cut\", \"seed\": 3, \"boots\": 1, \"noise\": 0, \"backend\": \"sim\",
  \"layouts\": 6, \"cases\": [{\"workload\": \"getppid\", \"case\": \"getppid\", \"ns\": 400, \"counts\": {\"mca_cycles\": 400}},
	{\"workload\": \"pipe\", \"case\": \"pipe\", \"ns\": 3000, \"counts\": {\"mca_cycles\": 3000}},
	{\"workload\": \"read\", \"case\": \"read\", \"ns\": 700, \"counts\": {\"mca_cycles\": 700}}],
  \"variants\": [{\"name\": \"O2\", \"text\": 2000000, \"layout_factors\": [1.0, 1.01, 0.99, 1.0, 0.6, 1.02]},
	       {\"name\": \"Os\", \"text\": 1400000, \"layout_factors\": [1.0, 1.01, 0.99, 1.0, 1.9, 0.98],
		\"factors\": {\"getppid\": 1.03, \"pipe\": 0.97, \"read\": 1.0}}]}"
jq '.sim = {"primary_metric": "mca_cycles", "mca": {"label": "LLVM skylake"}}' "$d/cut/manifest.json" > "$d/cut/m" &&
	mv "$d/cut/m" "$d/cut/manifest.json"
"$KBENCH" report "$d/cut" > /dev/null 2>&1
"$PY" "$TEST_SRCDIR/forest-check.py" --expect-cut "$d/cut/report.html" "$d/cut/summary.json" > "$d/forest-cut" 2>&1
check "forest plot: ends past the axis cut there and labelled with summary.json's values, the axis label, zone and spread (read from the SVG)" \
	sh -c "[ $? -eq 0 ] && grep -q '^ok axis label: .*(modeled, LLVM skylake)' '$d/forest-cut' &&
	       grep -q '^ok zone: ' '$d/forest-cut' && grep -q '^ok spread getppid: \[cut at the edge' '$d/forest-cut' &&
	       grep -q '^ok edge label .1\.[0-9]* · band ' '$d/forest-cut'"
sed 's/^/# /' "$d/forest-cut"
jq '(.results[] | select(.case == "pipe" and .variant == "Os" and .metric == "mca_cycles_per_op") | .ratio_ci[1]) += 0.01' \
	"$d/cut/summary.json" > "$d/cut-tampered.json"
"$PY" "$TEST_SRCDIR/forest-check.py" "$d/cut/report.html" "$d/cut-tampered.json" > "$d/forest-cut-tampered" 2>&1
check "forest check: a cut end's label 0.01 off summary.json is caught" \
	sh -c "[ $? -ne 0 ] && grep -q '^MISMATCH pipe: .*cut at the edge' '$d/forest-cut-tampered'"

chromium=
for c in chromium chromium-browser; do
	command -v "$c" >/dev/null 2>&1 && { chromium=$c; break; }
done
if [ -z "$chromium" ]; then
	skip "needs:chromium" "report.html renders in headless Chromium"
	skip "needs:chromium" "rendered page shows the verdict and the plots"
	test_done
fi
flags="--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync"
timeout 120 "$chromium" $flags --user-data-dir="$d/profile1" --screenshot="$d/report.png" \
	--window-size=1200,2000 "file://$h" > "$d/chromium.log" 2>&1
check "report.html renders in headless Chromium (screenshot $d/report.png)" sh -c \
	"[ \$(stat -c %s '$d/report.png' 2>/dev/null || echo 0) -gt 20000 ]"
timeout 120 "$chromium" $flags --user-data-dir="$d/profile2" --dump-dom "file://$h" > "$d/dom.html" 2>> "$d/chromium.log"
check "rendered page shows the verdict and the plots" sh -c \
	"grep -q 'Is the smaller kernel also faster?' '$d/dom.html' && [ \$(grep -o '<svg' '$d/dom.html' | wc -l) -eq 4 ] &&
	 ! grep -qi '<script' '$d/dom.html'"
rm -rf "$d/profile1" "$d/profile2"
test_done
