#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Virtual layouts as layout replicates (issue 13), on a real kernel (O2,
# from the build cache) under the sim backend with sim_virtual_layouts = 4:
#   - every sample carries each virtual layout's value of the layout-dependent
#     fields (vl_l1i_k, vl_l1i_u, vl_l1i_fill, vl_l2_miss, vl_model_cycles),
#     equal to sim.jsonl's arrays; no vl_ field is a metric of its own
#   - the L1i-miss rows have 1 x (4+1) = 5 layout replicates per variant: the
#     built layout's figure per operation, then each virtual layout's, each
#     the median over the boot's samples (recomputed here with jq from
#     sim.jsonl and the samples' iterations); instructions keep 1 replicate
#   - the same kernel run again with another [run] seed (its virtual
#     layouts elsewhere), named O2-moved in a run directory made of the two:
#     a pair whose only difference is layout is "not distinguishable" on the
#     misses and cycles, "same" on instructions; the report says the
#     verdicts rest on 5 layouts of one build ("under simulated layouts of
#     one build") and shows the layout noise
#   - every figure of that run agrees with tests/stats-ref.py (scipy)
#   - a run from before (min/med/max summaries in the samples instead of the
#     arrays) is read as before virtual layouts: no vl_ metric, boots the
#     replicates.
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
d=$(scratch)
needs_kernel_source "sim virtual layouts as replicates"
needs_cmd jq "sim virtual layouts as replicates"

conf() {	# conf SEED OUT
	write_tcg_conf "$d/vl$1.conf" backend=sim boots=1 samples=2 workloads=getppid,pipe seed=$1 \
		sim_l1i=32K:8:64 sim_l2=1M:16:64 sim_virtual_layouts=4 timeout=240 output="$2" -- O2
}
conf 7 "$d/a"
run_in "$d" "$KBENCH" run "$d/vl7.conf"
check "kbench run (seed 7, 4 virtual layouts) exits 0 (got $rc)" test $rc -eq 0
[ $rc -eq 0 ] || sed 's/^/# /' "$d/run.err" | tail -n 30
a=$run

# (and, where llvm-mca priced the blocks, the two mca_cycles: issue 24)
check "every sample carries 4 values per layout-dependent field, none for instructions" jq_all "$a/samples.jsonl" '
	length == 4 and all(.[].fields; . as $f |
		(["vl_l1i_k", "vl_l1i_u", "vl_l1i_fill", "vl_l2_miss", "vl_model_cycles"] +
		 if has("mca_cycles") then ["vl_mca_cycles", "vl_mca_cycles_alt"] else [] end) as $vl |
		all($vl[]; $f[.] | type == "array" and length == 4 and all(type == "number")) and
		(has("vl_ins_k") | not) and (keys | map(select(startswith("vl_"))) | length) == ($vl | length))'
# the samples' arrays are sim.jsonl's, region by region (L2: kernel + user)
check "the samples' arrays are sim.jsonl's (kernel L1i, L2 kernel + user, modeled cycles)" sh -c "
	jq -sc 'map({k: [.vboot, .case, .rep], v: [.vl_l1i_miss_k, ([.vl_l2_miss_k, .vl_l2_miss_u] | transpose | map(add)), .vl_model_cycles]}) | sort_by(.k)' '$a/sim.jsonl' > '$d/from-sim'
	jq -sc 'map({k: [.vboot, .case, .rep], v: [.fields.vl_l1i_k, .fields.vl_l2_miss, .fields.vl_model_cycles]}) | sort_by(.k)' '$a/samples.jsonl' > '$d/from-samples'
	cmp -s '$d/from-sim' '$d/from-samples'"
check "no vl_ field is a metric of its own in summary.json" \
	jq_true "$a/summary.json" '(.metrics | length) > 3 and all(.metrics[].name; startswith("vl_") | not)'
