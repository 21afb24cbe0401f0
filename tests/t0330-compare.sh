#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kbench compare RUN_A RUN_B: B against A with the same tests as in a run;
# runs that measured different things (kernel source, workloads, scale,
# backend) are refused with the reasons unless --force.
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
"$KBENCH" compare "$d/a" > /dev/null 2>&1
check "one run only: usage error (exit 2)" test $? -eq 2
test_done
