#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kbench report on a run directory whose samples.jsonl was edited (issue 22,
# item 8): a sample the manifest does not account for, or with a value no
# writer of samples.jsonl gives, is used in no figure, counted by why in
# summary.json's ignored_samples and said in report.md and report.html; no
# verdict, ratio or headline moves.  A sim run, 2 boots of 2 samples, Os
# against O2 (the same in getppid, 10% more in pipe); each edit alone, then
# all at once.  Before (the figures kbench gave, and no word of any edit):
#   - Os's samples copied as "Ox", a variant the manifest does not list:
#     verdict rows for Ox, "0 of 4 verdicts survive layout control"
#   - O2's first sample relabelled from layout 0 to 5: "2 layouts per
#     variant", pipe "slower" -> "not distinguishable" on every count
#   - O2's first model_cycles 1e308: getppid ratio 1.6e-301, "same" ->
#     "not distinguishable"; the same count negative: ratio 2
#   - O2's first l1i_k plus 0.5: getppid "same" -> "equivalent"; as a
#     string: the l1i_k rows moved after model_cycles
#   - O2's first sample with iterations 0: its time per operation used,
#     its counts not
#   - a vl_l1i_k array of 3 in a run whose manifest records 2 virtual
#     layouts: "virtual_layouts": 3, verdicts on a layout that is not there
# A count of 1e999 is no number jansson holds: a torn line, as before.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
needs_python 'json, random' python3 "tampered run directories"
needs_cmd jq "tampered run directories"

cases='[{"workload": "getppid", "case": "getppid", "ns": 400, "counts": {"ins_k": 263, "l1i_k": 3, "model_cycles": 400}},
	{"workload": "pipe", "case": "pipe", "ns": 3000, "counts": {"ins_k": 2000, "l1i_k": 40, "model_cycles": 3000}}]'
pair='[{"name": "O2", "text": 2000000}, {"name": "Os", "text": 1400000, "factors": {"getppid": 1.0, "pipe": 1.1}}]'
"$PY" "$TEST_SRCDIR/mkrun.py" "{\"dir\": \"$d/clean\", \"seed\": 7, \"boots\": 2, \"samples\": 2, \"backend\": \"sim\",
  \"cases\": $cases, \"variants\": $pair}"
"$PY" "$TEST_SRCDIR/mkrun.py" "{\"dir\": \"$d/vclean\", \"seed\": 7, \"boots\": 2, \"samples\": 2, \"backend\": \"sim\",
  \"virtual_layouts\": 2, \"cases\": $cases, \"variants\": $pair}"

# tamper FILE KIND...: samples.jsonl edited in place, O2's first sample of
# getppid the one changed
cat > "$d/tamper.py" <<'PY'
import json, sys
path = sys.argv[1]
lines = [json.loads(l) for l in open(path)]
first = lines[0]
assert first["variant"] == "O2" and first["case"] == "getppid"
out = []
for kind in sys.argv[2:]:
    f = first["fields"]
    if kind == "variant":
        lines += [dict(s, variant="Ox") for s in lines if s["variant"] == "Os"]
    elif kind == "layout":
        first["layout"] = 5
    elif kind == "huge":
        f["model_cycles"] = 1e308
    elif kind == "negative":
        f["model_cycles"] = -f["model_cycles"]
    elif kind == "fraction":
        f["l1i_k"] += 0.5
    elif kind == "string":
        f["l1i_k"] = str(f["l1i_k"])
    elif kind == "iterations":
        first["iterations"] = 0
    elif kind == "vlayout":
        f["vl_l1i_k"].append(f["l1i_k"])
    elif kind == "overflow":
        out.append(json.dumps(first).replace('"model_cycles": ', '"model_cycles": 1e999, "x": '))
    else:
        raise SystemExit("unknown edit " + kind)
with open(path, "w") as o:
    for s in lines:
        o.write(json.dumps(s) + "\n")
    for s in out:
        o.write(s + "\n")
PY

