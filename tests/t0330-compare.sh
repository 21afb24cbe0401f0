#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kbench compare RUN_A RUN_B: B against A with the same tests as in a run;
# runs that measured different things (kernel source, workloads, scale,
# backend) are refused with the reasons unless --force.  Runs whose layouts
# differ, or whose variants do, are compared and that is said (issue 22,
# item 8; before: not a word, a variant of one run skipped silently).
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
needs_python 'json, random' python3 "compare"
needs_cmd jq "compare"
cases='[{"workload": "getppid", "case": "getppid", "ns": 400}, {"workload": "pipe", "case": "pipe", "ns": 30000}]'
mk() { "$PY" "$TEST_SRCDIR/mkrun.py" "{\"dir\": \"$d/$1\", \"seed\": $2, \"boots\": 6, \"noise\": 0.03, \"scale\": $3,
  \"kernel_id\": \"$4\", \"cases\": $cases,
  \"variants\": [{\"name\": \"O2\", \"text\": 2000000}, {\"name\": \"Os\", \"text\": 1400000, \"factor\": $5}]}"; }
mk a 1 0.1 sha256:k1 0.9
mk b 2 0.1 sha256:k1 1.0	# Os 11% slower than in A, O2 the same
mk c 3 0.2 sha256:k2 0.9

"$KBENCH" compare "$d/a" "$d/b" > "$d/ab.md" 2> "$d/ab.err"
check "compare two comparable runs: exit 0" test $? -eq 0
check "Os in B is slower than in A, in both cases" sh -c \
	"[ \$(grep -cE '^\| (getppid|pipe) \| Os \| ns/op \|.*\| slower \|$' '$d/ab.md') -eq 2 ]"
check "O2 in B is not distinguishable from O2 in A" sh -c \
	"[ \$(grep -cE '^\| (getppid|pipe) \| O2 \| ns/op \|.*\| not distinguishable \|$' '$d/ab.md') -eq 2 ]"
sed 's/^/# /' "$d/ab.md" | tail -n 5

"$KBENCH" compare "$d/a" "$d/c" > "$d/ac.md" 2> "$d/ac.err"
rc=$?
check "incomparable runs refused (exit $rc)" test $rc -eq 1
check "the refusal names each reason" sh -c \
	"grep -q 'kernel source differs' '$d/ac.err' && grep -q 'workload scale differs' '$d/ac.err' &&
	 grep -q -- '--force' '$d/ac.err' && ! grep -q 'workloads differs' '$d/ac.err'"
sed 's/^/# /' "$d/ac.err"
"$KBENCH" compare --force "$d/a" "$d/c" > "$d/ac.md" 2> /dev/null
check "--force compares them and says so" sh -c \
	"[ \$? -eq 0 ] && grep -q 'Forced: the runs are not comparable' '$d/ac.md'"
"$KBENCH" compare --json "$d/a" "$d/b" > "$d/ab.json" 2> /dev/null
check "--json: rows with ratio, interval and Holm p" sh -c \
	"jq -e '(.rows | length) == 4 and all(.rows[]; .ratio > 0 and (.ratio_ci | length) == 2 and .p_holm >= 0)' '$d/ab.json' >/dev/null"
check "runs alike in layouts and variants: nothing said of either" sh -c \
	"jq -e '.layouts_differ == false and .only_in_a == [] and .only_in_b == [] and
		.layouts.a == {built: 1, virtual: 0, test_unit: \"boot\"}' '$d/ab.json' > /dev/null &&
	 ! grep -qE 'layouts differ|one run only' '$d/ab.md'"

# 2 built layouts, Os left out, O3 added
"$PY" "$TEST_SRCDIR/mkrun.py" "{\"dir\": \"$d/l\", \"seed\": 4, \"boots\": 3, \"noise\": 0.03, \"scale\": 0.1,
  \"kernel_id\": \"sha256:k1\", \"cases\": $cases, \"layouts\": 2,
  \"variants\": [{\"name\": \"O2\", \"text\": 2000000}, {\"name\": \"O3\", \"text\": 2100000}]}"
"$KBENCH" compare "$d/a" "$d/l" > "$d/al.md" 2> "$d/al.err"
rc=$?
said_al() {
	[ "$rc" -eq 0 ] &&
	grep -qF "**The runs' layouts differ:** A has 1 built layout (its tests' replicates: boots), B has 2 built layouts (its tests' replicates: builds); each side's figures rest on its own." "$d/al.md" &&
	grep -qF '**Variants in one run only, not compared:** only in A: `Os`; only in B: `O3`.' "$d/al.md" &&
	grep -qE '^\| getppid \| O2 \|' "$d/al.md"
}
check "layouts and variants that differ: compared (exit $rc), and said" said_al
sed 's/^/# /' "$d/al.md" | sed -n 3,6p
"$KBENCH" compare --json "$d/a" "$d/l" > "$d/al.json" 2> /dev/null
check "--json: the layouts of each run, and the variants of one run only" jq_true "$d/al.json" \
	'.layouts_differ and .layouts == {a: {built: 1, virtual: 0, test_unit: "boot"}, b: {built: 2, virtual: 0, test_unit: "build"}} and
	 .only_in_a == ["Os"] and .only_in_b == ["O3"] and ([.rows[].variant] | unique) == ["O2"]'
"$KBENCH" compare "$d/a" > /dev/null 2>&1
check "one run only: usage error (exit 2)" test $? -eq 2
test_done
