#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Resumes that used to be lost or to mix two designs (issue 22, item 5):
#   expected: a resume right after a SIGKILL of a run with boots at once
#   waits for the killed run's boots (they hold the results directory's lock
#   until they die with it) and completes; a run directory whose
#   variants.conf was edited after the run began is refused, the keys named,
#   nothing in it touched.
#   buggy (before): "in use by another kbench run (pid N)" while a boot of
#   the killed run lived on; an edited samples or workloads resumed into one
#   report of two designs.  And a run killed between the copy of its
#   configuration and the manifest's first write says to start a new run
#   (it failed on "'seed' is not an unsigned 64-bit integer").
# A lingering boot is played by flock(1) holding the lock the killed run
# left (its pid in it), as a boot slow to die holds it.  On the cached O2
# kernel (t0100 builds it); sim boots, two at once.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
needs_kernel_source "resume checks"
needs_cmd flock "resume checks"
cd "$d" || exit 1
boots=4
write_tcg_conf v.conf backend=sim jobs=2 boots=$boots samples=1 scale=0.01 workloads=getppid \
	seed=7 timeout=240 -- O2
build_first "$d/v.conf"

# killed [BOOTS]: a run of v.conf started, SIGKILLed once BOOTS of its boots
# finished (0: once two are booting), not waited for; its pid in $pid, its
# directory in $run
killed() {
	rm -rf results kill.err	# not the last run's, read before this one writes it
	"$KBENCH" run v.conf > kill.out 2> kill.err &
	pid=$!
	for i in $(seq 3000); do
		if [ "${1:-0}" -eq 0 ]; then
			grep -q 'progress: measuring: boot 2/' kill.err 2>/dev/null && break
		else
			[ "$(cat results/*/boots.jsonl 2>/dev/null | wc -l)" -ge "$1" ] && break
		fi
		sleep 0.05
	done
	kill -KILL $pid
	run=$(ls -d "$d"/results/2* | head -n 1)
}
# complete RUN: every boot of the plan once and ok, one sample each
complete() {
	jq -e '.state == "complete"' "$1/manifest.json" >/dev/null &&
	jq -se "length == $boots and all(.status == \"ok\") and (map(.boot) | unique | length) == $boots" \
		"$1/boots.jsonl" >/dev/null &&
	jq -se "length == $boots and (map(.boot) | unique | length) == $boots" "$1/samples.jsonl" >/dev/null
}

# unhold: end the holder started last, and its sleep
unhold() {
	pkill -P $holder sleep
	kill $holder 2>/dev/null
	wait $holder 2>/dev/null
}

# 1. SIGKILL while two boots run, resume at once (the killed run not even
# reaped): it goes on and completes
killed 0
"$KBENCH" run --resume "$run" > now.out 2> now.err
rc=$?
wait $pid 2>/dev/null
check "resume at once after a SIGKILL with two boots running: not refused as in use (rc $rc)" sh -c \
	"[ $rc -eq 0 ] && ! grep -q 'in use' now.err"
check "that resume completes the plan, each boot once" complete "$run"

# 2. a boot of the killed run still holding the lock for 3 s: waited for,
# said, then the resume completes
killed 0
wait $pid 2>/dev/null
flock -w 10 -o results/.kbench.lock sleep 3 </dev/null >/dev/null 2>&1 &
holder=$!
sleep 0.5
"$KBENCH" run --resume "$run" > wait.out 2> wait.err
rc=$?
wait $holder
check "a killed run's boot holding the lock 3 s: waited for, said (rc $rc)" sh -c \
	"[ $rc -eq 0 ] && grep -q 'waiting for the children of the killed run (pid $pid) to exit' wait.err &&
	 ! grep -q 'in use' wait.err"
check "after the wait the resume completes the plan" complete "$run"
[ $rc -eq 0 ] || sed 's/^/# /' wait.err | tail -n 5

# 3. one that never lets go: refused after the wait, the run as it was;
# and a live run, here or on another host, is still refused at once
killed 1
wait $pid 2>/dev/null
cp "$run/samples.jsonl" samples.before
flock -w 10 -o results/.kbench.lock sleep 60 </dev/null >/dev/null 2>&1 &
holder=$!
sleep 0.5
t0=$(date +%s)
"$KBENCH" run --resume "$run" > stuck.out 2> stuck.err
rc=$? took=$(($(date +%s) - t0))
unhold
check "a lock the killed run's boot never lets go: refused after about 10 s (rc $rc, ${took} s), saying so" sh -c \
	"[ $rc -eq 1 ] && [ $took -ge 9 ] && [ $took -le 20 ] &&
	 grep -q 'still held by the children of the killed run (pid $pid) after 10 s' stuck.err &&
	 cmp -s samples.before '$run/samples.jsonl'"
