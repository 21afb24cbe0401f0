#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kbench run --dry-run and --set (issue 34, items 6 and 8):
#   expected: --dry-run prints each variant found in the build cache or to be
#   built, the boots and the time earlier runs under the output directory
#   took ("no estimate (no earlier build/boot of this kind)" without one),
#   exits 0 and makes no run directory; --set SECTION.KEY=VALUE takes the
#   place of the file's value, is recorded in the manifest as given, and a
#   --resume with other --set values is refused as an edited configuration is.
#   before: neither option existed; a run's design could only be changed by
#   editing its file.
# No kernel is built or booted: the kernel source is a fake tree whose
# Makefile writes empty files for its .config and its kernel, and the runs
# of --set stop at once on a source that holds no kernel at all.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
cd "$d" || exit 1

# the fake kernel tree: make tinyconfig, olddefconfig and bzImage, O=DIR
mkdir -p src nosrc
: > src/Kconfig
printf '%s\n' 'VERSION = 6' 'PATCHLEVEL = 1' 'SUBLEVEL = 0' \
	'tinyconfig:' '	@mkdir -p $(O) && : > $(O)/.config' \
	'olddefconfig:' '	@true' \
	'bzImage:' '	@mkdir -p $(O)/arch/x86/boot' \
	'	@echo fake > $(O)/arch/x86/boot/bzImage; echo fake > $(O)/vmlinux; echo fake > $(O)/System.map' \
	> src/Makefile
# conf FILE OUTPUT [LINE...]: a configuration of the fake tree, results in OUTPUT
conf() {
	local f=$1 out=$2
	shift 2
	{
		printf '[kernel]\nsource = %s/src\ncache = %s/cache\nccache = off\nbuilds_at_once = 1\n' "$d" "$d"
		printf '\n[run]\naccel = tcg\nbackend = clock\nboots = 3\nsamples = 2\nscale = 0.05\n'
		printf 'workloads = getppid,pipe\noutput = %s\n' "$out"
		for l; do echo "$l"; done
		printf '\n[variant O2]\nconfig = CC_OPTIMIZE_FOR_PERFORMANCE=y\n'
		printf '\n[variant Os]\nconfig = CC_OPTIMIZE_FOR_SIZE=y\n'
	} > "$f"
}
conf v.conf results

# 1. a cold cache, no earlier run: every kernel to build, no estimate, nothing made
"$KBENCH" run --dry-run v.conf > dry1.out 2> dry1.err
rc=$?
check "--dry-run, cold cache: exit 0 (got $rc)" test $rc -eq 0
check "each variant to build, without an estimate" sh -c \
	"grep -qx \"variant 'O2': to build (never configured with this source, configuration and compiler): no estimate (no earlier build/boot of this kind)\" dry1.out &&
	 grep -q \"^variant 'Os': to build (.*): no estimate (no earlier build/boot of this kind)\$\" dry1.out"
check "the boots: variants x layouts x boots, cases per boot, samples" grep -qx \
	"boots: 2 variants x 1 layout x 3 boots = 6 boots; 2 cases per boot (2 workloads), 2 samples per case" dry1.out
check "no boot time known" grep -qx "boot time: no estimate (no earlier build/boot of this kind)" dry1.out
check "no run directory, no cache made" sh -c "[ ! -e results ] && [ ! -e cache ]"
[ $rc -eq 0 ] || sed 's/^/# /' dry1.err

# 2. --set in the plan, as if the file said it
"$KBENCH" run --dry-run --set run.samples=1 --set run.boots=2 --set variant.Os.kcflags=-fno-inline v.conf \
	> dry2.out 2> dry2.err
rc=$?
check "--dry-run --set: exit 0 (got $rc), the values taken" sh -c \
	"[ $rc -eq 0 ] && grep -qx 'boots: 2 variants x 1 layout x 2 boots = 4 boots; 2 cases per boot (2 workloads), 1 sample per case' dry2.out &&
	 grep -qx -- '--set run.samples=1' dry2.out && grep -qx -- '--set variant.Os.kcflags=-fno-inline' dry2.out"

# 3. the kernels built (the fake tree's, in seconds), and an earlier run
# under the output directory: the cache found, the estimate from the run
"$KBENCH" build v.conf > build.out 2> build.err
rc=$?
check "the fake kernels build (rc $rc)" test $rc -eq 0
[ $rc -eq 0 ] || sed 's/^/# /' build.err | tail -n 5
id="tree:$d/src:$(stat -c %Y src/Makefile)"
mkdir -p results/20260101-000000
jq -n --arg id "$id" '{kernel: {id: $id, arch: "i386", base: "tinyconfig"},
	run: {workloads: "getppid,pipe", samples: 2, scale: 0.05},
	backends: {primary: {name: "clock"}}, accel: {chosen: "tcg"},
	variants: [{name: "a", status: "built", cached: false, build_seconds: 100},
		   {name: "b", status: "built", cached: false, build_seconds: 120},
		   {name: "c", status: "built", cached: true, build_seconds: 1}]}' \
	> results/20260101-000000/manifest.json
printf '%s\n' '{"status":"ok","seconds":10}' '{"status":"ok","seconds":12}' '{"status":"ok","seconds":11}' \
	'{"status":"timeout","seconds":99}' > results/20260101-000000/boots.jsonl
