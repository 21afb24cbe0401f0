#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# executor = slurm on a real Slurm: a single-node cluster started here
# (tests/slurm.sh: munged, slurmctld, slurmd, stopped by their PIDs).  A
# small two-variant sim configuration gives through Slurm the samples a
# local run gives; one boot job cancelled with scancel is reported (state
# and log) and --resume runs only it; a build job that fails is reported
# with its state and log, not built again here, and the other variant's
# boots still run; ^C cancels the run's jobs and exits 130.  Where Slurm
# cannot start the test says why and skips, but under CI it must start.
# On the cached O2 and Os kernels (t0100 builds them).
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
. "$TEST_SRCDIR/slurm.sh"
d=$(scratch)
needs_kernel_source "slurm executor"
needs_cmd jq "slurm executor"

trap 'slurm_stop; kb_test_exit' EXIT
t0=$(date +%s)
if ! slurm_start "$d/slurm"; then
	if [ -n "${CI:-}" ]; then
		not_ok "a single-node Slurm starts under CI: $slurm_why"
		slurm_stop
		test_done
	fi
	slurm_stop
	skip_all "$slurm_why" "slurm executor"
fi
diag "single-node Slurm up and a probe job run in $(($(date +%s) - t0)) s"

canon() {
	jq -cS 'del(.accel)' "$1/$2" | sort
}
# conf NAME KEY=VALUE...: the small configuration, output in $d/r-NAME
conf() {
	local name=$1
	shift
	write_tcg_conf "$d/$name.conf" backend=sim boots=2 samples=2 workloads=getppid,pipe seed=11 \
		timeout=240 output="$d/r-$name" "$@"
}
# boot_array DIR: the job id of the boot array of the kbench running in
# DIR, once it says it submitted one
boot_array() {
	local i id
	for i in $(seq 1200); do
		id=$(sed -n 's/.* boot jobs* submitted as array \([0-9]*\).*/\1/p' "$1/run.err" 2>/dev/null)
		[ -n "$id" ] && { echo "$id"; return 0; }
		sleep 0.1
	done
	return 1
}

# the reference: the same configuration run here
conf local jobs=2
mkdir -p "$d/local"
run_in "$d/local" "$KBENCH" run "$d/local.conf"
check "local reference run exits 0 (got $rc)" test $rc -eq 0
canon "$run" samples.jsonl > "$d/s-local"
canon "$run" sim.jsonl > "$d/m-local"

# through Slurm
conf slurm executor=slurm
mkdir -p "$d/slurm-run"
run_in "$d/slurm-run" "$KBENCH" run "$d/slurm.conf"
check "executor = slurm: run exits 0 (got $rc)" test $rc -eq 0
grep -q 'slurm: one node in the partition' "$d/slurm-run/run.err" ||
	sed 's/^/# /' "$d/slurm-run/run.err"
check "it says the run directory and cache are trivially shared on one node" \
	grep -q 'slurm: one node in the partition' "$d/slurm-run/run.err"
check "builds and boots went as two arrays, the boots after the builds" sh -c \
	"grep -q '2 build jobs submitted as array' '$d/slurm-run/run.err' &&
	 grep -q '4 boot jobs submitted as array [0-9]*, after [0-9]*' '$d/slurm-run/run.err'"
canon "$run" samples.jsonl > "$d/s-slurm"
check "samples through Slurm identical to the local run's ($(wc -l < "$d/s-slurm") lines)" sh -c \
	"[ \$(wc -l < '$d/s-slurm') -eq 16 ] && cmp -s '$d/s-local' '$d/s-slurm'"