# what must not move: the headline, the layouts, the variants, and every
# count's median, ratio and verdict (the time per operation drops the
# edited sample's own)
figures() {
	grep -m1 'verdicts survive' "$1/report.md"
	jq -c '{layouts, virtual_layouts, unit, test_unit, primary_metric, variants: [.variants[].name],
		size_speed: [.size_speed[] | [.variant, .answer]],
		results: [.results[] | select(.metric != "ns_per_op") | [.case, .metric, .variant, .median, .ratio, .verdict]]}' \
		"$1/summary.json"
}
"$KBENCH" report "$d/clean" > /dev/null 2> "$d/clean.err"
"$KBENCH" report "$d/vclean" > /dev/null 2> "$d/vclean.err"
check "the clean runs are reported, nothing ignored" sh -c \
	"jq -e '.ignored_samples == {variant: 0, layout: 0, wrong_type: 0, zero_iterations: 0, negative: 0, not_integer: 0}' \
		'$d/clean/summary.json' '$d/vclean/summary.json' > /dev/null && ! grep -q 'ignored' '$d/clean/report.md'"
figures "$d/clean" > "$d/clean.fig"
figures "$d/vclean" > "$d/vclean.fig"

# edited NAME CLEAN KEY N SAID KIND...: the run CLEAN edited by KIND...: its
# figures the clean run's, N lines counted under ignored_samples.KEY and
# none under another, and the report saying SAID
edited() {
	local name=$1 clean=$2 key=$3 n=$4 said=$5 run=$d/$1 rc
	shift 5
	rm -rf "$run" && cp -r "$d/$clean" "$run" && "$PY" "$d/tamper.py" "$run/samples.jsonl" "$@"
	"$KBENCH" report "$run" > /dev/null 2> "$run.err"
	rc=$?
	figures "$run" > "$run.fig"
	check "$name: report written (exit $rc), every verdict, ratio and the headline the clean run's" sh -c \
		"[ $rc -eq 0 ] && cmp -s '$d/$clean.fig' '$run.fig'"
	[ "$key" = - ] ||
		check "$name: $n counted as $key" jq_true "$run/summary.json" \
			".ignored_samples.$key == $n and (.ignored_samples | del(.$key) | all(. == 0))"
	check "$name: report.md and report.html say it" sh -c \
		"grep -qF '$said' '$run/report.md' && grep -qF '$said' '$run/report.html'"
}
edited variant clean variant 8 \
	'8 sample lines of samples.jsonl were ignored and used in no figure: 8 of a variant the manifest does not list.' variant
edited layout clean layout 1 \
	'1 sample line of samples.jsonl was ignored and used in no figure: 1 of a layout (built or virtual) the manifest does not list.' layout
edited huge clean not_integer 1 ': 1 with a count that is not an integer.' huge
edited negative clean negative 1 ': 1 with a negative count or time.' negative
edited fraction clean not_integer 1 ': 1 with a count that is not an integer.' fraction
edited string clean wrong_type 1 ': 1 with a value of the wrong type (a count as a string, say).' string
edited iterations clean zero_iterations 1 ': 1 with zero iterations.' iterations
edited vlayout vclean layout 1 ': 1 of a layout (built or virtual) the manifest does not list.' vlayout
edited all clean - 0 \
	'9 sample lines of samples.jsonl were ignored and used in no figure: 8 of a variant the manifest does not list, 1 of a layout (built or virtual) the manifest does not list.' \
	variant layout huge string iterations
check "all: the edited line counted once, for its first fault" jq_true "$d/all/summary.json" \
	'.ignored_samples == {variant: 8, layout: 1, wrong_type: 0, zero_iterations: 0, negative: 0, not_integer: 0}'

rm -rf "$d/overflow" && cp -r "$d/clean" "$d/overflow" && "$PY" "$d/tamper.py" "$d/overflow/samples.jsonl" overflow
"$KBENCH" report "$d/overflow" > /dev/null 2> "$d/overflow.err"
figures "$d/overflow" > "$d/overflow.fig"
check "a count of 1e999: a torn line, the figures the clean run's" sh -c \
	"jq -e '.torn_lines.samples == 1' '$d/overflow/summary.json' > /dev/null && cmp -s '$d/clean.fig' '$d/overflow.fig'"
test_done
