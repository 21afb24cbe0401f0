#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# End to end on real kernels: build O2 and Os tinyconfig i386 kernels from
# Debian's linux-source-6.12 with SLUB (lib.sh: the default's kernels,
# cached outside the checkout between runs), boot
# both under QEMU, and check samples, sizes and the report against binutils.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
needs_kernel_source "end-to-end run"
write_tcg_conf "$d/variants.conf" accel=auto samples=2 scale=0.1 timeout=240 output="$d/results"

diag "cache: $kernel_cache (first run builds two kernels: several minutes)"
run_in "$d" "$KBENCH" run "$d/variants.conf"
check "kbench run exits 0" test $rc -eq 0
[ $rc -eq 0 ] || sed 's/^/# /' "$d/run.err" | tail -n 40
check "run directory with manifest, samples, boots and report" \
	test -f "$run/manifest.json" -a -f "$run/samples.jsonl" -a -f "$run/boots.jsonl" -a -f "$run/report.md"

# Samples: both variants x both workloads, 2 each, sane values.
for v in O2 Os; do
	for w in getppid pipe; do
		n=$(jq -s "[.[] | select(.variant == \"$v\" and .workload == \"$w\" and .ns > 0 and .iterations > 0 and .ns_per_op > 0)] | length" "$run/samples.jsonl")
		check "$v/$w: 2 samples with ns/op > 0 (got $n)" test "$n" = 2
	done
done
check "every boot ended ok" sh -c \
	"jq -se 'length == 2 and all(.status == \"ok\")' '$run/boots.jsonl' >/dev/null"

# Every workload of the plan (all of workloads.def), in both variants.
missing=$(jq -rs --arg wls "$(jq -r .run.workloads "$run/manifest.json")" '
	. as $s | [("O2", "Os") as $v | ($wls | split(","))[] as $w |
	 select([$s[] | select(.variant == $v and .workload == $w and .ns > 0)] | length == 0) |
	 "\($v)/\($w)"] | join(" ")' "$run/samples.jsonl")
check "every planned workload has samples in both variants${missing:+ (none: $missing)}" \
	test -z "$missing"
# The icache sweep: per variant, one sample per K (the default sweep) and rep.
sweep=$(jq -rs '[.[] | select(.workload == "icache")] | group_by(.variant)[] |
	(.[0].variant + ":" + ([group_by(.fields.k)[] | "\(.[0].fields.k)x\(length)"] | join(",")))' \
	"$run/samples.jsonl" | paste -sd' ' -)
check "icache: one sample per K and rep in each variant" \
	test "$sweep" = "O2:0x2,4x2,8x2,16x2,32x2,64x2,128x2 Os:0x2,4x2,8x2,16x2,32x2,64x2,128x2"
[ -n "$sweep" ] && diag "icache samples per K: $sweep"
diag "guest counters: $(jq -r '.variant + ": " + (.pmu // "?")' "$run/boots.jsonl" | paste -sd' ' -)"

# The accelerator and why are recorded; a host whose KVM cannot run an i386
# guest must have fallen back to TCG.
check "accelerator and reason recorded" sh -c \
	"jq -e '(.accel.chosen == \"kvm\" or .accel.chosen == \"tcg\") and (.accel.why | length > 0)' '$run/manifest.json' >/dev/null"
diag "accel: $(jq -r '.accel.chosen + ": " + .accel.why' "$run/manifest.json")"

# The report's size table is binutils size on the same files, byte for byte.
# (issue 25: on the first screen, and again under Details)
sed -n '/^### Text size/,/^### /p' "$run/report.md" | sed -n '/^```$/,/^```$/p' | sed '1d;$d' > "$d/report-size"
sed -n '/^```$/,/^```$/p' "$run/report.md" | sed -n '2,/^```$/p' | sed '$d' > "$d/report-size-first"
(cd "$run" && size variants/O2/vmlinux variants/Os/vmlinux) > "$d/binutils-size"
check "report size table == binutils size" sh -c \
	"[ \$(wc -l < '$d/binutils-size') -eq 3 ] && cmp '$d/report-size' '$d/binutils-size' && cmp '$d/report-size-first' '$d/binutils-size'"
sed 's/^/# /' "$d/binutils-size"
o2=$(awk 'NR == 2 { print $1 }' "$d/binutils-size")
os=$(awk 'NR == 3 { print $1 }' "$d/binutils-size")
check "-Os text ($os) is smaller than -O2 text ($o2)" test "$os" -lt "$o2"

# Kconfig really applied each variant's choice.
check "final .configs hold the optimisation choice" sh -c \
	"grep -qx CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y '$run/variants/O2/config' &&
	 grep -qx CONFIG_CC_OPTIMIZE_FOR_SIZE=y '$run/variants/Os/config'"

# (issue 25: the per-metric tables are report.html's)
check "report has a speed row per variant and workload" \
	test "$(sed -n '/aria-level="3">Speed</,/<h4>/p' "$run/report.html" |
		grep -cE '^<tr><td>(getppid|pipe)<td>(O2|Os)<td>[0-9.]+<td>')" = 4

cp "$run/report.md" "$d/report.before"
"$KBENCH" report "$run" > /dev/null 2>&1
check "kbench report regenerates the same report" cmp "$run/report.md" "$d/report.before"

# Second run: nothing rebuilt.  A variant whose option Kconfig drops and one
# that fails to compile are reported; the others are still measured.
cat >> "$d/variants.conf" <<CONF

[variant dropped]
config = X86_X32_ABI=y

[variant broken]
kcflags = -fkbench-no-such-flag
CONF
run_in "$d" "$KBENCH" run "$d/variants.conf"
run2=$run
check "failed variants make exit status 1 and a report (got $rc)" \
	test $rc -eq 1 -a -f "$run2/report.md"
check "second run takes O2 and Os from the cache" sh -c \
	"jq -e '[.variants[] | select(.name == \"O2\" or .name == \"Os\") | .cached] == [true, true]' '$run2/manifest.json' >/dev/null"
check "dropped option named in the error" \
	grep -q "variant 'dropped': asked for CONFIG_X86_X32_ABI=y, but the final .config" "$d/run.err"
check "build failure reported with its log, others measured" sh -c \
	"grep -q \"variant 'broken': kernel build failed\" '$d/run.err' &&
	 grep -q 'fkbench-no-such-flag' '$d/run.err' &&
	 jq -se '[.[] | select(.status == \"ok\")] | length == 2' '$run2/boots.jsonl' >/dev/null &&
	 jq -e '[.variants[] | .status] == [\"built\", \"built\", \"build-failed\", \"build-failed\"]' '$run2/manifest.json' >/dev/null"
test_done
