#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Function orders from exact profiles (issue 33), on programs whose counts
# follow from their code (tests/oracle/calls.S, order.S):
# - the plugin's call edges (kbench sim --calls): every call site with the
#   entry it called and how often, per region, against the sites' and
#   functions' addresses (nm): a loop's 100 calls, a callee's two sites, an
#   indirect call, a callee at a page's start; nothing cut;
# - kbench order on a profile with a known best order (a chain A -> B -> C,
#   a cold caller D of E): c3 and pettis-hansen give A B C, hot-cold keeps
#   the map's order, D (cold) is never listed; a bad profile and method are
#   refused, naming the line and the method;
# - prediction = built: kbench sim --vl-order simulates order.S's functions
#   placed as an order file says; the program linked in that order (a
#   linker script) misses in the L1i exactly as predicted, and not as the
#   program linked in input order does;
# - kbench order --place --objects on a small kernel-like link whose
#   object holds an overridden weak function alone: every function where
#   the ordered link puts it;
# - an order naming a function the map has not, or one twice: refused,
#   with the file and line.
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
progs="calls"
d=$(scratch)
src=$TEST_SRCDIR/oracle

oracle_programs "$d" struct
nm "$d/calls" | sort > "$d/calls.nm"
"$KBENCH" sim --l2 off --map "$d/calls.nm" --calls "$d/calls.calls" "$d/calls" > "$d/calls.out" 2> "$d/calls.err"
rc=$?
sed 's/^/# /' "$d/calls.calls"
check "kbench sim --calls exits 0 (got $rc) and the calls file ends: 514 calls, none cut, 8 edges" sh -c \
	"[ $rc -eq 0 ] && grep -qx 'end calls=514 cut=0 edges=8' '$d/calls.calls'"
a() { printf '0x%x' "0x$(awk -v s="$1" '$3 == s { print $1 }' "$d/calls.nm")"; }
edge() {	# edge REGION SITE CALLEE N
	check "region $1: $2 -> $4 ($3) taken $5 times" grep -qx "c $1 $(a "$2") $(a "$3") $5" "$d/calls.calls"
}
edge 1 site_loop fa "fa" 100
edge 1 site_a1 fb "fb, first site" 100
edge 1 site_a2 fb "fb, second site" 100
edge 1 site_b fc "fc" 200
edge 2 site_ind fc "fc, call *%eax" 7
edge 3 site_d fd "fd" 1
edge 3 site_d2 fe "fe, at a page's start" 1
check "no other edge in the regions (7 c lines), each region ended" sh -c \
	"[ \$(grep -c '^c ' '$d/calls.calls') -eq 7 ] && [ \$(grep -c '^r ' '$d/calls.calls') -eq 3 ]"

# kbench order on a chain A -> B -> C, E called from cold D
cat > "$d/chain.prof" <<'PROF'
kbprofile 1
variant Os
run synthetic
cases all
boots 1
f 0xc1000000 64 0 0 0 D
f 0xc1000040 128 500 100 100 C
f 0xc10000c0 256 100 0 200 A
f 0xc10001c0 64 1000 100 64 B
f 0xc1000200 512 50 5 40 E
e 100 A B
e 100 B C
e 5 D E
PROF
for m in c3 pettis-hansen hot-cold; do
	"$KBENCH" order --method $m -o "$d/$m.order" "$d/chain.prof" 2> "$d/$m.err"
	rc=$?
	grep -v '^#' "$d/$m.order" | tr '\n' ' ' > "$d/$m.names" 2>/dev/null
	diag "$m: $(cat "$d/$m.names")"
	case $m in
	hot-cold) want="C A B E " ;;
	*) want="A B C E " ;;
	esac
	check "order --method $m: $want(rc $rc)" sh -c "[ $rc -eq 0 ] && [ \"\$(cat '$d/$m.names')\" = '$want' ]"
done
check "the order's header: method, profile, 4 of 5 functions, their bytes and hot bytes" sh -c \
	"grep -qx '# kbench order: method c3, from profile $d/chain.prof' '$d/c3.order' &&
	 grep -q '^# 4 functions (of 5) that ran, 960 bytes, 404 of them run (hot bytes)' '$d/c3.order'"
"$KBENCH" order --method c4 "$d/chain.prof" > /dev/null 2> "$d/m.err"
rc=$?
check "an unknown method: exit 2, did you mean c3 (got $rc)" sh -c \
	"[ $rc -eq 2 ] && grep -q \"unknown --method 'c4' (did you mean 'c3'?)\" '$d/m.err'"
