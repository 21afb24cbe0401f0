#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kbench miss-o-meter on a real sim run of the cached O2 and Os kernels:
# every function row agrees with an independent reading of the run's
# sim.jsonl and samples.jsonl (tests/miss-o-meter-ref.py), and every size
# delta with the kernel's scripts/bloat-o-meter on the run's two vmlinux;
# --case, --top and OLD NEW narrow it; runs without sim data, unknown
# variants and usage errors are refused with the reason.
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
d=$(scratch)
needs_kernel_source "miss-o-meter"
needs_python json python3 "miss-o-meter"
find_bloat_o_meter "$d"
[ -n "$bom" ] || skip_all "needs:bloat-o-meter" "miss-o-meter"

write_tcg_conf "$d/v.conf" backend=sim samples=2 workloads=getppid,poll,pipe output="$d/r"
run_in "$d" "$KBENCH" run "$d/v.conf"
check "sim run of O2 and Os (rc $rc)" test $rc -eq 0
sim=$run

"$KBENCH" miss-o-meter "$sim" > "$d/all.out" 2> "$d/all.err"
rc=$?
check "miss-o-meter RUN: exit 0, the baseline against Os, one block per case" sh -c \
	"[ $rc -eq 0 ] && [ \$(grep -c '^case [a-z]*: O2 -> Os, per operation (simulated' '$d/all.out') -eq 3 ]"
"$PY" "$bom" -t "$sim/variants/O2/vmlinux" "$sim/variants/Os/vmlinux" > "$d/bom.out" 2>&1
"$PY" "$TEST_SRCDIR/miss-o-meter-ref.py" "$sim" O2 Os "$d/all.out" "$d/bom.out" > "$d/ref.out" 2>&1
rc=$?
sed 's/^/# /' "$d/ref.out" | tail -n 12
check "every row agrees with an independent reading of sim.jsonl and with bloat-o-meter -t" \
	test $rc -eq 0
check "kernel instructions per operation are samples.jsonl's own (getppid, O2)" sh -c \
	"want=\$(jq -s 'map(select(.variant == \"O2\" and .case == \"getppid\")) |
		(map(.fields.ins_k) | add) / (map(.iterations) | add)' '$sim/samples.jsonl');
	 got=\$(sed -n '/^case getppid:/,/^\$/s/^kernel instructions \([0-9.]*\) -> .*/\1/p' '$d/all.out');
	 awk -v w=\"\$want\" -v g=\"\$got\" 'BEGIN { exit !(g != \"\" && w - g < 0.051 && g - w < 0.051) }'"

# issue 33: the run's exact profile of O2 on getppid.  Every getppid
# operation enters the kernel's getppid once: the calls into it are the
# samples' iterations, and the profile's instructions are the samples'
# kernel instructions, every one of them in a function of System.map.
"$KBENCH" profile --variant O2 --cases getppid -o "$d/O2.prof" "$sim" > "$d/prof.out" 2>&1
rc=$?
sed 's/^/# /' "$d/prof.out" | tail -n 5
iters=$(jq -s 'map(select(.variant == "O2" and .case == "getppid") | .iterations) | add' "$sim/samples.jsonl")
ins_k=$(jq -s 'map(select(.variant == "O2" and .case == "getppid") | .fields.ins_k) | add' "$sim/samples.jsonl")
gp=$(awk '$1 == "f" && $7 == "__ia32_sys_getppid" { print $5 }' "$d/O2.prof")
gpe=$(awk '$1 == "e" && $4 == "__ia32_sys_getppid" { n += $2 } END { print n + 0 }' "$d/O2.prof")
pins=$(awk '$1 == "f" { n += $4 } END { printf "%.0f", n }' "$d/O2.prof")
diag "profile: __ia32_sys_getppid entered $gp times ($gpe by its edges), $iters iterations; $pins kernel instructions, samples $ins_k"
check "kbench profile --cases getppid: exit 0, getppid entered once an iteration ($iters), by its edges too" sh -c \
	"[ $rc -eq 0 ] && [ '$gp' = '$iters' ] && [ '$gpe' = '$iters' ]"
