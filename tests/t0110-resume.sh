#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A run stopped by SIGINT or killed with SIGKILL resumes with --resume: no
# finished sample lost, none duplicated; a second run on the same results
# directory is refused while the first holds it.  Uses the kernels that
# t0100 built (cached), so it costs boots only.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
needs_kernel_source "resume"
write_tcg_conf "$d/variants.conf" boots=3 samples=2 scale=0.1 timeout= workloads=getppid,pipe seed=42
total=6
# The kernels first (built, or waited for while another test builds them):
# the waits below time boots, not a cold cache's builds.
build_first "$d/variants.conf"

# Every (boot, case, rep) once, and every boot of the plan once.
no_duplicates() {
	jq -se '(map([.boot, .case, .rep]) | length) == (map([.boot, .case, .rep]) | unique | length)' \
		"$1/samples.jsonl" >/dev/null
}
complete() {
	jq -se "length == $total and (map(.boot) | unique | length) == $total" "$1/boots.jsonl" >/dev/null &&
	jq -se "length == $total * 2 * 2" "$1/samples.jsonl" >/dev/null
}

# wait_run: the run directory of the run just started, once it has a manifest
wait_run() {
	for i in $(seq 600); do
		ls "$d"/results/*/manifest.json >/dev/null 2>&1 && break
		sleep 0.1
	done
	dirname "$(ls "$d"/results/*/manifest.json | head -n 1)"
}

# 1. SIGINT after the first boot: clean stop, resume command printed.
(cd "$d" && exec "$KBENCH" run variants.conf > int.out 2> int.err) &
pid=$!
run=$(wait_run)
wait_lines "$run/boots.jsonl" 1

# A second run on the same results directory is refused meanwhile.
(cd "$d" && "$KBENCH" run variants.conf > second.out 2> second.err)
rc=$?
check "second run refused while the first holds the results directory" sh -c \
	"[ $rc -eq 1 ] && grep -q 'is in use by another kbench run' '$d/second.err'"

kill -INT $pid
wait $pid
rc=$?
check "SIGINT: exit 130" test $rc -eq 130
check "SIGINT: resume command printed" grep -q "resume with: kbench run --resume $run" "$d/int.err"
check "SIGINT: manifest says interrupted" \
	sh -c "jq -e '.state == \"interrupted\"' '$run/manifest.json' >/dev/null"
check "SIGINT: no QEMU left behind" sh -c "! pgrep -f '[q]emu-system-i386.*$run' >/dev/null"
cp "$run/boots.jsonl" "$d/boots.before"
cp "$run/samples.jsonl" "$d/samples.before"
before=$(wc -l < "$d/boots.before")

"$KBENCH" run --resume "$run" > "$d/res1.out" 2> "$d/res1.err"
rc=$?
check "resume after SIGINT: exit 0" test $rc -eq 0
check "resume keeps the $before finished boots as they were" sh -c \
	"head -n $before '$run/boots.jsonl' | cmp -s - '$d/boots.before'"
if complete "$run"; then ok "resume completes the plan"; else not_ok "resume completes the plan"; fi
check "resume after SIGINT: no duplicated sample" no_duplicates "$run"

# 2. SIGKILL in the middle of a boot: nothing torn survives, resume completes.
rm -rf "$d/results"
(cd "$d" && exec "$KBENCH" run variants.conf > kill.out 2> kill.err) &
pid=$!
run=$(wait_run)
wait_lines "$run/boots.jsonl" 2
wait_lines "$run/samples.jsonl" $((2 * 4 + 1))	# into the third boot
kill -KILL $pid
wait $pid 2>/dev/null
sleep 1
check "SIGKILL: QEMU dies with kbench" sh -c "! pgrep -f '[q]emu-system-i386.*$run' >/dev/null"
"$KBENCH" run --resume "$run" > "$d/res2.out" 2> "$d/res2.err"
rc=$?
check "resume after SIGKILL: exit 0" test $rc -eq 0
if complete "$run"; then ok "resume after SIGKILL completes the plan"; else not_ok "resume after SIGKILL completes the plan"; fi
check "resume after SIGKILL: no duplicated sample" no_duplicates "$run"
test_done
