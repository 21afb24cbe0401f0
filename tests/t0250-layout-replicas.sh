#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# [run] layouts = 3: the O2 variant built three times with the same flags,
# layouts 1 and 2 with seeded NOPs after the head and init objects and
# between mm/ and fs/.  Checked on the real kernels, with nm: every text
# symbol of one replica is in the other with the same size; symbols before
# the first padding keep their address, those after it move by exactly the
# padding before them; text grows by exactly the padding (binutils size).
# Each replica boots and runs the workloads under the sim backend; every
# sample and boot line carries its layout; the manifest records each
# replica's seed, padding, text and cache key; layout 0 is the variant's
# usual build (same cache key as without layouts); a second run takes all
# three from the cache; kbench order --place on each padded replica moves
# its padding with the size the replica has.  Then the configuration
# errors.  Builds the padded
# replicas on first use (two objects and the link each, on the cached O2
# kernel that t0100 builds).
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
d=$(scratch)
needs_kernel_source "layout replicas"
needs_cmd nm "layout replicas"
needs_cmd size "layout replicas"

write_tcg_conf "$d/l.conf" backend=sim layouts=3 samples=1 workloads=getppid,pipe timeout=240 \
	output="$d/r" -- O2
run_in "$d" "$KBENCH" run "$d/l.conf"
check "layouts = 3: run exits 0 (got $rc)" test $rc -eq 0
r=$run
m=$r/manifest.json

# the manifest: layouts, and per replica its seed, padding, text, key
check "manifest: layouts 3, three replicas of O2 in order, each built" jq_true "$m" \
	'.layouts == 3 and (.variants[0].replicas | length == 3 and
	 ([.[].layout] == [0, 1, 2]) and all(.status == "built"))'
check "layout 0 has no padding and no seed; layouts 1 and 2 have two pads each, 16 to 4080 in steps of 16" \
	jq_true "$m" '.variants[0].replicas as $r |
	 $r[0].pad == [0, 0] and $r[0].seed == 0 and
	 ($r[1:] | all((.seed | type == "number" and . > 0) and (.pad | length == 2) and
		       (.pad | all(. >= 16 and . <= 4080 and . % 16 == 0))))'
check "each replica its own cache key; layout 0's is the variant's" jq_true "$m" \
	'.variants[0] as $v | ($v.replicas | map(.key) | unique | length == 3) and
	 $v.replicas[0].key == $v.key and ($v.replicas | all(.key | test("^[0-9a-f]{64}$")))'
for l in 0 1 2; do
	dir=$r/variants/O2
	[ $l -eq 0 ] || dir=$dir/layout-$l
	eval "vm$l=\$dir/vmlinux"
	bt=$(size "$dir/vmlinux" 2>/dev/null | awk 'NR == 2 { print $1 }')
	check "layout $l: the run keeps vmlinux, System.map, config and build.log; text as binutils size ($bt)" \
		sh -c "[ -s '$dir/System.map' ] && [ -s '$dir/config' ] && [ -s '$dir/build.log' ] &&
		       jq -e '.variants[0].replicas[$l] | .text == ${bt:-0} and .vmlinux == \"${dir#$r/}/vmlinux\"' '$m' >/dev/null"
done
check "a padded replica's text is layout 0's plus its padding (give or take under 64 bytes, a cache-line alignment)" \
	jq_true "$m" '.variants[0].replicas as $r | $r[1:] |
	 all((.text - $r[0].text - .pad[0] - .pad[1]) as $x | $x > -64 and $x < 64 and $x % 16 == 0)'
cmp -s "$r/variants/O2/config" "$r/variants/O2/layout-1/config"
check "identical .config for layouts 0 and 1" test $? -eq 0

