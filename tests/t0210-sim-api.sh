#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A plugin built for another QEMU plugin API version is refused with a clear
# message, by kbench sim (qemu-i386) and by kbench run before any boot.
# KBENCH_PLUGIN_NEXT is the same plugin claiming the next API version.
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
d=$(scratch)
next=${KBENCH_PLUGIN_NEXT:-$(dirname "$KBENCH")/../plugin/kbench-sim-next.so}

if [ ! -f "$next" ]; then
	skip_all "needs:plugin/kbench-sim-next.so (make check builds it)" "wrong API"
fi
# api_of PLUGIN: the qemu_plugin_version it exports, as little-endian hex bytes
api_of() {
	a=$(nm -D --defined-only "$1" | awk '$3 == "qemu_plugin_version" { print $1 }')
	[ -n "$a" ] && objdump -s --start-address="0x$a" --stop-address=$((0x$a + 4)) "$1" |
		awk '/^ [0-9a-f]+ [0-9a-f]+/ { print $2; exit }'
}
plugin=$(dirname "$next")/kbench-sim.so
check "the two plugins export different API versions ($(api_of "$plugin") vs $(api_of "$next"))" \
	sh -c "test -n '$(api_of "$next")' && test '$(api_of "$plugin")' != '$(api_of "$next")'"

if guest_cc "$d/markers" "$TEST_SRCDIR/sim/markers.c" 2>/dev/null &&
	{ command -v qemu-i386 >/dev/null || [ -n "${KBENCH_QEMU_USER:-}" ]; }; then
	KBENCH_PLUGIN=$next "$KBENCH" sim "$d/markers" good > "$d/sim.out" 2> "$d/sim.err"
	rc=$?
	sed 's/^/# /' "$d/sim.err"
	check "kbench sim: exit 3, not supported (got $rc)" test $rc -eq 3
	check "kbench sim: says QEMU refused the plugin, and why" sh -c \
		"grep -q 'qemu-i386 refused the plugin' '$d/sim.err' && grep -q 'API version' '$d/sim.err'"
else
	skip "needs:qemu-user and gcc-multilib" "kbench sim: exit 3"
	skip "needs:qemu-user and gcc-multilib" "kbench sim: message"
fi

# kbench run: the plugin is tried before the first boot (kernels from the cache).
if [ ! -f "$kernel_src" ]; then
	skip "needs:$kernel_tree" "kbench run: exit 3"
	skip "needs:$kernel_tree" "kbench run: message"
	test_done
fi
write_tcg_conf "$d/variants.conf" accel= timeout= backend=sim scale=0.01 workloads=getppid \
	output="$d/results" -- O2
KBENCH_PLUGIN=$next "$KBENCH" run "$d/variants.conf" > "$d/run.out" 2> "$d/run.err"
rc=$?
grep -i 'plugin' "$d/run.err" | sed 's/^/# /'
check "kbench run, backend = sim: exit 3 before any boot (got $rc)" sh -c \
	"test $rc -eq 3 && ! grep -q 'boot 1/' '$d/run.err'"
check "kbench run: says QEMU refused the plugin for its API version" sh -c \
	"grep -q \"backend = sim, but QEMU refused the plugin '$next'\" '$d/run.err' &&
	 grep -q 'plugin requires API version' '$d/run.err'"
test_done
