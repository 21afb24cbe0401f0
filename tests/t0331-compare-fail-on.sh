#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Errors one way, --fail-on and compare --json (issue 34, items 8 and 9):
# --fail-on LIST exits 4 (and nothing else does) where a verdict of the
# primary metric is one LIST names, each such case named on stderr after
# the output, and exits as before otherwise; compare --json is one document
# of format kbench-compare-1 whose figures are the runs' summary.json's; an
# unknown command, option, case, variant or word exits 2 with "did you
# mean" where one is close.  kbench run --fail-on reads the run directory
# it wrote through the code kbench report --fail-on uses (kb_fail_on_dir),
# which is what is checked here, on run directories made by mkrun.py.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
needs_python 'json, random' python3 "compare --fail-on"
needs_cmd jq "compare --fail-on"
cases='[{"workload": "getppid", "case": "getppid", "ns": 400}, {"workload": "pipe", "case": "pipe", "ns": 30000}]'
mk() { "$PY" "$TEST_SRCDIR/mkrun.py" "{\"dir\": \"$d/$1\", \"seed\": $2, \"boots\": 6, \"noise\": 0.03, \"scale\": 0.1,
  \"kernel_id\": \"sha256:k1\", \"cases\": $cases,
  \"variants\": [{\"name\": \"O2\", \"text\": 2000000}, {\"name\": \"Os\", \"text\": 1400000, \"factor\": $3}]}"; }
mk a 1 0.9	# Os 10% faster than O2
mk b 2 1.0	# Os as O2: 11% slower than in A

# compare --fail-on: B against A
"$KBENCH" compare --fail-on faster,slower "$d/a" "$d/b" > "$d/hit.out" 2> "$d/hit.err"
rc=$?
check "compare --fail-on faster,slower: exit 4 (got $rc), the output first" sh -c \
	"[ $rc -eq 4 ] && grep -qE '^\| getppid \| Os \| ns/op \|.*\| slower \|$' '$d/hit.out'"
check "one line per matching case, naming the word, the variant, the case, the ratio" sh -c \
	"[ \$(wc -l < '$d/hit.err') -eq 2 ] &&
	 grep -qE '^kbench: --fail-on slower: Os getppid: slower \(ratio 1\.[0-9]+ \[1\.[0-9]+, 1\.[0-9]+\]\)$' '$d/hit.err' &&
	 grep -qE '^kbench: --fail-on slower: Os pipe: slower \(ratio 1\.[0-9]+ \[' '$d/hit.err'"
sed 's/^/# /' "$d/hit.err"
"$KBENCH" compare --fail-on faster "$d/a" "$d/b" > "$d/miss.out" 2> "$d/miss.err"
rc=$?
check "compare --fail-on faster: no case is, exit 0 (got $rc), nothing on stderr" sh -c \
	"[ $rc -eq 0 ] && [ ! -s '$d/miss.err' ] && cmp -s '$d/hit.out' '$d/miss.out'"
"$KBENCH" compare --fail-on not-equivalent "$d/a" "$d/b" > /dev/null 2> "$d/neq.err"
rc=$?
check "not-equivalent: every verdict but equivalent and same (O2's not distinguishable too; got $rc)" sh -c \
	"[ $rc -eq 4 ] && [ \$(grep -c '^kbench: --fail-on not-equivalent: ' '$d/neq.err') -eq 4 ] &&
	 [ \$(grep -c ': O2 [a-z]*: not distinguishable (ratio' '$d/neq.err') -eq 2 ]"
"$KBENCH" compare --json --fail-on slower "$d/a" "$d/b" > "$d/hit.json" 2> "$d/hitj.err"
rc=$?
check "--json --fail-on slower: exit 4, the JSON whole on stdout (got $rc)" sh -c \
	"[ $rc -eq 4 ] && jq -e .format '$d/hit.json' > /dev/null && [ \$(wc -l < '$d/hitj.err') -eq 2 ]"
"$KBENCH" compare --fail-on slower "$d/a" "$d/nosuch" > /dev/null 2>&1
rc=$?
check "a missing run is a failure (exit 1), not a verdict (got $rc)" test $rc -eq 1

