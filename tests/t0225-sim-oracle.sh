#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The plugin's instruction counts and L1i model against an oracle that needs
# neither cachegrind nor a kernel that runs i386 programs (t0220 needs one of
# them): freestanding i386 programs (tests/oracle/*.S) whose code sits at
# chosen addresses, run only under qemu-i386 by kbench sim, and a reference
# (tests/oracle/reference.py) that follows their control flow from their own
# bytes (objdump's instruction boundaries) and runs a textbook LRU cache.
# Per region and for the whole run, instructions, L1i misses and L1i fills
# must be equal, exactly, in several geometries: 32K:8:64, 16K:4:32, 4K:2:64,
# 1K:1:16 (direct-mapped), 1K:64:16 (fully associative, 64 ways) and 3K:4:64
# (12 sets, not a power of two).
#
# The counting rule is the plugin's documented one, cachegrind's: every
# instruction is one access; one that spans two lines looks both up and is
# one miss when either missed (each line that missed is one fill).  Markers
# belong to no region.  Some figures follow from the layout alone, whatever
# the geometry; those are checked against hand arithmetic too, so the
# reference is checked as well as the plugin.
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
progs="lines sets pages"
geoms="32K:8:64 16K:4:32 4K:2:64 1K:1:16 1K:64:16 3K:4:64"
d=$(scratch)
objdump=${OBJDUMP:-objdump}
srcdir=$TEST_SRCDIR/oracle

oracle_programs "$d" struct

# fields FILE F: "seq id" and field F (3 instructions, 4 misses, 5 fills)
fields() { cut -d' ' -f1,2,"$2" "$1"; }
# same NAME FILE1 FILE2 F: check that field F agrees, and show how it does not
same() {
	if fields "$2" "$4" > "$2.$4" && fields "$3" "$4" > "$3.$4" && cmp -s "$2.$4" "$3.$4"; then
		ok "$1"
	else
		not_ok "$1"
		diag "plugin (<) against the reference (>):"
		diff "$2.$4" "$3.$4" | sed 's/^/# /'
	fi
}

for p in $progs; do
	# one reference run for every geometry: the trace is the same
	$PY "$srcdir/reference.py" --objdump "$objdump" "$d/$p" $geoms > "$d/$p.ref" 2> "$d/$p.ref.err" ||
		sed 's/^/# /' "$d/$p.ref.err"
	for g in $geoms; do
		"$KBENCH" sim --json --l1i "$g" --l2 off "$d/$p" > "$d/$p.$g.json" 2> "$d/$p.$g.err"
		rc=$?
		[ $rc -eq 0 ] || sed 's/^/# /' "$d/$p.$g.err"
		jq -r '(.regions[] | "\(.seq) \(.id) \(.insn_u + .insn_k) \(.l1i_miss_u + .l1i_miss_k) \(.l1i_fill)"),
		       (.total | "total - \(.insn_u + .insn_k) \(.l1i_miss_u + .l1i_miss_k) \(.l1i_fill)")' \
			"$d/$p.$g.json" > "$d/$p.$g.plugin" 2>/dev/null
		awk -v g="$g" '$1 == g { $1 = ""; sub(/^ /, ""); print }' "$d/$p.ref" > "$d/$p.$g.ref"
		if [ $rc -eq 0 ] && [ -s "$d/$p.$g.ref" ]; then
			same "$p on $g: instructions per region and in all" "$d/$p.$g.plugin" "$d/$p.$g.ref" 3
		else
			not_ok "$p on $g: instructions per region and in all (kbench sim exit $rc)"
		fi
		same "$p on $g: L1i misses per region and in all" "$d/$p.$g.plugin" "$d/$p.$g.ref" 4
		same "$p on $g: L1i fills per region and in all" "$d/$p.$g.plugin" "$d/$p.$g.ref" 5
	done
	# region N (marker ID 0x4b42NN01): instructions misses fills
	diag "$p, 32K:8:64, region: instructions misses fills (reference = plugin when ok):" \
		"$(awk 'function hex(s,  h) { h = "0123456789abcdef"; return 16 * index(h, substr(s, 1, 1)) + index(h, substr(s, 2, 1)) - 17 }
			{ printf "%s%s: %s %s %s", (NR > 1 ? ", " : ""), $1 == "total" ? "total" : hex(substr($2, 7, 2)), $3, $4, $5 }' \
			"$d/$p.32K:8:64.ref")"
done

# figures PROG GEOMETRY REGIONS: "region instructions misses fills, ..." in
# the reference, for those regions (N: the markers' ID 0x4b42NN01)
figures() {
	ids=$(for r in $3; do printf '0x4b42%02x01=%s ' "$r" "$r"; done)
	awk -v g="$2" -v ids=" $ids" '$1 == g && (i = index(ids, " " $3 "=")) {
		r = substr(ids, i + 12); sub(/ .*/, "", r)
		printf "%s%s %s %s %s", (n++ ? ", " : ""), r, $4, $5, $6 }' "$d/$1.ref"
}
# textbook PROG GEOMETRIES REGIONS EXPECTED NAME: the reference gives the
# figures worked out by hand, in each of those geometries
textbook() {
	all=1
	for g in $2; do
		got=$(figures "$1" "$g" "$3")
		[ "$got" = "$4" ] || { all=0; diag "$1 on $g, reference: $got" "expected: $4"; }
	done
	check "$5" test $all = 1
}
# lines.S, the same in every geometry: 3 a spanning NOP, cold: one miss, two
# fills; 4 its first line fetched before: the NOPs before it miss once, it
# misses once; 5 its second line fetched before; 6 both resident; 7 markers
# across lines; 8 empty; 9, 10 two in one block; 11 a system call.
textbook lines "$geoms" "3 4 5 6 7 8 9 10 11" \
	"3 3 1 2, 4 5 2 2, 5 10 2 2, 6 3 0 0, 7 3 0 0, 8 0 0 0, 9 1 0 0, 10 1 0 0, 11 3 0 0" \
	"reference: line spans, markers and a system call give the textbook figures in every geometry"
# sets.S: N links 4 KiB apart, 10 passes: 12 + 10 N instructions; N misses
# when N <= ways, 10 N when N > ways (LRU evicts the next link every time).
# 27: 16 links calling one function in their set: 17 cold misses, then the
# 16 links each pass (LRU keeps the function).  32: 16 KiB fits 32 KiB; 33:
# 64 KiB misses every line of every pass.
textbook sets 32K:8:64 "12 14 18 19 26 27 32 33" \
	"12 32 2 2, 14 52 4 4, 18 92 8 8, 19 102 90 90, 26 172 160 160, 27 492 161 161, 32 773 256 256, 33 3077 3072 3072" \
	"reference: 4 KiB conflicts, LRU and capacity in 32K:8:64 (8 ways: 8 links fit, 9 thrash)"
textbook sets 1K:1:16 "12 14 18 19 26" "12 32 20 20, 14 52 40 40, 18 92 80 80, 19 102 90 90, 26 172 160 160" \
	"reference: direct-mapped 1K:1:16, every link misses every pass"
# pages.S, the same in every geometry: 41 a NOP across a page, cold: one
# miss, two fills; 42 warm; 43 a jmp across; 44 a NOP up to the page's end
# and one after; 46 markers across pages.
textbook pages "$geoms" "41 42 43 44 46" "41 3 1 2, 42 3 0 0, 43 3 1 2, 44 4 2 2, 46 3 0 0" \
	"reference: page crossings give the textbook figures in every geometry"
test_done
