#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Ordered kernels (issue 33, item 4): a variant's order = FILE builds the
# default's Os kernel with the objects that define the order's functions
# compiled with -ffunction-sections (every other object is Os's), and
# kbench's copy of the tree places the functions the order names first in
# the main text, in its order.  Checked against binutils nm and objdump:
#   - the objects compiled with the flag are those nm finds defining the
#     order's functions in their main text in Os's objects; one of them
#     has a section per function, an object not among them is Os's;
#   - the listed C functions sit in the order's order, one right after the
#     other (each starts within 16 bytes, the function alignment, of the
#     previous one's end), where the unordered Os kernel has them in
#     another order (a syscall of no arguments, __ia32_sys_getppid, moves
#     with the section of __do_sys_getppid, whose alias it is);
#     entry_SYSENTER_32, in .entry.text, stays in that section, the
#     sections after the main text start where Os's do, and the
#     build log counts the order's functions and the pairs of them at
#     rising addresses as nm does;
#   - where the ordered kernel has each function of the text is what kbench
#     order --place --objects works out from Os's System.map and objects
#     before anything is built (item 3), and not what packing System.map's
#     functions gives;
#   - the order costs few bytes of text (binutils size, against Os);
#   - the kernel boots (kbench run, sim backend, getppid and pipe);
#   - the same run predicts it from Os's boot (sim_virtual_placement =
#     order:FILE): the placement simulated is where the ordered kernel has
#     each function, its figures are pred_ fields and no metric, and on
#     pipe (held out) the predicted kernel L1i misses are within 2% of the
#     ordered kernel's, where Os's own are not;
#   - an order naming __copy_user_ll, whose inline assembly aligns its own
#     code: its object compiled here with -ffunction-sections, the
#     prediction puts every function where that kernel has it;
#   - a second order of the same functions is the same object directory
#     relinked: under 20 compilations; a third, at a path holding "*/", builds too (the
#     generated rule, which a preprocessor reads, does not carry the path);
#   - (an order linked by lld is t0260's, on its x86_64 kernel: lld
#     changes the kernel's .config, CONFIG_LD_IS_LLD and the linker's
#     version, so that an i386 lld kernel here was every object compiled
#     again, a fourth 6.12 kernel from nothing on a cold cache);
#   - kbench explain of the ordered variant against Os: a kernel per part
#     of the tree, each with the order's functions of that part alone (nm:
#     fs/'s first, in order; kfree, of mm/, not moved), explain.json by
#     order, the functions table's moved rows exactly the order's; against
#     a variant of other flags, or by flag, refused before any build;
#   - a name twice, or a name no section can carry: refused with the order
#     file and line, before anything is compiled; order on a prebuilt
#     kernel, and a hybrid made of an ordered variant: refused at their
#     line.
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
d=$(scratch)
needs_kernel_source "ordered build"
needs_cmd nm "ordered build (binutils nm)"
needs_cmd size "ordered build (binutils size)"
needs_cmd jq "ordered build"
needs_cmd python3 "ordered build (the placement's check)"

# lib.sh's syscall_order, with the comments kbench order writes (what the
# run's manifest records, and what tells the report its trained cases)
{
	echo "# a hand-made order, with the comments kbench order writes (what the run's"
	echo '# manifest records, and what tells the report its trained cases)'
	echo '# kbench order: method c3, from profile /lab/Os.prof'
	echo '# profile: variant Os, cases getppid, 1 boot of run /lab/r'
	syscall_order entry_SYSENTER_32 __ia32_sys_getppid
} > "$d/one.order"
# the run also predicts the ordered kernel from Os's boot (item 3's run
# option): pipe, held out, has enough L1i misses to tell
write_tcg_conf "$d/variants.conf" backend=sim workloads=getppid,pipe samples=1 timeout=240 \
	sim_virtual_placement="order:$d/one.order" \
	output="$d/results" -- Os "Os.ordered:order=$d/one.order"
