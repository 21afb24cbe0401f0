#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds and layouts as the unit of replication, verdicts read from an
# interval (issue 13, items 3 and 4, and issue 21), on crafted run
# directories whose truth is known, every figure checked against
# tests/stats-ref.py (scipy, and a two-stage bootstrap written out there):
#   - a variant pair whose only difference is layout (sim, 8 builds each,
#     3% layout noise): not distinguishable in every case, and the report's
#     first sentence says 0 verdicts survive layout control; the same kernels
#     in one layout each: modeled cycles, which move with the layout, are
#     "this layout only" (before: "slower" on one layout), and the first
#     sentence says none of it is under layout control; 4 builds of 3 boots
#     each, Os's drawn a little higher: 4 replicates a side, not
#     distinguishable (before issue 13: 12 pseudo-replicates, "slower", Holm
#     p 0.039), and the report says 4 builds cannot reach 0.05 after Holm
#     over 2 cases, and that 5 would.
#   - virtual layouts (the samples' vl_<field> arrays, 8 per built layout):
#     one build's 9 layouts the replicates of misses and cycles ("under
#     simulated layouts of one build"), instructions by boot; a layout-only
#     pair not distinguishable, a 10% effect over 2% noise faster.
#   - a real 10% effect over 2% layout noise: faster in every case.
#   - a 5% shift that overlaps a 7% range of builds (Holm p 0.005, the
#     interval for the verdict [1.014, 1.088]): slower (issue 21: before,
#     "not distinguishable (within layout noise)", a range as a gate).
#   - min_effect: 0.5% slower with 0.1% boot noise is "equivalent" at the
#     default 1% and "slower" with min_effect 0.001 in the manifest.
#   - ties at small n (before: the normal approximation): 3 vs 3 boots all
#     tied within each variant, p 0.047 "slower" -> exact 0.1; 1 baseline
#     boot vs 10 identical ones, p 0.0044 "faster" and "Yes: this smaller
#     kernel is also faster" -> 2/11; 4 vs 4, 0.013 -> 2/70.
#   - a baseline median of 0 against more (sim, l2_miss): before a null ratio
#     and "same"; the ratio infinite with the difference, "this layout only"
#     (one layout of a figure that moves with it).
#   - deterministic rows carry no p and are in no Holm family; kbench
#     compare prints "deterministic", never "p 1.000" beside a verdict;
#     "smallest is cheapest" says "tied" where two variants cost the same;
#     the whole-boot section does not repeat the correlation caveat.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
# $d/headline FILE: report.md's first paragraph under its title (the answer
# lines, issue 34, come above the title); a script, for the checks' sh -c
printf '%s\n' "awk '/^# kbench report /{ f = 1; next } f && NF { print; exit }' \"\$1\"" > "$d/headline"
needs_python 'numpy, scipy.stats' python3-scipy "layouts and noise against scipy"
needs_cmd jq "layouts and noise"

mk() { "$PY" "$TEST_SRCDIR/mkrun.py" "$1"; }
report() { "$KBENCH" report "$d/$1" > "$d/$1.out" 2> "$d/$1.err"; }
# ref RUN: every statistic of RUN against scipy (tests/stats-ref.py)
ref() {
	"$PY" "$TEST_SRCDIR/stats-ref.py" "$d/$1" > "$d/$1.ref" 2>&1
	local rc=$?
	sed 's/^#/# '"$1"':/' "$d/$1.ref" | grep -v '^# [a-z]*: [A-Z]' | grep -E 'verdicts|rank test|MISMATCH|layout'
	return $rc
}
# verdicts RUN VARIANT METRIC: the variant's verdicts over the cases, sorted and unique
verdicts() {
	jq -r "[.results[] | select(.variant == \"$2\" and .metric == \"$3\") | .verdict] | unique | join(\",\")" "$d/$1/summary.json"
}
row() { jq -c "[.results[] | select(.variant == \"$2\" and .metric == \"$3\" and .case == \"$4\")][0]" "$d/$1/summary.json"; }

sim_cases='[{"workload": "getppid", "case": "getppid", "ns": 400, "counts": {"ins_k": 263, "l1i_k": 3, "model_cycles": 400}},
	    {"workload": "pipe", "case": "pipe", "ns": 3000, "counts": {"ins_k": 2000, "l1i_k": 40, "model_cycles": 3000}}]'
