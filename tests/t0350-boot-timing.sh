#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Whole-boot timing with hyperfine on real kernels (the cached O2 and Os):
# every timed boot lands in samples.jsonl as workload "boot" with the time
# hyperfine exported, the boot_timing model agrees with scipy, the reports
# show it apart from the per-operation verdicts; a boot that never says done,
# a missing hyperfine and an interrupted timing stage are reported and lose
# nothing.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
needs_kernel_source "boot timing"
find_python 'numpy, scipy.stats' || PY=/usr/bin/python3

conf() {	# conf FILE BOOT_RUNS VARIANT...
	local f=$1 runs=$2
	shift 2
	write_tcg_conf "$f" backend=clock workloads=getppid boot_runs="$runs" boot_warmup=1 seed=11 -- "$@"
}

# 1. Five timed boots of each variant.
mkdir -p "$d/a"
conf "$d/a/variants.conf" 5 O2 Os
run_in "$d/a" "$KBENCH" run variants.conf
check "kbench run with boot timing exits 0" test $rc -eq 0
[ $rc -eq 0 ] || sed 's/^/# /' "$d/a/run.err" | tail -n 20
check "progress line for each round of the timing stage" sh -c \
	"grep -q 'progress: boot timing: round 1/5' '$d/a/run.err' && grep -q 'progress: boot timing: round 5/5' '$d/a/run.err'"
# issue #34: the boots interleaved, each round one boot of each variant in a
# seeded order, the order recorded (timing.jsonl's sequence, 1 = first)
check "timed boots interleaved: round r holds boots 2r-1 and 2r, one of each variant" jq_all "$run/timing.jsonl" \
	'([.[].sequence[]] | sort) == [range(1; 11)] and
	 all(.[]; (.sequence | length) == 5 and
		([.sequence | to_entries[] | ((.value + 1) / 2 | floor) == .key + 1] | all))'
check "the hyperfine export of each variant carries the same order" sh -c \
	"for v in O2 Os; do jq -e --arg v \$v --slurpfile t '$run/timing.jsonl' \
		'.results[0].kbench.sequence == (\$t | map(select(.variant == \$v))[0].sequence)' \
		'$run/boots/hyperfine-'\$v'.json' >/dev/null || exit 1; done"
check "timing.jsonl: both variants ok, 5 of 5 boots" jq_all "$run/timing.jsonl" \
	'length == 2 and all(.status == "ok" and .ok == 5 and .failed == 0 and .runs == 5)'
check "5 boot samples per variant, backend hyperfine, boot ids past the 2 measuring boots, unique" \
	jq_all "$run/samples.jsonl" '[.[] | select(.workload == "boot")] as $b |
		($b | length) == 10 and ([$b[] | select(.variant == "O2")] | length) == 5 and
		all($b[]; .backend == "hyperfine" and .iterations == 1 and .boot > 2 and .ns > 0) and
		($b | map(.boot) | unique | length) == 10'
# the samples are hyperfine's own figures: its JSON export, run for run
same=$("$PY" - "$run" <<'PY'
import json, sys
run = sys.argv[1]
s = [json.loads(l) for l in open(run + "/samples.jsonl") if l.strip()]
ok = True
for v in ("O2", "Os"):
    h = json.load(open("%s/boots/hyperfine-%s.json" % (run, v)))["results"][0]
    mine = sorted((x for x in s if x["workload"] == "boot" and x["variant"] == v), key=lambda x: x["vboot"])
    ok &= [x["ns"] for x in mine] == [round(t * 1e9) for t in h["times"]]
    ok &= h["exit_codes"] == [0] * 5 and h["command"] == v
print("yes" if ok else "no")
PY
)
check "boot samples equal hyperfine's exported times, in order" test "$same" = yes
check "main model without the boot case; boot_timing has it, 5 boots each" jq_true "$run/summary.json" \
	'.cases == ["getppid"] and .boot_timing.cases == ["boot"] and
	 ([.boot_timing.results[] | select(.metric == "ns_per_op") | .boots] == [5, 5]) and
	 (.boot_timing.metrics[0].note | startswith("emulated time under TCG"))'