"$KBENCH" build "$d/variants.conf" > "$d/b1.out" 2> "$d/b1.err"
rc=$?
check "kbench build with order = one.order exits 0 (got $rc)" test $rc -eq 0
[ $rc -eq 0 ] || { sed 's/^/# /' "$d/b1.err" | tail -n 30; test_done; }
grep "order '" "$d/b1.err" | sed 's/^/# /'
os=$(kdir Os "$d/b1.out") ord=$(kdir Os.ordered "$d/b1.out")
# what the build log says against nm: the order's functions found, and the
# pairs of one and the next at rising addresses
said() {	# said KERNEL_DIR ORDER: the build log's "FOUND RISING" (its last build's;
	# the log names the order where the build that made the kernel read it,
	# another clone's in a kept cache: the kernel's key is its contents)
	sed -n "s|^kbench: order .*/${2##*/}: \([0-9]*\) of [0-9]* functions found, \([0-9]*\) of [0-9]* pairs rising\$|\1 \2|p" "$1/build.log" |
		tail -n 1
}
r1=$(rising "$ord/vmlinux" "$d/one.order") s1=$(said "$ord" "$d/one.order")
diag "functions found and pairs rising: the build log says '$s1', nm '$r1'"
check "the build log says where the order's functions went, as nm has them: all 11 found ($s1)" \
	sh -c "[ -n '$s1' ] && [ '$s1' = '$r1' ] && [ '${s1%% *}' = 11 ]"

