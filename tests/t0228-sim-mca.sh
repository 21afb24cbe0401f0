#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Block costs from LLVM's machine model (issue 24, items 2 and 3), on
# tests/oracle/strings.S under kbench sim --cpu skylake:
# - rep movsb of 16 and of 4096 bytes: the modeled cost grows by 1 cycle a
#   byte, as the table in src/backend/mca.c says (AMD 25112, table 6: 15 + c), and
#   the 16-byte copy costs at least the table's start-up plus its 16 bytes;
# - 10000 dependent divl against 10000 addl: the same instructions, and the
#   ratio of their block cycles is llvm-mca's own ratio for the two loop
#   bodies, within 1%;
# - the cache: a second run calls llvm-mca for no block;
# - without llvm-mca: a message naming Debian's package, and the counts.
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
progs="strings"
d=$(scratch)
needs_cmd llvm-mca "block costs"
needs_cmd jq "block costs"
oracle_programs "$d" struct
export KBENCH_CACHE="$d/cache"

"$KBENCH" sim --json --l2 off --cpu skylake "$d/strings" > "$d/1.json" 2> "$d/1.err"
check "kbench sim --cpu skylake prices the blocks (exit $?)" jq_true "$d/1.json" '.mca.priced > 0 and .mca.calls >= 1'
sed 's/^/# /' "$d/1.err"
c() { jq -r ".regions[$1].$2" "$d/1.json"; }
diag "$(jq -r '"model: \(.mca.model); \(.mca.priced) blocks in \(.mca.calls) calls, \(.mca.seconds) s"' "$d/1.json")" \
	"block cycles per region: $(jq -r '[.regions[].block_cycles] | map(tostring) | join(" ")' "$d/1.json")"

check "rep movsb: 4096 bytes cost 4080 cycles more than 16 (1 a byte, the table's)" \
	awk -v a="$(c 0 block_cycles)" -v b="$(c 1 block_cycles)" 'BEGIN { x = b - a - 4080; exit !(x < 1e-6 && x > -1e-6) }'
check "rep movsb of 16 bytes: at least the table's start-up (15) and 16 bytes" \
	awk -v a="$(c 0 block_cycles)" 'BEGIN { exit !(a >= 31) }'
check "the divl and addl loops run the same instructions (model_cycles' ratio: 1.0)" \
	test "$(c 2 insn_u)" = "$(c 3 insn_u)"
mca_own() {
	printf '%s\ndecl %%ecx\njne 0\n' "$1" |
		llvm-mca -mtriple=i386-linux-gnu -mcpu=skylake -iterations=100 2>/dev/null |
		awk '/^Iterations:/ { i = $2 } /^Total Cycles:/ { print $3 / i }'
}
own_div=$(mca_own 'divl %esi') own_add=$(mca_own 'addl %eax, %ebx')
diag "llvm-mca's own loop bodies: divl $own_div, addl $own_add cycles an iteration"
check "block cycles' ratio divl/addl is llvm-mca's own, within 1%" \
	awk -v a="$(c 2 block_cycles)" -v b="$(c 3 block_cycles)" -v x="$own_div" -v y="$own_add" \
	'BEGIN { r = (a / b) / (x / y); print "# ratio " a / b " against " x / y; exit !(r > 0.99 && r < 1.01) }'

"$KBENCH" sim --json --l2 off --cpu skylake "$d/strings" > "$d/2.json" 2> "$d/2.err"
check "a second run calls llvm-mca for no block: every one from the cache" \
	jq_true "$d/2.json" ".mca.calls == 0 and .mca.priced == 0 and .mca.cache_hits == $(jq '.mca.priced' "$d/1.json")"
check "and prices each region the same" test \
	"$(jq -c '[.regions[].block_cycles]' "$d/1.json")" = "$(jq -c '[.regions[].block_cycles]' "$d/2.json")"

mkdir "$d/bin"
PATH="$d/bin" "$KBENCH" sim --json --l2 off --cpu skylake "$d/strings" > "$d/3.json" 2> "$d/3.err"
rc=$?
check "without llvm-mca: the counts all the same (exit $rc)" test $rc -eq 0 -a \
	"$(jq -c '[.regions[].insn_u]' "$d/3.json")" = "$(jq -c '[.regions[].insn_u]' "$d/1.json")"
check "without llvm-mca: a message naming Debian's package 'llvm'" grep -q "install Debian package 'llvm'" "$d/3.err"
sed 's/^/# /' "$d/3.err"
test_done
