#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Ordered kernels (issue 33, item 4): a variant's order = FILE builds the
# default's Os kernel with -ffunction-sections, and kbench's copy of the
# tree places the functions the order names first in the main text, in
# its order.  Checked against binutils nm of the built vmlinux:
#   - the listed C functions sit in the order's order, one right after the
#     other (each starts within 16 bytes, the function alignment, of the
#     previous one's end), where the unordered Os kernel has them in
#     another order; entry_SYSENTER_32, in .entry.text, stays where the
#     linker script puts that section (first in .text), as the build says;
#   - the order costs few bytes of text (binutils size, against Os);
#   - the kernel boots (kbench run, sim backend, getppid);
#   - a second order is the same object directory relinked: under 20
#     compilations;
#   - a name twice, or a name no section can carry: refused with the order
#     file and line, before anything is compiled; order on a prebuilt
#     kernel: refused at its line.
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
d=$(scratch)
needs_kernel_source "ordered build"
needs_cmd nm "ordered build (binutils nm)"
needs_cmd size "ordered build (binutils size)"
needs_cmd jq "ordered build"

# plain C functions of the main text (fs/, kernel/, mm/), in an order that
# is not the link's; entry_SYSENTER_32 first, as the orders of syscall
# workloads have it
cat > "$d/one.order" <<'EOF'
# a hand-made order
entry_SYSENTER_32
ksys_write
__ia32_sys_getppid
vfs_read
kfree
do_sys_openat2
ksys_read
vfs_write
getname_flags
__fput
path_openat
EOF
write_tcg_conf "$d/variants.conf" backend=sim workloads=getppid samples=1 timeout=240 \
	output="$d/results" -- Os "Os.ordered:order=$d/one.order"
"$KBENCH" build "$d/variants.conf" > "$d/b1.out" 2> "$d/b1.err"
rc=$?
check "kbench build with order = one.order exits 0 (got $rc)" test $rc -eq 0
[ $rc -eq 0 ] || { sed 's/^/# /' "$d/b1.err" | tail -n 30; test_done; }
grep "order '" "$d/b1.err" | sed 's/^/# /'
kdir() { awk -v v="$1" '$1 == v { print $4 }' "$2" | xargs dirname; }
os=$(kdir Os "$d/b1.out") ord=$(kdir Os.ordered "$d/b1.out")
check "the build says where the functions went: all 11 in the text, the 10 pairs rising" \
	grep -q "variant 'Os.ordered': order '$d/one.order': 11 of its 11 functions are in the kernel's text, 10 of the 10 pairs" "$d/b1.err"

