#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Virtual layouts on a real kernel (O2, from the build cache).  kbench run
# with sim_virtual_layouts = 4: each sample carries the layouts' values of
# its layout-dependent fields (vl_*, sim.jsonl's arrays), boots/<variant>-<n>.vl
# the placements (the default, sim_virtual_placement = pad: System.map's
# kernel functions in their order, moved on at a few padding points by 16 to
# 4080 bytes each); two boots give the same figures.  Then the same kernel
# booted with the plugin and crafted placements: every kernel function moved
# by 0 (identity), 4096 (the L1i's set span, 64 sets x 64 bytes) and 65536
# (the L2's too, 1024 sets x 64) gives, in every region and in the whole
# run, the real L1i misses, kernel and user, and fills exactly (and the real
# L2 misses for 0 and 65536); a shift by one line (64) does not.  User code
# does not move: that is why only whole set spans are exact.  Last, with
# [run] layouts (real replicas), a virtual layout placed as a replica gives
# its misses, up to one per L1i line where the two histories differ.
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
d=$(scratch)
needs_kernel_source "sim virtual layouts"
find_python bisect || skip_all "needs:python3" "sim virtual layouts"
place=$TEST_SRCDIR/oracle/placement.py
write_tcg_conf "$d/variants.conf" backend=sim boots=2 samples=2 workloads=getppid,pipe seed=7 \
	sim_l1i=32K:8:64 sim_l2=1M:16:64 sim_virtual_layouts=4 timeout=240 output="$d/results" -- O2

run_in "$d" "$KBENCH" run "$d/variants.conf"
check "kbench run exits 0 (got $rc)" test $rc -eq 0
[ $rc -eq 0 ] || sed 's/^/# /' "$d/run.err" | tail -n 30

check "the manifest records 4 virtual layouts, their seed and their placement" \
	jq_true "$run/manifest.json" '.sim.virtual_layouts | .n == 4 and .seed == 7 and .align == 16 and .place == "pad" and .pads >= 1'
check "8 samples, each with 4 integers per vl_ field (the layouts' values of l1i_k, l2_miss, model_cycles)" jq_all "$run/samples.jsonl" '
	length == 8 and all(.[].fields; . as $f | all(["vl_l1i_k", "vl_l2_miss", "vl_model_cycles"][];
		$f[.] | length == 4 and all(type == "number" and floor == .)))'
check "sim.jsonl: every region has 4 values per layout counter" jq_all "$run/sim.jsonl" '
	length == 8 and all(.[]; [.vl_l1i_miss_k, .vl_l1i_miss_u, .vl_l1i_fill, .vl_l2_miss_k,
		.vl_l2_miss_u, .vl_model_cycles] | all(length == 4))'
# the samples' values from sim.jsonl's arrays, compared here
check "the samples' kernel L1i misses per layout are sim.jsonl's arrays" sh -c "
	jq -s 'map({k: [.vboot, .workload, .rep], a: .vl_l1i_miss_k}) | sort_by(.k) | map(.a)' '$run/sim.jsonl' > '$d/from-sim'
	jq -s 'map({k: [.vboot, .workload, .rep], f: .fields}) | sort_by(.k) | map(.f.vl_l1i_k)' '$run/samples.jsonl' > '$d/from-samples'
	cmp -s '$d/from-sim' '$d/from-samples'"
check "the layouts' kernel L1i misses differ (some region)" jq_all "$run/sim.jsonl" \
	'any(.[]; .vl_l1i_miss_k | unique | length > 1)'
check "two boots, identical virtual layout figures" jq_all "$run/sim.jsonl" \
	'group_by([.workload, .rep]) | map(map(del(.boot, .vboot)) | unique | length) | (length == 4 and all(. == 1))'
jq -r 'select(.vboot == 1) | "\(.workload) rep \(.rep): kernel L1i misses \(.l1i_miss_k) real, \(.vl_l1i_miss_k) in the 4 layouts"' \
	"$run/sim.jsonl" | sed 's/^/# /'

