#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's two commands in one clone (issue 22, item 1).  Before:
# ./quickstart run configured the tree before qemu-user was installed (it
# is only in the test packages), so QEMU_I386 was baked in empty, and
# ./quickstart test kept that Makefile: kbench sim said "needs qemu-i386"
# and t0200, t0220, t0225 and t0226 skipped, t0210 failed.  Here, in a copy
# of the source tree:
#   - configured as if qemu-i386 were not there yet (ac_cv_path_QEMU_I386
#     empty), kbench sim still runs a program under the qemu-i386 it finds
#     in PATH at run time;
#   - ./quickstart build (QUICKSTART_NO_INSTALL=1: no apt-get) configures
#     again when the package database changed after configure ran
#     (QUICKSTART_DPKG_STATUS stands for /var/lib/dpkg/status), and config.h
#     then has the qemu-i386 it finds; with no change since, it does not.
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
d=$(scratch)
top=$(cd "$TEST_SRCDIR/.." && pwd)
qemu_user=$(command -v qemu-i386) || skip_all "needs:qemu-user" "configure before qemu-user"
[ -x "$top/configure" ] || skip_all "needs:a bootstrapped tree (./bootstrap)" "configure before qemu-user"
guest_cc "$d/markers" "$TEST_SRCDIR/sim/markers.c" 2> "$d/cc.err" ||
	skip_all_32 "configure before qemu-user"

# the tree as a clone has it: git's files where there is a repository,
# else the distributed tree (make distcheck, whose distdir may sit inside a
# clone without being part of it), with configure; made writable, as a
# distdir is not
mkdir "$d/tree"
if [ "$(git -C "$top" rev-parse --show-toplevel 2> /dev/null)" = "$top" ]; then
	(cd "$top" && git ls-files -z | xargs -0 tar cf - configure aclocal.m4 config.h.in build-aux m4 Makefile.in) |
		tar xf - -C "$d/tree"
else
	(cd "$top" && tar cf - --exclude=./tests/out --exclude=./_build \
		--exclude=./_inst --exclude='*.o' .) | tar xf - -C "$d/tree"
fi
chmod -R u+w "$d/tree"
cd "$d/tree" || exit 1
# through ccache where there is one, named relative to the copy (its path
# differs in every clone): the same compilations each time, from its store
if command -v ccache > /dev/null 2>&1; then
	CC="ccache ${CC:-cc}" CCACHE_BASEDIR=$d/tree CCACHE_NOHASHDIR=1
	export CC CCACHE_BASEDIR CCACHE_NOHASHDIR
fi
ac_cv_path_QEMU_I386= ./configure --quiet > "$d/configure.out" 2>&1
check "configured with no qemu-i386 (config.h has an empty path)" \
	grep -q '^#define QEMU_I386 ""$' config.h
make -j"$(nproc 2>/dev/null || echo 2)" src/kbench plugin/kbench-sim.so > "$d/make.out" 2>&1 ||
	sed 's/^/# /' "$d/make.out" | tail -n 20
KBENCH_QEMU_USER= ./src/kbench sim --l2 off "$d/markers" good > "$d/sim.out" 2> "$d/sim.err"
rc=$?
sed 's/^/# /' "$d/sim.err" | head -n 5
check "kbench sim finds qemu-i386 at run time, whatever configure found (exit $rc)" \
	sh -c "[ $rc -eq 0 ] && grep -q '^1 getppid  *0  *2001 ' '$d/sim.out'"

# ./quickstart build: configure again after the package database changed
sleep 1
: > "$d/dpkg-status"
before=$(stat -c %Y config.status)
QUICKSTART_NO_INSTALL=1 QUICKSTART_DPKG_STATUS="$d/dpkg-status" ./quickstart build > "$d/qs.out" 2>&1
rc=$?
check "./quickstart build after packages came: configure ran again, config.h has $qemu_user (exit $rc)" \
	sh -c "[ $rc -eq 0 ] && [ \$(stat -c %Y config.status) -gt $before ] &&
		grep -q '^#define QEMU_I386 \"$qemu_user\"$' config.h"
[ $rc -eq 0 ] || sed 's/^/# /' "$d/qs.out" | tail -n 20
touch -d '2000-01-01' "$d/dpkg-status"
before=$(stat -c %Y config.status)
QUICKSTART_NO_INSTALL=1 QUICKSTART_DPKG_STATUS="$d/dpkg-status" ./quickstart build > "$d/qs2.out" 2>&1
check "./quickstart build with no package since: configure does not run again" \
	test "$(stat -c %Y config.status)" -eq "$before"
test_done
