#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The report's symbol-level size section, on a synthetic run (tests/mkrun.py)
# whose "kernels" are object files compiled here: category totals, the top 20
# growers and shrinkers, the full list written beside the variant and equal
# to `kbench bloat` (t0021 ties that to scripts/bloat-o-meter), and executed
# text from a sim.jsonl written here with known medians.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
CC=${CC:-cc}
needs_python 'json, random' python3 "bloat report"

# 30 functions that grow, 25 arrays that shrink, one function that goes.
for i in $(seq 30); do
	echo "int grow$i(int x) { return x + $i; }" >>"$d/old.c"
	echo "int grow$i(int x) { int s = 0; for (int k = 0; k < x; k++) s += k * $i ^ (s >> $((i % 7 + 1))); return s; }" >>"$d/new.c"
done
for i in $(seq 25); do
	echo "int shrink${i}[$((i + 40))] = { 1 };" >>"$d/old.c"
	echo "int shrink${i}[1] = { 1 };" >>"$d/new.c"
done
echo "int gone(int x) { return x * 3; }" >>"$d/old.c"
if ! $CC -O2 -c -o "$d/old.o" "$d/old.c" || ! $CC -O2 -c -o "$d/new.o" "$d/new.c"; then
	skip_all "needs:cc" "bloat report"
fi

r=$d/r
cases='[{"workload": "getppid", "case": "getppid", "ns": 400}]'
"$PY" "$TEST_SRCDIR/mkrun.py" "{\"dir\": \"$r\", \"seed\": 3, \"boots\": 3, \"cases\": $cases,
  \"variants\": [{\"name\": \"O2\", \"text\": 2000000}, {\"name\": \"Os\", \"text\": 1500000},
		 {\"name\": \"nokernel\", \"text\": 1900000}]}"
mkdir -p "$r/variants/O2" "$r/variants/Os"
cp "$d/old.o" "$r/variants/O2/vmlinux"
cp "$d/new.o" "$r/variants/Os/vmlinux"
# executed text: O2 samples 100, 300, 200 bytes (median 200); Os 150 each
for s in "O2 100" "O2 300" "O2 200" "Os 150" "Os 150" "Os 150"; do
	set -- $s
	printf '{"variant":"%s","workload":"getppid","case":"getppid","kfoot_bytes":%s,"functions":[["grow1",5,0],["grow2.1",5,0],["shrink1",1,0],["[user]",9,0]]}\n' "$1" "$2"
done >"$r/sim.jsonl"

"$KBENCH" report "$r" >/dev/null 2>"$d/err"
rc=$?
check "kbench report exits 0, quietly, with a kernel missing" sh -c "[ $rc -eq 0 ] && [ ! -s '$d/err' ]"
[ -s "$d/err" ] && sed 's/^/# /' "$d/err"
md=$r/report.md
sect=$d/section
sed -n '/^#### Symbols against O2/,/^### /p' "$md" >"$sect"

check "category rows for Os: functions, data, read-only data" sh -c \
	"grep -c '^| Os | \(functions\|data\|read-only data\) |' '$sect' | grep -qx 3"
check "no rows for a variant whose kernel is not there" sh -c "! grep -q '^| nokernel |' '$sect'"

"$KBENCH" bloat "$d/old.o" "$d/new.o" >"$d/want"
check "the full list is kbench bloat's output" cmp "$d/want" "$r/variants/Os/bloat-vs-O2.txt"
check "the report links it" grep -qF '[variants/Os/bloat-vs-O2.txt](variants/Os/bloat-vs-O2.txt)' "$sect"

# top 20: the first 20 growers and the last 20 shrinkers of the full list, in
# order (issue 25: in report.html only; report.md links the full list)
rows() { awk -v from="$1" '$0 ~ from { f = 1; next } /^<\/table>/ { f = 0 }
	f && /^<tr><td>/ { sub(/^<tr><td>/, ""); sub(/<td>.*/, ""); print }' "$r/report.html"; }
check "report.md has no top 20 (report.html has)" sh -c "! grep -q '^Top 20' '$sect' && grep -q '^<p>Top 20 growers' '$r/report.html'"
growers=$(rows '^<p>Top 20 growers')
want=$(awk 'NR > 2 && !/^Total:/ && $4 > 0 { print $1 }' "$d/want" | head -n 20)
check "top 20 growers, biggest first ($(echo "$growers" | wc -l) rows)" test "$growers" = "$want"
shrinkers=$(rows '^<p>Top 20 shrinkers')
want=$(awk 'NR > 2 && !/^Total:/ && $4 < 0 { print $1 }' "$d/want" | tail -n 20 | sed -n '1!G;h;$p')
check "top 20 shrinkers, biggest first ($(echo "$shrinkers" | wc -l) rows)" test "$shrinkers" = "$want"

# executed text: medians, change against O2, and the sizes of grow1 and
# (issue 25: no text or samples column repeating the same number in each row)
# grow2 (sim's "grow2.1" is bloat-o-meter's "grow2"; shrink1 is data)
size_of() { awk -v n="$1" -v c="$2" '$1 == n { print $c }' "$d/want"; }
fo=$(($(size_of grow1 2) + $(size_of grow2 2)))
fn=$(($(size_of grow1 3) + $(size_of grow2 3)))
check "executed text, O2: median 200, functions that ran $fo bytes" \
	grep -qE "^\| getppid \| O2 \| 200 \| \+0\.0% \| [0-9.]+% \| $fo \| \+0\.0% \|$" "$md"
check "executed text, Os: median 150 (-25.0%), functions that ran $fn bytes" \
	grep -qE "^\| getppid \| Os \| 150 \| -25\.0% \| [0-9.]+% \| $fn \| [-+][0-9.]+% \|$" "$md"

cp "$md" "$d/before"
rm "$r/sim.jsonl"
"$KBENCH" report "$r" >/dev/null 2>&1
check "without sim.jsonl: no executed text, the rest unchanged" sh -c \
	"! grep -q '^#### Executed text' '$md' && grep -q '^#### Symbols against O2' '$md'"
test_done