pair='[{"name": "O2", "text": 2000000}, {"name": "Os", "text": 1400000}]'

# ---- (c) the only difference is layout ----
mk "{\"dir\": \"$d/null\", \"seed\": 7, \"boots\": 1, \"noise\": 0, \"backend\": \"sim\", \"layouts\": 8,
     \"layout_noise\": 0.03, \"cases\": $sim_cases, \"variants\": $pair}"
report null
v=$(verdicts null Os model_cycles_per_op)
check "layout only, 8 layouts: not distinguishable in every case ($v)" test "$v" = "not distinguishable"
check "layout only: no metric has a faster or slower row" \
	jq_true "$d/null/summary.json" '[.results[] | select(.verdict == "faster" or .verdict == "slower")] | length == 0'
check "layout only: summary.json says the unit is the build, 8 of them, min_effect 0.01" \
	jq_true "$d/null/summary.json" '.unit == "layout" and .test_unit == "build" and .layouts == 8 and .min_effect == 0.01 and
		all(.results[]; .layouts == 8 and (.layout_medians | length) == 8 and .builds == 8) and
		all(.results[] | select(.variant == "Os"); .test_unit == "build" and .replicates == [8, 8])'
check "layout only: the report's first sentence says 0 of 2 verdicts survive layout control" sh -c \
	"sh '$d/headline' '$d/null/report.md' | grep -q '^\*\*0 of 2 verdicts survive layout control\*\* (8 builds per variant, the build the unit of replication)'"
check "layout only: one layout-noise table, a row per case and variant, the range and the share of pairs beside the effect" sh -c \
	"grep -q '^### Layout noise' '$d/null/report.md' && ! grep -qE '^#+ getppid' '$d/null/report.md' &&
	 grep -qE '^\| getppid \| Os \| 8 \| [0-9.]+ \| [0-9.]+ \| [0-9.]+% \| [-+][0-9.]+% \| [0-9]+% \| not distinguishable( \(about [0-9]+ builds a side would show it (slower|faster|equivalent)\)| \(no number of builds would decide it at the effect and spread seen\))? \|' '$d/null/report.md'"
check "layout only: the forest plot in report.html shows the layouts' range as a band" sh -c \
	"[ \$(grep -c 'band is the layouts&#39; range over the baseline&#39;s median' '$d/null/report.html') -eq 1 ]"
ref null
check "layout only: every figure and verdict agrees with scipy" test $? -eq 0
check "layout only: summary.csv carries the difference, the 8 layout medians, the builds and the verdict's interval" sh -c \
	"head -n 1 '$d/null/summary.csv' | grep -q ',difference,superiority,layouts,layout_medians,builds,build_medians,verdict_lo,verdict_hi,test_unit\$' &&
	 grep '^\"getppid\",\"model_cycles_per_op\",.*,\"Os\",' '$d/null/summary.csv' | grep -qE ',0\.[0-9]+,8,([0-9.]+ ){7}[0-9.]+,8,([0-9.]+ ){7}[0-9.]+,[0-9.]+,[0-9.]+,build\$'"

