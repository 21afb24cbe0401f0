#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kbench explain (issue 15), by code: O2 against Os (the kernels from the
# build cache), with two parts (kernel/ and mm/memory.o) on one case,
# stopped by SIGINT after its first boot and finished with --resume.
# The hybrid kernels are checked against the real things: their objects
# against the two ends' objects (cmp), their text sizes against binutils
# size, the B end (every object as Os) against Os byte for byte; and
# explain.json's figures are recomputed from the run's summary.json.
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
d=$(scratch)
needs_kernel_source "explain"
needs_cmd jq "explain"
needs_cmd size "explain (binutils size)"
needs_cmd objcopy "explain (binutils objcopy)"

write_tcg_conf "$d/variants.conf" backend=sim samples=2 workloads=getppid,pipe jobs=1 timeout=240 \
	output="$d/results" -- O2 Os
build_first "$d/variants.conf"

# what the command line and the configuration must be
"$KBENCH" explain "$d/variants.conf" O2 Oz > "$d/bad.out" 2> "$d/bad.err"
rc=$?
check "B not a variant: exit 2, named (got $rc)" sh -c "[ $rc -eq 2 ] && grep -q \"unknown variant 'Oz'\" '$d/bad.err'"
"$KBENCH" explain --only kernel,../x "$d/variants.conf" O2 Os > "$d/bad.out" 2> "$d/bad.err"
rc=$?
check "--only outside the tree: exit 2, named (got $rc)" sh -c "[ $rc -eq 2 ] && grep -q \"only '../x'\" '$d/bad.err'"
# what only the builds of A and B tell (which objects there are), before any
# hybrid: a part of --only that holds no object of them (issue 22, item 9;
# the options checked before any build are t0256's)
runs() { ls "$d"/results/*/manifest.json 2>/dev/null | wc -l; }
before=$(runs)
timeout 300 "$KBENCH" explain --only kernel/nosuch.o,mm,Documentation "$d/variants.conf" O2 Os \
	> "$d/bad.out" 2> "$d/bad.err"
rc=$?
check "--only parts with no object of the build: exit 2 (got $rc), each named, no run begun" sh -c "
	[ $rc -eq 2 ] && [ $(runs) -eq $before ] && ! grep -q 'hybrid kernels and the B end' '$d/bad.err' &&
	grep -q \"only 'kernel/nosuch.o': matches no object of the build of 'O2'\" '$d/bad.err' &&
	grep -q \"only 'Documentation/': matches no object of the build of 'O2'\" '$d/bad.err' &&
	! grep -q \"only 'mm/'\" '$d/bad.err'"

# the explain run, stopped after its first boot
(cd "$d" && exec "$KBENCH" explain --only kernel,mm/memory.o --cases getppid variants.conf O2 Os \
	> int.out 2> int.err) &
pid=$!
for i in $(seq 6000); do
	ls "$d"/results/*/boots.jsonl >/dev/null 2>&1 && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
run=$(dirname "$(ls "$d"/results/*/manifest.json 2>/dev/null | head -n 1)")
wait_lines "$run/boots.jsonl" 1
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
diag "interrupted: rc $rc, $(cat "$run/boots.jsonl" 2>/dev/null | wc -l) boots done"
check "SIGINT after the first boot: exit 130 (got $rc), the resume command said" \
	sh -c "[ $rc -eq 130 ] && grep -q 'kbench explain --resume $run' '$d/int.err'"
check "no explain.json before the run is finished" test ! -e "$run/explain.json"
"$KBENCH" explain --resume "$run" > "$d/res.out" 2> "$d/res.err"
rc=$?
check "kbench explain --resume exits 0 (got $rc) and prints explain.md" \
	sh -c "[ $rc -eq 0 ] && [ \"\$(tail -n 1 '$d/res.out')\" = '$run/explain.md' ]"
[ $rc -eq 0 ] || { sed 's/^/# /' "$d/res.err" | tail -n 30; test_done; }
check "every variant booted once, none twice (O2, Os, two hybrids, the B end)" jq_all "$run/boots.jsonl" '
	map(.variant) | sort == ["O2", "Os", "Os.all", "Os.kernel", "Os.mm-memory.o"]'

j=$run/explain.json
man=$run/manifest.json
check "explain.json: O2 against Os, the B end Os.all, both parts" jq_true "$j" '
	.a == "O2" and .b == "Os" and .b_end == "Os.all" and
	(.text.parts | map(.path) | sort == ["kernel/", "mm/memory.o"])'
check "the parts hold some, not all, of the objects compiled differently" \
	jq_true "$j" '.objects_in_parts > 1 and .objects_differ > .objects_in_parts'
check "the manifest says what each hybrid is" jq_true "$man" '
	[.variants[] | select(.hybrid) | [.name, .hybrid]] ==
	[["Os.kernel", "O2 Os kernel/"], ["Os.mm-memory.o", "O2 Os mm/memory.o"], ["Os.all", "O2 Os ."]]'

# the objects: a hybrid's part as Os compiled it, the rest as O2
objdir() { jq -r --arg v "$1" '.variants[] | select(.name == $v) | .objdir' "$man"; }
o2=$(objdir O2) os=$(objdir Os) hk=$(objdir Os.kernel) hm=$(objdir Os.mm-memory.o)
diag "object directories: O2 $o2, Os $os, Os.kernel $hk, Os.mm-memory.o $hm"
# same_objs A B: every object under kernel/ in A (some) is B's, byte for byte
same_objs() {
	local f n=0
	for f in $(cd "$1" && find kernel -name '*.o'); do
		cmp -s "$1/$f" "$2/$f" || { diag "differs: $f"; return 1; }
		n=$((n + 1))
	done
	diag "$n objects under kernel/ compared"
	[ $n -gt 10 ]
}
check "Os.kernel: its kernel/ objects are Os's, byte for byte" same_objs "$hk" "$os"
check "... and kernel/fork.o differs from O2's (Os compiles it differently)" \
	sh -c "! cmp -s '$hk/kernel/fork.o' '$o2/kernel/fork.o'"
check "Os.kernel: mm/ and fs/ objects are O2's" \
	sh -c "cmp -s '$hk/mm/memory.o' '$o2/mm/memory.o' && cmp -s '$hk/fs/read_write.o' '$o2/fs/read_write.o'"
check "Os.mm-memory.o: mm/memory.o is Os's, mm/mmap.o and kernel/fork.o O2's" \
	sh -c "cmp -s '$hm/mm/memory.o' '$os/mm/memory.o' && ! cmp -s '$hm/mm/memory.o' '$o2/mm/memory.o' &&
	cmp -s '$hm/mm/mmap.o' '$o2/mm/mmap.o' && cmp -s '$hm/kernel/fork.o' '$o2/kernel/fork.o'"
check "the hybrids are built from O2's .config" sh -c "cmp -s '$hk/.config' '$o2/.config' && cmp -s '$hm/.config' '$o2/.config'"
# relinked, not compiled: each hybrid's object directory began as a copy of
# O2's with Os's objects in (kbench-hybrid-2); its make compiled only what
# the link makes anew (the vDSO image, the boot stub), O2's hundreds
hlog() { echo "$run/variants/$1/build.log"; }
# from the seed's line to the end of that make (ccache's count of it)
compiled_after_seed() {
	awk '/^kbench: hybrid .* starts from a copy of A.s objects/ { on = 1 } on && /^  (CC|AS) / { n++ }
	     on && /^kbench: ccache: / { exit } END { print n + 0 }' "$1"
}
compiled_in() { grep -cE '^  (CC|AS) '; }
nk=$(compiled_after_seed "$(hlog Os.kernel)") nm=$(compiled_after_seed "$(hlog Os.mm-memory.o)")
no2=$(sed -n '/^\$ .* bzImage$/,$p' "$(hlog O2)" | compiled_in)
diag "compiled by make: O2 $no2 (its log), Os.kernel $nk and Os.mm-memory.o $nm after their seed"
check "the hybrids were relinked from a copy of O2's objects: seeded, then under 20 compilations (O2: $no2)" sh -c "
	[ -f '$hk/.kbench-seed' ] && [ -f '$hm/.kbench-seed' ] &&
	grep -q 'starts from a copy of A.s objects' '$(hlog Os.kernel)' &&
	[ $nk -lt 20 ] && [ $nm -lt 20 ] && [ $no2 -gt 200 ]"
# the seed names the compiler its command files name (this kbench's path):
# a copy seeded by kbench at another path (another clone) is seeded again,
# not compiled anew by make; said where this run built the hybrids (with
# the kernels in the cache, the seeds may be another clone's)
if grep -q "variant 'Os.kernel': built in" "$d/int.err" "$d/res.err" &&
   grep -q "variant 'Os.mm-memory.o': built in" "$d/int.err" "$d/res.err"; then
	check "each seed built here names the hybrid's compiler, this kbench's hybrid-cc" sh -c "
		grep -qF 'compiler: $(realpath "$KBENCH") hybrid-cc ' '$hk/.kbench-seed' &&
		grep -qF 'compiler: $(realpath "$KBENCH") hybrid-cc ' '$hm/.kbench-seed'"
else
	diag "the hybrids' kernels came from the cache: their seeds not checked"
fi

# text sizes: binutils size
text() { size "$run/variants/$1/vmlinux" | awk 'NR == 2 { print $1 }'; }
t_o2=$(text O2) t_os=$(text Os) t_k=$(text Os.kernel) t_m=$(text Os.mm-memory.o) t_all=$(text Os.all)
diag "text (binutils size): O2 $t_o2, Os $t_os, Os.kernel $t_k, Os.mm-memory.o $t_m, Os.all $t_all"
check "each part's text change is its hybrid's minus O2's (binutils size)" jq_true "$j" "
	(.text.parts | map({(.path): .change}) | add) == {\"kernel/\": ($t_k - $t_o2), \"mm/memory.o\": ($t_m - $t_o2)}"
check "the whole is the B end's, the B end is exactly Os's size, both smaller than O2" jq_true "$j" "
	.text.whole == ($t_all - $t_o2) and .text.b_as_built == ($t_os - $t_o2) and $t_all == $t_os and
	.text.whole < 0 and .text.sum == ($t_k + $t_m - 2 * $t_o2) and
	.text.whole_minus_sum == .text.whole - .text.sum and .text.source == \"measured\""
check "the B end is Os byte for byte (reproducible builds): vmlinux and System.map" sh -c "
	cmp -s '$run/variants/Os.all/vmlinux' '$run/variants/Os/vmlinux' &&
	cmp -s '$run/variants/Os.all/System.map' '$run/variants/Os/System.map'"

# per case: the run's medians (summary.json), minus O2's
s=$run/summary.json
for f in ins_k_per_op l1i_k_per_op model_cycles_per_op; do
	check "getppid, $f: each part's change, the whole and B's are the run's medians minus O2's" sh -c "
	jq -n --slurpfile s '$s' --slurpfile j '$j' '
		def med(\$v): \$s[0].results[] | select(.metric == \"$f\" and .case == \"getppid\" and .variant == \$v) | .median;
		def near(\$a; \$b): (\$a - \$b | fabs) <= 1e-9 * ((\$a | fabs) + (\$b | fabs) + 1);
		(\$j[0].cases[] | select(.case == \"getppid\") | .$f) as \$x |
		(\$x.parts | all(near(.change; med(.variant) - med(\"O2\")))) and
		near(\$x.whole; med(\"Os.all\") - med(\"O2\")) and near(\$x.b_as_built; med(\"Os\") - med(\"O2\")) and
		near(\$x.base; med(\"O2\")) and (\$x.parts | length == 2)' | grep -qx true"
done
check "figures are labelled: instructions and misses simulated, cycles modeled" jq_true "$j" '
	.cases[0].ins_k_per_op.source == "simulated" and .cases[0].l1i_k_per_op.source == "simulated" and
	.cases[0].model_cycles_per_op.source == "modeled"'
# The B end boots the same image as Os: the same simulated counts
check "the B end's figures are Os's, exactly, in every table" jq_true "$j" '
	[.cases[] | .ins_k_per_op, .l1i_k_per_op, .model_cycles_per_op] | length == 3 and
	all(.[]; .whole == .b_as_built)'
check "the functions behind B's change: each with both ends' figures and sizes" jq_true "$j" '
	.cases[0].functions | length > 0 and all(.[]; (.ins | length == 2) and (.size | length == 2))'
if command -v llvm-mca >/dev/null 2>&1; then
	check "and their modeled cycles, the model named (issue 24, item 6)" jq_true "$j" '
		(.cases[0].functions_cycles_model | test("llvm-mca, -mcpu=skylake")) and
		(.cases[0].functions | all(.[]; .cycles | length == 2))'
else
	skip "needs:llvm-mca" "the functions' modeled cycles"
fi

check "explain.md: the text table and the case's three tables, each with sum, whole and rest" sh -c "
	grep -q '^## Text size' '$run/explain.md' && grep -q '^### getppid' '$run/explain.md' &&
	[ \$(grep -c '^| sum of the parts' '$run/explain.md') -eq 4 ] &&
	[ \$(grep -c '^| rest: whole - sum' '$run/explain.md') -eq 4 ]"
# (issue 25, item 4) explain opens as the report does: the answer, the text
# size's attribution and its waterfall, one row a case; then the details
# (folded in explain.html) and the method last
whole=$(jq '.text.whole' "$j")
check "explain.md's first screen: headline with the text table's whole ($whole bytes), text, by case, then details, method last" sh -c "
	sed -n 3p '$run/explain.md' | grep -q \"is ${whole#-} bytes \" &&
	grep '^## ' '$run/explain.md' | tr '\\n' '|' |
		grep -qx '## Text size|## By case: modeled cycles per operation|## Details|## How these figures were made|' &&
	[ \$(sed -n '/^## By case/,/^## Details/p' '$run/explain.md' | grep -c '^| getppid | ') -eq 1 ]"
check "explain.html: each case folded, the waterfall before the details" sh -c "
	grep -q '<details id=\"case-0\">' '$run/explain.html' &&
	[ \$(grep -n '<svg' '$run/explain.html' | head -n 1 | cut -d: -f1) -lt \$(grep -n 'id=\"details\"' '$run/explain.html' | cut -d: -f1) ]"
check "explain.html: the same tables and a waterfall per table" sh -c "
	[ \$(grep -o '<svg' '$run/explain.html' | wc -l) -eq 4 ] &&
	[ \$(grep -o 'sum of the parts' '$run/explain.html' | wc -l) -eq 4 ]"

# By flag, on one object with two settings (6.12 aligns functions under
# both, CONFIG_FUNCTION_ALIGNMENT: jumps are aligned under O2 only) (five hybrids: its Os build, and each
# setting each way)
"$KBENCH" explain --by-flag --flags no-such-flag --only kernel/pid.o "$d/variants.conf" O2 Os \
	> "$d/badflag.out" 2> "$d/badflag.err"
rc=$?
check "--flags with a setting A and B share: exit 2, named (got $rc)" sh -c \
	"[ $rc -eq 2 ] && grep -q \"'no-such-flag' is not a setting in which A and B differ\" '$d/badflag.err'"
(cd "$d" && exec "$KBENCH" explain --by-flag --flags align-jumps,optimize-strlen --only kernel/pid.o --cases getppid \
	variants.conf O2 Os > flag.out 2> flag.err)
rc=$?
frun=$(dirname "$(tail -n 1 "$d/flag.out")")
check "kbench explain --by-flag exits 0 (got $rc)" test $rc -eq 0
[ $rc -eq 0 ] || { sed 's/^/# /' "$d/flag.err" | tail -n 30; test_done; }
fj=$frun/explain.json
fman=$frun/manifest.json
# gcc itself, asked with the options of O2's and Os's compilations of kernel/pid.o
gcc_says() {
	sed -n '1s/^[a-z_]*cmd_[^ ]* := //p' "$1/kernel/.pid.o.cmd" | sed 's/ -c .*//; s/^[^ ]*ccache //' > "$d/cmd"
	sh -c "$(cat "$d/cmd") -Q --help=optimizers" | awk '$1 == "-falign-jumps=" { print $2 }'
}
fo2=$(jq -r '.variants[] | select(.name == "O2") | .objdir' "$fman")
fos=$(jq -r '.variants[] | select(.name == "Os") | .objdir' "$fman")
a_al=$(gcc_says "$fo2") b_al=$(gcc_says "$fos")
diag "gcc on pid.o's own options: -falign-jumps= '$a_al' under O2, '$b_al' under Os"
check "the setting is gcc's own answer for the two compilations (aligned in O2, not in Os)" jq_true "$fj" "
	.parts == \"kernel/pid.o\" and .whole == \"Os.kernel-pid.o\" and
	(.text.flags | map(.name) == [\"align-jumps\", \"optimize-strlen\"]) and
	.text.flags[0].a == \"-falign-jumps=$a_al\" and .text.flags[0].b == \"-fno-align-jumps\" and
	.text.flags[1].a == \"-foptimize-strlen\" and .text.flags[1].b == \"-fno-optimize-strlen\" and
	\"$a_al\" != \"\" and \"$b_al\" == \"\""
check "the manifest: A with it as B, and the whole with it as A, as hybrids with the flag" jq_true "$fman" "
	[.variants[] | select(.hybrid_cflags) | [.name, .hybrid, .hybrid_cflags]] ==
	[[\"O2.align-jumps.Os\", \"O2 O2 kernel/pid.o\", \"-fno-align-jumps\"],
	 [\"Os.align-jumps.O2\", \"O2 Os kernel/pid.o\", \"-falign-jumps=$a_al\"],
	 [\"O2.optimize-strlen.Os\", \"O2 O2 kernel/pid.o\", \"-fno-optimize-strlen\"],
	 [\"Os.optimize-strlen.O2\", \"O2 Os kernel/pid.o\", \"-foptimize-strlen\"]]"
ftext() { size "$frun/variants/$1/vmlinux" | awk 'NR == 2 { print $1 }'; }
f_o2=$(ftext O2) f_w=$(ftext Os.kernel-pid.o) f_t=$(ftext O2.align-jumps.Os) f_l=$(ftext Os.align-jumps.O2)
f_t2=$(ftext O2.optimize-strlen.Os) f_l2=$(ftext Os.optimize-strlen.O2)
diag "text (binutils size): O2 $f_o2, Os.kernel-pid.o $f_w, O2.align-jumps.Os $f_t, Os.align-jumps.O2 $f_l, O2.optimize-strlen.Os $f_t2, Os.optimize-strlen.O2 $f_l2"
check "text: one at a time, leave one out, whole and what no flag explains, from binutils size" jq_true "$fj" "
	.text.flags[0].one_at_a_time == ($f_t - $f_o2) and .text.flags[0].leave_one_out == ($f_w - $f_l) and
	.text.flags[1].one_at_a_time == ($f_t2 - $f_o2) and .text.flags[1].leave_one_out == ($f_w - $f_l2) and
	.text.whole == ($f_w - $f_o2) and .text.sum_one_at_a_time == ($f_t + $f_t2 - 2 * $f_o2) and
	.text.unexplained_one_at_a_time == ($f_w - $f_o2) - ($f_t + $f_t2 - 2 * $f_o2) and
	.text.unexplained_leave_one_out == ($f_w - $f_o2) - ($f_w - $f_l) - ($f_w - $f_l2) and
	.text.source == \"measured\""
fhy=$(jq -r '.variants[] | select(.name == "O2.align-jumps.Os") | .objdir' "$fman")
otext() { size "$1/kernel/pid.o" | awk 'NR == 2 { print $1 }'; }
check "O2's pid.o with its jumps unaligned is smaller than O2's (the flag did reach the compiler)" \
	test "$(otext "$fhy")" -lt "$(otext "$fo2")"
check "A with the flag as B: pid.o differs from O2's, every other object is O2's (kernel/fork.o, mm/memory.o)" sh -c "
	! cmp -s '$fhy/kernel/pid.o' '$fo2/kernel/pid.o' && cmp -s '$fhy/kernel/fork.o' '$fo2/kernel/fork.o' &&
	cmp -s '$fhy/mm/memory.o' '$fo2/mm/memory.o'"
check "getppid, instructions: one at a time and leave one out are the run's medians' differences" sh -c "
	jq -n --slurpfile s '$frun/summary.json' --slurpfile j '$fj' '
		def med(\$v): \$s[0].results[] | select(.metric == \"ins_k_per_op\" and .case == \"getppid\" and .variant == \$v) | .median;
		def near(\$a; \$b): (\$a - \$b | fabs) <= 1e-9 * ((\$a | fabs) + (\$b | fabs) + 1);
		\$j[0].cases[0].ins_k_per_op as \$x |
		near(\$x.flags[0].one_at_a_time; med(\"O2.align-jumps.Os\") - med(\"O2\")) and
		near(\$x.flags[0].leave_one_out; med(\"Os.kernel-pid.o\") - med(\"Os.align-jumps.O2\")) and
		near(\$x.whole; med(\"Os.kernel-pid.o\") - med(\"O2\")) and
		near(\$x.flags[1].one_at_a_time; med(\"O2.optimize-strlen.Os\") - med(\"O2\")) and
		near(\$x.unexplained_one_at_a_time; \$x.whole - \$x.flags[0].one_at_a_time - \$x.flags[1].one_at_a_time)' | grep -qx true"
check "explain.md says what no setting explains" grep -q '^| explained by no setting: whole - sum' "$frun/explain.md"

# A hybrid's CC names kbench's own path, which make expands and a shell runs:
# a kbench installed where that path is not inert is refused, naming it
mkdir -p "$d/a b"
cp "$KBENCH" "$d/a b/kbench"
{ kernel_section; printf '[run]\noutput = %s/results\n[variant O2]\nconfig = CC_OPTIMIZE_FOR_PERFORMANCE=y\n' "$d"
  printf '[variant Os]\nconfig = CC_OPTIMIZE_FOR_SIZE=y\n[variant H]\nhybrid = O2 Os kernel/pid.o\n'; } > "$d/space.conf"
"$d/a b/kbench" build "$d/space.conf" > "$d/space.out" 2> "$d/space.err"
rc=$?
check "kbench at a path with a space: the hybrid is refused (rc $rc), naming the path" sh -c "
	[ $rc -ne 0 ] && grep -q \"variant 'H': '$d/a b/kbench': ' ' not allowed in a path the kernel build gets\" '$d/space.err' &&
	grep -q 'cannot be part of the compiler of a hybrid' '$d/space.err'"

cp "$j" "$d/first.json"
rm -f "$run/explain.json" "$run/explain.md" "$run/explain.html"
"$KBENCH" explain --resume "$run" > /dev/null 2> "$d/again.err"
check "--resume of a finished run writes the same explain.json again" cmp -s "$j" "$d/first.json"
test_done
