#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The developer docs stay true (issue 34, item 10): the paths they name
# exist, and results/README.md's summary.json table names the keys kbench
# report writes, no fewer and none it does not write.
#
# Paths, in results/README.md, tests/README, bench/README and doc/HACKING:
# every inline code span (text between two backticks on one line, outside
# ``` fences) without blanks that contains a '/' or ends in .c, .h, .sh,
# .py, .conf or .md is a path candidate; it is skipped when it holds one of
# < > * $ ~ { } [ ] (a placeholder or pattern: `variants/<name>/`).  A
# candidate with a '/' is a repository path when its first component (a
# leading ./ dropped) is a top-level entry of the source tree (src, tests,
# bench, doc, plugin, ...; others, such as `boots/`, are a run directory's):
# it must exist there, relative to the top of the source tree.  One without
# a '/' that ends in .c, .h, .sh or .py must be a file of that name
# somewhere in the source tree (a bare .conf or .md name is a run's file,
# `report.md`, as often as the tree's).
#
# Keys: in results/README.md, the lines of the section "## summary.json"
# up to the next heading (a line starting with '#'), that are table rows
# (start with '|'); of each, the first cell (up to the second '|'), where
# it holds a backtick (not the header "| key | what |" nor "|---|").  With
# every parenthesised remark in it removed, every name in it (letters,
# digits, '_'; backticks and a trailing [] are not part of it) is a key: at
# the top level where it is outside braces, else inside the key right
# before the '{' that opens its braces ("`kernel` {source, id}": kernel,
# kernel.source, kernel.id).  Each must be a path of keys (array indices
# skipped: jq's paths) of one of the summary.json files made below; and each
# top-level key of those files must be a top-level name of the table.
# The summaries: kbench report on run directories made by tests/mkrun.py
# without booting anything: a clock run with layouts, a failed boot and an
# outlier; a sim run (6 built layouts of 2 virtual ones each) with two
# models of cycles that disagree on every case (so that verdicts flip), its
# sim.jsonl made from its samples, hyperfine's whole-boot timing, a claim,
# a drawn seed and a duplicated sample line (so that every key written only
# where it applies is written).
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
top=$(cd "$TEST_SRCDIR/.." && pwd)