map=$run/variants/O2/System.map
vl=$run/boots/O2-1.vl
pads=$(jq -r '.sim.virtual_layouts.pads' "$run/manifest.json")
$PY "$place" padcheck "$map" "$vl" 0 "$pads" > "$d/bad" 2>&1
if [ -s "$vl" ] && [ "$(grep -c '^layout' "$vl")" = 4 ] && [ ! -s "$d/bad" ]; then
	ok "boots/O2-1.vl: 4 paddings of System.map's kernel functions at $pads points, the order kept"
else
	not_ok "boots/O2-1.vl: 4 paddings of System.map's kernel functions at $pads points, the order kept"
	sed 's/^/# /' "$d/bad" | head -n 10
fi
check "the second boot's placements are the first's" cmp -s "$vl" "$run/boots/O2-2.vl"

# The crafted placements, in one boot of the same kernel and initramfs.
key=$(jq -r '.variants[0].key' "$run/manifest.json")
plugin=$(jq -r '.sim.plugin' "$run/manifest.json")
bz=$kernel_cache/kernels/$key/bzImage
$PY "$place" shift "$vl" 0 4096 65536 64 > "$d/shifts.vl"
${KBENCH_QEMU:-qemu-system-i386} -nodefaults -no-user-config -display none -no-reboot -m 128 \
	-serial file:"$d/serial" -monitor none -accel tcg -kernel "$bz" -initrd "$run/initramfs.cpio" \
	-append "console=ttyS0 panic=-1 nokaslr quiet kb_workloads=getppid,pipe kb_samples=2 kb_scale=0.05" \
	-icount shift=0,sleep=off -rtc base=2020-01-01T00:00:00,clock=vm \
	-plugin "file=$plugin,out=$d/shifts.sim,map=$map,l1i=32768:8:64,l2=1048576:16:64,vl_file=$d/shifts.vl" \
	< /dev/null > "$d/qemu.out" 2>&1
check "a boot with 4 crafted layouts: 4 regions and the whole run" sh -c \
	"grep -q '^end errors=0' '$d/shifts.sim' && [ \$(grep -c '^region' '$d/shifts.sim') = 4 ]"
check "no instruction ran between the kernel's functions (where moved code could land)" \
	grep -q '^end errors=0 .* vl_unmoved=0$' "$d/shifts.sim"
[ -s "$d/shifts.sim" ] || sed 's/^/# /' "$d/qemu.out" | tail -n 10
# per layout and region (0: whole run): "layout seq | real L1i k u fill L2 | layout's"
awk '/^(region|total) / { for (i = 2; i <= NF; i++) { split($i, kv, "="); r[kv[1]] = kv[2] }
		seq = $1 == "total" ? 0 : r["seq"]
		real = r["l1i_miss_k"] " " r["l1i_miss_u"] " " r["l1i_fill"] " " r["l2_miss"] }
	/^vl / { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		if (v["seq"] == seq)
			print v["layout"], seq, "|", real, "|", v["l1i_miss_k"], v["l1i_miss_u"],
				v["l1i_fill"], v["l2_miss_k"] + v["l2_miss_u"] }' "$d/shifts.sim" > "$d/cmp"
