#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kbench size prints exactly what binutils size prints, byte for byte, for
# programs, objects, a 32-bit static program, a shared library, archives and
# a kernel; bad files give exit status 1 and a message naming them.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

d=$(scratch)

# same_as_size NAME ARG...: stdout of `kbench size ARG...` is that of `size ARG...`
same_as_size() {
	local name=$1
	shift
	same_output "$name" size size "$@"
}

if ! command -v size >/dev/null 2>&1; then
	skip needs:binutils "comparison with binutils size"
else
	same_as_size "kbench itself" "$KBENCH"
	same_as_size "kbench itself, sysv" --format=sysv "$KBENCH"
	same_as_size "kbench itself, -A" -A "$KBENCH"

	# the objects of this build, or one compiled here when run alone
	objs=$(find "$TEST_BUILDDIR/.." -path '*/src/*.o' -type f 2>/dev/null | sort | head -n 40)
	if [ -z "$objs" ]; then
		printf 'int x = 1, y;\nconst char s[] = "s";\nint f(void) { return x + y; }\n' >"$d/one.c"
		cc -c -o "$d/one.o" "$d/one.c" && objs=$d/one.o
	fi
	# shellcheck disable=SC2086
	same_as_size "object files of the build" $objs
	# shellcheck disable=SC2086
	same_as_size "object files of the build, sysv" -A $objs

	cat >"$d/static.c" <<-'EOF'
	#include <stdio.h>
	__thread int tls_bss[64];
	__thread int tls_data[8] = { 1 };
	static char bss[4096];
	int main(void) { printf("%d %d %d\n", tls_bss[1], tls_data[0], bss[7]); return 0; }
	EOF
	if cc -m32 -static -o "$d/static32" "$d/static.c" 2>"$d/cc.err"; then
		same_as_size "32-bit static program" "$d/static32"
		same_as_size "32-bit static program, sysv" -A "$d/static32"
	else
		skip_32 "32-bit static program"
		skip_32 "32-bit static program, sysv"
	fi

	libc=$(readlink -f "$(cc -print-file-name=libc.so.6 2>/dev/null)")
	[ -f "$libc" ] || libc=/lib/x86_64-linux-gnu/libc.so.6
	if [ -f "$libc" ]; then
		same_as_size "shared library $libc" "$libc"
		same_as_size "shared library, sysv" -A "$libc"
	else
		skip needs:libc.so.6 "shared library"
		skip needs:libc.so.6 "shared library, sysv"
	fi

	# shellcheck disable=SC2086
	set -- "$KBENCH" $objs
	[ -f "$d/static32" ] && set -- "$@" "$d/static32"
	[ -f "$libc" ] && set -- "$@" "$libc"
	same_as_size "several files at once, one header" "$@"
	same_as_size "several files with totals" -t "$@"

	# shellcheck disable=SC2086
	if ar rc "$d/lib.a" $objs && ar rcT "$d/thin.a" $objs; then
		same_as_size "archive members" "$d/lib.a"
		same_as_size "thin archive members" "$d/thin.a"
	else
		skip needs:ar "archive members"
		skip needs:ar "thin archive members"
	fi

	cache=${KBENCH_CACHE:-$HOME/.cache/kbench}
	vmlinux=$(find "$cache" -maxdepth 3 -name vmlinux -type f 2>/dev/null | head -n 2)
	if [ -n "$vmlinux" ]; then
		# shellcheck disable=SC2086
		same_as_size "vmlinux from $cache" $vmlinux
	else
		skip needs:vmlinux "vmlinux from $cache"
	fi
	# the kernel's own archives are thin: the members are named relative to
	# them (object directories lie in the unpacked tree: src/*/*/kbench-obj-*)
	vmlinux_a=$(find "$cache" -maxdepth 5 -name vmlinux.a -type f 2>/dev/null | head -n 1)
	if [ -n "$vmlinux_a" ]; then
		same_as_size "a kernel's thin vmlinux.a" "$vmlinux_a"
	else
		skip needs:vmlinux "a kernel's thin vmlinux.a"
	fi
fi

printf 'not an ELF file\n' >"$d/notelf.txt"
fails_naming "a text file fails, naming it" "$d/notelf.txt" "$KBENCH" size "$d/notelf.txt"
fails_naming "a missing file fails, naming it" "$d/missing" "$KBENCH" size "$d/missing"

head -c 2000 "$KBENCH" >"$d/truncated"
fails_naming "a truncated program fails, naming it" "$d/truncated" "$KBENCH" size "$d/truncated"

: >"$d/empty"
fails_naming "an empty file fails, naming it" "$d/empty" "$KBENCH" size "$d/empty"

# the good files are still printed, and the exit status still says 1
"$KBENCH" size "$d/notelf.txt" "$KBENCH" >"$d/got" 2>"$d/err"
rc=$?
if [ "$rc" -eq 1 ] && [ "$(wc -l <"$d/got")" -eq 2 ] && grep -qF "$KBENCH" "$d/got"; then
	ok "a bad file among good ones: the others printed, exit status 1"
else
	not_ok "a bad file among good ones: the others printed, exit status 1 (exit status $rc)"
fi

"$KBENCH" size >/dev/null 2>&1
check "no file is a usage error" [ $? -eq 2 ]
"$KBENCH" size --format=bogus "$KBENCH" >/dev/null 2>&1
check "an unknown format is a usage error" [ $? -eq 2 ]
test_done