# kbench order --place on the padded replicas (issue 33, item 3): one
# object directory builds every replica, so its padding objects hold the
# last one's sizes; each replica's are read from its own System.map, and
# the code after each padding starts that padding's bytes after it (and
# its own alignment)
printf '# a few functions of fs/ and mm/, around the padding between them\nksys_write\nvfs_read\nkfree\n' > "$d/pad.order"
for l in 1 2; do
	obj=$(jq -r ".variants[0].replicas[$l].objdir" "$m")
	p1=$(jq -r ".variants[0].replicas[$l].pad[0]" "$m") p2=$(jq -r ".variants[0].replicas[$l].pad[1]" "$m")
	"$KBENCH" order --place "$r/variants/O2/layout-$l/System.map" --objects "$obj" -o "$d/pad$l.vl" \
		"$d/pad.order" 2> "$d/pad$l.err"
	rc=$?
	python3 "$TEST_SRCDIR/pad-after.py" "$r/variants/O2/layout-$l/System.map" "$d/pad$l.vl" "$p1" "$p2" \
		> "$d/pad$l.txt" 2>&1
	prc=$?
	sed 's/^/# /' "$d/pad$l.txt"
	check "layout $l: kbench order --place (rc $rc) explains every gap and overlaps nothing, and the code after each padding starts that padding's bytes after it ($p1, $p2)" \
		sh -c "[ $rc -eq 0 ] && [ $prc -eq 0 ] && ! grep -Eq 'no alignment explains|found where another is' '$d/pad$l.err'"
done

# layout 0 is the build without the feature: kbench build of O2 alone
# (layouts = 1) names the same cache entry
write_tcg_conf "$d/one.conf" -- O2
"$KBENCH" build "$d/one.conf" > "$d/build.out" 2> "$d/build.err"
k0=$(jq -r '.variants[0].replicas[0].key' "$m")
check "layouts = 1 builds the same kernel as layout 0 (cache key $(echo "$k0" | cut -c1-12))" \
	grep -q "kernels/$k0/bzImage" "$d/build.out"

# symbols: nm -S of two replicas.  compare A B PADS_A PADS_B: every text
# symbol (but the pads) in both with the same size, the n-th of a name
# with the n-th; before B's first pad the same address, then moved by the
# padding before it, up to _etext (after it the page-aligned init text).
# The padding comes in steps of 16, the alignment of functions, so each
# function moves by it exactly; but the kernel aligns a few entry stubs to
# a cache line (x86_verw_sel: 64 bytes), which can absorb up to 48 bytes
# of it for the code after them: those move by the padding less than 64
# bytes, in steps of 16, and are counted apart.
compare() {
	nm -S --defined-only "$1" > "$d/a.nm" && nm -S --defined-only "$2" > "$d/b.nm" || return 1
	awk -v pa1="$3" -v pa2="$4" -v pb1="$5" -v pb2="$6" -v out="$d/cmp.txt" '
	function hex(s,  i, v) { v = 0; s = tolower(s)
		for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v }
	NF == 4 && $3 ~ /^[tTwW]$/ && $4 !~ /^kb_layout_pad_/ {
		k = $4 SUBSEP (++seen[FILENAME, $4])
		if (FILENAME ~ /a\.nm$/) { aa[k] = hex($1); as[k] = hex($2); na++ }
		else { ba[k] = hex($1); bs[k] = hex($2); nb++ } }
	NF >= 3 && FILENAME ~ /b\.nm$/ && $NF == "kb_layout_pad_1" { p1 = hex($1) }
	NF >= 3 && FILENAME ~ /b\.nm$/ && $NF == "kb_layout_pad_2" { p2 = hex($1) }
	NF == 3 && FILENAME ~ /b\.nm$/ && $3 == "_etext" { et = hex($1) }
	END {
		for (k in aa) if (!(k in ba)) missing++; else if (as[k] != bs[k]) sized++
		for (k in ba) if (!(k in aa)) extra++
		for (k in ba) {
			if (!(k in aa)) continue
			if (ba[k] < p1) { want = 0; reg = 0 }
			else if (ba[k] < p2) { want = pb1 - pa1; reg = 1 }
			else if (ba[k] < et) { want = pb1 + pb2 - pa1 - pa2; reg = 2 }
			else continue
			n[reg]++
			diff = ba[k] - aa[k] - want
			if (diff == 0) continue
			if (reg > 0 && diff > -64 && diff < 64 && diff % 16 == 0) aligned++
			else off++
		}
		printf "%d %d %d %d %d %d %d %d %d %d %d\n", na, nb, missing + 0, extra + 0, sized + 0,
			n[0] + 0, n[1] + 0, n[2] + 0, off + 0, aligned + 0,
			(p1 > 0 && p2 > p1 && et > p2) ? 1 : 0 > out
	}' "$d/a.nm" "$d/b.nm"
}
pads() { jq -r ".variants[0].replicas[$1].pad | \"\\(.[0]) \\(.[1])\"" "$m"; }
for pair in "0 1" "1 2"; do
	set -- $pair
	eval "va=\$vm$1 vb=\$vm$2"
	compare "$va" "$vb" $(pads "$1") $(pads "$2")
	read na nb missing extra sized n0 n1 n2 off aligned found < "$d/cmp.txt" 2>/dev/null
	diag "layouts $1 and $2: $na and $nb text symbols; $n0 before the first pad, $n1 between the pads, $n2 after the second up to _etext; $missing missing, $extra extra, $sized of another size; $aligned moved by the padding less a cache-line alignment's part, $off otherwise than the padding says"
	check "layouts $1 and $2: both pads in layout $2, in order before _etext" test "${found:-0}" -eq 1
	check "layouts $1 and $2: the same text symbols, each of the same size ($na)" \
		test "${na:-0}" -gt 1000 -a "${na:-0}" = "${nb:-x}" -a "${missing:-1}" -eq 0 -a "${extra:-1}" -eq 0 -a "${sized:-1}" -eq 0
	check "layouts $1 and $2: addresses move by the padding before them (exactly, but after a cache-line alignment: $aligned), many functions between and after the pads" \
		test "${off:-1}" -eq 0 -a "${n1:-0}" -gt 1000 -a "${n2:-0}" -gt 1000 -a "${aligned:-1}" -lt $(( (${n1:-0} + ${n2:-0}) / 20 ))