out=$("$PY" "$TEST_SRCDIR/stats-ref.py" "$run" boot_timing 2>&1)
check "boot_timing statistics agree with numpy/scipy" test $? -eq 0
echo "$out" | sed 's/^/# /' | grep -E 'Mann-Whitney p|MISMATCH|Traceback|Error' | head -n 5
out=$("$PY" "$TEST_SRCDIR/stats-ref.py" "$run" 2>&1)
check "the per-operation statistics still agree with scipy (boot samples left out)" test $? -eq 0
# the text column: binutils size of the two kernels
tsize() { size "$run/variants/$1/vmlinux" | awk 'NR == 2 { print $1 }'; }
tpct=$(awk -v a="$(tsize O2)" -v b="$(tsize Os)" 'BEGIN { printf "%+.1f%%", (b - a) * 100 / a }')
tre=$(printf '%s' "$tpct" | sed 's/[+.]/\\&/g')
check "report.md: whole-boot section with a row per variant, in seconds, text $tpct (binutils size)" sh -c \
	"grep -q '^### Whole boot (hyperfine)' '$run/report.md' &&
	 grep -qE '^\| Os \| $tre \| 5 \| 0 \| [0-9]+\.[0-9]{3} \[[0-9.]+, [0-9.]+\] \| [0-9.]+ \[[0-9.]+, [0-9.]+\] \| [0-9.e-]+ \| [-+][0-9.]+ \| (faster|slower|not distinguishable) \| [0-9]+ \|$' '$run/report.md'"
# issue #34: under TCG a whole boot is emulation time, kept out of the
# answer (its paragraph and its line) and said so in Details
check "under TCG: no whole-boot verdict in the answer; Details says it is emulation time" sh -c \
	"! grep -q 'Whole boot, QEMU start to guest exit, timed by hyperfine' '$run/report.md' &&
	 ! head -n 2 '$run/report.md' | grep -qi 'boot' &&
	 grep -q 'These boots ran under TCG: the figures are emulation time' '$run/report.md'"
check "report.html and summary.csv carry the boot rows" sh -c \
	"grep -q 'aria-level=\"3\">Whole boot (hyperfine)<' '$run/report.html' &&
	 test \$(grep -c '^\"boot\",\"ns_per_op\",\"ns\",\"measured\",' '$run/summary.csv') -eq 2"
grep -E '^\| (O2|Os) \| [-+]' "$run/report.md" | tail -n 2 | sed 's/^/# /'

# 2. A variant whose boots never say done: its timing fails, named; the
#    other variant's timing and every measuring sample stay.
mkdir -p "$d/b"
conf "$d/b/variants.conf" 2 O2 O2-broken:cmdline=rdinit=/nonexistent
run_in "$d/b" "$KBENCH" run variants.conf
check "a failing variant: exit 1, the timing warning names it" sh -c \
	"test $rc -eq 1 && grep -q \"boot timing: variant 'O2-broken': no boot completed\" '$d/b/run.err'"
check "timing.jsonl: O2 ok, O2-broken failed 2 of 2 with a reason" jq_all "$run/timing.jsonl" \
	'(map(select(.variant == "O2"))[0] | .status == "ok" and .ok == 2) and
	 (map(select(.variant == "O2-broken"))[0] | .status == "failed" and .ok == 0 and .failed == 2 and
	  .reason == "no boot completed")'
check "boot-check said why in the variant's log" \
	grep -qE '^[0-9]+: boot-check: (Kernel panic|QEMU exited)' "$run/boots/hyperfine-O2-broken.log"
check "report.md: the failed timing is a caveat; O2's boots are in the table" sh -c \
	"grep -q 'Variant O2-broken: no boot timed: no boot completed (boots/hyperfine-O2-broken.log)' '$run/report.md' &&
	 grep -qE '^\| O2 \| \+0\.0% \| 2 \| 0 \| ' '$run/report.md'"

# 3. hyperfine missing: said so, the measuring results are kept.
mkdir -p "$d/c"
conf "$d/c/variants.conf" 2 O2
run_in "$d/c" KBENCH_HYPERFINE="$d/c/no-hyperfine" "$KBENCH" run variants.conf
check "hyperfine missing: exit 1, message says how to install it" sh -c \
	"test $rc -eq 1 && grep -q 'hyperfine could not be run (apt-get install hyperfine)' '$d/c/run.err'"
