#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The sim plugin on user-mode programs (kbench sim runs them under qemu-i386):
# regions between markers hold exactly the instructions between them; missing,
# nested, unbalanced and mismatched markers give a clear error and exit 1;
# per-function attribution sums to the totals; two runs give the same counts.
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
d=$(scratch)
srcdir=$TEST_SRCDIR/sim

if ! guest_cc "$d/markers" "$srcdir/markers.c" 2>"$d/cc.err" ||
   ! guest_cc "$d/work" "$srcdir/work.c"; then
	sed 's/^/# /' "$d/cc.err"
	skip_all_32 "sim on user-mode programs"
fi
"$KBENCH" sim "$d/markers" good > "$d/probe.out" 2> "$d/probe.err"
if [ $? -eq 3 ]; then
	sed 's/^/# /' "$d/probe.err"
	skip_all "needs:qemu-user" "sim on user-mode programs"
fi

# sim NAME ARGS...: kbench sim --json, output in $d/NAME.json, status in $d/NAME.rc
sim() {
	name=$1
	shift
	"$KBENCH" sim --json "$@" > "$d/$name.json" 2> "$d/$name.err"
	echo $? > "$d/$name.rc"
}
rc() { cat "$d/$1.rc"; }
q() { jq -r "$2" "$d/$1.json"; }

sim good --l1i 32K:8:64 --l2 1M:16:64 "$d/markers" good
check "balanced markers: exit 0 (got $(rc good))" test "$(rc good)" = 0
check "three regions: getppid 2001, getppid 10001, pipe 15 user instructions" test \
	"$(q good '[.regions[] | "\(.workload):\(.insn_u):\(.insn_k)"] | join(" ")')" = \
	"getppid:2001:0 getppid:10001:0 pipe:15:0"
check "a region's L1i accesses are its instructions" test \
	"$(q good '[.regions[] | select(.l1i_access != .insn_u + .insn_k)] | length')" = 0
check "the whole run counts more than its regions" test \
	"$(q good '.total.insn_u > ([.regions[].insn_u] | add)')" = true

sim tight "$d/markers" tight
check "begin and end in one block: an empty region" test \
	"$(q tight '[.regions[] | .insn_u + .insn_k] | join(",")'):$(rc tight)" = "0:0"

sim nested "$d/markers" nested
check "nested markers: exit 1 (got $(rc nested))" test "$(rc nested)" = 1
check "nested markers: clear error" grep -q \
	"nested markers: region 'pipe' (0x4b420101) began while 'getppid' (0x4b420001) was open" \
	"$d/nested.err"
check "nested markers: the inner region is kept" test \
	"$(q nested '[.regions[] | "\(.workload):\(.insn_u)"] | join(" ")')" = "pipe:21"

sim unbalanced "$d/markers" unbalanced
check "end marker without a begin: exit 1 and a clear error" sh -c \
	"test $(rc unbalanced) = 1 && grep -q \"unbalanced markers: end of 'getppid' (0x4b420002) with no region open\" '$d/unbalanced.err'"
sim mismatched "$d/markers" mismatched
check "end of another region: exit 1 and a clear error" sh -c \
	"test $(rc mismatched) = 1 && grep -q \"mismatched markers: end of 'pipe' (0x4b420102) while 'getppid' (0x4b420001) was open\" '$d/mismatched.err'"
sim unclosed "$d/markers" unclosed
check "begin marker never ended: exit 1 and a clear error" sh -c \
	"test $(rc unclosed) = 1 && grep -q \"missing end marker: region 'pipe' (0x4b420101) was still open\" '$d/unclosed.err'"
sim nomarkers "$d/work" 20 2
check "a program without markers: no regions, counts for the whole run" test \
	"$(q nomarkers '(.regions | length) == 0 and .total.insn_u > 0'):$(rc nomarkers)" = "true:0"

# Attribution: with the program's symbols every instruction and miss lands in
# one function, so the functions add up to the totals; above the cache too.
nm "$d/work" > "$d/work.map"
for n in 100 500; do
	sim attr$n --l1i 32K:8:64 --map "$d/work.map" "$d/work" $n 3
	check "work $n: functions sum to the totals (instructions and L1i misses)" test \
		"$(q attr$n '.total | ([.functions[][1]] | add) == .insn_u and ([.functions[][2]] | add) == .l1i_miss_u and (.functions | length) > '$n)" = true
done
diag "work 500 3: $(q attr500 '.total | "\(.insn_u) instructions, \(.l1i_miss_u) L1i misses"')"

sim again --l1i 32K:8:64 --map "$d/work.map" "$d/work" 500 3
check "the same program twice: the same counts" cmp "$d/attr500.json" "$d/again.json"

sim small --l1i 1K:1:64 --map "$d/work.map" "$d/work" 500 3
check "a smaller cache misses more" test \
	"$(jq -n --slurpfile a "$d/attr500.json" --slurpfile b "$d/small.json" '$b[0].total.l1i_miss_u > $a[0].total.l1i_miss_u')" = true
test_done
