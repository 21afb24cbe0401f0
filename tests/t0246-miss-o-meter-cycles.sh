#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The miss-o-meter's modeled cycles per function (issue 24, item 6), on a
# real sim run of the cached O2 and Os kernels:
# - every region's blocks, attributed to functions, sum to the region's
#   block cycles as the sim backend prices them (kbench blocks: the
#   functions' sum beside kb_mca_blocks_file's total), and every case's
#   functions (with the user blocks) to its regions' over their iterations
#   (tests/miss-o-meter-cycles-ref.py);
# - one function's cycles per operation equal an independent recomputation:
#   its blocks found with awk in the blocks file by System.map's address
#   range, each priced by llvm-mc and llvm-mca by hand, times executions;
# - the list of functions whose cycles grow while their instructions do
#   not obeys its rule in every row, and is the top of all that do;
# - text and JSON say which figures are modeled (the CPU named) and which
#   simulated; summary.json and report.md carry the list;
# - report.md's first function row is the largest |delta cycles/op| of
#   summary.json's miss_o_meter (issue 34).
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
d=$(scratch)
needs_kernel_source "miss-o-meter cycles"
needs_cmd llvm-mca "miss-o-meter cycles"
needs_cmd llvm-mc "miss-o-meter cycles"
needs_cmd jq "miss-o-meter cycles"
needs_python json python3 "miss-o-meter cycles"

write_tcg_conf "$d/v.conf" backend=sim samples=2 workloads=getppid,poll,pipe output="$d/r"
run_in "$d" "$KBENCH" run "$d/v.conf"
check "sim run of O2 and Os (rc $rc)" test $rc -eq 0
sim=$run

"$KBENCH" miss-o-meter --json "$sim" > "$d/m.json" 2> "$d/m.err"
rc=$?
sed 's/^/# /' "$d/m.err"
check "miss-o-meter --json: exit 0, cycles modeled by llvm-mca for skylake (the run names no sim_cpu)" sh -c \
	"[ $rc -eq 0 ] && jq -e '.cycles_model | test(\"llvm-mca, -mcpu=skylake\$\")' '$d/m.json' >/dev/null"
check "every case of O2 -> Os has modeled kernel cycles" \
	jq_true "$d/m.json" '.pairs[0].cases | length == 3 and all(.cycles_k | all(. > 0))'