printf 'kbprofile 1\nf 0x1 2 3 4 5 A\ne 3 A Z\n' > "$d/bad.prof"
"$KBENCH" order "$d/bad.prof" > /dev/null 2> "$d/bad.err"
rc=$?
check "a profile whose edge names no function: exit 2 at bad.prof:3 (got $rc)" sh -c \
	"[ $rc -eq 2 ] && grep -q \"bad.prof:3: an edge of a function no f line names ('Z')\" '$d/bad.err'"

# prediction = built
for v in plain hot; do
	${CC:-cc} -m32 -static -nostdlib -no-pie -I"$src" -Wl,-T,"$src/order-$v.lds" -o "$d/order-$v" \
		"$src/order.S" 2> "$d/cc.err" || { sed 's/^/# /' "$d/cc.err"; skip_all_32 "order"; }
	nm "$d/order-$v" | sort > "$d/order-$v.nm"
done
printf '# fa and fb first, as order-hot.lds links them\nfa\nfb\n_start\n' > "$d/order.txt"
g="--l1i 256:1:64 --l2 off"
"$KBENCH" sim $g --map "$d/order-plain.nm" --vl-order "$d/order.txt" --json "$d/order-plain" > "$d/pred.json" 2> "$d/pred.err"
r1=$?
"$KBENCH" sim $g --map "$d/order-hot.nm" --json "$d/order-hot" > "$d/built.json" 2> "$d/built.err"
r2=$?
cat "$d/pred.err" "$d/built.err" | sed 's/^/# /'
jq -r '.regions[0] | "\(.l1i_miss_u) \(.vl_l1i_miss_u[0])"' "$d/pred.json" > "$d/pred.txt" 2>/dev/null
jq -r '.regions[0].l1i_miss_u' "$d/built.json" > "$d/built.txt" 2>/dev/null
diag "input order: $(cut -d' ' -f1 "$d/pred.txt") misses; predicted for the order: $(cut -d' ' -f2 "$d/pred.txt"); built in that order: $(cat "$d/built.txt")"
check "the ordered program's L1i misses are the prediction's, exactly (rc $r1 $r2)" sh -c \
	"[ $r1 -eq 0 ] && [ $r2 -eq 0 ] && [ -s '$d/built.txt' ] && [ \"\$(cut -d' ' -f2 '$d/pred.txt')\" = \"\$(cat '$d/built.txt')\" ]"
check "... and the order changes them (input order: 2 an iteration, 101)" sh -c \
	"[ \"\$(cut -d' ' -f1 '$d/pred.txt')\" = 101 ] && [ \"\$(cat '$d/built.txt')\" = 2 ]"

# kbench order --place: the placement itself, every function where the
# ordered link (order-hot.lds) put it
"$KBENCH" order --place "$d/order-plain.nm" -o "$d/place.vl" "$d/order.txt" 2> "$d/place.err"
rc=$?
# name and new address per placed function, against nm of the ordered program
# (addresses without 0x and leading zeros: nm pads them, the placement not)
awk 'function k(a) { sub(/^0x/, "", a); sub(/^0+/, "", a); return a }
	FNR == NR { name[k($1)] = $3; next } /^0x/ { print name[k($1)], k($3) }' \
	"$d/order-plain.nm" "$d/place.vl" | sort > "$d/place.names"
awk '$2 == "T" && $3 != "_etext" { a = $1; sub(/^0+/, "", a); print $3, a }' "$d/order-hot.nm" | sort > "$d/hot.names"
check "kbench order --place: exit 0 (got $rc), each of the $(wc -l < "$d/hot.names") functions at its address in the ordered program" sh -c \
	"[ $rc -eq 0 ] && [ -s '$d/hot.names' ] && cmp -s '$d/place.names' '$d/hot.names'"

