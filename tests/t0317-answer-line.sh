#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The answer line (issue 34, item 1): one line per variant, the same text
# as kbench report's last stdout lines, report.md's first lines,
# report.html's title block and summary.json's answer[].line; its counts
# are the verdicts', and its geometric mean and interval agree with an
# independent computation (tests/stats-ref.py: the cases' ratios of medians
# with numpy, the interval from a joint two-stage bootstrap of numpy's own);
# a run whose cycles fell back from llvm-mca says so in the line itself.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
needs_python 'json, numpy, scipy.stats' python3-scipy "the answer line"

# 1. Boots as replicates, three variants: Os faster everywhere, one
#    slower in a case.
cases='[{"workload": "getppid", "case": "getppid", "ns": 400}, {"workload": "pipe", "case": "pipe", "ns": 30000},
  {"workload": "icache", "case": "icache/k=128", "ns": 9000}, {"workload": "syscall_mix", "case": "syscall_mix", "ns": 2000}]'
"$PY" "$TEST_SRCDIR/mkrun.py" "{\"dir\": \"$d/a\", \"seed\": 4, \"boots\": 7, \"noise\": 0.03, \"cases\": $cases,
  \"variants\": [{\"name\": \"O2\", \"text\": 2000000}, {\"name\": \"Os\", \"text\": 1400000, \"factor\": 0.9},
    {\"name\": \"O3\", \"text\": 2300000, \"factor\": 1.0, \"factors\": {\"pipe\": 1.3}}]}"
(cd "$d" && "$KBENCH" report a > a.out 2> a.err)
check "kbench report exits 0" test $? -eq 0
"$PY" -c 'import json, sys
for a in json.load(open(sys.argv[1]))["answer"]: print(a["line"])' "$d/a/summary.json" > "$d/a.lines"
sed 's/^/# /' "$d/a.lines"
check "summary.json: an answer line per variant but the baseline, Os's first" sh -c \
	"[ \$(wc -l < '$d/a.lines') -eq 2 ] && head -n 1 '$d/a.lines' | grep -q '^Os vs O2: text -30\.0% (measured); '"
check "the terminal's last lines are the answer lines, the report's path before them" sh -c \
	"tail -n 2 '$d/a.out' | cmp - '$d/a.lines' && [ \"\$(tail -n 3 '$d/a.out' | head -n 1)\" = a/report.md ]"
check "report.md's first line is Os's answer line, O3's the next paragraph" sh -c \
	"[ \"\$(sed -n 1p '$d/a/report.md')\" = \"\$(sed -n 1p '$d/a.lines')\" ] &&
	 [ \"\$(sed -n 3p '$d/a/report.md')\" = \"\$(sed -n 2p '$d/a.lines')\" ]"
# report.html: the title block holds each line (HTML-escaped) above the h1
"$PY" - "$d/a/report.html" "$d/a.lines" > "$d/html.out" <<'PY'
import html, re, sys
page = open(sys.argv[1]).read()
m = re.search(r'<div class="title">(.*?)</div>', page, re.S)
paras = [html.unescape(re.sub(r"<[^>]*>", "", p)).strip() for p in re.findall(r"<p>(.*?)</p>", m.group(1), re.S)] if m else []
want = [l.rstrip("\n") for l in open(sys.argv[2])]
print("yes" if m and paras == want and "<h1" in m.group(1) and m.group(1).index("<h1") > m.group(1).index("<p>") else "no")
PY
check "report.html: the title block, the answer lines above the heading" grep -qx yes "$d/html.out"
check "each line: the interval holds the geometric mean, at 95%, over 4 cases weighed equally" jq_true "$d/a/summary.json" \
	'all(.answer[]; .geomean_ci[0] <= .geomean and .geomean <= .geomean_ci[1] and .weighting == "cases equally" and
	     .geomean_cases == 4 and (.line | contains("(95%; 4 cases, each weighed equally)")))'
# the figures printed are summary.json's, rounded to 3 places (printf)
got=$("$PY" -c 'import json, sys
for a in json.load(open(sys.argv[1]))["answer"]:
    want = "geometric mean x%.3f [%.3f, %.3f]" % (a["geomean"], a["geomean_ci"][0], a["geomean_ci"][1])
    print("yes" if want in a["line"] else "no: " + want)' "$d/a/summary.json")
check "each line prints its summary.json geometric mean and interval" sh -c "! echo '$got' | grep -qv '^yes\$'"
check "Os: faster in 4 of 4 cases, its geometric mean below 1" jq_true "$d/a/summary.json" \
	'.answer[0] | .faster == 4 and .cases == 4 and .geomean < 1 and (.line | contains("faster in 4 of 4 cases, slower in none"))'
"$PY" "$TEST_SRCDIR/stats-ref.py" "$d/a" > "$d/a.ref" 2>&1
check "counts, geometric mean and its interval agree with numpy (stats-ref.py)" test $? -eq 0
grep -E 'answer|MISMATCH' "$d/a.ref"

# 2. A sim run with built layouts (the build the replicate), its cycles
#    modeled by kbench's own model because llvm-mca was missing: the line
#    says so; the same run with llvm-mca's record does not.
cases='[{"workload": "getppid", "case": "getppid", "ns": 400, "counts": {"ins_k": 263, "l1i_k": 3, "model_cycles": 400}},
	{"workload": "pipe", "case": "pipe", "ns": 3000, "counts": {"ins_k": 2000, "l1i_k": 40, "model_cycles": 3000}},
	{"workload": "read", "case": "read", "ns": 700, "counts": {"ins_k": 500, "l1i_k": 9, "model_cycles": 700}}]'
"$PY" "$TEST_SRCDIR/mkrun.py" "{\"dir\": \"$d/s\", \"seed\": 7, \"boots\": 1, \"noise\": 0, \"backend\": \"sim\",
  \"layouts\": 5, \"layout_noise\": 0.02, \"cases\": $cases,
  \"variants\": [{\"name\": \"O2\", \"text\": 2000000},
	       {\"name\": \"Os\", \"text\": 1400000, \"factors\": {\"getppid\": 1.1, \"pipe\": 0.95, \"read\": 1.0}}]}"
cp -r "$d/s" "$d/f"
"$PY" - "$d/f/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m.setdefault("sim", {})["mca"] = {"missing": "llvm-mca not found: install Debian's llvm (apt-get install llvm)"}
json.dump(m, open(sys.argv[1], "w"))
PY
"$KBENCH" report "$d/s" > "$d/s.out" 2> "$d/s.err"
"$KBENCH" report "$d/f" > "$d/f.out" 2> "$d/f.err"
tail -n 1 "$d/f.out" | sed 's/^/# /'
check "fallback: the line names kbench's own cycle model and why" sh -c \
	"tail -n 1 '$d/f.out' | grep -q \"^Os vs O2: text -30\.0% (measured); model_cycles (modeled, kbench's cycle model): .*; kbench's own cycle model, not llvm-mca's: llvm-mca not found\.\$\""
check "fallback: summary.json's answer records it" jq_true "$d/f/summary.json" \
	'.answer[0].fallback | startswith("llvm-mca not found")'
check "no fallback recorded: no such clause" sh -c \
	"tail -n 1 '$d/s.out' | grep -q '^Os vs O2: ' && ! grep -q 'not llvm-mca' '$d/s.out' &&
	 [ \"\$(jq -r '.answer[0].fallback' '$d/s/summary.json')\" = null ]"
"$PY" "$TEST_SRCDIR/stats-ref.py" "$d/f" > "$d/f.ref" 2>&1
check "builds as replicates: geometric mean and interval agree with numpy's two-stage bootstrap" test $? -eq 0
grep -E 'answer|MISMATCH' "$d/f.ref"
"$KBENCH" report "$d/f" > "$d/f2.out" 2> /dev/null
check "the same run reported again: the same line, byte for byte (seeded)" cmp "$d/f.out" "$d/f2.out"
# 3. Neither faster nor slower anywhere: the line says none, not "0 of"
cases='[{"workload": "getppid", "case": "getppid", "ns": 400}, {"workload": "pipe", "case": "pipe", "ns": 30000}]'
"$PY" "$TEST_SRCDIR/mkrun.py" "{\"dir\": \"$d/n\", \"seed\": 5, \"boots\": 3, \"noise\": 0.05, \"cases\": $cases,
  \"variants\": [{\"name\": \"O2\", \"text\": 2000000}, {\"name\": \"Os\", \"text\": 1400000, \"factor\": 1.0}]}"
"$KBENCH" report "$d/n" > "$d/n.out" 2> /dev/null
tail -n 1 "$d/n.out" | sed 's/^/# /'
check "no case faster or slower: 'faster or slower in none of 2 cases'" sh -c \
	"jq -e '.answer[0] | .faster == 0 and .slower == 0' '$d/n/summary.json' > /dev/null &&
	 tail -n 1 '$d/n.out' | grep -q '^Os vs O2: text -30\.0% (measured); ns_per_op (measured): faster or slower in none of 2 cases, '"
test_done
