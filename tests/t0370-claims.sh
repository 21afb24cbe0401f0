#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Claim vs measured (issue 16): the 2004 claim of claims/2004-os-faster.conf
# ("-Os is smaller and also faster"), its [claim] section taken from that
# file, run with the sim backend on real O2 and Os kernels (from the build
# cache; the first run builds them) on a reduced case list.  The report
# opens with the claim table; summary.json has it typed; the word for
# "smaller" follows binutils size of the two vmlinux; every speed word
# follows the verdicts of the speed tables; a prediction whose B is not the
# baseline (O2 vs Os) gets the mirror of the baseline's verdicts; one layout
# never supports layout sensitivity; kbench report rebuilds the same table
# from the run directory.  The run has layout control (4 virtual layouts
# of each kernel): a speed word rests only on verdicts made that way, and
# the same run without its virtual layouts (their fields taken out of
# samples.jsonl) gets no speed word but "not distinguishable" (issue 21).
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
d=$(scratch)
needs_kernel_source "claims"
needs_cmd jq "claims"
needs_cmd size "claims (binutils size)"

cases=getppid,poll,syscall_mix
write_tcg_conf "$d/variants.conf" backend=sim samples=2 workloads=$cases boot_runs=0 timeout=240 \
	sim_virtual_layouts=4 output="$d/results" -- O2 Os
# the claim as the shipped file states it, its case list narrowed to this run's
awk '/^\[/ { on = $0 == "[claim]" } on' "$TEST_SRCDIR/../claims/2004-os-faster.conf" |
	sed "/^[a-z_]* = [^ ]* vs [^ ]* on /s/ on .*/ on $cases/" >> "$d/variants.conf"
cat >> "$d/variants.conf" <<EOF
slower = O2 vs Os on $cases
layout_sensitive = Os vs O2 on getppid
EOF
sed 's/^/# /' "$d/variants.conf" | sed -n '/\[claim\]/,$p'
check "the shipped claim has a [claim] section with text and predictions" \
	sh -c "grep -q '^text = ' '$d/variants.conf' && grep -q '^smaller = Os vs O2' '$d/variants.conf'"

build_first "$d/variants.conf"
run_in "$d" "$KBENCH" run "$d/variants.conf"
check "kbench run exits 0 (got $rc)" test $rc -eq 0
[ $rc -eq 0 ] || { sed 's/^/# /' "$d/run.err" | tail -n 30; test_done; }
s=$run/summary.json

check "the manifest keeps the claim and its predictions" \
	jq_true "$run/manifest.json" '.claim.text != null and (.claim.predictions | length == 4) and
		.claim.predictions[0].kind == "smaller"'
check "summary.json: claim_made and one claims[] entry per prediction, each with a word" \
	jq_true "$s" '(.claim_made.text | length > 0) and (.claims | length == 4) and
		all(.claims[]; .word == "supported" or .word == "contradicted" or .word == "not distinguishable")'
check "the report opens with Claim vs measured, before any other section" \
	test "$(grep -m1 '^## ' "$run/report.md")" = "## Claim vs measured"
check "its table has a row per prediction, each with its word" \
	sh -c "[ \$(sed -n '/^## Claim vs measured/,/^## /p' '$run/report.md' | grep -cE '^\| (smaller|faster|slower|not faster|layout sensitive): .*\*\*(supported|contradicted|not distinguishable)\*\*') -eq 4 ]"
check "report.html has the section too" grep -q 'Claim vs measured' "$run/report.html"

# smaller: binutils size of the two kernels the run kept
text() { size "$run/variants/$1/vmlinux" | awk 'NR == 2 { print $1 }'; }
o2=$(text O2) os=$(text Os)
diag "text: O2 $o2, Os $os (binutils size)"
check "smaller: the figures are binutils size's" \
	jq_true "$s" ".claims[0].text_a == $os and .claims[0].text_b == $o2 and .claims[0].backend == \"size\""
check "Os is smaller than O2 by more than min_effect, and the word for smaller is supported" \
	sh -c "[ $os -lt $o2 ] && jq -e '.claims[0].word == \"supported\" and .claims[0].text_change < -.min_effect' '$s' >/dev/null"