# kbench order --place --objects where an object's .text holds a weak
# function alone, which the link overrides (Linux 6.1's init/initramfs.o):
# its code is there without a symbol, the map's name is the strong one's,
# so that only the gap it fills tells where it sits.  A small "kernel":
# head code, then the main text, linked as the kernel's script does, and
# again with the order's functions first from objects compiled with
# -ffunction-sections
k=$d/weak
mkdir -p "$k/obj/init" "$k/obj/lib" "$k/obj/mm" "$k/ffs"
printf '\t.section .head.text, "ax"\n\t.globl startup\nstartup:\n\t.skip 45, 0x90\n\t.section .note.GNU-stack, ""\n' > "$k/head.S"
echo '__attribute__((weak)) int wfn(int x) { return x * 3 + 1; }' > "$k/w.c"
printf 'int wfn(int x);\nint f1(int x) { return wfn(x) + 7; }\nint f2(int x) { return f1(x) * 2 - x; }\nint f3(int x) { return f2(x) ^ 0x55; }\n' > "$k/f.c"
printf 'int wfn(int x) { return x * 5 + 2; }\nint g1(int x) { return x - 9; }\n' > "$k/s.c"
for first in "" "*(.text.f2) *(.text.f1)"; do
	printf 'ENTRY(startup)\nSECTIONS {\n. = 0x100000;\n.text : { _stext = .; *(.head.text) . = ALIGN(8); %s *(.text .text.*) _etext = .; }\n/DISCARD/ : { *(.note.*) *(.comment) *(.eh_frame) }\n}\n' \
		"$first" > "$k/k${first:+o}.lds"
done
cf="-m32 -Os -fno-pic -fno-asynchronous-unwind-tables -fcf-protection=none"
if ${CC:-cc} -m32 -c "$k/head.S" -o "$k/obj/init/head.o" 2> "$k/cc.err" &&
   ${CC:-cc} $cf -c "$k/w.c" -o "$k/obj/init/w.o" && ${CC:-cc} $cf -c "$k/f.c" -o "$k/obj/lib/f.o" &&
   ${CC:-cc} $cf -c "$k/s.c" -o "$k/obj/mm/s.o" && ${CC:-cc} $cf -ffunction-sections -c "$k/f.c" -o "$k/ffs/f.o" &&
   ld -m elf_i386 -T "$k/k.lds" -o "$k/k" "$k/obj/init/head.o" "$k/obj/init/w.o" "$k/obj/lib/f.o" "$k/obj/mm/s.o" &&
   ld -m elf_i386 -T "$k/ko.lds" -o "$k/ko" "$k/obj/init/head.o" "$k/obj/init/w.o" "$k/ffs/f.o" "$k/obj/mm/s.o"; then
	nm "$k/k" | sort > "$k/k.map"
	nm "$k/ko" | sort > "$k/ko.map"
	printf 'f2\nf1\n' > "$k/o.order"
	"$KBENCH" order --place "$k/k.map" --objects "$k/obj" -o "$k/p.vl" "$k/o.order" 2> "$k/p.err"
	rc=$?
	place_check "$k/k.map" "$k/p.vl" "$k/ko.map"
	check "order --place --objects (rc $rc): an overridden weak function's code found by the gap it fills, every function where the ordered link puts it (${same:-none} there, ${other:-?} elsewhere)" \
		sh -c "[ $rc -eq 0 ] && [ '${other:-x}' = 0 ] && [ '${same:-0}' -ge 5 ] && ! grep -q 'found where another is' '$k/p.err'"
else
	sed 's/^/# /' "$k/cc.err"
	skip needs:gcc-multilib "the 32-bit objects of the weak function's check"
fi

# orders the map cannot take
printf 'fa\nfbb\n' > "$d/unknown.txt"
"$KBENCH" sim $g --map "$d/order-plain.nm" --vl-order "$d/unknown.txt" "$d/order-plain" > /dev/null 2> "$d/unknown.err"
rc=$?
check "an order naming no function of the map: exit 2 at unknown.txt:2, did you mean fb (got $rc)" sh -c \
	"[ $rc -eq 2 ] && grep -q \"unknown.txt:2: 'fbb' is no function of '$d/order-plain.nm' (did you mean 'fb'?)\" '$d/unknown.err'"
printf 'fa\n\n# twice\nfb\nfa\n' > "$d/twice.txt"
"$KBENCH" sim $g --map "$d/order-plain.nm" --vl-order "$d/twice.txt" "$d/order-plain" > /dev/null 2> "$d/twice.err"
rc=$?
check "an order naming a function twice: exit 2 at twice.txt:5, naming the first line (got $rc)" sh -c \
	"[ $rc -eq 2 ] && grep -q \"twice.txt:5: 'fa' named again (line 1 first)\" '$d/twice.err'"
test_done
