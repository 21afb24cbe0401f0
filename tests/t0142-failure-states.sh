#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A run that fails for a reason a resume can change is not "complete"
# (issue 22, item 3).  Before: with the output on a full file system, both
# variants were "copy-failed", the run exited 1 and its manifest said
# "complete", so --resume answered "nothing to resume"; a full disk while
# writing the initramfs said "Write error" without naming ENOSPC; one while
# writing variants/Os/bloat-vs-O2.txt exited 0 with state "complete".  Here
# the results live on a small tmpfs (root only), full at three points in
# turn: the copy of vmlinux, the initramfs, the report's files.  At each:
# exit 1, the error names the file and "No space left on device", the state
# is "incomplete" and the message says how to resume; with room again,
# --resume goes on from there and the run ends complete.  On the cached O2
# and Os kernels (t0100 builds them).
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
needs_kernel_source "failure states"
needs_cmd jq "failure states"
[ "$(id -u)" -eq 0 ] || skip_all "needs:root (mounts a tmpfs)" "failure states"
cd "$d" || exit 1
write_tcg_conf v.conf backend=clock boots=1 samples=1 scale=0.01 workloads=getppid seed=7 \
	output="$d/mnt/results"
build_first "$d/v.conf"
mkdir -p mnt
mount -t tmpfs -o size=1m kbench-t0142 "$d/mnt" 2> mount.err ||
	skip_all "needs:a tmpfs mount ($(cat mount.err))" "failure states"
# the mounts go whichever way the test ends
cleanup() {
	for m in $(awk -v d="$d/mnt" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r); do
		umount "$m"
	done
}
trap 'cleanup; kb_test_exit' EXIT
state() { jq -r .state "$1/manifest.json"; }
# resume N: kbench run --resume, its output in rN.out, rN.err, status in $rc
resume() {
	"$KBENCH" run --resume "$run" > "r$1.out" 2> "r$1.err"
	rc=$?
}
# incomplete N MESSAGE WHAT: step N failed as it should, saying MESSAGE
incomplete() {
	check "$3: exit 1 (rc $rc)" test $rc -eq 1
	check "$3: the error names the file and ENOSPC" grep -q "$2" "r$1.err"
	check "$3: state incomplete, and how to resume is said" sh -c \
		"[ \"\$(jq -r .state '$run/manifest.json')\" = incomplete ] &&
		 grep -q 'the run is incomplete: .*kbench run --resume $run' 'r$1.err'"
	grep -v '^kbench: info' "r$1.err" | tail -n 4 | sed 's/^/# /'
}

# 1. the copy of vmlinux: 1 MiB holds none
"$KBENCH" run v.conf > r1.out 2> r1.err
rc=$?
run=$(ls -d "$d"/mnt/results/2* | head -n 1)
incomplete 1 "cannot write '$run/variants/O2/vmlinux': No space left on device" "vmlinux copy on a full disk"
check "vmlinux copy: both variants recorded as copy-failed" \
	test "$(jq -r '[.variants[].status] | join(",")' "$run/manifest.json")" = copy-failed,copy-failed

# 2. the initramfs: room for the kernels' copies (vmlinux, System.map,
# config of each, from the cache) and 512 KiB more, less than the runner
copies=0
for k in $(sed -n "s/.*: cached in .* s (\([^)]*\)).*/\1/p" r1.err); do
	copies=$((copies + $(cat "$k/vmlinux" "$k/System.map" "$k/config" | wc -c) / 1024 + 12))
done
used=$(df -k "$d/mnt" | awk 'NR == 2 { print $3 }')
mount -o remount,size=$((used + copies + 512))k "$d/mnt"
resume 2
incomplete 2 "'$run/initramfs.cpio': cannot write 'init': No space left on device" "initramfs on a full disk"
check "initramfs: the kernels' copies were kept this time" \
	test "$(jq -r '[.variants[].status] | join(",")' "$run/manifest.json")" = built,built

# 3. the report's files: room for everything but variants/Os (a tmpfs of
# its own, filled up): the boots run, bloat-vs-O2.txt cannot be written
mount -o remount,size=64m "$d/mnt"
mkdir os
cp -a "$run/variants/Os/." os/
mount -t tmpfs -o size=$(($(du -sk os | cut -f1) + 64))k kbench-t0142-os "$run/variants/Os"
cp -a os/. "$run/variants/Os/"
dd if=/dev/zero of="$run/variants/Os/filler" bs=4k 2> /dev/null
resume 3
incomplete 3 "cannot write '$run/variants/Os/bloat-vs-O2.txt': No space left on device" \
	"report files on a full disk"
check "report files: the boots ran and their samples are kept" \
	test "$(wc -l < "$run/boots.jsonl")" -eq 2

# with room again, the same run resumes into its report and is complete
rm -f "$run/variants/Os/filler"
mount -o remount,size=16m "$run/variants/Os"
resume 4
check "with room again: --resume writes the report, exit 0 (rc $rc)" test $rc -eq 0
check "with room again: state complete, no boot run twice" sh -c \
	"[ \"\$(jq -r .state '$run/manifest.json')\" = complete ] && [ \$(wc -l < '$run/boots.jsonl') -eq 2 ] &&
	 [ -s '$run/variants/Os/bloat-vs-O2.txt' ] && [ -s '$run/report.md' ]"
resume 5
check "a complete run: nothing to resume" grep -q "the run is complete; nothing to resume" r5.err
cleanup
test_done