check "the profile's instructions are the samples' kernel instructions, exactly ($ins_k)" test "$pins" = "$ins_k"
"$KBENCH" order -o "$d/O2.order" "$d/O2.prof" > /dev/null 2>&1
rc=$?
check "kbench order on it: exit 0, __ia32_sys_getppid among the ordered functions" sh -c \
	"[ $rc -eq 0 ] && grep -qx '__ia32_sys_getppid' '$d/O2.order'"

"$KBENCH" miss-o-meter --case poll --top 3 "$sim" Os O2 > "$d/poll.out" 2>&1
rc=$?
check "--case poll --top 3 Os O2: one block, Os -> O2, at most 3 rows each way" sh -c \
	"[ $rc -eq 0 ] && [ \$(grep -c '^case ' '$d/poll.out') -eq 1 ] &&
	 grep -q '^case poll: Os -> O2' '$d/poll.out' &&
	 [ \$(awk '/^Function/ { on = 1; next } on && \$4 > 0' '$d/poll.out' | wc -l) -le 3 ] &&
	 [ \$(awk '/^Function/ { on = 1; next } on && \$4 <= 0' '$d/poll.out' | wc -l) -le 3 ] &&
	 [ \$(awk '/^Function/ { on = 1; next } on' '$d/poll.out' | wc -l) -ge 1 ]"

# names from a run directory reach the terminal: a function or case name
# with a control character is left out, and counted
mkdir -p "$d/hostile"
cp "$sim/manifest.json" "$sim/samples.jsonl" "$d/hostile/"
jq -c 'if .case == "getppid" then .functions[0][0] = "evil\u001b[2Jname" else . end' "$sim/sim.jsonl" \
	> "$d/hostile/sim.jsonl"
jq -c 'select(.case == "pipe") | .case = "pi\u001bpe"' "$sim/sim.jsonl" >> "$d/hostile/sim.jsonl"
"$KBENCH" miss-o-meter "$d/hostile" > "$d/hostile.out" 2> "$d/hostile.err"
rc=$?
check "control characters in sim.jsonl names never reach the output; the names left out are counted" sh -c \
	"[ $rc -eq 0 ] && ! LC_ALL=C grep -q '[[:cntrl:]]' '$d/hostile.out' && ! grep -q evil '$d/hostile.out' &&
	 grep -q 'names in sim.jsonl that are not plain names were left out' '$d/hostile.err' &&
	 [ \$(grep -c '^case ' '$d/hostile.out') -eq 3 ]"

# what is refused, and why
"$KBENCH" miss-o-meter "$sim" O2 O3 > /dev/null 2> "$d/unknown.err"
rc=$?
check "an unknown variant: exit 2, named, with did-you-mean (issue 34)" sh -c \
	"[ $rc -eq 2 ] && grep -qF \"unknown variant 'O3' (did you mean 'O2'?)\" '$d/unknown.err'"
"$KBENCH" miss-o-meter --case nosuch "$sim" > /dev/null 2> "$d/case.err"
rc=$?
check "a case the run does not have: exit 2, named (issue 34)" sh -c \
	"[ $rc -eq 2 ] && grep -qF \"unknown case 'nosuch'\" '$d/case.err'"
mkdir -p "$d/clock"
cp "$sim/manifest.json" "$sim/samples.jsonl" "$d/clock/"
"$KBENCH" miss-o-meter "$d/clock" > /dev/null 2> "$d/clock.err"
rc=$?
check "a run without sim.jsonl: exit 1, says only the sim backend attributes to functions" sh -c \
	"[ $rc -eq 1 ] && grep -q 'did not use the sim backend' '$d/clock.err'"
"$KBENCH" miss-o-meter "$d/none" > /dev/null 2> "$d/none.err"
rc=$?
check "a missing run directory: exit 1, names its manifest" sh -c \
	"[ $rc -eq 1 ] && grep -q '$d/none/manifest.json' '$d/none.err'"
"$KBENCH" miss-o-meter "$sim" O2 > /dev/null 2> "$d/one.err"
rc=$?
check "one variant only is a usage error" sh -c "[ $rc -eq 2 ] && grep -q 'usage: kbench miss-o-meter' '$d/one.err'"
"$KBENCH" miss-o-meter --top -1 "$sim" > /dev/null 2> "$d/top.err"
rc=$?
check "--top -1 is a usage error, named" sh -c "[ $rc -eq 2 ] && grep -q \"top '-1'\" '$d/top.err'"
test_done
