#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Sim-backend boots run at once ([run] jobs): the same small configuration
# with jobs = 1 and jobs = 2 gives identical samples and sim.jsonl lines (the
# counts cannot depend on how many boots share the machine); under the
# clock backend boots stay one at a time whatever jobs says, and each
# records whether the machine was otherwise idle (two spinning processes
# must show); left out, boots is 1 per variant under sim, and the manifest
# and report say why.  On the cached O2 and Os kernels (t0100 builds them).
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
d=$(scratch)
needs_kernel_source "sim jobs"

# canon RUN FILE: FILE's lines without what differs between any two runs
# (the host's accelerator name aside, nothing should), sorted
canon() {
	jq -cS 'del(.accel)' "$1/$2" | sort
}
for j in 1 2; do
	write_tcg_conf "$d/j$j.conf" backend=sim boots=2 samples=2 workloads=getppid,pipe seed=11 \
		jobs=$j timeout=240 output="$d/r$j"
	mkdir -p "$d/j$j"
	run_in "$d/j$j" "$KBENCH" run "$d/j$j.conf"
	check "jobs = $j: run exits 0 (got $rc)" test $rc -eq 0
	eval "run$j=\$run"
	cp "$d/j$j/run.err" "$d/j$j.err"
done
check "jobs = 2 says it boots two at once; jobs = 1 does not" sh -c \
	"grep -q 'boots: up to 2 at once' '$d/j2.err' && ! grep -q 'boots: up to' '$d/j1.err'"
canon "$run1" samples.jsonl > "$d/s1"
canon "$run2" samples.jsonl > "$d/s2"
check "identical samples with jobs = 1 and 2 ($(wc -l < "$d/s1") lines)" sh -c \
	"[ -s '$d/s1' ] && [ \$(wc -l < '$d/s1') -eq 16 ] && cmp -s '$d/s1' '$d/s2'"
canon "$run1" sim.jsonl > "$d/m1"
canon "$run2" sim.jsonl > "$d/m2"
check "identical sim.jsonl (footprint, attribution) with jobs = 1 and 2" sh -c \
	"[ -s '$d/m1' ] && cmp -s '$d/m1' '$d/m2'"
check "every boot of both runs ended ok, each once" sh -c \
	"jq -se 'length == 4 and all(.status == \"ok\") and (map(.boot) | unique | length) == 4' '$run2/boots.jsonl' >/dev/null"
check "report and summary say the boots ran two at once, and why that is safe" sh -c \
	"grep -q 'Boots ran up to 2 at once: the counts do not depend on the machine.s load' '$run2/report.md' &&
	 jq -e '.boots.at_once == 2 and .boots.per_variant == 2' '$run2/summary.json' >/dev/null"

# clock: times, so one boot at a time even with jobs = 2
write_tcg_conf "$d/clock.conf" backend=clock boots=2 samples=1 scale=0.01 workloads=getppid \
	jobs=2 output="$d/rc" -- O2
run_in "$d" "$KBENCH" run "$d/clock.conf"
check "clock backend with jobs = 2: boots one at a time (rc $rc)" sh -c \
	"[ $rc -eq 0 ] && ! grep -q 'boots: up to' '$d/run.err'"
# whether the machine was otherwise idle: measured for each timed boot
check "clock: each boot records other processes' share of the CPU; the report says it" sh -c \
	"jq -se 'length == 2 and all(.host_other_cpu >= 0 and .host_other_cpu <= 1)' '$run/boots.jsonl' >/dev/null &&
	 jq -e '.boots.at_once == 1 and .boots.host_other_cpu.n == 2' '$run/summary.json' >/dev/null &&
	 grep -q 'Boots ran one at a time: their figures are times. While the measuring boots ran, other processes used' '$run/report.md'"
# two processes spinning on this machine's cores while the clock boots run
for i in 1 2; do sh -c 'while :; do :; done' & eval "spin$i=\$!"; done
write_tcg_conf "$d/busy.conf" backend=clock boots=2 samples=1 scale=0.01 workloads=getppid \
	output="$d/rb" -- O2
run_in "$d" "$KBENCH" run "$d/busy.conf"
kill "$spin1" "$spin2"
wait "$spin1" "$spin2" 2>/dev/null
diag "other processes' share with two spinners: $(jq -c '.boots.host_other_cpu' "$run/summary.json")"
check "two spinning processes: their share is measured (median over 0.25) and the report says not idle" sh -c \
	"[ $rc -eq 0 ] && jq -e '.boots.host_other_cpu.median > 0.25' '$run/summary.json' >/dev/null &&
	 grep -q 'the machine was not idle' '$run/report.md'"

# boots left out: 1 under sim, said in the manifest and the report
write_tcg_conf "$d/one.conf" backend=sim boots= samples=1 workloads=getppid output="$d/r1b" -- O2
run_in "$d" "$KBENCH" run "$d/one.conf"
check "boots left out under sim: one boot, and the manifest says why (rc $rc)" sh -c \
	"[ $rc -eq 0 ] && jq -e '.run.boots == 1 and (.run.boots_why | test(\"deterministic\"))' '$run/manifest.json' >/dev/null &&
	 [ \$(wc -l < '$run/boots.jsonl') -eq 1 ] &&
	 grep -q '1 boot per variant: the backend is deterministic' '$run/report.md'"
test_done