check "hyperfine missing: getppid samples kept, timing failed, no boot samples" sh -c \
	"jq -se 'length == 1 and .[0].workload == \"getppid\"' '$run/samples.jsonl' >/dev/null &&
	 jq -se '.[0].status == \"failed\"' '$run/timing.jsonl' >/dev/null"

# 4. SIGINT during the timing stage, then --resume: each variant timed
#    once, no boot sample lost or duplicated.
mkdir -p "$d/e"
conf "$d/e/variants.conf" 3 O2 Os
build_first "$d/e/variants.conf"
(cd "$d/e" && exec "$KBENCH" run variants.conf > run.out 2> run.err) &
pid=$!
i=0
while ! grep -q "progress: boot timing: round 1/" "$d/e/run.err" 2>/dev/null && [ $i -lt 3000 ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 1.5	# into hyperfine's first boots
kill -INT $pid
wait $pid
rc=$?
run=$(dirname "$(ls "$d"/e/results/*/manifest.json | head -n 1)")
check "SIGINT in the timing stage: exit 130, resume command printed" sh -c \
	"test $rc -eq 130 && grep -q 'kbench run --resume' '$d/e/run.err'"
before=$(jq -s 'map(select(.workload == "boot")) | length' "$run/samples.jsonl")
check "interrupted: no boot sample without its timing.jsonl line" sh -c \
	"test \$(cat '$run/timing.jsonl' 2>/dev/null | wc -l) -eq \$(( $before / 3 ))"
(cd "$d/e" && "$KBENCH" run --resume "$run" > resume.out 2> resume.err)
rc=$?
check "--resume finishes the timing (exit 0)" test $rc -eq 0
check "after resume: 3 boot samples per variant, unique, one timing line each" sh -c \
	"jq -se '[.[] | select(.workload == \"boot\")] as \$b | (\$b | length) == 6 and
		(\$b | map(.boot) | unique | length) == 6 and
		([\$b[] | select(.variant == \"Os\")] | length) == 3' '$run/samples.jsonl' >/dev/null &&
	 jq -se 'length == 2 and (map(.variant) | unique | length) == 2' '$run/timing.jsonl' >/dev/null"
check "after resume: the measuring samples are still one per boot" \
	jq_all "$run/samples.jsonl" '[.[] | select(.workload == "getppid")] | length == 2'

# kbench compare: the boot rows of runs 1 and 4, Holm-corrected apart from
# the per-operation rows (each boot row a family of one)
"$KBENCH" compare --json "$(dirname "$(ls "$d"/a/results/*/manifest.json)")" "$run" > "$d/compare.json" 2> "$d/compare.err"
check "compare: boot rows for O2 and Os, each its own family, next to getppid's" jq_true "$d/compare.json" \
	'([.rows[] | select(.case == "boot")] | length == 2 and all(.family == 1 and .p_holm == .p and .unit == "ns")) and
	 ([.rows[] | select(.case == "getppid")] | length == 2)'

# 5. boot-check, the command hyperfine times, refuses bad arguments.
"$KBENCH" boot-check --kernel x > "$d/bc.out" 2>&1
rc1=$?
"$KBENCH" boot-check --kernel x --initrd y --append z --memory 5 > "$d/bc2.out" 2>&1
rc2=$?
check "boot-check: usage without --initrd/--append, range error for --memory" sh -c \
	"test $rc1 -eq 2 && grep -q '^usage: kbench boot-check' '$d/bc.out' &&
	 test $rc2 -eq 2 && grep -q \"memory: '5' is not 32 to 3072 MiB\" '$d/bc2.out'"

# 6. kbench rebuilt or removed while a run goes on: hyperfine still times
#    boot-check from the running kbench's own image.
mkdir -p "$d/f"
cp "$KBENCH" "$d/f/kbench"
conf "$d/f/variants.conf" 2 O2
(cd "$d/f" && exec ./kbench run variants.conf > run.out 2> run.err) &
pid=$!
wait_lines "$d/f/run.err" 1 60
rm -f "$d/f/kbench"
wait $pid
rc=$?
check "the kbench binary removed during the run: exit 0, both boots timed (rc $rc)" sh -c \
	"[ $rc -eq 0 ] && grep -q \"boot timing: variant 'O2': 2 boots, mean\" '$d/f/run.err'"
test_done
