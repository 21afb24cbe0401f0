#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# An x86_64 guest end to end ([kernel] arch = x86_64, issue 26): the Os
# x86_64 kernel of the default's configuration, linked by lld (from the
# build cache; the first run builds it: one more kernel than the i386
# tests, ccache shares nothing across arches; one, not O2 and Os, because
# a cold CI must stay under 30 minutes on 2 cores and a 6.12 build costs
# about 10 of them; the comparison of two kernels is the i386 tests',
# which share the code)
# booted under qemu-system-x86_64 with the x86_64 runner, measured by the
# sim backend, cut down to three workloads and two boots.
# Checked against real things: the kernel is ELF64 x86-64; the report's
# size row is binutils size's; every workload gives samples; the two boots of a
# kernel give identical counts; the virtual layouts are there; the kernel's
# time is in functions named from System.map, entered by syscall
# (entry_SYSCALL_64); the report says what the arch changes.  A runner of
# the other arch is refused before any boot; t0120's hostile guests, built
# -m64, are contained.  The kernel is linked by lld, and an order of it
# (the suite's order linked by lld, and its x86_64 one) is placed as nm and
# kbench order --place say.
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
d=$(scratch)
needs_kernel_source "x86_64 run"
needs_cmd jq "x86_64 run"
needs_cmd size "x86_64 run (binutils size)"

wls=getppid,pipe,icache
# the kernel linked by LLVM's lld where it is there (quickstart test
# installs it; lib.sh's x86_64_ld): the suite's only lld kernel, and its
# order below the suite's lld order
xld=$(x86_64_ld)
os=Os${xld:+:ld=$xld}
write_tcg_conf "$d/variants.conf" backend=sim boots=2 samples=2 workloads=$wls sweep=0,32 \
	sim_virtual_layouts=2 timeout=300 output="$d/results" -- $os
sed -i 's/^\[kernel\]$/[kernel]\narch = x86_64/' "$d/variants.conf"
sed 's/^/# /' "$d/variants.conf" | sed -n '1,4p'

build_first "$d/variants.conf"
run_in "$d" "$KBENCH" run "$d/variants.conf"
check "kbench run exits 0 (got $rc)" test $rc -eq 0
[ $rc -eq 0 ] || { sed 's/^/# /' "$d/run.err" | tail -n 30; test_done; }
j() { jq -r "$1" "$run/manifest.json" 2>/dev/null; }

check "the manifest says arch x86_64, backend sim" test "$(j '.kernel.arch + " " + .backend')" = "x86_64 sim"
check "the kernel is ELF64 x86-64" sh -c \
	"file -L '$run/variants/Os/vmlinux' | grep -c 'ELF 64-bit LSB executable, x86-64' | grep -qx 1"