# kbench blocks on every boot's blocks file, with its build's System.map
mkdir -p "$d/blocks"
all=1
for b in "$sim"/boots/*.blocks; do
	n=$(basename "$b" .blocks)
	v=${n%-*}
	layout=$(jq -r --arg v "$v" --argjson n "${n##*-}" \
		'select(.variant == $v and .vboot == $n) | .layout // 0' "$sim/boots.jsonl" | head -n 1)
	map=$sim/variants/$v/System.map
	[ "${layout:-0}" = 0 ] || map=$sim/variants/$v/layout-$layout/System.map
	"$KBENCH" blocks --json --map "$map" "$b" > "$d/blocks/$n.json" 2> "$d/blocks/$n.err" || all=0
done
check "kbench blocks --json --map prices every boot's blocks file" test $all = 1
"$PY" "$TEST_SRCDIR/miss-o-meter-cycles-ref.py" "$sim" "$d/m.json" "$d/blocks" > "$d/ref.out" 2>&1
rc=$?
sed 's/^/# /' "$d/ref.out" | tail -n 12
check "per-function cycles sum to each region's block cycles and agree with kbench blocks; the list is the top of all functions whose cycles grow while instructions do not" \
	test $rc -eq 0
check "every row of the list: cycles grow, instructions do not (as many or fewer)" \
	jq_true "$d/m.json" '[.pairs[].cycles_grow_instructions_not[]] | length > 0 and
		all(.cycles[1] > .cycles[0] and .ins[1] <= .ins[0])'

# One function, recomputed by hand: O2's function with the most cycles in
# getppid whose blocks are all plain (at most 20 instructions, no rep
# string, no lock prefix, none llvm-mca has no figure for, each run at
# least 3 times in the boot, so not priced by its instructions: priced by
# llvm-mca alone, 100 iterations, pushes and pops of registers as moves) and
# whose name is its own in System.map (no other symbol merges into it).
map=$sim/variants/O2/System.map
blocks=$sim/boots/O2-1.blocks
seqs=$(jq -r 'select(.variant == "O2" and .vboot == 1 and .case == "getppid") | .region' "$sim/sim.jsonl" | tr '\n' ' ')
iters=$(jq -s '[.[] | select(.variant == "O2" and .case == "getppid") | .iterations] | add' "$sim/samples.jsonl")
# by_hand NAME: its cycles per operation in getppid, or nothing when not plain
by_hand() {
	awk -v f="$1" '$2 ~ /^[tTwW]$/ { a = strtolnum($1) } $2 ~ /^[tTwW]$/ && $3 == f { lo = a; want = 1; next }
		$2 ~ /^[tTwW]$/ && want && a > lo { printf "%.0f %.0f\n", lo, a; exit }
		function strtolnum(h,  i, n, c) { n = 0; h = tolower(h); for (i = 1; i <= length(h); i++) {
			c = index("0123456789abcdef", substr(h, i, 1)) - 1; n = n * 16 + c } return n }' "$map" > "$d/range"
	[ -s "$d/range" ] || return 0
	# its units in the blocks file, and their executions in getppid's regions
	awk -v seqs="$seqs" -v lo="$(cut -d' ' -f1 "$d/range")" -v hi="$(cut -d' ' -f2 "$d/range")" '
		function strtolnum(h,  i, n, c) { n = 0; h = tolower(substr(h, 3)); for (i = 1; i <= length(h); i++) {
			c = index("0123456789abcdef", substr(h, i, 1)) - 1; n = n * 16 + c } return n }
		BEGIN { split(seqs, s, " "); for (i in s) want[s[i]] = 1 }
		$1 == "b" { va = strtolnum($3); if (va >= lo && va < hi) { hex[$2] = $6; ins[$2] = $4 + $5 } }
		$1 == "x" { all[$3] += $4 }
		$1 == "x" && want[$2] && ($3 in hex) { n[$3] += $4 }
		END { for (u in n) print hex[u], ins[u], n[u], all[u] }' "$blocks" > "$d/units"
	[ -s "$d/units" ] || return 0
	: > "$d/costs"
	while read -r hex ins n all; do
		[ "$ins" -le 20 ] && [ "$all" -ge 3 ] || return 0
		echo "$hex" | sed 's/../0x& /g' | llvm-mc --disassemble -triple=i386-linux-gnu 2>/dev/null |
			grep -v '^\s*\.' > "$d/one.s"
		[ "$(wc -l < "$d/one.s")" -eq "$ins" ] || return 0
		! grep -Eq '^\s*(rep|lock)' "$d/one.s" || return 0
		# an instruction llvm-mca has no figure for (its placeholder latency, 100): not plain
		llvm-mca -mtriple=i386-linux-gnu -mcpu=skylake -iterations=1 "$d/one.s" 2>/dev/null |
			awk '/Instructions:$/ && /\[1\]/ { t = 1; next } t && NF == 0 { exit }
				t && $2 ~ /^[0-9]+$/ && $2 + 0 >= 100 { bad = 1 } END { exit !bad }' &&
			return 0
		# pushes and pops of registers as the stores and loads a stack engine issues
		sed -E 's/^\s*pushl\s+(%e[a-z]+)$/movl\t\1, (%esp)/; s/^\s*popl\s+(%e[a-z]+)$/movl\t(%esp), \1/;
			s/^\s*pushl\s+\$.*/movl\t$0, (%esp)/' "$d/one.s" > "$d/one-se.s"
		c=$(llvm-mca -mtriple=i386-linux-gnu -mcpu=skylake -iterations=100 "$d/one-se.s" 2>/dev/null |
			awk '/^Iterations:/ { i = $2 } /^Total Cycles:/ { print $3 / i }')
		echo "$n $c" >> "$d/costs"
	done < "$d/units"
	awk -v it="$iters" '{ s += $1 * $2 } END { printf "%.9g\n", s / it }' "$d/costs"
}
fn= want= got=
for f in $(jq -r '.pairs[0].cases[] | select(.case == "getppid") | .functions |
		map(select(.cycles[0] > 0 and (.function | test("^[A-Za-z0-9_]+$")))) |
		sort_by(-.cycles[0]) | .[].function' "$d/m.json" | head -n 12); do
	# its name alone: no other text symbol that bloat-o-meter's name merges into it
	[ "$(awk '$2 ~ /^[tTwW]$/ { n = $3; gsub(/\.[0-9]+/, "", n); print n }' "$map" | grep -cx "$f")" = 1 ] || continue
	want=$(by_hand "$f")
	[ -n "$want" ] || continue
	fn=$f
	got=$(jq -r --arg f "$f" '.pairs[0].cases[] | select(.case == "getppid") | .functions[] |
		select(.function == $f) | .cycles[0]' "$d/m.json")
	break
done
diag "by hand: $fn in getppid under O2, $(wc -l < "$d/costs" 2>/dev/null) blocks: $want cycles/op; miss-o-meter $got"
check "one function's cycles per operation ($fn) equal its blocks priced by hand with llvm-mc and llvm-mca" \
	awk -v a="$want" -v b="$got" 'BEGIN { exit !(a != "" && b != "" && (a - b) / a < 1e-5 && (b - a) / a < 1e-5) }'

# the text: the list, labelled; the columns of cycles beside instructions
"$KBENCH" miss-o-meter "$sim" > "$d/m.out" 2>&1
check "text: a list headed cycles grow, instructions do not, the model named" \
	grep -q '^cycles grow, instructions do not: O2 -> Os, the [0-9]* kernel functions .*modeled: block costs by LLVM .* llvm-mca, -mcpu=skylake' "$d/m.out"
check "text: each case's kernel cycles, labelled modeled, beside simulated instructions" sh -c \
	"[ \$(grep -c '^kernel cycles .* modeled: block costs by LLVM .*-mcpu=skylake' '$d/m.out') -eq 3 ] &&
	 [ \$(grep -c '^case [a-z]*: O2 -> Os, per operation (simulated' '$d/m.out') -eq 3 ]"
"$KBENCH" miss-o-meter --cpu znver3 --case getppid "$sim" > "$d/zn.out" 2>&1
check "--cpu znver3: cycles modeled for that CPU" grep -q 'llvm-mca, -mcpu=znver3' "$d/zn.out"

# the report: summary.json and report.md carry the list
check "summary.json: the list, with its model, rows as the miss-o-meter's" sh -c \
	"jq -e '.function_cycles.model | test(\"-mcpu=skylake\")' '$sim/summary.json' >/dev/null &&
	 [ \"\$(jq -c '[.function_cycles.cycles_grow_instructions_not[0].functions[] |
		[.function, .case, (.cycles | map(. * 1e6 | round))]]' '$sim/summary.json')\" = \
	   \"\$(jq -c '[.pairs[0].cycles_grow_instructions_not[] |
		[.function, .case, (.cycles | map(. * 1e6 | round))]]' '$d/m.json')\" ]"
check "report.md: the section, the model named" sh -c \
	"grep -q '^### Cycles that grow where instructions do not (modeled)' '$sim/report.md' &&
	 grep -q 'priced by LLVM .* llvm-mca, -mcpu=skylake' '$sim/report.md'"

# without llvm-mca: the simulated figures as before, and why no cycles
mkdir -p "$d/bin"
for t in jq; do ln -s "$(command -v $t)" "$d/bin/$t"; done
PATH="$d/bin" "$KBENCH" miss-o-meter --case getppid "$sim" > "$d/nollvm.out" 2> "$d/nollvm.err"
rc=$?
check "without llvm-mca: exit 0, instructions as before, cycles not modeled, Debian's package named" sh -c \
	"[ $rc -eq 0 ] && grep -q '^kernel instructions' '$d/nollvm.out' &&
	 grep -q '^kernel cycles: not modeled' '$d/nollvm.out' && grep -q \"package 'llvm'\" '$d/nollvm.err'"
# issue 34, item 2: the first screen's first function row is the run's
# largest |delta cycles/op| (the verdict's metric) of summary.json's
# miss_o_meter, the report itself rendered by kbench report
"$KBENCH" report "$sim" > /dev/null 2> "$d/report.err"
"$PY" - "$sim" > "$d/toprow" 2>&1 <<'PY'
import json, re, sys
run = sys.argv[1]
s = json.load(open(run + "/summary.json"))
rows = [(abs(f["cycles"][1] - f["cycles"][0]), f["name"], m["case"], f["cycles"][1] - f["cycles"][0])
        for m in s["miss_o_meter"] for f in m["functions"] if f.get("cycles")]
best = max(rows)
md = open(run + "/report.md").read().split("\n")
i = next(k for k, l in enumerate(md) if l.startswith("**Functions behind the difference**"))
first = next(l for l in md[i + 1:] if l.startswith("| ") and not l.startswith("| function") and not l.startswith("|---"))
cells = [c.strip().replace("\\_", "_") for c in first.strip("|").split("|")]
delta = float(cells[3].split()[0])
ok = cells[0] == best[1] and cells[1] == best[2] and abs(delta - best[3]) <= 0.05 + 1e-9
print("%s: first row %s in %s, %+.1f; summary.json's largest |delta cycles/op| %s in %s, %+.1f" %
      ("yes" if ok else "no", cells[0], cells[1], delta, best[1], best[2], best[3]))
PY
sed 's/^/# /' "$d/toprow"
check "report.md: the first function behind the difference is the largest |delta cycles/op| of summary.json" \
	grep -q '^yes:' "$d/toprow"
test_done
