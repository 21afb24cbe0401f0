#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Linux 6.1, the long-term kernel before the default (issue 32: "6.1 stays
# supported"), without building it: kbench build --config-only unpacks
# Debian's linux-source-6.1, configures each variant as a build would
# (tinyconfig, kbench's guest fragment, [kernel] fragment, the variant's
# options, olddefconfig, each option asked for checked) and stops, printing
# the kernel's version, its slab allocator, whether the cache has it and
# the final .config.  6.1's tinyconfig picks SLOB (6.4 removed it); with
# configs/slub.config, the default's fragment, it is SLUB, and 6.1 has no
# SLUB_TINY for that file to turn off.  Nothing is compiled: no object, no
# kernel in the cache.  An option Kconfig cannot keep fails as in a build.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
src61=/usr/src/linux-source-6.1.tar.xz
[ -f "$src61" ] || skip_all "needs:linux-source-6.1" "Linux 6.1"
top=$TEST_SRCDIR/..

conf() {	# conf FILE [FRAGMENT]: O2 and Os of 6.1, i386 tinyconfig
	{
		printf '[kernel]\nsource = %s\ncache = %s\n' "$src61" "$kernel_cache"
		[ -z "${2:-}" ] || printf 'fragment = %s\n' "$2"
		printf '[variant O2]\nconfig = CC_OPTIMIZE_FOR_PERFORMANCE=y\n'
		printf '[variant Os]\nconfig = CC_OPTIMIZE_FOR_SIZE=y\n'
	} > "$1"
}
kernels() { ls "$kernel_cache/kernels" 2>/dev/null | wc -l; }
col() { awk -v v="$2" -v c="$3" '$1 == v { print $c }' "$1"; }

conf "$d/tiny.conf"
conf "$d/slub.conf" "$top/configs/slub.config"
n0=$(kernels)
diag "cache: $kernel_cache (a cold cache unpacks 6.1 first: a minute or more)"
"$KBENCH" build --config-only "$d/tiny.conf" > "$d/tiny.out" 2> "$d/tiny.err"
rc=$?
sed 's/^/# /' "$d/tiny.out"
check "kbench build --config-only on 6.1 exits 0 (got $rc)" test $rc -eq 0
[ $rc -eq 0 ] || { sed 's/^/# /' "$d/tiny.err" | tail -n 20; test_done; }
o2=$(col "$d/tiny.out" O2 5) os=$(col "$d/tiny.out" Os 5)
check "the kernel is 6.1 (make kernelversion) in both rows, and in each .config's header" sh -c "
	case '$(col "$d/tiny.out" O2 2) $(col "$d/tiny.out" Os 2)' in '6.1.'*' 6.1.'*) ;; *) exit 1 ;; esac &&
	grep -q '^# Linux/i386 6\.1\.[0-9]* Kernel Configuration' '$o2' && grep -q '^# Linux/i386 6\.1\.' '$os'"
check "tinyconfig on 6.1: SLOB in both (allocator column and .config)" sh -c "
	[ '$(col "$d/tiny.out" O2 3)' = SLOB ] && [ '$(col "$d/tiny.out" Os 3)' = SLOB ] &&
	grep -qx 'CONFIG_SLOB=y' '$o2' && grep -qx 'CONFIG_SLOB=y' '$os'"
check "each variant's options are in its .config (O2: PERFORMANCE, Os: SIZE), and the guest fragment's (PRINTK, PROC_FS)" sh -c "
	grep -qx 'CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y' '$o2' && grep -qx 'CONFIG_CC_OPTIMIZE_FOR_SIZE=y' '$os' &&
	grep -qx 'CONFIG_PRINTK=y' '$o2' && grep -qx 'CONFIG_PROC_FS=y' '$os'"
check "the cached column says whether the cache has the kernel: yes or no" sh -c "
	for v in O2 Os; do c=\$(awk -v v=\$v '\$1 == v { print \$4 }' '$d/tiny.out'); [ \"\$c\" = yes ] || [ \"\$c\" = no ] || exit 1; done"
check "nothing compiled: no vmlinux or object beside the .config, no new kernel in the cache" sh -c "
	[ ! -e '$(dirname "$o2")/vmlinux' ] && [ ! -e '$(dirname "$os")/kernel/fork.o' ] && [ \$(ls '$kernel_cache/kernels' 2>/dev/null | wc -l) -eq $n0 ]"

"$KBENCH" build --config-only "$d/slub.conf" > "$d/slub.out" 2> "$d/slub.err"
rc=$?
sed 's/^/# /' "$d/slub.out"
s=$(col "$d/slub.out" Os 5)
check "with configs/slub.config on 6.1: SLUB, no SLOB, no SLUB_TINY option at all (rc $rc)" sh -c "
	[ $rc -eq 0 ] && [ '$(col "$d/slub.out" Os 3)' = SLUB ] && grep -qx 'CONFIG_SLUB=y' '$s' &&
	! grep -q '^CONFIG_SLOB=y' '$s' && ! grep -q 'CONFIG_SLUB_TINY' '$s'"

# an option Kconfig cannot keep on i386: refused as a build refuses it
printf '[kernel]\nsource = %s\ncache = %s\n[variant bad]\nconfig = X86_64=y\n' "$src61" "$kernel_cache" > "$d/bad.conf"
"$KBENCH" build --config-only "$d/bad.conf" > "$d/bad.out" 2> "$d/bad.err"
rc=$?
sed 's/^/# /' "$d/bad.err" | tail -n 5
check "an option Kconfig drops (X86_64=y on i386): exit 1, the option named" sh -c \
	"[ $rc -eq 1 ] && grep -q 'CONFIG_X86_64' '$d/bad.err'"
test_done