"$KBENCH" run --dry-run v.conf > dry3.out 2> dry3.err
rc=$?
check "--dry-run after the build: exit 0 (got $rc), both in the build cache" sh -c \
	"[ $rc -eq 0 ] && grep -q \"^variant 'O2': in the build cache ($d/cache/kernels/\" dry3.out &&
	 grep -q \"^variant 'Os': in the build cache\" dry3.out"
check "boot time from the earlier run's finished boots" grep -qx \
	"boot time: ~11 s a boot (median of 3 earlier boots of this kind)" dry3.out
check "estimate: nothing to build, the boots" grep -qx \
	"estimate: ~66 s one after another (nothing to build, boots ~66 s)" dry3.out
"$KBENCH" run --dry-run --set variant.Os.kcflags=-fno-inline v.conf > dry4.out 2> dry4.err
check "a variant changed by --set: to build, estimated from the earlier run's fresh builds" grep -qx \
	"variant 'Os': to build (never configured with this source, configuration and compiler): ~110 s (median of 2 earlier builds)" dry4.out
check "the whole estimate" grep -qx "estimate: ~176 s one after another (builds ~110 s, boots ~66 s)" dry4.out
# backend = auto, boots not given: as auto chose in the newest run here (a
# deterministic sim: one boot per layout; a clock: the file's boots)
sed 's/^boots = 3$//; s/^backend = clock$/backend = auto/' v.conf > auto.conf
"$KBENCH" run --dry-run auto.conf > dry5.out 2> dry5.err
check "backend auto after a clock run: the default boots, and why" grep -qx \
	"boots: 2 variants x 1 layout x 5 boots = 10 boots (backend auto chose clock in the newest run here, 20260101-000000: it measures time); 2 cases per boot (2 workloads), 2 samples per case" dry5.out
mkdir -p results/20260102-000000
jq -n '{kernel: {id: "other", arch: "i386"}, backends: {primary: {name: "sim"}}}' > results/20260102-000000/manifest.json
"$KBENCH" run --dry-run auto.conf > dry6.out 2> dry6.err
check "backend auto after a sim run: one boot per layout" grep -qx \
	"boots: 2 variants x 1 layout x 1 boot = 2 boots (backend auto chose sim in the newest run here, 20260102-000000: deterministic, 1 boot per layout); 2 cases per boot (2 workloads), 2 samples per case" dry6.out
rm -r results/20260102-000000
check "still only the earlier run directory" test "$(ls results)" = 20260101-000000

# 4. --set in the manifest, and a resume with others refused: a run of a
# source that holds no kernel stops at once, incomplete (resumable)
conf n.conf runs
sed -i "s,^source = .*,source = $d/nosrc," n.conf
"$KBENCH" run --set run.samples=3 --set kernel.jobs=1 n.conf > n.out 2> n.err
rc=$?
run=$(ls -d "$d"/runs/2* 2>/dev/null | head -n 1)
check "a run that cannot build: exit 1 (got $rc), a run directory" sh -c "[ $rc -eq 1 ] && [ -d '$run' ]"
check "the manifest records the --set values as given, in order, and their keys" jq_true "$run/manifest.json" \
	'.overrides == ["run.samples=3", "kernel.jobs=1"] and .config_keys["[run] samples"] == "3" and
	 .config_keys["[kernel] jobs"] == "1" and .run.samples == 3'
cp "$run/manifest.json" manifest.before
"$KBENCH" run --resume "$run" --set run.samples=4 --set kernel.jobs=1 > r1.out 2> r1.err
rc=$?
check "resume with another --set value: refused (rc $rc), the key named, the run untouched" sh -c \
	"[ $rc -eq 2 ] && grep -qF \"began with --set run.samples=3 --set kernel.jobs=1, and is resumed with --set run.samples=4 --set kernel.jobs=1: [run] samples ('3' -> '4')\" r1.err &&
	 grep -q 'resume with the same --set options (or none: the run.s own), or start a new run' r1.err &&
	 cmp -s manifest.before '$run/manifest.json'"
"$KBENCH" run --resume "$run" --set run.samples=3 > r2.out 2> r2.err
rc=$?
check "resume with one --set left out: refused (rc $rc), the key named" sh -c \
	"[ $rc -eq 2 ] && grep -qF \"[kernel] jobs ('1' -> not given)\" r2.err"
"$KBENCH" run --resume "$run" --set run.samples=3 --set kernel.jobs=1 > r3.out 2> r3.err
rc=$?
check "resume with the same --set values: taken (it fails again on the source, rc $rc)" sh -c \
	"[ $rc -eq 1 ] && grep -q 'resuming run directory' r3.err && ! grep -q 'began with' r3.err"
"$KBENCH" run --resume "$run" > r4.out 2> r4.err
rc=$?
check "resume without --set: the run's own (rc $rc)" sh -c \
	"[ $rc -eq 1 ] && grep -q 'resuming run directory' r4.err && ! grep -q 'began with' r4.err &&
	 jq -e '.overrides == [\"run.samples=3\", \"kernel.jobs=1\"]' '$run/manifest.json' >/dev/null"
"$KBENCH" run --dry-run --resume "$run" > r5.out 2> r5.err
check "--dry-run with --resume: a usage error" test $? -eq 2
test_done