check "summary.json: L1i misses, L2 misses and cycles by 1 x (4+1) layouts, instructions and time by boot" \
	jq_true "$a/summary.json" '.virtual_layouts == 4 and .unit == "layout" and .layouts == 1 and
		(.metrics | map({(.name): .replicates}) | add) as $r |
		all(["l1i_k_per_op", "l1i_u_per_op", "l1i_fill_per_op", "l2_miss_per_op", "model_cycles_per_op"][];
			$r[.] == {unit: "layout", test_unit: "virtual layout", built_layouts: 1, virtual_layouts: 4,
				  per_variant: 5}) and
		all(["ins_k_per_op", "ins_u_per_op", "ns_per_op"][]; $r[.].unit == "boot" and $r[.].virtual_layouts == 0)'

# The replicates recomputed: per case, layout k (0: the built one) the
# median over the boot's samples of the count per operation.
jq -s '(map(select(.fields)) | map({key: "\(.vboot) \(.case) \(.rep)", value: .iterations}) | from_entries) as $it |
	map(select(.fields | not)) | group_by(.case) | map({case: .[0].case,
		reps: ([[.[] | (.l1i_miss_k / $it["\(.vboot) \(.case) \(.rep)"])]] +
		       [range(4) as $k | [.[] | (.vl_l1i_miss_k[$k] / $it["\(.vboot) \(.case) \(.rep)"])]]) |
		      map(sort | if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end)})' \
	"$a/samples.jsonl" "$a/sim.jsonl" > "$d/want"
jq '[.results[] | select(.metric == "l1i_k_per_op") | {case, reps: .layout_medians, ids: .layout_ids, virt: .layout_virtual}]' \
	"$a/summary.json" > "$d/got"
jq -r '.[] | "\(.case): kernel L1i misses per operation, built then 4 virtual layouts: \(.reps)"' "$d/got" | while read -r l; do diag "$l"; done
check "L1i misses: 5 replicates per case, the built figure then sim.jsonl's 4 per operation" \
	jq -se '.[0] as $w | .[1] as $g | ($g | length) == 2 and all($g[]; .ids == [0, 0, 0, 0, 0] and .virt == [0, 1, 2, 3, 4]) and
		all($w[]; . as $x | ($g[] | select(.case == $x.case) | .reps) as $r |
			($r | length) == 5 and all(range(5); ($r[.] - $x.reps[.] | fabs) <= 1e-9 * ($x.reps[.] | fabs) + 1e-12))' \
	"$d/want" "$d/got"
check "instructions keep 1 replicate (the boot): no layouts" \
	jq_true "$a/summary.json" 'all(.results[] | select(.metric == "ins_k_per_op"); .boots == 1 and (has("layouts") | not))'

# The same kernel, its virtual layouts drawn from another seed: a pair whose
# only difference is where the kernel's functions sit.
conf 8 "$d/b"
run_in "$d" "$KBENCH" run "$d/vl8.conf"
check "kbench run (seed 8) exits 0 (got $rc)" test $rc -eq 0
b=$run
m=$d/pair
mkdir -p "$m"
jq --slurpfile b "$b/manifest.json" '.variants += [$b[0].variants[0] | .name = "O2-moved"]' \
	"$a/manifest.json" > "$m/manifest.json"
for f in samples boots sim; do
	{ cat "$a/$f.jsonl"; jq -c '.variant = "O2-moved" | .boot += 100' "$b/$f.jsonl"; } > "$m/$f.jsonl"
done
"$KBENCH" report "$m" > "$d/pair.out" 2>&1
check "kbench report on the pair exits 0" test $? -eq 0
check "the built layout is the same kernel: the same L1i misses, other virtual ones" \
	jq_true "$m/summary.json" '[.results[] | select(.metric == "l1i_k_per_op")] | group_by(.case) |
		all(.[]; .[0].layout_medians[0] == .[1].layout_medians[0] and .[0].layout_medians != .[1].layout_medians)'
verdicts() { jq -r "[.results[] | select(.variant == \"O2-moved\" and .metric == \"$1\") | .verdict] | unique | join(\",\")" "$m/summary.json"; }
v=$(verdicts l1i_k_per_op)
check "layout only: L1i misses not distinguishable in both cases ($v)" test "$v" = "not distinguishable"
# cycles: a layout's few misses can leave them within 1% (equivalent)
v=$(verdicts model_cycles_per_op)
check "layout only: cycles never faster or slower ($v)" sh -c "[ -n '$v' ] && ! echo '$v' | grep -qE 'faster|slower|same'"
check "layout only: instructions the same (identical counts, 1 replicate)" \
	jq_true "$m/summary.json" 'all(.results[] | select(.variant == "O2-moved" and .metric == "ins_k_per_op"); .verdict == "same")'