canon "$run" sim.jsonl > "$d/m-slurm"
check "sim.jsonl through Slurm identical to the local run's" cmp -s "$d/m-local" "$d/m-slurm"
host=$(hostname -s)
check "every boot ran as a Slurm job, on node $host, and says so" \
	jq_all "$run/boots.jsonl" "length == 4 and all(.status == \"ok\" and .node == \"$host\" and
		(.slurm_job | test(\"^[0-9]+_[1-4]\$\")))"
check "the report names the node of each boot" sh -c \
	"grep -q 'Slurm nodes the boots ran on' '$run/report.md' &&
	 [ \$(grep -c '^| [1-4] | O[2s] *| $host *| ok' '$run/report.md') -eq 4 ]"
check "the manifest says executor slurm; each variant built (its build job's log kept)" sh -c \
	"jq -e '.executor == \"slurm\" and all(.variants[]; .status == \"built\")' '$run/manifest.json' >/dev/null &&
	 grep -q 'kbench: cached build\\|CC ' '$run/variants/O2/build.log' &&
	 [ -s '$run/slurm/boot-1.out' ] && [ -s '$run/slurm/build-0.out' ]"

# one boot job cancelled: reported with its state and log; --resume runs it alone
conf cancel executor=slurm
# A boot job takes a few seconds: one that ends its boot as scancel comes
# finishes, and the run with it (seen once in a cold CI run, under load).
# Such a try cancelled nothing: tried again, up to 3 times, in a new run.
for try in 1 2 3; do
	rm -rf "$d/cancel" "$d/r-cancel"
	mkdir -p "$d/cancel"
	(cd "$d/cancel" && exec "$KBENCH" run "$d/cancel.conf" > run.out 2> run.err) &
	pid=$!
	arr=$(boot_array "$d/cancel")
	# once it runs (slurmctld keeps no record of a task cancelled while pending).
	# Under a loaded make check, tasks 1 and 2 can take over a minute before 4
	# starts: wait while kbench runs, up to the boots' own timeout and more.
	state=pending
	for i in $(seq 3000); do
		squeue -h -r -j "$arr" -t R -o %K 2>/dev/null | grep -qx 4 && { state=running; break; }
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	diag "try $try: boot job ${arr}_4 cancelled while $state"
	scancel "${arr}_4"
	wait $pid
	rc=$?
	run=$(sed -n 's,/report.md$,,p' "$d/cancel/run.out" | tail -n 1)
	[ $rc -eq 0 ] && [ -n "$run" ] && jq_all "$run/boots.jsonl" 'length == 4 and all(.status == "ok")' || break
	diag "try $try: boot 4 finished before scancel reached it (the run completed): again"
done
cp "$d/cancel/run.err" "$d/cancel.err"
# cancelled while running: slurmctld says CANCELLED; while pending (never
# reached in 300 s) it keeps no record, and kbench says that instead
case $state in
running) said="did not finish: job ${arr}_4 CANCELLED" ;;
*) said="did not finish: job ${arr}_4 left the queue while PENDING, and slurmctld keeps no record" ;;
esac
grep -q "$said" "$d/cancel.err" || sed 's/^/# /' "$d/cancel.err"
check "a cancelled boot job: the run fails (rc $rc), naming the job, its state and log" sh -c \
	"[ $rc -eq 1 ] && grep -q \"$said.*its log .*/slurm/boot-4.out\" '$d/cancel.err' &&
	 grep -q '1 boot did not finish; run it with: kbench run --resume' '$d/cancel.err'"
check "three boots finished, boot 4 not" jq_all "$run/boots.jsonl" \
	'length == 3 and (map(.boot) | sort) == [1, 2, 3]'
run_in "$d/cancel" "$KBENCH" run --resume "$run"
check "--resume submits only the unfinished boot and completes (rc $rc)" sh -c \
	"[ $rc -eq 0 ] && grep -q '3 of 4 boots finished before; 1 to go' '$d/cancel/run.err' &&
	 grep -q '1 boot job submitted' '$d/cancel/run.err' &&
	 jq -e '.state == \"complete\"' '$run/manifest.json' >/dev/null"
canon "$run" samples.jsonl > "$d/s-cancel"
check "after the resume, samples identical to the local run's" cmp -s "$d/s-local" "$d/s-cancel"

# a build job that fails: reported, not built here; the other variant boots
conf badbuild executor=slurm -- O2 Bad:config=KBENCH_NO_SUCH_OPTION=y
mkdir -p "$d/badbuild"
run_in "$d/badbuild" "$KBENCH" run "$d/badbuild.conf"
check "a failed build job: run fails (rc $rc), the variant reported with the job's state and log" sh -c \
	"[ $rc -eq 1 ] && grep -q \"variant 'Bad': build job [0-9]*_1 FAILED.*its log .*/slurm/build-1.out\" '$d/badbuild/run.err' &&
	 ! grep -q \"variant 2/2 'Bad': configuring\" '$d/badbuild/run.err'"
check "the boots are planned without it, and O2's ran" sh -c \
	"jq -e '(.variants[1].status == \"build-failed\") and (.variants[1].reason | test(\"FAILED\"))' '$run/manifest.json' >/dev/null &&
	 jq -se 'length == 2 and all(.variant == \"O2\" and .status == \"ok\")' '$run/boots.jsonl' >/dev/null"

# a backend that measures time: whole nodes, and the report names the node
write_tcg_conf "$d/clock.conf" backend=clock boots=2 samples=1 scale=0.01 workloads=getppid \
	output="$d/r-clock" executor=slurm -- O2
mkdir -p "$d/clock"
run_in "$d/clock" "$KBENCH" run "$d/clock.conf"
check "clock backend through Slurm: boots ask for whole nodes; each boot's node in the report (rc $rc)" sh -c \
	"[ $rc -eq 0 ] && grep -q 'boot jobs submitted as array .*whole nodes (--exclusive)' '$d/clock/run.err' &&
	 jq -se 'length == 2 and all(.node == \"$host\")' '$run/boots.jsonl' >/dev/null &&
	 [ \$(grep -c '^| [12] | O2 *| $host *| ok' '$run/report.md') -eq 2 ]"

# ^C: the jobs are cancelled, exit 130
write_tcg_conf "$d/int.conf" backend=sim boots=4 samples=2 workloads=getppid,pipe seed=11 \
	timeout=240 output="$d/r-int" executor=slurm