# which objects the order recompiled: those that define its functions in
# their main text, by binutils nm (sysv format: the section of each symbol)
# over the unordered build's objects; the rest are Os's, byte for byte
osobj=$(objs Os "$d/b1.err") ordobj=$(objs Os.ordered "$d/b1.err")
(cd "$osobj" && find . \( -path ./scripts -o -path ./tools -o -path ./usr -o -path ./arch/x86/boot \
	-o -path ./arch/x86/realmode -o -path ./arch/x86/entry/vdso \) -prune -o \
	-name '*.o' ! -name '.*' ! -path ./vmlinux.o -print | sed 's|^\./||' |
	xargs nm --defined-only -f sysv 2>/dev/null) | awk -F'|' -v order="$d/one.order" '
		BEGIN { while ((getline l < order) > 0) if (l !~ /^#/) want[l] = 1 }
		/^Symbols from / { o = substr($0, 14); sub(/:$/, "", o); next }
		{ for (i = 1; i <= NF; i++) gsub(/^ +| +$/, "", $i) }
		$4 == "FUNC" && ($1 in want) && ($7 == ".text" || $7 ~ /^\.text\./) { print o }' |
	sort -u > "$d/defining.nm"
sed -n "s|^kbench: order .*/one.order: [0-9]* of its [0-9]* functions defined in \([0-9]*\) objects, \([0-9]*\) of them compiled with -ffunction-sections (spec \(.*\)), .*|\1 \2 \3|p" \
	"$ord/build.log" | tail -n 1 > "$d/said.objects"
read -r nobj nffs spec < "$d/said.objects"
diag "objects defining the order's functions (nm): $(tr '\n' ' ' < "$d/defining.nm")"
check "the build log's objects compiled with -ffunction-sections are those nm finds defining the order's functions (${nffs:-none} of ${nobj:-none}, nm $(wc -l < "$d/defining.nm"))" sh -c "
	[ -n '$spec' ] && [ -d '$spec' ] && [ '$nobj' = '$nffs' ] &&
	(cd '$spec' && find . -type f | sed 's|^\./||' | sort) | cmp -s - '$d/defining.nm' &&
	[ \$(wc -l < '$d/defining.nm') -eq '$nobj' ] && [ '$nobj' -gt 0 ]"
check "... fs/read_write.o has a section for ksys_write in the ordered build, none in Os's (objdump -h)" sh -c "
	objdump -h '$ordobj/fs/read_write.o' | grep -q ' \.text\.ksys_write ' &&
	! objdump -h '$osobj/fs/read_write.o' | grep -q ' \.text\.ksys_write '"
check "... and an object that defines none of them, kernel/fork.o, is Os's byte for byte" \
	cmp -s "$ordobj/kernel/fork.o" "$osobj/kernel/fork.o"

# nm's view (lib.sh's placed and contiguous)
placed "$ord/vmlinux" "$d/one.order" > "$d/ordered.nm"
placed "$os/vmlinux" "$d/one.order" > "$d/os.nm"
sed 's/^/# ordered: /' "$d/ordered.nm"
check "nm: the 10 C functions in the order's order, each within 16 bytes of the previous one's end" \
	contiguous "$d/ordered.nm"
if contiguous "$d/os.nm"; then ok=1; else ok=0; fi
check "... where the unordered Os kernel does not have them so" test $ok -eq 0

# item 3: where the ordered build puts the code, worked out before it is
# built, from Os's System.map and objects alone (kbench order --place
# --objects), against the kernel built with the order (its System.map, nm's)
"$KBENCH" order --place "$os/System.map" --objects "$osobj" -o "$d/one.vl" "$d/one.order" 2> "$d/place.err"
rc=$?
sed 's/^/# /' "$d/place.err"
place_check "$os/System.map" "$d/one.vl" "$ord/System.map"
check "kbench order --place --objects (rc $rc): each function of Os's text where the ordered kernel has it (${same:-none} there, ${other:-?} elsewhere)" \
	sh -c "[ $rc -eq 0 ] && [ '${other:-x}' = 0 ] && [ '${same:-0}' -gt 1000 ]"
"$KBENCH" order --place "$os/System.map" -o "$d/packed.vl" "$d/one.order" 2> /dev/null
place_check "$os/System.map" "$d/packed.vl" "$ord/System.map" p2 > /dev/null
check "... where System.map's functions packed in the order's order (--place without --objects) put most elsewhere (${p2other:-?} of $((${p2same:-0} + ${p2other:-0})))" \
	sh -c "[ '${p2other:-0}' -gt '${p2same:-0}' ]"
check "entry_SYSENTER_32, listed first, stays in .entry.text (__entry_text_start to _end)" in_entry_text "$ord/vmlinux" entry_SYSENTER_32

# the rest of the text where Os has it: the sections after the main text
# (the cold parts too, which the ordered build's TEXT_MAIN leaves to their
# own rule) start at the same addresses
bounds() { for s in __noinstr_text_start __sched_text_start __lock_text_start __entry_text_start _etext; do
	printf '%s=%s ' $s "$(sym "$1" $s)"; done; }
bo=$(bounds "$os/vmlinux") bd=$(bounds "$ord/vmlinux")
check "the sections after the main text start where Os's do ($bd)" sh -c "[ '$bo' = '$bd' ] && ! echo '$bd' | grep -q '= '"

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
check "the run's manifest records the order as its comments say (method c3, profile of Os, trained on getppid)" \
	jq_true "$run/manifest.json" '.variants[] | select(.name == "Os.ordered") | .order |
	.path == "'"$d/one.order"'" and .method == "c3" and .profile_variant == "Os" and .trained_on == ["getppid"]'
check "... and the report counts getppid as trained, pipe held out" jq_true "$run/summary.json" \
	'.variants[] | select(.name == "Os.ordered") | .order | .trained.cases == 1 and .held_out.cases == 1'
# what the order moved (the miss-o-meter): the run keeps the order, and
# counts the order's functions that ran in getppid as sim.jsonl lists them
check "the run keeps the order beside the kernel (variants/Os.ordered/order)" \
	cmp -s "$d/one.order" "$run/variants/Os.ordered/order"
nran=$(jq -r '[select(.case == "getppid" and (.variant == "Os" or .variant == "Os.ordered")) | .functions[][0]] | .[]' \
	"$run/sim.jsonl" | sort -u | grep -Fxc -f "$(sed -n '/^[^#]/p' "$d/one.order" > "$d/names" && echo "$d/names")")
got=$(jq -r '.miss_o_meter[] | select(.case == "getppid" and .variant == "Os.ordered") | .moved.functions' "$run/summary.json")
check "the miss-o-meter: $got of the order's functions ran in getppid (sim.jsonl: $nran), each of its rows marked moved exactly where the order names it" sh -c "
	[ -n '$got' ] && [ '$got' = '$nran' ] && [ '$got' -gt 0 ] &&
	jq -r '.miss_o_meter[] | select(.variant == \"Os.ordered\") | .functions[] | \"\\(.moved) \\(.name)\"' '$run/summary.json' |
	while read -r mv name; do
		if grep -Fxq \"\$name\" '$d/names'; then [ \$mv = true ]; else [ \$mv = false ]; fi || exit 1
	done"

# the same in kbench miss-o-meter (its text and its --json)
"$KBENCH" miss-o-meter --case getppid "$run" Os Os.ordered > "$d/mom.txt" 2> "$d/mom.err"
rc=$?
"$KBENCH" miss-o-meter --json --case getppid "$run" Os Os.ordered > "$d/mom.json" 2>> "$d/mom.err"
rc2=$?
grep ' moved$' "$d/mom.txt" | sed 's/^/# /'
check "kbench miss-o-meter (rc $rc $rc2): --json marks exactly the order's functions moved, the text's rows marked moved are theirs, and it says how many ($got)" sh -c "
	[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && grep -q '^$got of these functions moved by Os.ordered.s order' '$d/mom.txt' &&
	jq -r '.pairs[0].cases[0].functions[] | \"\\(.moved) \\(.function)\"' '$d/mom.json' > '$d/mom.rows' &&
	[ \$(grep -c '^true ' '$d/mom.rows') -eq '$got' ] &&
	while read -r mv name; do
		if grep -Fxq \"\$name\" '$d/names'; then [ \$mv = true ]; else [ \$mv = false ]; fi || exit 1
	done < '$d/mom.rows' &&
	! { grep ' moved\$' '$d/mom.txt' | cut -d' ' -f1 | grep -Fxvq -f '$d/names'; }"

# the prediction in the run (sim_virtual_placement = order:FILE): Os's
# boot also simulated its code where the ordered build puts it, apart
# from its own figures; the ordered variant's boot predicts nothing
check "the manifest's sim record names the predicted order" jq_true "$run/manifest.json" \
	'.sim.prediction.order == "'"$d/one.order"'"'
check "boots.jsonl: Os's boot placed the order's 10 movable names with its objects, Os.ordered's none (it is ordered)" \
	jq_all "$run/boots.jsonl" '(map(select(.variant == "Os")) | all(.prediction.placed.listed == 10 and
	.prediction.placed.unmovable == 1 and (.prediction.placement | endswith("/boots/Os-1.pred")))) and
	(map(select(.variant == "Os.ordered")) | all(.prediction.none == "the variant is built with an order"))'
place_check "$os/System.map" "$run/boots/Os-1.pred" "$ord/System.map" p
check "the placement the run simulated puts each function where the ordered kernel has it (${psame:-none} there, ${pother:-?} elsewhere)" \
	sh -c "[ '${pother:-x}' = 0 ] && [ '${psame:-0}' -gt 1000 ]"
check "Os's samples carry pred_l1i_k and no vl_ field (no virtual layouts asked); Os.ordered's no pred_ field" \
	jq_all "$run/samples.jsonl" '(map(select(.variant == "Os")) | length == 2 and all(.fields | has("pred_l1i_k") and
	has("pred_model_cycles") and (keys | all(startswith("vl_") | not)))) and
	(map(select(.variant == "Os.ordered")) | all(.fields | keys | all(startswith("pred_") | not)))'