# report --fail-on: the verdicts within a run (kbench run --fail-on's code)
"$KBENCH" report --fail-on slower,not-distinguishable "$d/a" > "$d/ra.out" 2> "$d/ra.err"
rc=$?
check "report --fail-on slower: Os is faster in A, exit 0 (got $rc)" sh -c "[ $rc -eq 0 ] && [ ! -s '$d/ra.err' ]"
"$KBENCH" report --fail-on faster "$d/a" > "$d/rf.out" 2> "$d/rf.err"
rc=$?
check "report --fail-on faster: exit 4 (got $rc), the baseline never named" sh -c \
	"[ $rc -eq 4 ] && [ \$(grep -c '^kbench: --fail-on faster: Os [a-z]*: faster (ratio 0\.' '$d/rf.err') -eq 2 ] &&
	 ! grep -q ' O2 ' '$d/rf.err' && grep -q 'report.md' '$d/rf.out'"
sed 's/^/# /' "$d/rf.err"
for c in compare report run; do
	"$KBENCH" $c --fail-on slowr "$d/a" "$d/b" > /dev/null 2> "$d/word.err"
	rc=$?
	check "$c --fail-on slowr: exit 2, did you mean 'slower' (got $rc)" sh -c \
		"[ $rc -eq 2 ] && grep -qxF \"kbench: $c: unknown --fail-on 'slowr' (did you mean 'slower'?)\" '$d/word.err'"
done
"$KBENCH" compare --fail-on , "$d/a" "$d/b" > /dev/null 2> "$d/empty.err"
rc=$?
check "--fail-on ',': an empty word, exit 2 (got $rc)" sh -c "[ $rc -eq 2 ] && grep -q 'an empty word' '$d/empty.err'"

# jqc ARGS...: jq -e, quietly
jqc() { jq -e "$@" > /dev/null; }

# compare --json: against what the two runs' summary.json say
"$KBENCH" report "$d/a" > /dev/null 2>&1 && "$KBENCH" report "$d/b" > /dev/null 2>&1
check "summary.json of both runs" test -s "$d/a/summary.json" -a -s "$d/b/summary.json"
"$KBENCH" compare --json "$d/a" "$d/b" > "$d/ab.json" 2> /dev/null
check "--json: format kbench-compare-1 first, the run ids of the summaries" sh -c \
	"[ \"\$(jq -r 'keys_unsorted[0]' '$d/ab.json')\" = format ] &&
	 jq -e --slurpfile a '$d/a/summary.json' --slurpfile b '$d/b/summary.json' \
		'.format == \"kbench-compare-1\" and .run_a == \$a[0].run_id and .run_b == \$b[0].run_id' \
		'$d/ab.json' > /dev/null"
