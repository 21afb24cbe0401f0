#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Ordered variants judged on held-out cases (issue 33, item 5), on a
# synthetic run (tests/mkrun.py) whose manifest records two ordered
# variants as kbench run does: Os.c3, whose order says its profile ran
# syscall_mix and icache/k=8, and Os.nul, whose order does not say.  Its
# true effects: faster on syscall_mix and mmap, slower on fork, the same
# elsewhere.  kbench report must:
#   - count Os.c3's verdicts on the cases its profile did not run (held
#     out) apart from those it did (trained), in summary.json, report.md and
#     the terminal's line, each count equal to the verdicts summary.json's
#     results give those cases (counted here with jq);
#   - mark exactly the trained rows of the verdict table, not icache/k=80
#     (whose name starts with a trained one's);
#   - say of Os.nul that no case can be told held out, and count nothing;
#   - keep the markup and table bars of an order's comments (Os.bad) inert
#     in report.html and report.md.
# That kbench run records what an order file's comments say, t0285 checks
# on a real run.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
needs_python 'json, random' python3 "order held out"
needs_cmd jq "order held out"

c3='{"path": "/lab/Os.order", "method": "c3", "profile_variant": "Os", "trained_on": ["syscall_mix", "icache/k=8"]}'
nul='{"path": "/lab/Os.random", "method": null, "profile_variant": null, "trained_on": null}'
# what an order file's comments say reaches the report as written there:
# markup and table bars in it must stay text
bad='{"path": "/lab/a|<b>x</b>.order", "method": "c3|<i>m</i>", "profile_variant": "<script>v</script>", "trained_on": ["getppid"]}'
"$PY" "$TEST_SRCDIR/mkrun.py" "{\"dir\": \"$d/r\", \"seed\": 5, \"boots\": 8, \"samples\": 3, \"noise\": 0.01,
  \"baseline\": \"Os\",
  \"cases\": [{\"workload\": \"getppid\", \"case\": \"getppid\", \"ns\": 400},
	    {\"workload\": \"fork\", \"case\": \"fork\", \"ns\": 90000},
	    {\"workload\": \"mmap\", \"case\": \"mmap\", \"ns\": 5000},
	    {\"workload\": \"syscall_mix\", \"case\": \"syscall_mix\", \"ns\": 20000},
	    {\"workload\": \"icache\", \"case\": \"icache/k=8\", \"ns\": 700},
	    {\"workload\": \"icache\", \"case\": \"icache/k=80\", \"ns\": 900}],
  \"variants\": [{\"name\": \"Os\", \"text\": 1479703},
	       {\"name\": \"Os.c3\", \"text\": 1479703, \"order\": $c3,
		\"factors\": {\"syscall_mix\": 0.9, \"mmap\": 0.9, \"fork\": 1.1}},
	       {\"name\": \"Os.nul\", \"text\": 1479703, \"order\": $nul, \"factors\": {\"fork\": 1.1}},
	       {\"name\": \"Os.bad\", \"text\": 1479703, \"order\": $bad}]}"
"$KBENCH" report --no-color "$d/r" >"$d/report.out" 2>"$d/report.err"
rc=$?
check "kbench report of the run exits 0 (got $rc)" test $rc -eq 0
s=$d/r/summary.json
pm=$(jq -r .primary_metric "$s")
# the verdicts of Os.c3's cases, counted here: trained or held out by name
count() {	# count trained|held VERDICT
	jq -r --arg pm "$pm" --arg want "$1" --arg v "$2" '
		[.results[] | select(.metric == $pm and .variant == "Os.c3" and .verdict != null) |
		 select((.case == "syscall_mix" or .case == "icache/k=8") == ($want == "trained")) |
		 select($v == "cases" or .verdict == $v)] | length' "$s"
}
for part in held trained; do
	key=$([ $part = held ] && echo held_out || echo trained)
	got=$(jq -c --arg k "$key" '.variants[] | select(.name == "Os.c3") | .order[$k] |
		[.cases, .faster, .slower, .equivalent, .["not distinguishable"]]' "$s")
	want="[$(count $part cases),$(count $part faster),$(count $part slower),$(count $part equivalent),$(count $part 'not distinguishable')]"
	check "summary.json: Os.c3's $key verdicts are those of its results ($got, counted $want)" test "$got" = "$want"
done
check "... 4 held-out cases and 2 trained, trained_on as the manifest says" jq_true "$s" '
	.variants[] | select(.name == "Os.c3") | .order |
	.held_out.cases == 4 and .trained.cases == 2 and .trained_on == ["syscall_mix", "icache/k=8"] and .method == "c3"'
held="faster $(count held faster), slower $(count held slower), equivalent $(count held equivalent), not distinguishable $(count held 'not distinguishable')"
check "the terminal's line for Os.c3 gives the held-out counts ($held)" \
	grep -q "^Os.c3 is ordered: on the 4 held-out cases (its order's profile did not run them): $held; on the 2 it trained on: " "$d/report.out"
grep "is ordered" "$d/report.out" | sed 's/^/# /'
# the verdict table's rows marked trained: syscall_mix and icache/k=8 of Os.c3
# (Markdown escapes the '_' of a name: read without the backslashes)
sed 's/\\//g' "$d/r/report.md" >"$d/report.plain"
marked=$(grep '(trained: its order' "$d/report.plain" | awk -F'|' '{ gsub(/ /, "", $2); gsub(/ /, "", $3); print $2, $3 }' | sort | tr '\n' ';')
check "report.md marks exactly Os.c3's syscall_mix and icache/k=8 rows trained, and Os.bad's getppid (got '$marked')" \
	test "$marked" = "getppid Os.bad;icache/k=8 Os.c3;syscall_mix Os.c3;"
held_md=$(echo "$held" | sed 's/\([a-z]\) \([0-9]\)/\1 in \2/g')
check "report.md counts them: held out and trained, with the order's file ($held_md)" sh -c "
	grep -q 'On the 4 cases its order.s profile did not run (held out), against Os: $held_md\\. On the 2 it ran (trained: syscall_mix, icache/k=8)' '$d/report.plain' &&
	grep -q '/lab/Os.order' '$d/report.plain'"
check "Os.nul: no case told held out, nothing counted (report.md, terminal, summary.json)" sh -c "
	grep -q 'The order does not say which cases its profile ran, so no case can be told held out' '$d/r/report.md' &&
	grep -q '^Os.nul is ordered; its order does not say which cases trained it: no case is held out' '$d/report.out' &&
	jq -e '.variants[] | select(.name == \"Os.nul\") | .order.held_out == null and .order.trained_on == null' '$s' >/dev/null"
check "an order's comments with markup and '|': inert in report.html and report.md" sh -c "
	! grep -q '<i>m</i>\\|<script>v</script>\\|<b>x</b>' '$d/r/report.html' &&
	grep 'Ordered variant.*Os.bad' '$d/r/report.md' | grep -q 'method c3' &&
	! grep 'Ordered variant.*Os.bad' '$d/r/report.md' | grep -q '<i>m</i>\\|<script>\\|[^\\\\]|<'"
check "the unordered baseline has order null" jq_true "$s" '.variants[] | select(.name == "Os") | .order == null'
test_done