jq -r '.results[] | select(.variant == "O2-moved" and (.metric | test("l1i_k|model_cycles"))) |
	"\(.case) \(.metric): O2-moved against O2 \(.ratio) (noise \(.noise), p \(.p)): \(.verdict)"' "$m/summary.json" |
	while read -r l; do diag "$l"; done
check "the report: the verdicts rest on 5 layouts of one build, its own addresses and 4 virtual ones" sh -c "
	awk '/^# kbench report /{ f = 1; next } f && NF { print; exit }' '$m/report.md' | grep -q '^\*\*0 of 2 verdicts survive layout control, under simulated layouts of one build\*\* (1 build per variant in 5 layouts: its own addresses and 4 virtual ones' &&
	grep -q 'Virtual layouts move l1i\\\\_k/op, .*model\\\\_cycles/op.*; ns/op, ins\\\\_k/op, ins\\\\_u/op do not change' '$m/report.md'"
# (issue 25: one layout-noise table of the primary metric, mca_cycles or model_cycles, in
# report.md, a row per case and variant; every metric's rows, the misses'
# and the instructions' asserted as before, in report.html)
check "the report: one layout-noise table, cycles over 5 layouts; misses and cycles beside instructions in report.html" sh -c "
	grep -q '^### Layout noise' '$m/report.md' &&
	[ \$(grep -cE '^\| [a-z_]+ \| O2-moved \| 5 = 1 x \(4\+1\) \| [0-9.]+ \| [0-9.]+ \| [0-9.]+% \| [-+][0-9.]+% \| [0-9]+% \| (equivalent|not distinguishable)' '$m/report.md') = 2 ] &&
	[ \$(grep -cE '<td>O2-moved<td>l1i_k/op<td>5 = 1 x \(4\+1\)<td>[0-9.]+<td>[0-9.]+<td>[0-9.]+%<td>[-+][0-9.]+%<td>[0-9]+%<td>not distinguishable' '$m/report.html') = 2 ] &&
	[ \$(grep -cE '<td>O2-moved<td>ins_k/op<td>1<td>.*<td>n/a<td>\+0\.0%<td>50%<td>same\$' '$m/report.html') = 2 ] &&
	grep -q 'aria-level=\"3\">Layout noise<' '$m/report.html'"
if find_python 'numpy, scipy.stats'; then
	"$PY" "$TEST_SRCDIR/stats-ref.py" "$m" > "$d/ref" 2>&1
	check "the pair: every figure and verdict agrees with scipy (stats-ref.py)" test $? -eq 0
	grep -E 'verdicts|MISMATCH|layout' "$d/ref" | sed 's/^/# /'
else
	skip "needs:python3-scipy" "the pair: every figure and verdict agrees with scipy"
fi

# A run directory from before: the samples' vl_ fields were min/med/max.
o=$d/old
mkdir -p "$o"
cp "$a/manifest.json" "$a/boots.jsonl" "$o/"
jq -c '.fields |= (with_entries(select(.key | startswith("vl_") | not)) +
	{vl_l1i_k_min: 1, vl_l1i_k_med: 2, vl_l1i_k_max: 3, vl_cycles_med: 4})' "$a/samples.jsonl" > "$o/samples.jsonl"
"$KBENCH" report "$o" > "$d/old.out" 2>&1
check "a run with the old vl_ summaries: reported, no vl_ metric, boots the replicates, no layout table" sh -c "
	jq -e '.virtual_layouts == 0 and .unit == \"boot\" and all(.metrics[].name; startswith(\"vl_\") | not) and
		all(.results[]; has(\"layouts\") | not)' '$o/summary.json' > /dev/null &&
	! grep -q '^### Layout noise' '$o/report.md'"
test_done