done
check "the two points move code by different amounts (relative positions change)" jq_true "$m" \
	'.variants[0].replicas[1].pad | .[0] != 0 and .[1] != 0'

# every replica booted and measured
b=$r/boots.jsonl
s=$r/samples.jsonl
check "three boots, one per layout, all ok, all variant O2" jq_all "$b" \
	'length == 3 and all(.status == "ok" and .variant == "O2") and (map(.layout) | sort) == [0, 1, 2]'
check "every sample carries its layout; two per layout (getppid, pipe), variant O2" jq_all "$s" \
	'length == 6 and all(.variant == "O2" and (.layout | type == "number")) and
	 (group_by(.layout) | map([.[0].layout, length]) == [[0, 2], [1, 2], [2, 2]])'
check "a sample's layout is its boot's" sh -c \
	"jq -sce 'map({key: (.boot | tostring), value: .layout}) | from_entries' '$b' > '$d/bl.json' &&
	 jq -se --slurpfile bl '$d/bl.json' 'all(.layout == \$bl[0][.boot | tostring])' '$s' >/dev/null"
check "the report's size table lists each replica; its Boots section counts them" sh -c \
	"grep -q 'variants/O2/layout-1/vmlinux' '$r/report.md' && grep -q 'variants/O2/layout-2/vmlinux' '$r/report.md' &&
	 grep -q '^<tr><td>O2<td>2<td>' '$r/report.html' && grep -q '1 boot per layout replica, 3 layouts per variant' '$r/report.md'"
