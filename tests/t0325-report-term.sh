#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The verdict table for a terminal (issue 25, item 3): kbench report and
# kbench compare end with case, variant, text change, ratio [the verdict's
# interval] and verdict, aligned, then (report) the report's path and, last,
# the answer lines (issue 34, item 1); the verdict coloured on a terminal
# only, and not with NO_COLOR or --no-color; a run directory's strings shown
# with control characters as '?'.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
needs_python 'json, random' python3 "the terminal table"
cases='[{"workload": "getppid", "case": "getppid", "ns": 400}, {"workload": "pipe", "case": "pipe", "ns": 30000},
  {"workload": "icache", "case": "icache/k=128", "ns": 9000}, {"workload": "syscall_mix", "case": "syscall_mix", "ns": 2000}]'
mk() { "$PY" "$TEST_SRCDIR/mkrun.py" "{\"dir\": \"$d/$1\", \"seed\": $2, \"boots\": 6, \"noise\": 0.03, \"cases\": $cases,
  \"variants\": [{\"name\": \"O2\", \"text\": 2000000}, {\"name\": \"Os\", \"text\": 1400000, \"factor\": $3},
    {\"name\": \"O2-fno-inline\", \"text\": 2100000, \"factor\": 1.005, \"factors\": {\"pipe\": 1.2}}]$4}"; }
mk a 1 0.9 ''
mk b 2 1.0 ''
esc=$(printf '\033')

(cd "$d" && "$KBENCH" report a > plain.out 2> plain.err)
check "kbench report, not on a terminal: the golden table, the report's path, the answer lines" sh -c \
	"[ $? -eq 0 ] && cmp '$TEST_SRCDIR/t0325-report-term.golden' '$d/plain.out'"
sed 's/^/# /' "$d/plain.out"
# the answer lines (one a variant) are summary.json's, whole: a terminal
# wraps them; the table and the path above them fit 100 columns
"$PY" -c 'import json, sys
for a in json.load(open(sys.argv[1]))["answer"]: print(a["line"])' "$d/a/summary.json" > "$d/answers"
n=$(wc -l < "$d/answers")
check "the table above the answer lines fits 100 columns" sh -c \
	"[ $n -eq 2 ] && head -n -$n '$d/plain.out' | { ! grep -q '.\{101\}'; }"
check "then the report's path, and last the answer lines, summary.json's answer[].line" sh -c \
	"tail -n $n '$d/plain.out' | cmp - '$d/answers' &&
	 [ \"\$(tail -n \$(($n + 1)) '$d/plain.out' | head -n 1)\" = a/report.md ]"

if command -v script > /dev/null 2>&1; then
	# script COMMAND: COMMAND's output through a pseudo-terminal, CRs dropped
	pty() { (cd "$d" && script -qec "$1" /dev/null < /dev/null | tr -d '\r'); }
	pty "env -u NO_COLOR '$KBENCH' report a" > "$d/tty.out"
	check "on a terminal: the verdicts coloured (faster green, slower red)" sh -c \
		"grep -qF '${esc}[32mfaster${esc}[0m' '$d/tty.out' && grep -qF '${esc}[31mslower${esc}[0m' '$d/tty.out'"
	check "on a terminal: the same table once the colour is taken out" sh -c \
		"sed 's/${esc}\\[[0-9]*m//g' '$d/tty.out' | cmp - '$TEST_SRCDIR/t0325-report-term.golden'"
	pty "NO_COLOR=1 '$KBENCH' report a" > "$d/nocolor.out"
	check "on a terminal with NO_COLOR: no colour, the golden table" cmp "$d/nocolor.out" \
		"$TEST_SRCDIR/t0325-report-term.golden"
	pty "NO_COLOR= '$KBENCH' report a" > "$d/empty.out"
	check "NO_COLOR empty: colour (no-color.org)" grep -qF "$esc[" "$d/empty.out"
	pty "env -u NO_COLOR '$KBENCH' report --no-color a" > "$d/flag.out"
	check "on a terminal with --no-color: no colour, the golden table" cmp "$d/flag.out" \
		"$TEST_SRCDIR/t0325-report-term.golden"
	pty "env -u NO_COLOR '$KBENCH' compare a b" > "$d/cmp-tty.out"
	pty "env -u NO_COLOR '$KBENCH' compare --no-color a b" > "$d/cmp-flag.out"
	check "compare on a terminal: coloured, and not with --no-color" sh -c \
		"grep -qF '${esc}[31mslower${esc}[0m' '$d/cmp-tty.out' && ! grep -qF '$esc' '$d/cmp-flag.out'"
else
	skip needs:script "the table on a terminal (util-linux script)"
fi

(cd "$d" && "$KBENCH" compare a b > cmp.out 2> cmp.err)
check "kbench compare ends with the table, B against A (Os slower in B)" sh -c \
	"[ $? -eq 0 ] && grep -q '^ns/op (measured) and text, B against A, ratio' '$d/cmp.out' &&
	 [ \$(grep -cE '^(getppid|pipe|icache/k=128|syscall_mix) +Os +\+0\.0% +1\.[0-9]{3} \[[0-9.]+, [0-9.]+\] +slower$' '$d/cmp.out') -ge 3 ] &&
	 ! grep -qF '$esc' '$d/cmp.out'"
tail -n 10 "$d/cmp.out" | sed 's/^/# /'
"$KBENCH" compare --json "$d/a" "$d/b" > "$d/cmp.json" 2> /dev/null
check "compare --json: JSON only, no table" sh -c "head -c 1 '$d/cmp.json' | grep -q '{' && ! grep -q 'B against A' '$d/cmp.json'"

# a hostile baseline name (not a variant of the run) and variant name: no
# escape sequence reaches the terminal
mk h 3 0.9 ', "baseline": "O2\u001b[2J\u001b]0;pwned\u0007"'
"$PY" - "$d/h/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["variants"].append({"name": "x\u001b[31m", "flags": "", "status": "built"})
json.dump(m, open(sys.argv[1], "w"))
PY
(cd "$d" && "$KBENCH" report h > hostile.out 2> hostile.err)
check "hostile names: shown with '?', no escape sequence" sh -c \
	"grep -qF \"no variant to compare with the baseline 'O2?[2J?]0;pwned?'\" '$d/hostile.out' &&
	 ! grep -qF '$esc' '$d/hostile.out'"
sed 's/^/# /' "$d/hostile.out" | cat -v
test_done
