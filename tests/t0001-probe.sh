#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kbench probe: what it says about this host must agree with the host's own
# sources (sysfs, procfs, QEMU itself).
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)

"$KBENCH" probe --json > "$d/probe.json" 2> "$d/err"
check "probe --json exits 0" test $? -eq 0
check "probe output is JSON" jq_true "$d/probe.json" 'type == "object"'

# The probe boots a 64 KiB BIOS under TCG; that must work everywhere.
check "a guest makes progress under TCG" \
	jq_true "$d/probe.json" '.tcg.usable == true'

# KVM: if /dev/kvm cannot be opened the probe must say so; either way it
# must give a reason.
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	check "kvm verdict with a reason" \
		jq_true "$d/probe.json" '(.kvm.usable | type == "boolean") and (.kvm.why | length > 0)'
	diag "kvm: $(jq -r '.kvm.why' "$d/probe.json")"
else
	check "no /dev/kvm: not usable, and why" \
		jq_true "$d/probe.json" '.kvm.usable == false and (.kvm.why | test("/dev/kvm"))'
fi

# libcpuid's L1i size must match the kernel's view in sysfs, or glibc's
# (getconf) where the VM exposes no cache topology in sysfs.
l1i= src=
for idx in /sys/devices/system/cpu/cpu0/cache/index*; do
	[ "$(cat "$idx/level" 2>/dev/null)" = 1 ] &&
	[ "$(cat "$idx/type" 2>/dev/null)" = Instruction ] &&
		l1i=$(sed 's/K$//' "$idx/size") src=sysfs
done
if [ -z "$l1i" ]; then
	b=$(getconf LEVEL1_ICACHE_SIZE 2>/dev/null)
	[ -n "$b" ] && [ "$b" -gt 0 ] 2>/dev/null && l1i=$((b / 1024)) src=getconf
fi
if [ -n "$l1i" ] && jq_true "$d/probe.json" '.cpu.caches.l1i'; then
	check "L1i size agrees with $src ($l1i KiB)" \
		test "$(jq -r '.cpu.caches.l1i.size_kib' "$d/probe.json")" = "$l1i"
else
	skip "needs:l1i-geometry" "L1i size agrees with sysfs or getconf"
fi

check "perf_event_paranoid agrees with procfs" \
	test "$(jq -r '.perf_event_paranoid' "$d/probe.json")" = "$(cat /proc/sys/kernel/perf_event_paranoid)"

check "qemu version is what QEMU prints" \
	test "$(jq -r '.qemu.version' "$d/probe.json")" = "$(qemu-system-i386 --version | head -n 1)"

# perf_agrees NAME FILTER EVENTS PATTERN: the probe's verdict (jq FILTER) is
# true exactly when `perf stat -x, -e EVENTS true` prints a line matching
# PATTERN, where perf itself is installed
perf_agrees() {
	if ! command -v perf >/dev/null 2>&1; then
		skip "needs:perf" "$1"
		return
	fi
	if perf stat -x, -e "$3" true 2>&1 >/dev/null | grep -Eq "$4"; then
		want=true
	else
		want=false
	fi
	check "$1 ($want)" test "$(jq -r "$2" "$d/probe.json")" = "$want"
}
perf_agrees "host PMU verdict agrees with perf stat" .host_pmu.usable instructions:u '^[0-9]+,'
perf_agrees "software events verdict (host-sw) agrees with perf stat" .host_sw \
	task-clock,page-faults,context-switches '^[0-9.]+,[^,]*,page-faults'