check "--json: the primary metric, its source and model as B's summary.json has them" \
	jqc --slurpfile b "$d/b/summary.json" \
	'($b[0].primary_metric) as $p | ($b[0].metrics[] | select(.name == $p)) as $m |
	 .primary == {name: $p, label: $m.label, unit: $m.unit, source: $m.source, model: ($m.model // null)} and
	 .primary.source == "measured"' "$d/ab.json"
check "--json: one verdict per case and variant of the summaries, each ratio B's median over A's" \
	jqc --slurpfile a "$d/a/summary.json" --slurpfile b "$d/b/summary.json" \
	'($b[0].primary_metric) as $p |
	 def med($s; $c; $v): $s[0].results[] | select(.case == $c and .variant == $v and .metric == $p) | .median;
	 ([.verdicts[] | [.case, .variant]] | sort) ==
	   ([$b[0].cases[] as $c | $b[0].variants[].name as $v | [$c, $v]] | sort) and
	 all(.verdicts[]; (.ratio - (med($b; .case; .variant) / med($a; .case; .variant)) | fabs) < 1e-9 and
	     .ratio_ci[0] <= .ratio and .ratio <= .ratio_ci[1] and (.verdict_ci | length) == 2 and
	     .p_holm >= 0 and .p_holm <= 1 and .verdict_level > 0)' "$d/ab.json"
check "--json: the verdicts are the markdown's (Os slower, O2 not distinguishable)" \
	jqc '[.verdicts[] | select(.variant == "Os") | .verdict] == ["slower", "slower"] and
	       [.verdicts[] | select(.variant == "O2") | .verdict] == ["not distinguishable", "not distinguishable"]' \
	"$d/ab.json"
check "--json: rows and their keys as before" \
	jqc '(.rows | length) == 4 and all(.rows[]; has("p_holm") and has("verdict_ci") and has("median_a"))' \
	"$d/ab.json"
jq -c '{format, run_a, run_b, primary, verdicts: .verdicts[0:1]}' "$d/ab.json" | sed 's/^/# /'

# unknown names: one message, exit 2, "did you mean" where one is close
unknown() {	# NAME MESSAGE COMMAND...: exit 2 and MESSAGE, one line of stderr as it is
	local name=$1 msg=$2
	shift 2
	"$KBENCH" "$@" > /dev/null 2> "$d/u.err"
	rc=$?
	if [ $rc -eq 2 ] && head -n 1 "$d/u.err" | grep -qxF -- "$msg"; then
		ok "$name"
	else
		not_ok "$name (exit status $rc)"
		sed 's/^/# /' "$d/u.err" | head -n 3
	fi
}
unknown "kbench runn: did you mean 'run'" "kbench: unknown command 'runn' (did you mean 'run'?)" runn
unknown "kbench comapre: did you mean 'compare'" "kbench: unknown command 'comapre' (did you mean 'compare'?)" \
	comapre "$d/a" "$d/b"
unknown "kbench xyzzy: nothing close, the usage" "kbench: unknown command 'xyzzy'" xyzzy
check "... and the list of commands" grep -q '^usage: kbench <command>' "$d/u.err"
unknown "compare --jsno: did you mean '--json'" "kbench: compare: unknown option '--jsno' (did you mean '--json'?)" \
	compare --jsno "$d/a" "$d/b"
unknown "compare --json=yes: takes no value" "kbench: compare: option '--json' takes no value" \
	compare --json=yes "$d/a" "$d/b"
unknown "miss-o-meter --caes: did you mean '--case'" \
	"kbench: miss-o-meter: unknown option '--caes' (did you mean '--case'?)" miss-o-meter --caes pipe "$d/a"
unknown "size --format sysvv" "kbench: size: unknown --format 'sysvv' (did you mean 'sysv'?)" \
	size --format sysvv "$KBENCH"
unknown "blocks --arch x86-64" "kbench: blocks: unknown --arch 'x86-64' (did you mean 'x86_64'?)" \
	blocks --arch x86-64 "$d/none.blocks"
unknown "sim --vl-place shufle" "kbench: sim: unknown --vl-place 'shufle' (did you mean 'shuffle'?)" \
	sim --vl-place shufle /bin/true

# miss-o-meter's cases and variants: a sim.jsonl line per sample of run a
jq -c '. + {functions: [["do_syscall", 10, 1]], insn_k: 10, l1i_miss_k: 1}' "$d/a/samples.jsonl" > "$d/a/sim.jsonl"
"$KBENCH" miss-o-meter --case pipe "$d/a" O2 Os > /dev/null 2> "$d/mom.err"
rc=$?
check "miss-o-meter on the stand-in sim data: a known case and variants pass (exit $rc)" \
	sh -c "[ $rc -eq 0 ] && ! grep -q unknown '$d/mom.err'"
unknown "miss-o-meter --case pipr: did you mean 'pipe'" \
	"kbench: miss-o-meter: unknown case 'pipr' (did you mean 'pipe'?)" miss-o-meter --case pipr "$d/a"
unknown "miss-o-meter --case nosuch: the run's cases" \
	"kbench: miss-o-meter: unknown case 'nosuch' (one of: getppid, pipe)" miss-o-meter --case nosuch "$d/a"
unknown "miss-o-meter RUN O2 O3: did you mean 'O2'" \
	"kbench: miss-o-meter: unknown variant 'O3' (did you mean 'O2'?)" miss-o-meter "$d/a" O2 O3
unknown "miss-o-meter RUN Oz Os: did you mean" \
	"kbench: miss-o-meter: unknown variant 'Oz' (did you mean 'O2'?)" miss-o-meter "$d/a" Oz Os
test_done
