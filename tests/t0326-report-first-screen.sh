#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The report's first screen (issue 25): report.md's first 40 lines hold the
# headline (verdicts that survive, the size change, the answer), the size
# table as binutils size prints it, and the verdict table with the metric's
# kind in its header, not in its rows; report.html shows the headline, the
# forest plot and the size table above the fold of a 1400x900 window
# (element positions measured in headless Chromium), folds the details
# into <details> elements that a link from the first screen names, and
# passes tidy without an error or a warning.  The forest plot's marks, read
# back from the SVG gnuplot drew, are summary.json's ratios, intervals and
# verdicts (tests/forest-check.py), and a tampered summary.json is caught.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
needs_python 'json, re' python3 "the first screen"
needs_cmd jq "the first screen"
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
check "kbench report writes the report" test -s "$d/r/report.md" -a -s "$d/r/report.html"
md=$d/r/report.md
h=$d/r/report.html
head -n 40 "$md" > "$d/first"
check "report.md, line 1: the answer line (issue 34); line 5: how many verdicts survive layout control" \
	sh -c "sed -n 1p '$md' | grep -qE '^Os vs O2: text -30\.0% \(measured\); model_cycles \(modeled, kbench.s cycle model\): ' &&
	       sed -n 5p '$md' | grep -qE '^\*\*[0-9]+ of 5 verdicts survive layout control\*\*'"
check "first 40 lines: the answer with the size change" \
	grep -qE '^`Os` has 30\.0% less text than `O2` \(1400000 vs 2000000 bytes\)\. .*\*\*(Mixed|Yes|No)[^*]*\*\*' "$d/first"
check "first 40 lines: binutils size's table of the variants, and the text change" sh -c \
	"grep -qP '^   text\t   data\t    bss\t    dec\t    hex\tfilename\$' '$d/first' &&
	 grep -qF '.text shrinks by 600000 bytes (-30.0%): \`Os\` against \`O2\`.' '$d/first'"
check "first 40 lines: the verdict table, the figures' kind in its header" \
	grep -qF '| case | variant | text vs O2 (measured) | model\_cycles/op (modeled) vs O2 [95% CI] |' "$d/first"
check "no provenance repeated in rows" sh -c "! grep -q '^|.*measured (ELF section headers' '$md'"
check "method and provenance in one section, the details under one heading" sh -c \
	"[ \$(grep -c '^## How these figures were made\$' '$md') -eq 1 ] && grep -q '^## Details\$' '$md' &&
	 grep -q '^### Layout noise\$' '$md'"
check "layout noise: one table, a row per case and variant (10)" sh -c \
	"[ \$(sed -n '/^### Layout noise/,/^### /p' '$md' | grep -cE '^\| [a-z/=0-9]+ \| (O2|Os) \| 6 \| ') -eq 10 ]"

# report.html: folded details a link opens, the forest plot first
check "report.html folds each details section, and the first screen links to it" sh -c \
	"for id in layout-noise text-size speed boots variants how-these-figures-were-made; do
		grep -q \"<details id=\\\"\$id\\\"><summary>\" '$h' && grep -q \"<a href=\\\"#\$id\\\">\" '$h' || exit 1
	 done"
check "the forest plot is the first figure" sh -c \
	"tr -d '\\n' < '$h' | grep -o '<figcaption>[^<]*' | head -n 1 | grep -q 'model_cycles per operation (modeled) against the baseline, per case'"
"$PY" "$TEST_SRCDIR/forest-check.py" "$h" "$d/r/summary.json" > "$d/forest" 2>&1
check "forest plot: every mark, interval and verdict is summary.json's (read from the SVG)" test $? -eq 0
sed 's/^/# /' "$d/forest"
jq --arg m "$(jq -r .primary_metric "$d/r/summary.json")" \
	'(.results[] | select(.case == "pipe" and .variant == "Os" and .metric == $m) | .ratio) += 0.02' \
	"$d/r/summary.json" > "$d/tampered.json"
"$PY" "$TEST_SRCDIR/forest-check.py" "$h" "$d/tampered.json" > "$d/forest-tampered" 2>&1
check "forest check: a ratio 0.02 off is caught" sh -c "[ $? -ne 0 ] && grep -q '^MISMATCH pipe' '$d/forest-tampered'"

if command -v tidy > /dev/null 2>&1; then
	tidy -errors -q "$h" > "$d/tidy" 2>&1
	check "report.html: tidy finds no error and no warning" sh -c "[ $? -eq 0 ] && [ ! -s '$d/tidy' ]"
	sed 's/^/# /' "$d/tidy" | head -n 5
else
	skip "needs:tidy (apt-get install tidy)" "report.html: tidy finds no error and no warning"
fi

chromium=
for c in chromium chromium-browser; do
	command -v "$c" >/dev/null 2>&1 && { chromium=$c; break; }
done
if [ -z "$chromium" ]; then
	skip "needs:chromium" "above the fold at 1400x900: headline, forest plot, size table"
	test_done
fi
# The page has no script (its content security policy forbids one): the
# positions are measured in a copy of it with one script added, loaded in
# Chromium at 1400x900, which writes each element's bottom edge into the DOM.
"$PY" - "$h" "$d/measure.html" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
page = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', '', page)
script = """<script>
var q = function (s) { return document.querySelector(s); };
var at = { headline: q("p strong"), answer: q("h2"), figure: q(".screen figure svg"), size: q(".screen pre") };
var out = [];
for (var k in at) out.push(k + "=" + (at[k] ? Math.round(at[k].getBoundingClientRect().bottom) : "none"));
out.push("window=" + window.innerWidth + "x" + window.innerHeight);
var p = document.createElement("pre"); p.id = "kb-positions"; p.textContent = out.join(" ");
document.body.appendChild(p);
</script></body>"""
open(sys.argv[2], "w").write(page.replace("</body>", script))
PY
flags="--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync --hide-scrollbars"
timeout 120 "$chromium" $flags --user-data-dir="$d/profile" --window-size=1400,900 --virtual-time-budget=2000 \
	--dump-dom "file://$d/measure.html" > "$d/dom.html" 2> "$d/chromium.log"
sed -n 's/.*id="kb-positions">\([^<]*\)<.*/\1/p' "$d/dom.html" | tr ' ' '\n' > "$d/positions"
diag "bottom edges at 1400x900 (px): $(tr '\n' ' ' < "$d/positions")"
# the fold: the page's viewport in that window (headless Chromium's is
# shorter than the window), never more than 900 px
fold=$(sed -n 's/^window=1400x\([0-9]*\)$/\1/p' "$d/positions")
check "above the fold at 1400x900 (viewport ${fold:-?} px): headline, answer, forest plot and size table" sh -c \
	"[ -n '$fold' ] && [ '$fold' -le 900 ] &&
	 [ \$(awk -F= -v fold='$fold' '\$1 ~ /^(headline|answer|figure|size)\$/ && \$2 ~ /^[0-9]+\$/ && \$2 > 0 && \$2 <= fold + 0' '$d/positions' | wc -l) -eq 4 ]"
rm -rf "$d/profile"
test_done
