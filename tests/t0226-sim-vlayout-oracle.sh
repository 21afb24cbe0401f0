#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The plugin's virtual layouts against the oracle of t0225: the same
# freestanding i386 programs under qemu-i386 (kbench sim), their functions
# (`nm -n`) placed elsewhere by the plugin, and tests/oracle/reference.py,
# which moves each instruction of its own trace by the same placement (the
# plugin's vl_dump) and runs its textbook LRU cache.  Per layout, region and
# geometry, L1i misses and fills must be equal, exactly.  The placements:
# three crafted (identity; the functions from the first page-aligned one on
# shifted by 3 x 4096 bytes, a multiple of every geometry's set span, while
# the code before stays, as user code does under a moved kernel; the same
# shifted by 64 bytes) and three seeded shuffles (--vl-place shuffle,
# checked to be a packing of the same functions, each moved by a multiple
# of its alignment, 16 at most; also on a map of functions at any alignment,
# as -Os leaves them, where the padding makes runs grow into each other
# unless the plugin pushes them on); then three seeded paddings (--vl-place
# pad, the default: the map's order kept, 3 points of 16 to 4080 bytes each,
# checked by placement.py padcheck), against the reference the same way.  The identity and the set-span shift must give the real misses
# exactly; a one-line shift must not, somewhere.  (Had everything moved, any
# shift by whole lines would only rename the sets: exact too.)
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
progs="lines sets pages"
geoms="32K:8:64 16K:4:32 4K:2:64 1K:1:16 1K:64:16 3K:4:64"
d=$(scratch)
nm=${NM:-nm}
objdump=${OBJDUMP:-objdump}
srcdir=$TEST_SRCDIR/oracle

oracle_programs "$d" bisect
for p in $progs; do
	$nm -n "$d/$p" > "$d/$p.nm"
done

# table FILE.json: "GEOMETRY/N seq id instructions misses fills" per layout
# N, region and the whole run, as reference.py --place prints them
table() {
	jq -r --arg g "$2" '. as $r | range(.regions[0].vl_l1i_fill | length) as $k |
		(($r.regions[] | "\($g)/\($k) \(.seq) \(.id) \(.insn_u + .insn_k) \(.vl_l1i_miss_u[$k] + .vl_l1i_miss_k[$k]) \(.vl_l1i_fill[$k])"),
		 ($r.total | "\($g)/\($k) total - \(.insn_u + .insn_k) \(.vl_l1i_miss_u[$k] + .vl_l1i_miss_k[$k]) \(.vl_l1i_fill[$k])"))' "$1"
}
# real FILE.json G: the real layout's "seq misses fills"; layout FILE.json G K: layout K's
real() { jq -r '(.regions[], .total) | "\(.seq) \(.l1i_miss_u + .l1i_miss_k) \(.l1i_fill)"' "$1"; }
layout() {
	jq -r --argjson k "$2" '(.regions[], .total) | "\(.seq) \(.vl_l1i_miss_u[$k] + .vl_l1i_miss_k[$k]) \(.vl_l1i_fill[$k])"' "$1"
}

# packed NAME MAP VL: a check that the layouts of VL (a --vl-dump) are a
# packing of MAP's functions, each keeping its alignment (placement.py)
packed() {
	$PY "$srcdir/placement.py" check "$2" "$3" 0 > "$3.bad" 2>&1
	if [ -s "$3" ] && [ ! -s "$3.bad" ]; then
		ok "$1"
	else
		not_ok "$1"
		sed 's/^/# /' "$3.bad" | head -n 10
	fi
}

# against_reference NAME PROGRAM DUMP TABLE: the plugin's misses and fills
# (TABLE, as table() prints them) equal reference.py's for DUMP's placements
against_reference() {
	$PY "$srcdir/reference.py" --objdump "$objdump" --place "$3" "$d/$2" $geoms 2> "$4.ref.err" |
		grep '/' > "$4.ref"
	[ -s "$4.ref.err" ] && sed 's/^/# /' "$4.ref.err"
	if [ -s "$4.ref" ] && cmp -s "$4" "$4.ref"; then
		ok "$1"
	else
		not_ok "$1"
		diag "plugin (<) against the reference (>):"
		diff "$4" "$4.ref" | head -n 20 | sed 's/^/# /'
	fi
}