# per guest architecture (issue 26): each one's QEMU, its version, TCG usable
for arch in i386 x86_64; do
	check "arches: $arch with qemu-system-$arch, its version, TCG usable, a KVM verdict" \
		jq_true "$d/probe.json" ".arches | map(select(.arch == \"$arch\")) | length == 1 and
			(.[0].qemu | test(\"qemu-system-$arch\$\")) and
			.[0].version == \"$(qemu-system-$arch --version | head -n 1)\" and .[0].tcg.usable == true and
			(.[0].kvm.why | length > 0)"
done
"$KBENCH" probe --no-kvm > "$d/human" 2>&1
check "human-readable probe names the accelerators" grep -q '^kvm usable: *not probed' "$d/human"
check "human-readable probe: a line per guest architecture" sh -c \
	"grep -q '^arch i386 .*qemu-system-i386: QEMU.*tcg yes' '$d/human' &&
	 grep -q '^arch x86_64 .*qemu-system-x86_64: QEMU.*tcg yes' '$d/human'"

# llvm-mca, the default model of cycles (issue 34, item 7): the probe names
# the one the sim backend runs (the first of llvm-mca, llvm-mca-16 ... -14
# in PATH) with the LLVM version it prints, or says what falls back
mca=
for m in llvm-mca llvm-mca-16 llvm-mca-15 llvm-mca-14; do
	mca=$(command -v "$m") && break
done
if [ -n "$mca" ]; then
	v=$("$mca" --version | sed -n 's/.*LLVM version \([^ ]*\).*/\1/p' | head -n 1)
	check "llvm-mca: the probe names $mca (LLVM $v)" sh -c \
		"grep -qxF 'llvm-mca:            $mca (LLVM $v)' '$d/human' &&
		 jq -e '.llvm_mca == {path: \"$mca\", version: \"$v\"}' '$d/probe.json' > /dev/null"
else
	check "llvm-mca: not found, and what falls back" sh -c \
		"grep -qxF 'llvm-mca:            not found (package llvm): mca_cycles falls back to model_cycles' '$d/human' &&
		 jq -e '.llvm_mca.path == null' '$d/probe.json' > /dev/null"
fi
# without one in PATH (an empty directory), the same probe says so
mkdir "$d/nopath"
PATH=$d/nopath "$KBENCH" probe --no-kvm > "$d/nomca" 2>&1
check "no llvm-mca in PATH: 'not found (package llvm): mca_cycles falls back to model_cycles'" \
	grep -qxF 'llvm-mca:            not found (package llvm): mca_cycles falls back to model_cycles' "$d/nomca"
# the kernel compilers a variant's cc may name (issue 32, item 4): each gcc
# and clang, plain or gcc-N/clang-N, found in PATH, with its --version's
# first line; here a PATH of two fake ones and a name that is not one
mkdir "$d/ccpath"
printf '#!/bin/sh\necho "Debian clang version 19.1.7 (3~deb12u1)"\n' > "$d/ccpath/clang-19"
printf '#!/bin/sh\necho "gcc (Debian 12.2.0-14) 12.2.0"\n' > "$d/ccpath/gcc"
printf '#!/bin/sh\necho "not a compiler"\n' > "$d/ccpath/clang-tidy"
chmod +x "$d/ccpath/clang-19" "$d/ccpath/gcc" "$d/ccpath/clang-tidy"
PATH=$d/ccpath:$d/nopath "$KBENCH" probe --no-kvm > "$d/ccs" 2>&1
PATH=$d/ccpath:$d/nopath "$KBENCH" probe --no-kvm --json > "$d/ccs.json" 2>&1
check "kernel compilers: the two in PATH with their versions, clang-tidy not one (text and JSON)" sh -c \
	"grep -qxF 'kernel compilers:    clang-19 (Debian clang version 19.1.7 (3~deb12u1)), gcc (gcc (Debian 12.2.0-14) 12.2.0)' '$d/ccs' &&
	 jq -e '[.kernel_compilers[].name] == [\"clang-19\", \"gcc\"] and .kernel_compilers[0].version == \"Debian clang version 19.1.7 (3~deb12u1)\"' '$d/ccs.json' > /dev/null"
check "no compiler in PATH: none found" grep -qxF 'kernel compilers:    none found (gcc or clang)' "$d/nomca"
test_done