# ---- paths ----
# spans FILE: the file's inline code spans, one a line
spans() {
	awk '/^[ \t]*```/ { fence = !fence; next } !fence' "$1" |
		grep -o '`[^`]*`' | tr -d '`'
}
ls -A "$top" > "$d/top"
for doc in results/README.md tests/README bench/README doc/HACKING; do
	if [ ! -f "$top/$doc" ]; then
		not_ok "$doc exists"
		continue
	fi
	n=0 missing=
	for p in $(spans "$top/$doc" | grep -v '[][[:space:]<>*$~{}]' |
		grep -E '/|\.(c|h|sh|py|conf|md)$' | sort -u); do
		p=${p#./}
		case $p in
		*/*)
			grep -qxF "${p%%/*}" "$d/top" || continue
			n=$((n + 1))
			[ -e "$top/$p" ] || missing="$missing $p"
			;;
		*.c | *.h | *.sh | *.py)
			n=$((n + 1))
			[ -n "$(find "$top" -name "$p" -type f -print -quit)" ] || missing="$missing $p"
			;;
		esac
	done
	check "$doc: the $n repository paths it names exist${missing:+ (not found:$missing)}" \
		test -z "$missing" -a "$n" -gt 0
done

# ---- summary.json keys ----
needs_python 'json, random' python3 "summary.json keys"
needs_cmd jq "summary.json keys"
"$PY" "$TEST_SRCDIR/mkrun.py" "{\"dir\": \"$d/clock\", \"seed\": 5, \"boots\": 4, \"samples\": 3, \"noise\": 0.03,
  \"layouts\": 3, \"spikes\": [[\"Os\", 2, 1.6]], \"boot_failures\": [[\"Os\", 4, \"timeout\", \"no done\"]],
  \"cases\": [{\"workload\": \"getppid\", \"case\": \"getppid\", \"ns\": 400, \"counts\": {\"instructions\": 250}},
	    {\"workload\": \"icache\", \"case\": \"icache/k=16\", \"ns\": 700}],
  \"variants\": [{\"name\": \"O2\", \"text\": 2000000}, {\"name\": \"Os\", \"text\": 1500000, \"factor\": 0.9}]}"
"$PY" "$TEST_SRCDIR/mkrun.py" "{\"dir\": \"$d/sim\", \"seed\": 3, \"boots\": 1, \"samples\": 2, \"noise\": 0.03,
  \"backend\": \"sim\", \"layouts\": 6, \"virtual_layouts\": 2,
  \"cases\": [{\"workload\": \"getppid\", \"case\": \"getppid\", \"ns\": 400,
	      \"counts\": {\"ins_k\": 250, \"l1i_miss_k\": 3, \"model_cycles\": 600, \"mca_cycles\": 700}},
	    {\"workload\": \"icache\", \"case\": \"icache/k=16\", \"ns\": 700,
	      \"counts\": {\"ins_k\": 400, \"l1i_miss_k\": 9, \"model_cycles\": 900, \"mca_cycles\": 1000}}],
  \"variants\": [{\"name\": \"O2\", \"text\": 2000000},
	       {\"name\": \"Os\", \"text\": 1500000, \"factor\": 0.8, \"count_factors\": {\"mca_cycles\": 1.3}}]}"
s=$d/sim
# sim.jsonl: one region per sample, its kernel instructions in one function
jq -c '{variant, boot, vboot, case, rep, region: input_line_number, insn_k: .fields.ins_k,
	l1i_miss_k: .fields.l1i_miss_k, kfoot_bytes: 1000,
	functions: [["sys_getppid", .fields.ins_k, .fields.l1i_miss_k]]}' "$s/samples.jsonl" > "$s/sim.jsonl"
jq '.seed_drawn = true | .claim = {"text": "smaller and faster", "source": "t0006", "date": "2004",
	"predictions": [{"kind": "smaller", "a": "Os", "b": "O2", "cases": ["all"]},
			{"kind": "faster", "a": "Os", "b": "O2", "cases": ["all"]}]}' \
	"$s/manifest.json" > "$d/manifest" && mv "$d/manifest" "$s/manifest.json"
head -n 1 "$s/samples.jsonl" >> "$s/samples.jsonl"
for v in O2 Os; do
	for b in 1 2 3; do
		printf '{"variant": "%s", "boot": %d, "workload": "boot", "case": "boot", "rep": 1, "iterations": 1, "ns_per_op": %d.0, "backend": "hyperfine", "fields": {}}\n' \
			"$v" $((100 + b)) $((1000000000 + b * 1000000))
	done >> "$s/samples.jsonl"
	printf '{"variant": "%s", "status": "ok", "runs": 3, "warmup": 1, "ok": 3, "failed": 0, "seconds": 3.1, "accel": "tcg", "json": "boots/hyperfine-%s.json", "log": "boots/hyperfine-%s.log"}\n' \
		"$v" "$v" "$v" >> "$s/timing.jsonl"
done
ok=1
for r in clock sim; do
	"$KBENCH" report "$d/$r" > /dev/null 2> "$d/$r.err" || { ok=; sed 's/^/# /' "$d/$r.err" | tail -n 5; }
done
check "kbench report writes the summary.json of both runs" \
	sh -c "[ -n '$ok' ] && [ -s '$d/clock/summary.json' ] && [ -s '$d/sim/summary.json' ]"
[ -n "$ok" ] || test_done

# every path of keys written (array indices skipped), and the top-level keys
jq -rs '[.[] | paths | map(select(type == "string")) | select(length > 0) | join(".")] | unique[]' \
	"$d/clock/summary.json" "$d/sim/summary.json" > "$d/written"
jq -rs '[.[] | keys_unsorted[]] | unique[]' "$d/clock/summary.json" "$d/sim/summary.json" > "$d/written-top"
# the documented ones, by the rule above
awk '/^## summary\.json/ { on = 1; next } /^#/ { on = 0 } on && /^\|/' "$top/results/README.md" |
	awk -F'|' '$2 ~ /`/ {
		cell = $2
		while (gsub(/\([^()]*\)/, "", cell)) ;
		depth = 0; name = ""; last = ""
		for (i = 1; i <= length(cell) + 1; i++) {
			c = substr(cell, i, 1)
			if (c ~ /[A-Za-z0-9_]/ && c != "") { name = name c; continue }
			if (name != "") {
				path = name
				for (k = depth; k >= 1; k--) path = stack[k] "." path
				print path
				last = name; name = ""
			}
			if (c == "{") stack[++depth] = last
			else if (c == "}" && depth > 0) depth--
		}
	}' | sort -u > "$d/documented"
grep -v '\.' "$d/documented" > "$d/documented-top"
n=$(wc -l < "$d/documented")
check "results/README.md's summary.json table names keys ($n)" test "$n" -gt 40
missing=$(comm -23 "$d/documented" "$d/written" | tr '\n' ' ')
check "every key results/README.md names is in a summary.json kbench report writes${missing:+ (not written: $missing)}" \
	test -z "$missing"
undocumented=$(comm -13 "$d/documented-top" "$d/written-top" | tr '\n' ' ')
check "the sim run's verdicts flip with the model of cycles (robustness.flipped is not empty)" \
	jq_true "$d/sim/summary.json" '.robustness.flips > 0'
check "every top-level key of summary.json is in results/README.md's table${undocumented:+ (not there: $undocumented)}" \
	test -z "$undocumented"
test_done
