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

# Tests on real kernels: Debian's kernel source and the build cache kbench
# uses by default (so CI reuses kernels built by earlier runs).
kernel_src=/usr/src/linux-source-6.1.tar.xz
kernel_cache=${KBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kbench}
# needs_kernel_source N NAME: without the source, skip all N checks and exit
needs_kernel_source() {
	[ -f "$kernel_src" ] && return 0
	for i in $(seq "$1"); do skip "needs:linux-source-6.1" "$2 $i"; done
	exit 0
}
# kernel_section: the [kernel] section of such a test's variants.conf
kernel_section() {
	printf '[kernel]\nsource = %s\ncache = %s\n' "$kernel_src" "$kernel_cache"
}