check "every boot ran under qemu-system-x86_64: the plugin says target=x86_64, system mode" sh -c \
	"[ \$(ls '$run'/boots/*.sim | wc -l) -eq 2 ] &&
	 [ \$(head -qn 1 '$run'/boots/*.sim | grep -c ' target=x86_64 system=1 .* page_offset=0xffff800000000000 ') -eq 2 ]"

# llvm-mca priced the x86_64 blocks (in 64-bit mode): not one cycle an
# instruction for want of reading them (then mca_cycles = model_cycles)
check "x86_64 blocks priced by llvm-mca: under 1% unpriced in every boot, mca_cycles not model_cycles" sh -c "
	jq -se 'length == 2 and all(.[].mca | to_entries[].value; .unpriced * 100 < .priced + .cache_hits)' '$run/boots.jsonl' >/dev/null &&
	jq -se 'any(.[].fields; .mca_cycles != .model_cycles)' '$run/samples.jsonl' >/dev/null"

# size: the report's row is binutils size's, byte for byte
# (issue 25: under Details)
sed -n '/^### Text size/,/^### /p' "$run/report.md" | sed -n '/^```$/,/^```$/p' | sed '1d;$d' >"$d/size.report"
(cd "$run" && size variants/Os/vmlinux) >"$d/size.want"
check "text size row is binutils size's" cmp "$d/size.want" "$d/size.report"
diag "$(sed -n 2p "$d/size.want")"
check "summary.json's text is size's" test "$(jq -r '[.variants[] | .text] | join(" ")' "$run/summary.json")" = \
	"$(awk 'NR > 1 { printf "%s%s", (NR > 2 ? " " : ""), $1 }' "$d/size.want")"

# every workload and case gives samples, in both boots
check "samples for every case of $wls, both boots" test \
	"$(jq -s '[.[] | select(.backend == "sim" and .fields.ins_k > 0) | [.variant, .case, .vboot]] | unique | length' "$run/samples.jsonl")" = \
	$((1 * 4 * 2))
check "virtual layouts: every sample has 2 (vl_l1i_k)" test \
	"$(jq -s 'length > 0 and all(.[]; (.fields.vl_l1i_k | length) == 2 and (.fields.vl_model_cycles | length) == 2)' "$run/samples.jsonl")" = true
check "two boots of a kernel, identical counts in every sample" test \
	"$(jq -s 'group_by([.variant, .case, .rep]) | map(map(.fields) | unique | length) | (length == 8 and all(. == 1))' "$run/samples.jsonl")" = true
check "two boots of a kernel, identical footprint and attribution" test \
	"$(jq -s 'group_by([.variant, .case, .rep]) | map(map(del(.boot, .vboot)) | unique | length) | all(. == 1)' "$run/sim.jsonl")" = true
check "getppid's kernel time: __x64_sys_getppid, entered by syscall (entry_SYSCALL_64)" test \
	"$(jq -s '[.[] | select(.workload == "getppid") | .functions[][0]] | any(test("sys_getppid")) and any(. == "entry_SYSCALL_64") and (any(test("entry_INT80_32|entry_SYSENTER_32")) | not)' "$run/sim.jsonl")" = true
check "per-function instructions sum to the region's" test \
	"$(jq -s 'all(.[]; ([.functions[][1]] | add) == .insn_k + .insn_u)' "$run/sim.jsonl")" = true
check "a dynamic kernel footprint in the x86_64 kernel mapping: lines and bytes" test \
	"$(jq -s 'all(.[]; .kfoot_lines > 0 and .kfoot_bytes > .kfoot_lines and .kfoot_bytes <= 64 * .kfoot_lines)' "$run/sim.jsonl")" = true
jq -r 'select(.vboot == 1 and .rep == 1) | "\(.variant) \(.case): \(.insn_k) kernel + \(.insn_u) user instructions, \(.l1i_miss_k) kernel L1i misses, \(.kfoot_lines) kernel lines"' "$run/sim.jsonl" |
	sed 's/^/# /'
check "no marker or plugin problems in any boot" test \
	"$(jq -s 'length == 2 and all(.status == "ok" and .sim_problems == 0)' "$run/boots.jsonl")" = true
check "the report says what x86_64 changes (registers, syscall)" sh -c \
	"sed -n '/^### Guest architecture/,/^##/p' '$run/report.md' | grep -q 'entry_SYSCALL_64' &&
	 sed -n '/^### Guest architecture/,/^##/p' '$run/report.md' | grep -q 'no -mregparm' &&
	 sed -n '/^### Guest architecture/,/^##/p' '$run/report.md' | grep -q 'entry code between 2 MiB (PMD) boundaries'"

# An order on x86_64, linked by lld (issue 33, item 4): the x86_64 names of
# t0285's syscall bodies; kbench build compiles the objects that define
# them with -ffunction-sections and relinks.  Checked by nm: all found, in
# the order's order, one right after the other, entry_SYSCALL_64 left in
# .entry.text; by readelf: lld linked both; by size: the text within 1% of
# the unordered kernel's; and kbench order --place --objects, from the
# unordered kernel's System.map and objects alone, puts every function
# where the ordered kernel has it
{
	echo "# kbench order: a hand-made order (t0285's, x86_64 names)"
	syscall_order entry_SYSCALL_64 __x64_sys_getppid
} > "$d/x.order"
{
	kernel_section
	printf 'arch = x86_64\n'
	printf '\n[variant Os]\nconfig = CC_OPTIMIZE_FOR_SIZE=y\n%s' "${xld:+ld = $xld
}"
	printf '\n[variant Os.ordered]\nconfig = CC_OPTIMIZE_FOR_SIZE=y\norder = %s\n%s' "$d/x.order" "${xld:+ld = $xld
}"
} > "$d/order.conf"
"$KBENCH" build "$d/order.conf" > "$d/border.out" 2> "$d/border.err"
rc=$?
xos=$(kdir Os "$d/border.out") xord=$(kdir Os.ordered "$d/border.out")
xobj=$(objs Os "$d/border.err")
[ $rc -eq 0 ] || sed 's/^/# /' "$d/border.err" | tail -n 20
check "an x86_64 order: built (rc $rc), its unordered kernel the run's, from the cache (cmp)" sh -c "
	[ $rc -eq 0 ] && [ -f '$xord/vmlinux' ] && cmp -s '$xos/vmlinux' '$run/variants/Os/vmlinux'"
if [ -n "$xld" ]; then
	check "... both kernels linked by lld (.comment)" sh -c "
		readelf -p .comment '$xos/vmlinux' | grep -q 'Linker: .*LLD' &&
		readelf -p .comment '$xord/vmlinux' | grep -q 'Linker: .*LLD'"
else
	skip needs:lld "... both kernels linked by lld (.comment)"
fi
rx=$(rising "$xord/vmlinux" "$d/x.order")
placed "$xord/vmlinux" "$d/x.order" > "$d/xord.nm"
sed 's/^/# ordered: /' "$d/xord.nm"
if contiguous "$d/xord.nm"; then cg=1; else cg=0; fi
check "nm: the order's 11 names found, its 10 C functions in its order, one right after the other ($rx)" sh -c "
	[ '${rx%% *}' = 11 ] && [ $cg = 1 ]"
check "entry_SYSCALL_64, listed first, stays in .entry.text" in_entry_text "$xord/vmlinux" entry_SYSCALL_64
tx=$(size "$xos/vmlinux" | awk 'NR == 2 { print $1 }') txo=$(size "$xord/vmlinux" | awk 'NR == 2 { print $1 }')
diag "text (binutils size): Os $tx, Os.ordered $txo"
check "the ordered kernel's text within 1% of the unordered one's ($txo against $tx)" \
	awk -v a="${txo:-0}" -v b="${tx:-0}" 'BEGIN { x = a - b; if (x < 0) x = -x; exit !(b > 0 && x < b / 100) }'
"$KBENCH" order --place "$xos/System.map" --objects "$xobj" -o "$d/x.vl" "$d/x.order" 2> "$d/xplace.err"
rc=$?
sed 's/^/# /' "$d/xplace.err"
place_check "$xos/System.map" "$d/x.vl" "$xord/System.map" x
check "kbench order --place --objects (rc $rc): each function of the text where the ordered x86_64 kernel has it (${xsame:-none} there, ${xother:-?} elsewhere)" \
	sh -c "[ $rc -eq 0 ] && [ '${xother:-x}' = 0 ] && [ '${xsame:-0}' -gt 1000 ]"

# the image check is per arch: the i386 runner as the x86_64 one is refused
run_in "$d" KBENCH_RUNNER_X86_64="$KBENCH_RUNNER" "$KBENCH" run "$d/variants.conf"
check "an i386 runner for an x86_64 guest: refused before any boot (exit $rc)" sh -c \
	"[ $rc -ne 0 ] && grep -q 'not an x86_64 executable (build it with -m64 -static)' '$d/run.err' &&
	 ! [ -s '$run/boots.jsonl' ]"

# Hostile x86_64 guests (t0120's, built -m64): a flood, garbage, a hang and
# an init that exits are contained on an x86_64 kernel as on i386.
write_tcg_conf "$d/hostile.conf" timeout=20 serial_limit=65536 output="$d/hostile" -- $os
sed -i 's/^\[kernel\]$/[kernel]\narch = x86_64/' "$d/hostile.conf"
# hostile MODE: its boot; a deadline of 20 s for the hang, 120 s for the
# others, which end by themselves (an x86_64 boot spends about 11 s of host
# time in early boot under -icount, more on a loaded machine: 20 s was
# reached before init in a loaded make check)
hostile() {
	rm -rf "$d/hostile"
	sed -i "s/^timeout = .*/timeout = $([ "$1" = HANG ] && echo 20 || echo 120)/" "$d/hostile.conf"
	run_in "$d" KBENCH_RUNNER_X86_64="$d/init-$1" "$KBENCH" run "$d/hostile.conf"
}
status() { jq -r '.status' "$run/boots.jsonl" 2>/dev/null; }
built=1
for mode in FLOOD GARBAGE HANG EXIT; do
	cc -m64 -static -O2 -DMODE=$mode -DCANARY='"/nonexistent/kb-canary"' -I"$TEST_SRCDIR/../src/base" \
		-o "$d/init-$mode" "$TEST_SRCDIR/hostile-guest.c" || built=0
done
check "t0120's hostile guests build as static x86_64 programs" test $built = 1
hostile FLOOD
check "x86_64 flood: stopped at the serial limit, exit 1" sh -c \
	"[ $rc -eq 1 ] && [ \"$(status)\" = flood ] && jq -e '.serial_bytes == 65536' '$run/boots.jsonl' >/dev/null"
hostile GARBAGE
check "x86_64 garbage: the boot ends, nothing forged believed, garbled and impossible lines counted" sh -c \
	"[ \"$(status)\" = ok ] && [ ! -s '$run/samples.jsonl' ] &&
	 jq -e '.garbled >= 3 and .rejected == 4' '$run/boots.jsonl' >/dev/null"
hostile HANG
check "x86_64 hang: killed at the deadline, exit 1" sh -c \
	"[ $rc -eq 1 ] && [ \"$(status)\" = timeout ] && grep -q 'no end within 20 s' '$run/boots.jsonl'"
hostile EXIT
check "x86_64 init exits: kernel panic recorded as the reason" sh -c \
	"[ $rc -eq 1 ] && [ \"$(status)\" = panic ] && grep -q 'Kernel panic' '$run/boots.jsonl'"
test_done