# nm's view: address, size, name of each listed function
placed() {	# placed VMLINUX ORDER: "ADDR SIZE NAME" of the order's C functions, in the order's order
	nm -S "$1" | awk -v order="$2" '
		BEGIN { while ((getline l < order) > 0) if (l !~ /^#/ && l != "entry_SYSENTER_32") want[++n] = l }
		($3 == "t" || $3 == "T") && !($4 in at) { at[$4] = $1; sz[$4] = $2 }
		END { for (i = 1; i <= n; i++) print (want[i] in at ? at[want[i]] " " sz[want[i]] : "none 0"), want[i] }'
}
hex2dec() { printf '%d\n' "0x$1"; }
placed "$ord/vmlinux" "$d/one.order" > "$d/ordered.nm"
placed "$os/vmlinux" "$d/one.order" > "$d/os.nm"
sed 's/^/# ordered: /' "$d/ordered.nm"
# contiguous (mawk reads no hex: the shell does): each one's start within
# 16 bytes of the previous one's end
ok=1 end=
while read -r a s n; do
	[ "$a" = none ] && { ok=0; break; }
	a=$(hex2dec "$a") s=$(hex2dec "$s")
	if [ -n "$end" ] && { [ "$a" -lt "$end" ] || [ $((a - end)) -ge 16 ]; }; then ok=0; fi
	end=$((a + s))
done < "$d/ordered.nm"
check "nm: the 10 C functions in the order's order, each within 16 bytes of the previous one's end" test $ok -eq 1
ok=1 end=
while read -r a s n; do
	[ "$a" = none ] && break
	a=$(hex2dec "$a") s=$(hex2dec "$s")
	if [ -n "$end" ] && { [ "$a" -lt "$end" ] || [ $((a - end)) -ge 16 ]; }; then ok=0; fi
	end=$((a + s))
done < "$d/os.nm"
check "... where the unordered Os kernel does not have them so" test $ok -eq 0
entry=$(nm "$ord/vmlinux" | awk '$3 == "entry_SYSENTER_32" { print $1 }')
stext=$(nm "$ord/vmlinux" | awk '$3 == "_stext" { print $1 }')
first=$(head -n 1 "$d/ordered.nm" | cut -d' ' -f1)
check "entry_SYSENTER_32 stays in .entry.text, ahead of the main text" sh -c "
	[ -n '$entry' ] && [ $(hex2dec "${entry:-0}") -ge $(hex2dec "${stext:-0}") ] &&
	[ $(hex2dec "${entry:-0}") -lt $(hex2dec "${first:-0}") ]"

# the order's cost in bytes of text
tos=$(size "$os/vmlinux" | awk 'NR == 2 { print $1 }')
tord=$(size "$ord/vmlinux" | awk 'NR == 2 { print $1 }')
diag "text (binutils size): Os $tos, Os.ordered $tord ($((tord - tos)) bytes)"
check "the ordered kernel's text is within 1% of Os's ($tord against $tos)" \
	awk -v a="$tord" -v b="$tos" 'BEGIN { x = a - b; if (x < 0) x = -x; exit !(b > 0 && x < b / 100) }'

# it boots and runs a workload
run_in "$d" "$KBENCH" run --no-color "$d/variants.conf"
check "kbench run of Os and Os.ordered exits 0 (got $rc)" test $rc -eq 0
[ $rc -eq 0 ] || sed 's/^/# /' "$d/run.err" | tail -n 20
check "the ordered kernel booted and ran getppid" jq_all "$run/samples.jsonl" \
	'any(.[]; .variant == "Os.ordered" and .case == "getppid")'

# a second order: the same object directory, relinked
sed -n '/^[^#]/p' "$d/one.order" | sort > "$d/two.order"
write_tcg_conf "$d/two.conf" output="$d/results" -- "Os.two:order=$d/two.order"
"$KBENCH" build "$d/two.conf" > "$d/b2.out" 2> "$d/b2.err"
rc=$?
two=$(kdir Os.two "$d/b2.out")
n2=$(awk '/build step: layout 0: compiling/ { on = 1 } on && /^  (CC|AS) / { n++ } END { print n + 0 }' "$two/build.log")
diag "the second order's build compiled $n2 objects"
check "a second order: built (rc $rc), another kernel, under 20 compilations (got $n2)" sh -c "
	[ $rc -eq 0 ] && [ '$two' != '$ord' ] && [ $n2 -lt 20 ] &&
	grep -q \"variant 'Os.two': order '$d/two.order': 11 of its 11 functions are in the kernel's text, 10 of the 10 pairs\" '$d/b2.err'"

# refused: a name twice, a name no section carries, an order on a prebuilt
printf 'kfree\nvfs_read\nkfree\n' > "$d/twice.order"
write_tcg_conf "$d/twice.conf" output="$d/results" -- "Os.twice:order=$d/twice.order"
"$KBENCH" build "$d/twice.conf" > "$d/twice.out" 2> "$d/twice.err"
rc=$?
check "an order naming kfree twice: refused (rc $rc) at its line 3, nothing compiled" sh -c "
	[ $rc -ne 0 ] && grep -q \"$d/twice.order:3: 'kfree' named again (line 1 first)\" '$d/twice.err' &&
	! grep -q 'compiling' '$d/twice.err'"
printf 'kfree\nvfs_*\n' > "$d/glob.order"
write_tcg_conf "$d/glob.conf" output="$d/results" -- "Os.glob:order=$d/glob.order"
"$KBENCH" build "$d/glob.conf" > "$d/glob.out" 2> "$d/glob.err"
rc=$?
check "an order with 'vfs_*': refused (rc $rc) at its line 2" sh -c "
	[ $rc -ne 0 ] && grep -q \"$d/glob.order:2: 'vfs_\\*' is no function name\" '$d/glob.err'"
{
	kernel_section
	printf '\n[variant pre]\nbzimage = %s/bzImage\nvmlinux = %s/vmlinux\norder = %s\n' "$os" "$os" "$d/one.order"
} > "$d/pre.conf"
"$KBENCH" build "$d/pre.conf" > "$d/pre.out" 2> "$d/pre.err"
rc=$?
check "order on a prebuilt kernel: exit 2 (got $rc), at the variant's line" sh -c "
	[ $rc -eq 2 ] && grep -q \"pre.conf:[0-9]*: variant 'pre': order: a prebuilt kernel cannot be ordered\" '$d/pre.err'"
test_done
