#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Variants built at the same time ([kernel] builds_at_once), every make a
# client of one jobserver kbench holds, through ccache.  O2 and Os with a
# layout replica each, drawn from a seed no run used before (new kernels
# that cost their padding objects and the link): both variants' builds
# start before either ends, no make takes a -j of its own, each replica is
# recorded as built now (not cached) with its own ccache counts, and its
# text is layout 0's plus its padding (binutils size; the kernel aligns a
# few entry stubs, so within 64 bytes).  On the cached O2 and Os kernels
# (t0100 builds them); the test's replicas are removed from the cache.  A
# variant whose build fails beside them is said to fail.
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
d=$(scratch)
needs_kernel_source "builds at once"
needs_cmd ccache "builds at once"

# layout 0 of each first: cached, or waited for while t0100 builds it
write_tcg_conf "$d/ref.conf" -- O2 Os
build_first "$d/ref.conf"
seed=$(( $(date +%s) * 1000 + $$ % 1000 ))
write_tcg_conf "$d/at-once.conf" backend=sim workloads=getppid layouts=2 seed=$seed \
	output="$d/results"
printf 'builds_at_once = 2\njobs = 2\n' > "$d/kernel-keys"
sed -i "/^\[kernel\]/r $d/kernel-keys" "$d/at-once.conf"
run=
cleanup() {	# the replicas this test built
	[ -n "$run" ] && [ -f "$run/manifest.json" ] || return 0
	for k in $(jq -r '.variants[].replicas[] | select(.layout > 0) | .key // empty' "$run/manifest.json"); do
		rm -rf "${kernel_cache:?}/kernels/$k"
	done
}

t0=$(date +%s)
run_in "$d" "$KBENCH" run "$d/at-once.conf"
diag "O2 and Os replicas built at once: $(($(date +%s) - t0)) s"
grep -E 'builds:|build of|variant .* (built|cached) in' "$d/run.err" | sed 's/^/# /'
check "a run with builds at once: exit 0 (rc $rc)" test $rc -eq 0
check "says it builds two at once with one jobserver; both start before either ends" sh -c \
	"grep -q 'builds: up to 2 variants at once, sharing one make jobserver of -j2' '$d/run.err' &&
	 awk '/build of .(O2|Os). layout 1: configuring/ { s++ } /build of .(O2|Os). layout 1: (done in|failed)/ { if (s < 2) bad = 1; e++ }
	      END { exit !(s == 2 && e == 2 && !bad) }' '$d/run.err'"
# issue #34: each replica built says its steps in order, once each, and one
# duration, the build pass's own; nothing of it after its done line
for v in O2 Os; do
	check "build progress of '$v' layout 1: configuring, compiling N objects, linking, done in one duration" \
		awk -v v="$v" '
		index($0, "kbench: build of \047" v "\047 layout 1: ") == 1 {
			rest = substr($0, length("kbench: build of \047" v "\047 layout 1: ") + 1)
			if (rest ~ /^configuring$/) { if (n != 0) bad = 1; n = 1; next }
			if (rest ~ /^compiling/) { if (n != 1 && n != 2) bad = 1; n = 2; next }
			if (rest ~ /^linking(, [0-9]+ objects?)?(, [0-9]+ s)?$/) { if (n != 2 && n != 3) bad = 1; n = 3; next }
			if (rest ~ /^done in [0-9]+\.[0-9] s$/) { if (n != 3) bad = 1; n = 4; split(rest, a, " "); d = a[3]; next }
			bad = 1
		}
		index($0, "kbench: variant \047" v "\047 layout 1: built in ") == 1 {
			built = $0; sub(/.* built in /, "", built); sub(/ s .*/, "", built)
			if (n != 4 || built != d) bad = 1; ok = 1
		}
		/done after|build of variant .* started|: configuring$/ && n == 4 && index($0, v) { bad = 1 }
		END { exit !(ok && !bad) }' "$d/run.err"
done
check "each replica's make took its share of the jobserver (no -j of its own)" sh -c \
	"for v in O2 Os; do l='$run'/variants/\$v/layout-1/build.log;
		grep '^\\$ .* bzImage\$' \"\$l\" | tail -n 1 | grep -q 'KBENCH_PAD_1=.* bzImage\$' &&
		! grep '^\\$ .* bzImage\$' \"\$l\" | tail -n 1 | grep -q -- ' -j' || exit 1; done"
check "the manifest: each replica built now (not cached) with its own ccache counts" \
	jq_true "$run/manifest.json" \
	'[.variants[].replicas[] | select(.layout == 1 and .cached == false and .ccache.hits + .ccache.misses > 0)] | length == 2'
check "each replica's text is layout 0's plus its padding (within 64 bytes)" sh -c \
	"for v in O2 Os; do
		t0=\$(size '$run'/variants/\$v/vmlinux | awk 'NR == 2 { print \$1 }');
		t1=\$(size '$run'/variants/\$v/layout-1/vmlinux | awk 'NR == 2 { print \$1 }');
		p=\$(jq --arg v \$v '.variants[] | select(.name == \$v) | .replicas[1].pad | add' '$run/manifest.json');
		[ -n \"\$t0\" ] && [ -n \"\$t1\" ] && [ \$((t0 + p - t1)) -gt -64 ] && [ \$((t0 + p - t1)) -lt 64 ] || exit 1;
	 done"
check "every boot ended ok" jq_all "$run/boots.jsonl" 'length == 4 and all(.status == "ok")'
check "no prebuild log or result is left" sh -c "! find '$run/variants' -name 'prebuild.*' | grep -q ."
cleanup

# a variant whose build fails, beside one from the cache (issue 22, item
# 7): before, its child ended well having built nothing, and kbench said
# "done ...: found in the cache"
write_tcg_conf "$d/bad.conf" backend=sim workloads=getppid output="$d/bad" -- O2 \
	bad:kcflags=-fkbench-no-such-flag
sed -i "/^\[kernel\]/r $d/kernel-keys" "$d/bad.conf"
run_in "$d" "$KBENCH" run "$d/bad.conf"
grep -E 'build of' "$d/run.err" | sed 's/^/# /'
check "a build that fails is said to fail, never found in the cache (rc $rc)" sh -c \
	"[ $rc -ne 0 ] && grep -q \"build of variant 'bad' failed (the build pass says why)\" '$d/run.err' &&
	 ! grep -q \"build of 'bad'.*: done in\" '$d/run.err'"
test_done