# faster, Os vs O2 (the baseline): the speed tables' verdicts, case by case
jq -r '.claims[1].per_case[] | "\(.case): ratio \(.ratio) \(.verdict)"' "$s" | sed 's/^/# faster Os vs O2: /'
check "faster: the per-case verdicts are the speed tables' (Os against O2, primary metric)" \
	jq_true "$s" '.primary_metric as $m | [.results[] | select(.variant == "Os" and .metric == $m) |
		{case, verdict, ratio}] as $rows | .claims[1].per_case | length == 3 and
		all(.[]; . as $c | any($rows[]; .case == $c.case and .verdict == $c.verdict and .ratio == $c.ratio))'
check "faster: the figures are the primary metric's kind, from the sim backend" \
	jq_true "$s" '.primary_metric as $m | (.metrics[] | select(.name == $m) | .source) as $k |
		.claims[1].figures == $k and .claims[1].backend == "sim" and .claims[1].own_tests == false'
# the word follows the verdicts: supported only if faster in every case,
# contradicted if slower in one (or no case differs at all); and, with
# more than one model of cycles (mca_cycles, issue 24), only where every
# model gives that word
check "faster: the word follows the verdicts" \
	jq_true "$s" '.claims[1] | if ([.by_model[]?.word] | unique | length) > 1 then .word == "not distinguishable"
		elif .slower > 0 then .word == "contradicted"
		elif .faster == (.per_case | length) then .word == "supported"
		elif .same + .equivalent == (.per_case | length) then .word == "contradicted"
		else .word == "not distinguishable" end'

# slower, O2 vs Os: Os is not the baseline, so the pair is tested itself; a
# deterministic single layout mirrors the baseline's verdicts
check "slower O2 vs Os: tests of its own, the mirror of Os vs O2 in every case" \
	jq_true "$s" '.min_effect as $me | .claims[1].per_case as $f | .claims[2] | .own_tests == true and
		(.per_case | length == 3) and all(.per_case[]; . as $c | ($f[] | select(.case == $c.case)) as $o |
		($c.ratio * $o.ratio - 1 | fabs) < 1e-9 and
		((($o.ratio - 1 | fabs) < $me) != ((1 / $o.ratio - 1 | fabs) < $me) or
		 ({"faster": "slower", "slower": "faster"}[$o.verdict] // $o.verdict) == $c.verdict))'
check "slower O2 vs Os gets the word of faster Os vs O2" \
	jq_true "$s" '.claims[1].word == .claims[2].word'
check "one layout never supports layout sensitivity" \
	jq_true "$s" '.claims[3].kind == "layout_sensitive" and .claims[3].word != "supported" and .layouts <= 1'

cp "$s" "$d/summary.first.json"
"$KBENCH" report "$run" > /dev/null 2> "$d/report.err"
check "kbench report rebuilds the same claim table from the run directory" \
	sh -c "[ \"\$(jq -S '.claims, .claim_made' '$d/summary.first.json')\" = \"\$(jq -S '.claims, .claim_made' '$s')\" ] &&
		grep -q '^## Claim vs measured' '$run/report.md'"
sed -n '/^## Claim vs measured/,/^\*\*/p' "$run/report.md" | sed 's/^/# /'

# the same boots without their virtual layouts: one layout, no layout control
mkdir -p "$d/one"
cp "$run/manifest.json" "$run/boots.jsonl" "$d/one/"
jq -c '.fields |= with_entries(select(.key | startswith("vl_") | not))' "$run/samples.jsonl" > "$d/one/samples.jsonl"
"$KBENCH" report "$d/one" > /dev/null 2> "$d/one.err"
check "without layout control: every speed word not distinguishable, the size word as before" \
	jq_true "$d/one/summary.json" '.virtual_layouts == 0 and .layouts <= 1 and .claims[0].word == "supported" and
		all(.claims[1:][]; .word == "not distinguishable" and (.why | test("no virtual layouts")))'
test_done