sh -c 'echo $$ > results/.kbench.lock; exec flock -w 10 -o results/.kbench.lock sleep 20' </dev/null >/dev/null 2>&1 &
holder=$!
sleep 0.5
t0=$(date +%s)
"$KBENCH" run --resume "$run" > live.out 2> live.err
rc=$? took=$(($(date +%s) - t0))
unhold
check "a lock a live run holds: refused at once as in use (rc $rc, ${took} s)" sh -c \
	"[ $rc -eq 1 ] && [ $took -le 2 ] && grep -q 'in use by another kbench run (pid $holder)' live.err"
# a run on another host sharing the directory: its pid means nothing
# here, so it is not waited for as a killed one
sh -c 'printf "%s\nanother-host\n" '$pid' > results/.kbench.lock; exec flock -w 10 -o results/.kbench.lock sleep 20' </dev/null >/dev/null 2>&1 &
holder=$!
sleep 0.5
t0=$(date +%s)
"$KBENCH" run --resume "$run" > host.out 2> host.err
rc=$? took=$(($(date +%s) - t0))
unhold
check "a lock a run on another host holds: refused at once as in use (rc $rc, ${took} s)" sh -c \
	"[ $rc -eq 1 ] && [ $took -le 2 ] && grep -q 'in use by another kbench run (pid $pid)' host.err"

# 4. samples and workloads edited in the run directory's variants.conf after
# the kill: refused, each key named with both values, nothing touched
cp "$run/variants.conf" conf.before
cp "$run/boots.jsonl" boots.before
cp "$run/manifest.json" manifest.before
sed -i 's/^samples = 1$/samples = 3/; s/^workloads = getppid$/workloads = getppid,pipe/' "$run/variants.conf"
"$KBENCH" run --resume "$run" > edit.out 2> edit.err
rc=$?
check "variants.conf edited after the kill: resume refused (rc $rc), samples and workloads named" sh -c \
	"[ $rc -eq 2 ] && grep -qF \"$run/variants.conf' was changed after the run began: \" edit.err &&
	 grep -qF \"[run] samples ('1' -> '3')\" edit.err &&
	 grep -qF \"[run] workloads ('getppid' -> 'getppid,pipe')\" edit.err &&
	 grep -q 'restore it, or start a new run' edit.err"
check "the refused run directory is untouched (samples, boots, manifest)" sh -c \
	"cmp -s samples.before '$run/samples.jsonl' && cmp -s boots.before '$run/boots.jsonl' &&
	 cmp -s manifest.before '$run/manifest.json'"
sed -e 's/^samples = 1$//' -e 's/^\[variant O2\]$/[variant O2]\nkcflags = -O3/' conf.before > "$run/variants.conf"
"$KBENCH" run --resume "$run" > edit2.out 2> edit2.err
rc=$?
check "a key taken out and one added: both named (rc $rc)" sh -c \
	"[ $rc -eq 2 ] && grep -qF \"[run] samples ('1' -> not given)\" edit2.err &&
	 grep -qF \"[variant O2] kcflags (not given -> '-O3')\" edit2.err"

# 5. restored, with a comment more: resumed with a warning, completes
{ cat conf.before; echo '# a note'; } > "$run/variants.conf"
"$KBENCH" run --resume "$run" > note.out 2> note.err
rc=$?
check "only a comment added: resumed (rc $rc) with a warning, the plan completed" sh -c \
	"[ $rc -eq 0 ] && grep -q 'changed after the run began, but only in comments or blanks: resuming' note.err"
check "that run completes, each boot once" complete "$run"

# 6. a run directory from before the manifest recorded its configuration:
# resumed as before, with a warning that it cannot be checked
killed 1
wait $pid 2>/dev/null
jq 'del(.config_sha256, .config_keys)' "$run/manifest.json" > m.tmp && cp m.tmp "$run/manifest.json"
"$KBENCH" run --resume "$run" > old.out 2> old.err
rc=$?
check "a run from before the check: resumed (rc $rc), unchecked, with a warning" sh -c \
	"[ $rc -eq 0 ] && grep -q 'the manifest records no hash of it' old.err"

# 7. killed after the copy of its configuration, before the manifest
# recorded it (state "starting", no seed): says to start a new run, as
# when killed before the copy (t0140 kills runs as they start and caught it
# there now and then)
jq '{run_id, state: "starting"}' "$run/manifest.json" > m.tmp && cp m.tmp "$run/manifest.json"
"$KBENCH" run --resume "$run" > starting.out 2> starting.err
rc=$?
check "killed between the copy and the manifest: stopped before it started (rc $rc)" sh -c \
	"[ $rc -eq 2 ] && grep -q 'stopped before it started (its manifest never recorded the configuration)' starting.err"
test_done