sed 's/^/# layout, region | real L1i kernel, user, fills, L2 | the layout'"'"'s: /' "$d/cmp"
# same K FIELDS: layout K equals the real figures in FIELDS (awk $n of each half) everywhere
same() { awk -v k="$1" -v f="$2" 'BEGIN { n = split(f, F, " ") }
	$1 == k { seen++; for (i = 1; i <= n; i++) if ($(3 + F[i]) != $(8 + F[i])) bad++ }
	END { exit !(seen == 5 && !bad) }' "$d/cmp"; }
check "identity: L1i misses (kernel, user), fills and L2 misses exact, every region and in all" \
	same 0 "1 2 3 4"
check "kernel functions 4096 bytes on: L1i misses (kernel, user) and fills exact everywhere" \
	same 1 "1 2 3"
check "kernel functions 65536 bytes on: L1i and L2 exact everywhere" same 2 "1 2 3 4"
if same 3 "1 2 3"; then differs=0; else differs=1; fi
check "kernel functions 64 bytes on: the L1i misses differ somewhere" test $differs = 1

# A real layout replica ([run] layouts: O2 again with seeded padding in its
# text).  A virtual layout of the O2 kernel whose placement is the
# replica's (each function where the replica's System.map has it) must give
# the replica's own L1i misses, up to what the cache carries in from the
# kernels' different histories (below), in every region where both kernels
# ran the same instructions.  Where they did not, the timer interrupt (paced
# by the instruction count under -icount) fell elsewhere in the region,
# because the replica ran another number of instructions before it (its
# bigger image): the functions whose counts differ are shown.
if ! "$KBENCH" run --help-config 2>/dev/null | grep -q '^  layouts '; then
	skip "needs:[run] layouts (layout replicas)" "a virtual layout equal to a real replica's gives its L1i misses"
	test_done
fi
write_tcg_conf "$d/lay.conf" backend=sim layouts=2 samples=2 workloads=getppid,pipe seed=7 \
	sim_l1i=32K:8:64 sim_l2=1M:16:64 sim_virtual_layouts=2 timeout=240 output="$d/lay" -- O2
run_in "$d" "$KBENCH" run "$d/lay.conf"
check "layouts = 2: kbench run exits 0 (got $rc)" test $rc -eq 0
# each replica's virtual layouts its own: else they would repeat one another's
check "layouts = 2, 2 virtual layouts each: the replicas' seeds differ, every sample has vl_ fields" sh -c "
	[ \$(grep -h -o '^kbsim .* vl_seed=[0-9]*' '$run'/boots/*.sim | sed 's/.*vl_seed=//' | sort -u | wc -l) = 2 ] &&
	jq -se 'length == 8 and all(.[].fields; .vl_l1i_k | length == 2)' '$run/samples.jsonl' > /dev/null"
rkey=$(jq -r '.variants[0].replicas[1].key' "$run/manifest.json" 2>/dev/null)
rmap=$run/variants/O2/layout-1/System.map
$PY "$place" frommap "$vl" "$map" "$rmap" > "$d/replica.vl" 2> "$d/replica.err"
sed 's/^/# /' "$d/replica.err"
boot() {	# boot KERNEL_KEY MAP OUT [PLUGIN ARGS]
	${KBENCH_QEMU:-qemu-system-i386} -nodefaults -no-user-config -display none -no-reboot -m 128 \
		-serial file:"$3.serial" -monitor none -accel tcg -kernel "$kernel_cache/kernels/$1/bzImage" \
		-initrd "$run/initramfs.cpio" -icount shift=0,sleep=off -rtc base=2020-01-01T00:00:00,clock=vm \
		-append "console=ttyS0 panic=-1 nokaslr quiet kb_workloads=getppid,pipe kb_samples=2 kb_scale=0.05" \
		-plugin "file=$plugin,out=$3,map=$2,l1i=32768:8:64,l2=1048576:16:64${4:-}" < /dev/null > "$3.out" 2>&1
}
boot "$key" "$map" "$d/virtual.sim" ",vl_file=$d/replica.vl"
boot "$rkey" "$rmap" "$d/replica.sim"
# per region: "seq insn_k insn_u | L1i k u fill" of the replica, then the O2 kernel's virtual layout
awk 'FNR == 1 { f++ } /^region / { for (i = 2; i <= NF; i++) { split($i, kv, "="); r[kv[1]] = kv[2] }
		ins[r["seq"]] = r["insn_k"] " " r["insn_u"] }
	f == 1 && /^vl / && !/seq=0 / { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		virt[v["seq"]] = v["l1i_miss_k"] " " v["l1i_miss_u"] " " v["l1i_fill"] }
	f == 1 && /^region / { vins[r["seq"]] = ins[r["seq"]] }
	f == 2 && /^region / { print r["seq"], ins[r["seq"]], vins[r["seq"]], "|", r["l1i_miss_k"], r["l1i_miss_u"], r["l1i_fill"], "|", virt[r["seq"]] }' \
	"$d/virtual.sim" "$d/replica.sim" > "$d/replica.cmp"
sed 's/^/# region, instructions k u (replica, O2) | replica L1i k u fill | virtual: /' "$d/replica.cmp"
same_ins=$(awk '$2 == $4 && $3 == $5' "$d/replica.cmp" | wc -l)
exact=$(awk '$2 == $4 && $3 == $5 && $7 == $11 && $8 == $12 && $9 == $13' "$d/replica.cmp" | wc -l)
# A region's misses depend on the cache it starts with, not only on its own
# instructions: the two kernels' histories differ before it (the replica's
# boot ran other instructions, so its timer interrupts fall elsewhere and a
# region may wake ksoftirqd in one kernel only), and lines left from that
# history stay in the sets the region does not use.  For LRU, the same
# accesses from two different starting states agree once each set has seen
# as many distinct lines as it has ways: they differ by at most one miss per
# line the L1i holds (32768 / 64 = 512).  So where a region ran the same
# instructions in both kernels, the virtual layout must give the replica's
# L1i misses within 512 (exactly where the histories met), while the O2
# kernel's own misses, in its own layout, must be further from the
# replica's than the virtual layout's somewhere: else the check would not
# tell a layout from any other.  (On Linux 6.1 with SLOB the own layout
# missed by more than 512; 6.12's getppid and pipe at this scale are too
# small a footprint for that, so the control is the distance itself.)
lines=512
near=$(awk -v b=$lines '$2 == $4 && $3 == $5 { d = $7 - $11; if (d < 0) d = -d; if (d > b) print }' \
	"$d/replica.cmp" | wc -l)
awk '$2 == $4 && $3 == $5 && ($7 != $11 || $8 != $12 || $9 != $13) { print "region " $1 ": same instructions, L1i misses " $7 " " $8 " " $9 " (replica) against " $11 " " $12 " " $13 " (virtual): not exact" }' \
	"$d/replica.cmp" | while read -r l; do diag "$l"; done
# the O2 kernel's own misses in the same boot (its real layout), per region
awk '/^region / { for (i = 2; i <= NF; i++) { split($i, kv, "="); r[kv[1]] = kv[2] }
		print r["seq"], r["l1i_miss_k"] }' "$d/virtual.sim" > "$d/own"
far=$(awk 'FNR == NR { own[$1] = $2; next } $2 == $4 && $3 == $5 {
		d = $7 - own[$1]; if (d < 0) d = -d; v = $7 - $11; if (v < 0) v = -v; if (d > v) n++ } END { print n + 0 }' \
	"$d/own" "$d/replica.cmp")
diag "the O2 kernel's own kernel L1i misses (region misses): $(tr '\n' ',' < "$d/own")"
check "4 regions in both boots, $same_ins of them with the same instructions in both kernels" \
	sh -c "[ \$(wc -l < '$d/replica.cmp') = 4 ] && [ $same_ins -ge 1 ]"
check "where the instructions are the same, the virtual layout gives the replica's L1i misses within the L1i's $lines lines ($exact of $same_ins exactly); the O2 kernel's own layout is further from them in $far region(s)" \
	sh -c "[ $near = 0 ] && [ $far -ge 1 ]"
for s in $(awk '$2 != $4 || $3 != $5 { print $1 }' "$d/replica.cmp"); do
	diag "region $s ran other instructions in the replica; functions whose counts differ (O2, replica):" \
		"$(join -a1 -a2 -e0 -o 0,1.2,2.2 \
			"$(awk -v s="seq=$s" '$1 == "func" && $2 == s { sub("insn=", "", $3); sub("name=", "", $5); print $5, $3 }' "$d/virtual.sim" | sort > "$d/fa"; echo "$d/fa")" \
			"$(awk -v s="seq=$s" '$1 == "func" && $2 == s { sub("insn=", "", $3); sub("name=", "", $5); print $5, $3 }' "$d/replica.sim" | sort > "$d/fb"; echo "$d/fb")" |
			awk '$2 != $3' | tr '\n' ',')"
done
test_done
