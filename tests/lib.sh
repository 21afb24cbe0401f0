# SPDX-License-Identifier: GPL-2.0-or-later
# TAP helpers for kbench's shell tests: call kbench the way a user does.
# Each test sources this file, calls plan N, then ok/not_ok/skip per check.
set -u
: "${KBENCH:?KBENCH must name the kbench binary (run through make check)}"
: "${TEST_SRCDIR:=$(cd "$(dirname "$0")" && pwd)}"
: "${TEST_BUILDDIR:=$PWD/tests}"
kb_test_n=0
kb_test_failed=0

plan() { echo "1..$1"; }
ok() { kb_test_n=$((kb_test_n + 1)); echo "ok $kb_test_n - $*"; }
not_ok() { kb_test_n=$((kb_test_n + 1)); kb_test_failed=1; echo "not ok $kb_test_n - $*"; }
# skip REASON NAME: a skip is counted and says why (# SKIP needs:kvm)
skip() { kb_test_n=$((kb_test_n + 1)); echo "ok $kb_test_n - $2 # SKIP $1"; }
# skip_all N REASON NAME: skip every one of the test's N checks, then exit
skip_all() {
	for i in $(seq "$1"); do skip "$2" "$3 $i"; done
	exit 0
}
# check NAME COMMAND...: ok when COMMAND succeeds
check() {
	local name=$1; shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}
diag() { printf '# %s\n' "$@"; }
# A fresh scratch directory for this test under the build tree.
scratch() {
	local d="$TEST_BUILDDIR/out/$(basename "$0" .sh)"
	rm -rf "$d" && mkdir -p "$d" && echo "$d"
}
# jq_true FILE FILTER: FILTER holds on the JSON in FILE (quietly)
jq_true() { jq -e "$2" "$1" >/dev/null 2>&1; }
# jq_all FILE FILTER: same, on a JSON-lines file slurped into an array
jq_all() { jq -se "$2" "$1" >/dev/null 2>&1; }
# run_in DIR [VAR=VALUE...] COMMAND...: COMMAND (a kbench run) in DIR with
# those variables, output in DIR/run.out and DIR/run.err; sets rc, and run:
# the run directory it printed, else DIR/no-run
run_in() {
	local dir=$1
	shift
	(cd "$dir" && env "$@" > run.out 2> run.err)
	rc=$?
	run=$(sed -n 's,/report.md$,,p' "$dir/run.out" | tail -n 1)
	run=${run:-$dir/no-run}
}
# find_python IMPORTS: in PY, the first of $KBENCH_PYTHON, python3 and
# /usr/bin/python3 that can "import IMPORTS" (pyenv's python3 may lack
# Debian's scipy); PY empty and status 1 when none can
find_python() {
	PY=
	for p in "${KBENCH_PYTHON:-}" python3 /usr/bin/python3; do
		[ -n "$p" ] && "$p" -c "import $1" 2>/dev/null && { PY=$p; return 0; }
	done
	return 1
}

# Tests on real kernels: Debian's kernel source and the build cache kbench
# uses by default (so CI reuses kernels built by earlier runs).
kernel_src=/usr/src/linux-source-6.1.tar.xz
kernel_cache=${KBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kbench}
# needs_kernel_source N NAME: without the source, skip all N checks and exit
needs_kernel_source() {
	[ -f "$kernel_src" ] || skip_all "$1" "needs:linux-source-6.1" "$2"
}
# kernel_section: the [kernel] section of such a test's variants.conf
kernel_section() {
	printf '[kernel]\nsource = %s\ncache = %s\n' "$kernel_src" "$kernel_cache"
}
