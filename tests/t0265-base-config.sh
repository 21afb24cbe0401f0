#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# [kernel] base = FILE: a lab's own .config (issue 26, item 2).  The lab's
# file here is the .config of the x86_64 Os kernel (t0260's: tinyconfig plus
# kbench's guest fragment, from the build cache; the first run builds it)
# set for -O2 (CC_OPTIMIZE_FOR_PERFORMANCE, not _SIZE) and with two options
# a lab's minimal config might turn off (PRINTK, PROC_FS) and a comment;
# built as the Os variant, kbench applies its guest fragment and
# the variant's options and lists the lab's options that changed: PRINTK
# and PROC_FS back on, CC_OPTIMIZE_FOR_PERFORMANCE off, CC_OPTIMIZE_FOR_SIZE
# on.  The final .config is then the default Os kernel's, byte for byte,
# so the kernel comes from the cache.  An i386 .config (make ARCH=i386
# tinyconfig) with arch = x86_64, and a file that is no x86 .config, are
# refused at the base line, before anything is built.
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
d=$(scratch)
needs_kernel_source "base config"

# linked as t0260's kernel is (lib.sh's x86_64_ld), so that the suite
# compiles one x86_64 kernel, not two
xld=$(x86_64_ld)
write_tcg_conf "$d/default.conf" -- "Os${xld:+:ld=$xld}"
sed -i 's/^\[kernel\]$/[kernel]\narch = x86_64/' "$d/default.conf"
build_first "$d/default.conf"
os=$(kdir Os "$d/default.conf.build.out")
check "the default x86_64 Os kernel has its .config in the cache" test -f "$os/config"

# the lab's file: Os's .config for -O2, PRINTK and PROC_FS off
{
	echo "# a lab's own configuration"
	sed 's/^CONFIG_PRINTK=y$/# CONFIG_PRINTK is not set/; s/^CONFIG_PROC_FS=y$/# CONFIG_PROC_FS is not set/
	     s/^CONFIG_CC_OPTIMIZE_FOR_SIZE=y$/# CONFIG_CC_OPTIMIZE_FOR_SIZE is not set/
	     s/^# CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE is not set$/CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y/' "$os/config"
} >"$d/lab.config"
check "the lab's file has PRINTK and PROC_FS off, -O2 on" sh -c \
	"grep -qx '# CONFIG_PRINTK is not set' '$d/lab.config' && grep -qx '# CONFIG_PROC_FS is not set' '$d/lab.config' &&
	 grep -qx 'CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y' '$d/lab.config' && grep -qx '# CONFIG_CC_OPTIMIZE_FOR_SIZE is not set' '$d/lab.config'"
{
	kernel_section
	printf 'arch = x86_64\nbase = lab.config\n\n[variant Os]\nconfig = CC_OPTIMIZE_FOR_SIZE=y\n%s' "${xld:+ld = $xld
}"
} >"$d/lab.conf"
"$KBENCH" build "$d/lab.conf" >"$d/lab.out" 2>"$d/lab.err"
rc=$?
check "kbench build with base = lab.config exits 0 (got $rc)" test $rc -eq 0
[ $rc -eq 0 ] || sed 's/^/# /' "$d/lab.err" | tail -n 20
grep "options of base" "$d/lab.err" | sed 's/^/# /'
check "it lists the 4 lab options that changed, and how" sh -c \
	"grep -q \"variant 'Os': 4 of the [0-9]* options of base '$d/lab.config' are otherwise in the final .config\" '$d/lab.err' &&
	 grep 'options of base' '$d/lab.err' | grep -q 'CONFIG_PRINTK n -> y' &&
	 grep 'options of base' '$d/lab.err' | grep -q 'CONFIG_PROC_FS n -> y' &&
	 grep 'options of base' '$d/lab.err' | grep -q 'CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE y -> n' &&
	 grep 'options of base' '$d/lab.err' | grep -q 'CONFIG_CC_OPTIMIZE_FOR_SIZE n -> y'"
labk=$(kdir Os "$d/lab.out")
check "the final .config is the default Os kernel's, so the kernel came from the cache" sh -c \
	"cmp -s '$labk/config' '$os/config' && awk '\$1 == \"Os\" { exit \$2 != \"cached\" }' '$d/lab.out'"

# an i386 .config with arch = x86_64: refused at the base line
tree=$(unpacked_tree)
if [ -n "$tree" ] && make -s -C "$tree" O="$d/i386" ARCH=i386 tinyconfig >"$d/i386.log" 2>&1; then
	printf '[kernel]\nsource = %s\ncache = %s\narch = x86_64\nbase = %s\n\n[variant a]\n' \
		"$kernel_src" "$kernel_cache" "$d/i386/.config" >"$d/i386.conf"
	"$KBENCH" build "$d/i386.conf" >"$d/i386.out" 2>"$d/i386.err"
	rc=$?
	sed 's/^/# /' "$d/i386.err"
	check "an i386 .config with arch = x86_64: exit 2 at i386.conf:5, naming its CONFIG_X86_32=y line" sh -c \
		"[ $rc -eq 2 ] && grep -q \"^$d/i386.conf:5: 'base': '$d/i386/.config' is a .config for i386 (its line [0-9]*), but arch = x86_64 (line 4)\" '$d/i386.err' &&
		 n=\$(grep -o 'its line [0-9]*' '$d/i386.err' | cut -d' ' -f3) && sed -n \"\${n}p\" '$d/i386/.config' | grep -qxE 'CONFIG_X86_32=y|# CONFIG_64BIT is not set'"
else
	skip "needs:an unpacked kernel tree in the cache (make ARCH=i386 tinyconfig)" "an i386 .config refused"
fi
printf 'CONFIG_ARM64=y\nCONFIG_64BIT=y\n' >"$d/arm.config"
printf '[kernel]\narch = x86_64\nbase = arm.config\n[variant a]\n' >"$d/arm.conf"
"$KBENCH" build "$d/arm.conf" >/dev/null 2>"$d/arm.err"
rc=$?
check "a file that is no x86 .config: exit 2 at arm.conf:3" sh -c \
	"[ $rc -eq 2 ] && grep -q \"^$d/arm.conf:3: 'base': '$d/arm.config' is not a kernel .config for x86\" '$d/arm.err'"
printf '[kernel]\nbase = nosuch.config\n[variant a]\n' >"$d/none.conf"
"$KBENCH" build "$d/none.conf" >/dev/null 2>"$d/none.err"
rc=$?
check "a base file that is not there: exit 2 at none.conf:2" sh -c \
	"[ $rc -eq 2 ] && grep -q \"^$d/none.conf:2: 'base': '$d/nosuch.config'\" '$d/none.err'"
test_done