mkdir -p "$d/int"
(cd "$d/int" && exec "$KBENCH" run "$d/int.conf" > run.out 2> run.err) &
pid=$!
arr=$(boot_array "$d/int")
kill -INT $pid
wait $pid
rc=$?
# a cancelled job stays in squeue while slurmctld completes it (CG): the
# queue is read until it has none of the array's, for up to 20 s
for i in $(seq 200); do
	[ -z "$(squeue -h -j "$arr" -o %i 2>/dev/null)" ] && break
	sleep 0.1
done
check "SIGINT: exit 130, its jobs cancelled, none left queued (rc $rc)" sh -c \
	"[ $rc -eq 130 ] && grep -q 'slurm: cancelled array' '$d/int/run.err' &&
	 [ -z \"\$(squeue -h -j $arr -o %i 2>/dev/null)\" ]"

# configuration errors name file and line
conf badkey executor=slurm slurm_time=soon slurm_args=--array=1-3
"$KBENCH" run "$d/badkey.conf" > /dev/null 2> "$d/badkey.err"
rc=$?
check "bad slurm_time and slurm_args: usage error naming file:line (rc $rc)" sh -c \
	"[ $rc -eq 2 ] && grep -q 'badkey.conf:[0-9]*: .slurm_time.: .soon.: not a Slurm time limit' '$d/badkey.err' &&
	 grep -q 'badkey.conf:[0-9]*: .slurm_args.*kbench gives --array' '$d/badkey.err'"
# a partition of two nodes (tests/slurm.sh adds one that never comes up):
# results under /tmp are refused before anything is made, naming the path
write_tcg_conf "$d/two.conf" backend=sim executor=slurm slurm_partition=two \
	output=/tmp/kbench-t0410-$$/results
"$KBENCH" run "$d/two.conf" > /dev/null 2> "$d/two.err"
rc=$?
check "two nodes, results under /tmp: refused naming the path, nothing made (rc $rc)" sh -c \
	"[ $rc -eq 2 ] && grep -qF \"'/tmp/kbench-t0410-$$/results' is under /tmp\" '$d/two.err' &&
	 grep -qF \"partition 'two' has 2 nodes\" '$d/two.err' &&
	 [ ! -e /tmp/kbench-t0410-$$ ]"
conf nosuch executor=slurm slurm_partition=nosuch
"$KBENCH" run "$d/nosuch.conf" > /dev/null 2> "$d/nosuch.err"
rc=$?
check "a partition with no nodes: file:line error (rc $rc)" sh -c \
	"[ $rc -eq 2 ] && grep -q \"nosuch.conf:[0-9]*: 'slurm_partition': partition 'nosuch' has no nodes\" '$d/nosuch.err'"
"$KBENCH" run --executor nowhere "$d/local.conf" > /dev/null 2> "$d/exec.err"
rc=$?
check "--executor nowhere: usage error (rc $rc)" sh -c \
	"[ $rc -eq 2 ] && grep -q \"executor 'nowhere': local or slurm\" '$d/exec.err'"
# a run directory whose path a shell would split or end a quote in: the job
# scripts hold it as one shell word
write_tcg_conf "$d/quote.conf" backend=sim boots=2 samples=2 workloads=getppid seed=11 \
	timeout=240 executor=slurm output="$d/it's a run"
"$KBENCH" run "$d/quote.conf" > "$d/quote.out" 2> "$d/quote.err"
rc=$?
qrun=$(sed -n 's|/report.md$||p' "$d/quote.out" | tail -n 1)	# the run's report.md, then the answer line
check "a run directory named with a quote and spaces: the Slurm jobs run in it (rc $rc)" \
	jq -se 'length == 4 and all(.status == "ok" and .slurm_job != null)' "$qrun/boots.jsonl"
# sbatch refusing the jobs (a node the cluster does not have): before,
# the run said "complete" and could not be resumed; now it is incomplete,
# exits 1 naming sbatch's refusal, and --resume (here with the local
# executor) completes it (issue 22, item 3)
write_tcg_conf "$d/refused.conf" backend=sim boots=1 samples=1 workloads=getppid seed=11 \
	timeout=240 executor=slurm slurm_args=--nodelist=kbench-no-such-node output="$d/r-refused"
mkdir -p "$d/refused"
run_in "$d/refused" "$KBENCH" run "$d/refused.conf"
check "sbatch refuses the jobs: exit 1, state incomplete, the refusal and the resume said (rc $rc)" sh -c \
	"[ $rc -eq 1 ] && [ \"\$(jq -r .state '$run/manifest.json')\" = incomplete ] &&
	 grep -q 'sbatch' '$d/refused/run.err' &&
	 grep -q \"the run is incomplete: .*kbench run --resume $run\" '$d/refused/run.err'"
grep -v '^kbench: info' "$d/refused/run.err" | tail -n 3 | sed 's/^/# /'
"$KBENCH" run --executor local --resume "$run" > "$d/refused/resume.out" 2> "$d/refused/resume.err"
rc=$?
check "sbatch refused: --resume --executor local completes the run (rc $rc)" sh -c \
	"[ $rc -eq 0 ] && [ \"\$(jq -r .state '$run/manifest.json')\" = complete ] &&
	 [ \$(jq -s 'map(select(.status == \"ok\")) | length' '$run/boots.jsonl') -eq 2 ]"
slurm_stop
test_done