check "no pred_ field is a metric of the report" jq_true "$run/summary.json" \
	'[.metrics[].name | select(startswith("pred_"))] == []'
jq -r '.prediction.rows[] | "# prediction: \(.case) \(.variant): built \(.l1i_k.built), predicted \(.l1i_k.predicted), \(.ordered_variant) \(.l1i_k.ordered)"' \
	"$run/summary.json"
check "pipe (held out): the predicted kernel L1i misses within 2% of the ordered kernel's, Os's own more than 5% from them" \
	jq_true "$run/summary.json" '.prediction.rows[] | select(.case == "pipe") | .ordered_variant == "Os.ordered" and
	.trained == false and (.l1i_k.predicted / .l1i_k.ordered - 1 | fabs) <= 0.02 and
	(.l1i_k.built / .l1i_k.ordered - 1 | fabs) > 0.05'
check "report.md has the prediction's table, its pipe row against Os.ordered" \
	sh -c "grep -q '^### The order.s prediction (simulated)' '$run/report.md' && grep -q '^| pipe | Os | .* | Os.ordered | ' '$run/report.md'"

# a second order: the same object directory, relinked
sed -n '/^[^#]/p' "$d/one.order" | sort > "$d/two.order"
write_tcg_conf "$d/two.conf" output="$d/results" -- "Os.two:order=$d/two.order"
"$KBENCH" build "$d/two.conf" > "$d/b2.out" 2> "$d/b2.err"
rc=$?
two=$(kdir Os.two "$d/b2.out")
n2=$(awk '/build step: layout 0: compiling/ { on = 1; n = 0 } on && /^  (CC|AS) / { n++ } END { print n + 0 }' "$two/build.log")
diag "the second order's build compiled $n2 objects"
r2=$(rising "$two/vmlinux" "$d/two.order") s2=$(said "$two" "$d/two.order")
check "a second order: built (rc $rc), another kernel, under 20 compilations (got $n2), placed as nm has it ($s2)" sh -c "
	[ $rc -eq 0 ] && [ '$two' != '$ord' ] && [ $n2 -lt 20 ] && [ -n '$s2' ] && [ '$s2' = '$r2' ]"