# 4 builds of 3 boots each, Os's builds drawn a little higher: its 12
# boots against O2's 12 look different (before: slower, Holm p 0.04), but
# there are 4 builds a side, not 12 replicates
mk "{\"dir\": \"$d/pseudo\", \"seed\": 7, \"boots\": 3, \"noise\": 0, \"backend\": \"sim\", \"layouts\": 4, \"cases\": $sim_cases,
     \"variants\": [{\"name\": \"O2\", \"text\": 2000000, \"layout_factors\": [0.97, 0.99, 1.00, 1.02]},
		  {\"name\": \"Os\", \"text\": 1400000, \"layout_factors\": [0.99, 1.01, 1.03, 1.04]}]}"
report pseudo
v=$(verdicts pseudo Os model_cycles_per_op)
check "layout only, 3 boots per build: not distinguishable, 4 builds are 4 replicates, not 12 ($v)" sh -c \
	"[ '$v' = 'not distinguishable' ] && jq -e 'all(.results[] | select(.variant == \"Os\"); .layouts == 4 and .boots == 12 and .p >= 2/70)' '$d/pseudo/summary.json' >/dev/null"
ref pseudo
check "pseudo-replicated layouts: every figure and verdict agrees with scipy" test $? -eq 0
check "4 builds and Holm over 2 cases can never reach 0.05: the report says so, and how many builds would" \
	grep -q 'With 4 build(s) of a variant, the smallest p-value the exact rank test can give is 0.0286, and Holm over 2 cases multiplies it to 0.0571, not below 0.05: no difference can be called at this confidence. Use 5 or more builds per variant (layouts in \\\[run\\\]).' "$d/pseudo/report.md"

mk "{\"dir\": \"$d/one\", \"seed\": 7, \"boots\": 1, \"noise\": 0, \"backend\": \"sim\", \"layouts\": 1,
     \"layout_noise\": 0.03, \"cases\": $sim_cases, \"variants\": $pair}"
report one
v=$(verdicts one Os model_cycles_per_op)
check "the same kernels in one layout each: modeled cycles, which move with the layout, this layout only ($v)" test "$v" = "this layout only"
v=$(verdicts one Os ins_k_per_op)
check "one layout each: instructions, which do not move with it, a deterministic difference called ($v)" test "$v" = "slower"
check "one layout: the first sentence says no verdict is under layout control" sh -c \
	"sh '$d/headline' '$d/one/report.md' | grep -q '^\*\*0 of 2 verdicts survive layout control\*\*: each variant was measured in one layout, so 2 cases of model\\\\_cycles per operation, a figure that moves with where code lands, are \"this layout only\"'"
check "one layout: deterministic rows have no p and no Holm family" \
	jq_true "$d/one/summary.json" 'all(.results[] | select(.variant == "Os"); .p == null and (has("p_holm") | not) and (has("family") | not))'
check "one layout: the p column says deterministic, never a p beside a verdict" sh -c \
	"grep -qE '^\| getppid \| Os \| -30.0% \| 1\.0[0-9]+ \| 1\.0[0-9]+ \| deterministic \| \+1\.00 \(large\) \| this layout only \|' '$d/one/report.md' &&
	 ! grep -qE '\| [0-9.]+ \| [-+][0-9.]+( \([a-z]+\))? \| (slower|faster|this layout only) \|' '$d/one/report.md' &&
	 ! grep -q 'corrected over the 2 cases' '$d/one/report.md' &&
	 grep -q 'Holm-corrected over each variant.s cases (no case has a test here)' '$d/one/report.md'"

# ---- virtual layouts (sim_virtual_layouts): each one replicate ----
# one built layout of each, 8 virtual layouts beside it (the samples'
# vl_<field> arrays); instructions do not move with them
mk "{\"dir\": \"$d/virt\", \"seed\": 7, \"boots\": 1, \"noise\": 0, \"backend\": \"sim\", \"virtual_layouts\": 8,
     \"virtual_noise\": 0.03, \"cases\": $sim_cases, \"variants\": $pair}"
report virt
check "virtual layouts only: misses and cycles not distinguishable, instructions the same" sh -c "
	[ '$(verdicts virt Os l1i_k_per_op)' = 'not distinguishable' ] && [ '$(verdicts virt Os model_cycles_per_op)' = 'not distinguishable' ] &&
	[ '$(verdicts virt Os ins_k_per_op)' = 'same' ]"
check "virtual layouts: 1 x (8+1) replicates of misses and cycles, instructions by boot" \
	jq_true "$d/virt/summary.json" '.unit == "layout" and .test_unit == "virtual layout" and .layouts == 1 and .virtual_layouts == 8 and
		all(.results[] | select(.metric == "l1i_k_per_op" or .metric == "model_cycles_per_op");
			.layouts == 9 and .layout_virtual == [range(9)] and .layout_ids == [range(9) | 0]) and
		all(.results[] | select(.metric == "ins_k_per_op"); has("layouts") | not)'
check "virtual layouts: the first sentence says under simulated layouts of one build, 9 of them" sh -c \
	"sh '$d/headline' '$d/virt/report.md' | grep -q '^\*\*0 of 2 verdicts survive layout control, under simulated layouts of one build\*\* (1 build per variant in 9 layouts: its own addresses and 8 virtual ones' &&
	 grep -q '| verdict (under simulated layouts of one build) |' '$d/virt/report.md'"
ref virt
check "virtual layouts only: every figure and verdict agrees with scipy" test $? -eq 0
# a run whose seed kbench drew (seed = 0): its first line says so
"$PY" -c 'import json, sys; p = sys.argv[1] + "/manifest.json"; m = json.load(open(p)); m["seed_drawn"] = True; json.dump(m, open(p, "w"))' "$d/virt"
report virt
check "seed = 0: the report's first line says the layouts were drawn at random, and summary.json says so" sh -c \
	"sh '$d/headline' '$d/virt/report.md' | grep -q '^This run.s layouts were drawn at random (\\[run\\] seed = 0; the seed drawn was 7)' &&
	 jq -e '.seed_drawn == true' '$d/virt/summary.json' > /dev/null"
mk "{\"dir\": \"$d/virt-effect\", \"seed\": 9, \"boots\": 1, \"noise\": 0, \"backend\": \"sim\", \"virtual_layouts\": 8,
     \"virtual_noise\": 0.02, \"cases\": $sim_cases,
     \"variants\": [{\"name\": \"O2\", \"text\": 2000000}, {\"name\": \"Os\", \"text\": 1400000, \"factor\": 0.9}]}"
report virt-effect
v=$(verdicts virt-effect Os model_cycles_per_op)
check "10% fewer cycles over 2% virtual-layout noise: faster in every case ($v)" test "$v" = "faster"
ref virt-effect
check "virtual layouts, real effect: every figure and verdict agrees with scipy" test $? -eq 0

# ---- a real effect beyond the layout noise ----
mk "{\"dir\": \"$d/effect\", \"seed\": 9, \"boots\": 1, \"noise\": 0, \"backend\": \"sim\", \"layouts\": 8,
     \"layout_noise\": 0.02, \"cases\": $sim_cases,
     \"variants\": [{\"name\": \"O2\", \"text\": 2000000}, {\"name\": \"Os\", \"text\": 1400000, \"factor\": 0.9}]}"
report effect
v=$(verdicts effect Os model_cycles_per_op)
check "10% fewer cycles over 2% layout noise: faster in every case ($v)" test "$v" = "faster"
check "real effect: Holm p < 0.05, and the first sentence says 2 of 2 survive" sh -c \
	"jq -e 'all(.results[] | select(.variant == \"Os\" and .metric == \"model_cycles_per_op\"); .p_holm < 0.05 and .family == 2)' '$d/effect/summary.json' >/dev/null &&
	 sh '$d/headline' '$d/effect/report.md' | grep -q '^\*\*2 of 2 verdicts survive layout control\*\*' &&
	 grep -q 'Holm-corrected over each variant.s cases (2 here)' '$d/effect/report.md'"
ref effect
check "real effect: every figure and verdict agrees with scipy" test $? -eq 0

# ---- significant, and the interval beyond the margin, inside the range of the builds ----
mk "{\"dir\": \"$d/within\", \"seed\": 9, \"boots\": 2, \"noise\": 0, \"backend\": \"sim\", \"layouts\": 8, \"cases\": $sim_cases,
     \"variants\": [{\"name\": \"O2\", \"text\": 2000000, \"layout_factors\": [1.00, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07]},
		  {\"name\": \"Os\", \"text\": 1400000, \"layout_factors\": [1.05, 1.06, 1.07, 1.08, 1.09, 1.10, 1.11, 1.12]}]}"
report within
r=$(row within Os model_cycles_per_op getppid)
check "a 5% shift overlapping a 7% range of builds: Holm p < 0.05, the interval above 1.01: slower ($r)" sh -c \
	"echo '$r' | jq -e '.p_holm < 0.05 and .verdict_ci[0] > 1.01 and .verdict == \"slower\" and .noise > (.difference | fabs) and has(\"below_noise\") == false' >/dev/null"
check "the report shows the range and the share of pairs as description beside the verdict" \
	grep -qE '^\| getppid \| Os \| 8 \| 420\.0 \| 448\.0 \| 6\.45% \| \+4\.8% \| 93% \| slower \|' "$d/within/report.md"
ref within
check "within the noise: every figure and verdict agrees with scipy" test $? -eq 0

# ---- min_effect: from the manifest, default 1% ----
clock_cases='[{"workload": "getppid", "case": "getppid", "ns": 400}]'
for me in "" 0.001; do
	mk "{\"dir\": \"$d/small$me\", \"seed\": 3, \"boots\": 10, \"noise\": 0.001, \"cases\": $clock_cases
	     ${me:+, \"min_effect\": $me},
	     \"variants\": [{\"name\": \"O2\", \"text\": 2000000}, {\"name\": \"Os\", \"text\": 1400000, \"factor\": 1.005}]}"
	report small$me
done
r=$(row small Os ns_per_op getppid)
check "0.5% slower, p tiny, default min_effect 1%: equivalent, never slower ($r)" sh -c \
	"echo '$r' | jq -e '.p_holm < 0.001 and .verdict == \"equivalent\" and .ratio_ci[0] > 0.99 and .ratio_ci[1] < 1.01' >/dev/null"
check "every case equivalent: the claim says so" sh -c \
	"jq -e '.size_speed[0].answer == \"equivalent\" and .size_speed[0].equivalent == 1' '$d/small/summary.json' >/dev/null &&
	 grep -q 'Equivalent: no case differs by the minimum effect or more' '$d/small/report.md'"
r=$(row small0.001 Os ns_per_op getppid)
check "the same with min_effect 0.001 in the run's manifest: slower ($r)" sh -c \
	"echo '$r' | jq -e '.verdict == \"slower\"' >/dev/null && jq -e '.min_effect == 0.001' '$d/small0.001/summary.json' >/dev/null"
ref small
check "min_effect: every figure and verdict agrees with scipy" test $? -eq 0

# ---- ties at small n: the exact permutation test ----
tie_cases='[{"workload": "getppid", "case": "getppid", "ns": 400}]'
mk "{\"dir\": \"$d/tie3\", \"seed\": 2, \"boots\": 3, \"noise\": 0, \"cases\": $tie_cases,
     \"variants\": [{\"name\": \"O2\", \"text\": 2000000}, {\"name\": \"Os\", \"text\": 1400000, \"factor\": 1.5}]}"
mk "{\"dir\": \"$d/tie4\", \"seed\": 2, \"boots\": 4, \"noise\": 0, \"cases\": $tie_cases,
     \"variants\": [{\"name\": \"O2\", \"text\": 2000000}, {\"name\": \"Os\", \"text\": 1400000, \"factor\": 1.5}]}"
mk "{\"dir\": \"$d/tie1\", \"seed\": 2, \"boots\": 10, \"noise\": 0, \"cases\": $tie_cases,
     \"boot_failures\": [[\"O2\", 2, \"timeout\", \"x\"], [\"O2\", 3, \"timeout\", \"x\"], [\"O2\", 4, \"timeout\", \"x\"],
			[\"O2\", 5, \"timeout\", \"x\"], [\"O2\", 6, \"timeout\", \"x\"], [\"O2\", 7, \"timeout\", \"x\"],
			[\"O2\", 8, \"timeout\", \"x\"], [\"O2\", 9, \"timeout\", \"x\"], [\"O2\", 10, \"timeout\", \"x\"]],
     \"variants\": [{\"name\": \"O2\", \"text\": 2000000}, {\"name\": \"Os\", \"text\": 1400000, \"factor\": 0.5}]}"
for r in tie3 tie4 tie1; do report $r; done
r=$(row tie3 Os ns_per_op getppid)
check "3 vs 3 boots, all tied within each: exact p 0.1, not distinguishable (was 0.047, slower) ($r)" sh -c \
	"echo '$r' | jq -e '.p_exact and (.p - 0.1 | fabs) < 1e-12 and .verdict == \"not distinguishable\"' >/dev/null &&
	 grep -q 'smallest p-value the exact rank test can give is 0.1' '$d/tie3/report.md'"
r=$(row tie4 Os ns_per_op getppid)
check "4 vs 4, all tied within each: exact p 2/70 (was 0.013) ($r)" sh -c \
	"echo '$r' | jq -e '(.p - 2/70 | fabs) < 1e-12 and .verdict == \"slower\"' >/dev/null"
r=$(row tie1 Os ns_per_op getppid)
check "1 baseline boot vs 10 identical: p 2/11, not distinguishable (was 0.0044, faster) ($r)" sh -c \
	"echo '$r' | jq -e '.boots == 10 and (.p - 2/11 | fabs) < 1e-12 and .verdict == \"not distinguishable\"' >/dev/null &&
	 ! grep -q 'Yes: this smaller kernel is also faster' '$d/tie1/report.md'"
for r in tie3 tie4 tie1; do
	ref $r
	check "$r: every figure and verdict agrees with scipy's permutation test" test $? -eq 0
done

# ---- a baseline median of 0; tied cheapest; deterministic compare ----
zero_cases='[{"workload": "getppid", "case": "getppid", "ns": 400, "counts": {"model_cycles": 400, "l2_miss": 0.5}}]'
mk "{\"dir\": \"$d/zero\", \"seed\": 2, \"boots\": 1, \"noise\": 0, \"backend\": \"sim\", \"cases\": $zero_cases,
     \"variants\": [{\"name\": \"O2\", \"text\": 2000000, \"count_factors\": {\"l2_miss\": 0}},
		  {\"name\": \"Os\", \"text\": 1400000, \"factor\": 1.02},
		  {\"name\": \"Oz\", \"text\": 1300000, \"count_factors\": {\"l2_miss\": 0}}]}"
report zero
r=$(row zero Os l2_miss_per_op getppid)
check "baseline 0 against 0.51 L2 misses per op, one layout: this layout only, ratio infinite (null), difference 0.51 ($r)" sh -c \
	"echo '$r' | jq -e '.verdict == \"this layout only\" and .ratio == null and .difference == 0.51' >/dev/null &&
	 grep -qE '^<tr><td>getppid<td>Os<td>l2_miss/op<td>0\.51<td>inf \(\+0\.51\)<td>' '$d/zero/report.html'"
check "0 against 0: the same" sh -c "echo '$(row zero Oz l2_miss_per_op getppid)' | jq -e '.verdict == \"same\" and .ratio == 1' >/dev/null"
check "smallest (Oz) costs exactly the baseline's least: 'tied', not 'no'" sh -c \
	"jq -e '[.correlation[] | select(.metric == \"model_cycles_per_op\")][0] | .smallest == \"Oz\" and .smallest_is_fastest and .cheapest_tied == 1' '$d/zero/summary.json' >/dev/null &&
	 grep -qE '^\| getppid \| model\\\\_cycles/op \| 3 \| .* \| Oz \| O2 \| tied \|' '$d/zero/report.md'"
mk "{\"dir\": \"$d/zero2\", \"seed\": 2, \"boots\": 1, \"noise\": 0, \"backend\": \"sim\", \"cases\": $zero_cases,
     \"variants\": [{\"name\": \"O2\", \"text\": 2000000, \"count_factors\": {\"l2_miss\": 0}},
		  {\"name\": \"Os\", \"text\": 1400000, \"factor\": 1.1},
		  {\"name\": \"Oz\", \"text\": 1300000, \"count_factors\": {\"l2_miss\": 0}}]}"
report zero2
"$KBENCH" compare "$d/zero" "$d/zero2" > "$d/cmp.md" 2>&1
check "kbench compare on deterministic runs of one layout: 'deterministic' and this layout only, never a p" sh -c \
	"grep -qE '^\| getppid \| Os \| model\\\\_cycles/op \| 408\.0 \| 440\.0 \| 1\.078 \| deterministic \| \+1\.00 \| this layout only \|' '$d/cmp.md' &&
	 ! grep -qE '\| [0-9.]+ \| [-+][0-9.]+ \| (slower|faster|this layout only) \|' '$d/cmp.md'"

# ---- the whole-boot section says the correlation caveat no more ----
"$PY" - "$d/tie3" <<'PY'
import json, sys
d = sys.argv[1]
with open(d + "/samples.jsonl", "a") as f:
    for v, base in (("O2", 1.2e9), ("Os", 1.25e9)):
        for i in range(5):
            f.write(json.dumps({"variant": v, "boot": 100 + i, "workload": "boot", "case": "boot", "rep": 1,
                                "iterations": 1, "ns": base + i * 1e7, "ns_per_op": base + i * 1e7,
                                "backend": "hyperfine", "accel": "tcg", "fields": {}}) + "\n")
PY
report tie3
check "whole boots reported, the correlation caveat said once" sh -c \
	"grep -q '^### Whole boot (hyperfine)' '$d/tie3/report.md' &&
	 [ \$(grep -c 'rank correlation between size and cost is +1 or -1' '$d/tie3/report.md') -eq 1 ]"
test_done