shift64_differs=0
for p in $progs; do
	# the seeded layouts alone, then the crafted ones from their ranges
	"$KBENCH" sim --l2 off --map "$d/$p.nm" --vl 3 --vl-seed 11 --vl-place shuffle --vl-dump "$d/$p.seeded" \
		"$d/$p" > /dev/null 2> "$d/$p.err" || sed 's/^/# /' "$d/$p.err"
	$PY "$srcdir/placement.py" craft "$d/$p.seeded" > "$d/$p.crafted"
	packed "$p: 3 seeded layouts pack its functions anew, each keeping its alignment" \
		"$d/$p.nm" "$d/$p.seeded"
	: > "$d/$p.plugin"
	for g in $geoms; do
		# layouts 0-2 crafted, 3-5 seeded (the same as above: same seed)
		"$KBENCH" sim --json --l1i "$g" --l2 off --map "$d/$p.nm" --vl-file "$d/$p.crafted" \
			--vl 3 --vl-seed 11 --vl-place shuffle --vl-dump "$d/$p.all" "$d/$p" > "$d/$p.$g.json" \
			2> "$d/$p.$g.err" || sed 's/^/# /' "$d/$p.$g.err"
		table "$d/$p.$g.json" "$g" >> "$d/$p.plugin"
		real "$d/$p.$g.json" > "$d/$p.$g.real"
		for k in 0 1 2; do layout "$d/$p.$g.json" $k > "$d/$p.$g.$k"; done
		check "$p on $g: the identity layout gives the real misses and fills, every region" \
			cmp -s "$d/$p.$g.real" "$d/$p.$g.0"
		check "$p on $g: the functions from a page on, 3 x 4096 bytes on: the real misses and fills" \
			cmp -s "$d/$p.$g.real" "$d/$p.$g.1"
		cmp -s "$d/$p.$g.real" "$d/$p.$g.2" || shift64_differs=$((shift64_differs + 1))
	done
	check "$p: the seeded layouts in the run are those of the first run (same seed)" \
		sh -c "sed -n '/^layout 3/,\$p' '$d/$p.all' | sed 1d > '$d/a'; sed 1d '$d/$p.seeded' | sed '/^layout/d' > '$d/b'; sed -i '/^layout/d' '$d/a'; cmp -s '$d/a' '$d/b'"
	against_reference "$p: 6 layouts x 6 geometries, misses and fills per region equal the reference's" \
		"$p" "$d/$p.all" "$d/$p.plugin"
	diag "$p, 32K:8:64, misses per layout in all (0 identity, 1 +12288, 2 +64, 3-5 seeded; real $(cut -d' ' -f2 "$d/$p.32K:8:64.real" | tail -n 1)): $(grep '^32K:8:64/[0-9] total' "$d/$p.plugin.ref" | cut -d' ' -f5 | tr '\n' ' ')"

	# the default placement: padding at 3 points per layout, the order kept
	: > "$d/$p.pad.plugin"
	for g in $geoms; do
		"$KBENCH" sim --json --l1i "$g" --l2 off --map "$d/$p.nm" --vl 3 --vl-seed 11 --vl-place pad \
			--vl-pads 3 --vl-dump "$d/$p.pad" "$d/$p" > "$d/$p.$g.pad.json" 2> "$d/$p.$g.err" ||
			sed 's/^/# /' "$d/$p.$g.err"
		table "$d/$p.$g.pad.json" "$g" >> "$d/$p.pad.plugin"
	done
	$PY "$srcdir/placement.py" padcheck "$d/$p.nm" "$d/$p.pad" 0 3 > "$d/$p.pad.bad" 2>&1
	if [ -s "$d/$p.pad" ] && [ "$(grep -c '^layout' "$d/$p.pad")" = 3 ] && [ ! -s "$d/$p.pad.bad" ]; then
		ok "$p: 3 padded layouts keep the map's order, moved in at most 3 steps of 16 to 4080 bytes"
	else
		not_ok "$p: 3 padded layouts keep the map's order, moved in at most 3 steps of 16 to 4080 bytes"
		sed 's/^/# /' "$d/$p.pad.bad" | head -n 10
	fi
	against_reference "$p: 3 padded layouts x 6 geometries, misses and fills per region equal the reference's" \
		"$p" "$d/$p.pad" "$d/$p.pad.plugin"
done
check "a shift by one line changes the misses somewhere ($shift64_differs of 18 runs)" \
	test "$shift64_differs" -gt 0

# 9000 functions at any alignment, in 3 runs: packed, aligned, disjoint
$PY "$srcdir/placement.py" synth > "$d/synth.nm"
"$KBENCH" sim --l2 off --map "$d/synth.nm" --vl 3 --vl-seed 3 --vl-place shuffle --vl-dump "$d/synth.vl" \
	"$d/lines" > /dev/null 2> "$d/synth.err" || sed 's/^/# /' "$d/synth.err"
packed "9000 functions at any alignment: packed, each keeps its alignment, none overlap" \
	"$d/synth.nm" "$d/synth.vl"

# a bad placement file is refused, naming its line
printf 'layout a\n0x1000 0x100 0x2000\n0x1080 0x10 0x3000\n' > "$d/overlap"
"$KBENCH" sim --l2 off --vl-file "$d/overlap" "$d/lines" > /dev/null 2> "$d/overlap.err"
rc=$?
check "overlapping ranges: refused (exit $rc), the file and line named" \
	sh -c "[ $rc -ne 0 ] && grep -q \"overlap:3: range at 0x1080 overlaps that of line 2\" '$d/overlap.err'"
printf 'layout a\n0x1000 zz 0x2000\n' > "$d/garbled"
"$KBENCH" sim --l2 off --vl-file "$d/garbled" "$d/lines" > /dev/null 2> "$d/garbled.err"
rc=$?
check "a garbled range: refused (exit $rc), the file and line named" \
	sh -c "[ $rc -ne 0 ] && grep -q \"garbled:2: expected START SIZE NEW\" '$d/garbled.err'"
test_done