placed "$two/vmlinux" "$d/two.order" > "$d/two.nm"
check "nm: the second order's 10 C functions in its order, one right after the other" contiguous "$d/two.nm"

# an order whose path holds what ends a C comment ("*/"): the generated
# rule (a header the linker script's preprocessor reads) does not carry it;
# it also names __copy_user_ll, whose inline assembly aligns its own code
# (usercopy_32.c's .align 2), so that its section may take other padding
# than the function had in its object
mkdir -p "$d/c*" && { sed -n '/^[^#]/p' "$d/one.order" | sort -r; echo __copy_user_ll; } > "$d/c*/three.order"
write_tcg_conf "$d/three.conf" output="$d/results" -- "Os.three:order=$d/c*/three.order"
"$KBENCH" build "$d/three.conf" > "$d/b3.out" 2> "$d/b3.err"
rc=$?
three=$(kdir Os.three "$d/b3.out")
r3=$(rising "$three/vmlinux" "$d/c*/three.order") s3=$(said "$three" "$d/c*/three.order")
placed "$three/vmlinux" "$d/c*/three.order" > "$d/three.nm"
check "an order at a path with '*/': built (rc $rc), placed as nm has it ($s3)" sh -c "
	[ $rc -eq 0 ] && [ -n '$s3' ] && [ '$s3' = '$r3' ] && [ '${s3%% *}' = 12 ]"
[ $rc -eq 0 ] || sed 's/^/# /' "$d/b3.err" | tail -n 10
check "nm: its 11 C functions in its order, one right after the other" contiguous "$d/three.nm"
# the prediction of that kernel: usercopy_32.o is compiled here with
# -ffunction-sections, and its functions take their sections' sizes
"$KBENCH" order --place "$os/System.map" --objects "$osobj" -o "$d/three.vl" "$d/c*/three.order" 2> "$d/place3.err"
rc=$?
place_check "$os/System.map" "$d/three.vl" "$three/System.map" t3
check "kbench order --place --objects (rc $rc) with __copy_user_ll: each function of Os's text where that kernel has it (${t3same:-none} there, ${t3other:-?} elsewhere), usercopy_32.o compiled on its own to read its sections" \
	sh -c "[ $rc -eq 0 ] && [ '${t3other:-x}' = 0 ] && [ '${t3same:-0}' -gt 1000 ] &&
	       grep -q '1 objects whose functions. own assembly aligns their code compiled here' '$d/place3.err'"

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
# a hybrid made of an ordered variant: refused at its line (an ordered
# kernel's objects are not its configuration's alone)
{
	kernel_section
	printf '\n[variant Os.ordered]\nconfig = CC_OPTIMIZE_FOR_SIZE=y\norder = %s\n' "$d/one.order"
	printf '\n[variant O2]\nconfig = CC_OPTIMIZE_FOR_PERFORMANCE=y\n'
	printf '\n[variant H]\nhybrid = Os.ordered O2 kernel/\n'
} > "$d/hy.conf"
"$KBENCH" build "$d/hy.conf" > "$d/hy.out" 2> "$d/hy.err"
rc=$?
check "a hybrid of an ordered variant: exit 2 (got $rc), at the hybrid's line, before anything is built" sh -c "
	[ $rc -eq 2 ] && grep -q \"hy.conf:[0-9]*: variant 'H': hybrid: 'Os.ordered' is ordered (order = FILE)\" '$d/hy.err' &&
	! grep -q 'configuring' '$d/hy.err'"

# kbench explain of the ordered variant (item 7): the order's functions
# part by part (fs/ and mm/), each part's kernel Os with its own order,
# those of the order's functions that its objects define, in its order
write_tcg_conf "$d/ex.conf" backend=sim workloads=getppid samples=1 timeout=240 output="$d/results" \
	-- Os "Os.ordered:order=$d/one.order" O2