if grep -q 'ccache' "$r/variants/O2/layout-1/build.log"; then
	diag "layout 1's build: $(jq -r '.variants[0].replicas[1] | "cached \(.cached), \(.build_seconds) s, ccache \(.ccache // "-")"' "$m")"
fi

# again: every replica from the cache, the same padding (seed not given: 0)
write_tcg_conf "$d/l2.conf" backend=sim layouts=3 samples=1 workloads=getppid timeout=240 \
	output="$d/r2" -- O2
run_in "$d" "$KBENCH" run "$d/l2.conf"
check "a second run takes all three replicas from the cache, with the same padding (rc $rc)" sh -c \
	"[ $rc -eq 0 ] && jq -e --slurpfile a '$m' '.variants[0].replicas | all(.cached) and
	  map(.pad) == (\$a[0].variants[0].replicas | map(.pad)) and
	  map(.key) == (\$a[0].variants[0].replicas | map(.key))' '$run/manifest.json' >/dev/null"

# --resume: stopped after its first boot, the run boots the other layouts
# (a boot id names a variant and a layout through the seeded plan)
write_tcg_conf "$d/res.conf" backend=sim layouts=3 jobs=1 samples=1 workloads=getppid timeout=240 \
	output="$d/res" -- O2
(cd "$d" && exec "$KBENCH" run "$d/res.conf" > res.out 2> res.err) &
pid=$!
i=0
while [ $i -lt 3000 ] && ! cat "$d/res/"*/boots.jsonl 2>/dev/null | grep -q .; do
	sleep 0.1
	i=$((i + 1))
done
kill -INT $pid 2>/dev/null
wait $pid
rr=$(ls -d "$d/res/"*/ | head -n 1)
run_in "$d" "$KBENCH" run --resume "$rr"
check "--resume after the first boot: every layout booted once, samples' layout their boot's (rc $rc)" sh -c \
	"[ $rc -eq 0 ] && jq -se 'length == 3 and (map(.boot) | sort) == [1, 2, 3] and (map(.layout) | sort) == [0, 1, 2] and
	   all(.status == \"ok\")' '$rr/boots.jsonl' >/dev/null &&
	 jq -sce 'map({key: (.boot | tostring), value: .layout}) | from_entries' '$rr/boots.jsonl' > '$d/rl.json' &&
	 jq -se --slurpfile bl '$d/rl.json' 'length == 3 and all(.layout == \$bl[0][.boot | tostring])' '$rr/samples.jsonl' >/dev/null"

# configuration errors: file:line, exit 2, no run directory
conf_error() {
	local name=$1 pattern=$2
	shift 2
	rm -rf "$d/e"
	run_in "$d" "$KBENCH" run "$@"
	if [ $rc -eq 2 ] && grep -q -- "$pattern" "$d/run.err" && [ ! -e "$d/e" ]; then
		ok "$name"
	else
		not_ok "$name (rc $rc)"
		sed 's/^/# /' "$d/run.err"
	fi
}
for bad in 0 65 100000; do
	write_tcg_conf "$d/bad.conf" layouts=$bad output="$d/e" -- O2
	line=$(grep -n '^layouts' "$d/bad.conf" | cut -d: -f1)
	conf_error "layouts = $bad: refused at bad.conf:$line" "bad.conf:$line: 'layouts': $bad is out of range \[1, 64\]" \
		"$d/bad.conf"
done
mkdir -p "$d/tree/init"
: > "$d/tree/Makefile"
: > "$d/tree/Kconfig"
write_tcg_conf "$d/tree.conf" layouts=2 output="$d/e" -- O2
sed -i "s,^source = .*,source = $d/tree," "$d/tree.conf"
line=$(grep -n '^layouts' "$d/tree.conf" | cut -d: -f1)
conf_error "layouts = 2 on a source tree kbench does not own: refused at tree.conf:$line, the tree untouched" \
	"tree.conf:$line: 'layouts': 2, but \[kernel\] source '$d/tree' is a tree" "$d/tree.conf"
check "the tree gained no padding object" test ! -e "$d/tree/init/kb_layout_pad.S"
printf 'x' > "$d/bz"
write_tcg_conf "$d/pre.conf" layouts=2 output="$d/e" -- O2 "pre:bzimage=$d/bz"
sed -i "/^\[variant pre\]/,\$ { /^config/d }" "$d/pre.conf"
printf 'vmlinux = %s\n' "$d/bz" >> "$d/pre.conf"
line=$(grep -n '^layouts' "$d/pre.conf" | cut -d: -f1)
conf_error "layouts = 2 with a prebuilt variant: refused at pre.conf:$line" \
	"pre.conf:$line: 'layouts': 2, but variant 'pre' is a prebuilt bzimage" "$d/pre.conf"
"$KBENCH" run --help-config > "$d/help" 2>&1
check "--help-config documents layouts" grep -q '^ *layouts .*(default: 1)' "$d/help"
test_done