"$KBENCH" explain --only kernel,mm "$d/ex.conf" O2 Os.ordered > "$d/exbad.out" 2> "$d/exbad.err"
rc=$?
"$KBENCH" explain --by-flag "$d/ex.conf" Os Os.ordered > "$d/exbad2.out" 2> "$d/exbad2.err"
rc2=$?
check "explain of Os.ordered against O2 (other flags) or --by-flag: exit 2 ($rc, $rc2), before anything is built" sh -c "
	[ $rc -eq 2 ] && [ $rc2 -eq 2 ] &&
	grep -q \"'O2' must have no order and 'Os.ordered''s config, kcflags, cc and cmdline\" '$d/exbad.err' &&
	grep -q \"'Os' and 'Os.ordered' differ in their order, not in flags\" '$d/exbad2.err' &&
	! grep -q 'configuring' '$d/exbad.err' '$d/exbad2.err'"
(cd "$d" && exec "$KBENCH" explain --only fs,mm ex.conf Os Os.ordered) > "$d/ex.out" 2> "$d/ex.err"
rc=$?
xrun=$(tail -n 1 "$d/ex.out" | sed 's|/explain.md$||')
check "kbench explain --only fs,mm of Os.ordered against Os exits 0 (got $rc) and writes explain.md" \
	sh -c "[ $rc -eq 0 ] && [ -s '$xrun/explain.md' ] && [ -s '$xrun/explain.json' ]"
[ $rc -eq 0 ] || sed 's/^/# /' "$d/ex.err" | tail -n 20
po=$d/results/.explain-Os-Os.ordered-orders
printf 'ksys_write\nvfs_read\ndo_sys_openat2\nksys_read\nvfs_write\ngetname_flags\n__fput\npath_openat\n' > "$d/fs.want"
check "the fs/ part's order: the order's 8 functions of fs/ objects, in its order, with its comments (method, profile)" sh -c "
	sed -n '/^[^#]/p' '$po/Os.ordered.fs.order' | cmp -s - '$d/fs.want' &&
	grep -q '^# kbench order: method c3' '$po/Os.ordered.fs.order' && grep -q '^# profile: variant Os' '$po/Os.ordered.fs.order'"
check "the mm/ part's order: kfree alone" sh -c "[ \"\$(sed -n '/^[^#]/p' '$po/Os.ordered.mm.order')\" = kfree ]"
placed "$xrun/variants/Os.ordered.fs/vmlinux" "$d/fs.want" > "$d/fs.nm"
sed 's/^/# fs part: /' "$d/fs.nm"
check "nm: the fs/ part's kernel has its 8 functions in the order's order, one right after the other" \
	contiguous "$d/fs.nm"
kf=$(nm "$xrun/variants/Os.ordered.fs/vmlinux" | awk '$3 == "kfree" { print $1 }')
kos=$(nm "$os/vmlinux" | awk '$3 == "kfree" { print $1 }')
first=$(head -n 1 "$d/fs.nm" | cut -d' ' -f1)
check "... and kfree, of mm/, not moved to the front: after them, as in Os (0x$kf; Os 0x$kos; the part's first 0x$first)" \
	sh -c "[ -n '$kf' ] && [ \$(printf '%d' 0x$kf) -gt \$(printf '%d' 0x$first) ] && [ \$(printf '%d' 0x$kf) -ge \$(printf '%d' 0x$kos) ]"
check "explain.json: by order, B Os.ordered the whole, parts fs/ and mm/ (their ordered variants), 10 of the order's functions in objects, 9 in the parts" \
	jq_true "$xrun/explain.json" '.by == "order" and .b == "Os.ordered" and .b_end == "Os.ordered" and
	.order == "'"$d/one.order"'" and .order_functions == 10 and .order_functions_in_parts == 9 and
	([.text.parts[] | [.path, .variant]] | sort) == [["fs/", "Os.ordered.fs"], ["mm/", "Os.ordered.mm"]]'
check "explain.md: the parts' table by order, and the functions behind B's change with a column moved, marked exactly where the order names them" sh -c "
	grep -q '^| part of the tree (its functions in B.s order) |' '$xrun/explain.md' &&
	grep -q '^| function | moved by B.s order |' '$xrun/explain.md' &&
	jq -r '.cases[] | .functions[] | \"\\(.moved) \\(.function)\"' '$xrun/explain.json' > '$d/ex.rows' &&
	[ -s '$d/ex.rows' ] &&
	while read -r mv name; do
		if grep -Fxq \"\$name\" '$d/names'; then [ \$mv = true ]; else [ \$mv = false ]; fi || exit 1
	done < '$d/ex.rows'"
test_done
