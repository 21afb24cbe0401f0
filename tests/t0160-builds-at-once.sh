#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Variants built at the same time ([kernel] builds_at_once), every make a
# client of one jobserver, through ccache.  Two variants that are O2 and Os
# with their own LOCALVERSION (new kernels, whose objects differ from the
# cached O2 and Os ones only in the version string: ccache answers them in
# its preprocessor mode) are built at once in the default cache; both start
# before either ends, no make takes a -j of its own, ccache answers most
# compilations, each kernel has the text size of the cached O2 or Os kernel
# (binutils size), and a run reports each as built now with its ccache
# counts.  The test's kernels and object directories are removed at the end.
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
d=$(scratch)
needs_kernel_source "builds at once"
needs_cmd ccache "builds at once"

# the cached O2 and Os kernels first (t0100 builds them): the reference
write_tcg_conf "$d/ref.conf" -- O2 Os
build_first "$d/ref.conf"
"$KBENCH" build "$d/ref.conf" > "$d/ref.out" 2> "$d/ref.err"
text_of() {	# text_of KBENCH_BUILD_OUTPUT VARIANT: the text column of its table
	awk -v v="$2" '$1 == v { print $3 }' "$1"
}

# this test's own kernels: gone before (an earlier run's) and after
lv="-kbtest-at-once"
cleanup() {
	for c in "$kernel_cache"/kernels/*/config "$kernel_cache"/obj/*/.config; do
		[ -f "$c" ] && grep -q "^CONFIG_LOCALVERSION=\"$lv\"" "$c" && rm -rf "${c%/*}"
	done
}
cleanup
write_tcg_conf "$d/at-once.conf" backend=sim workloads=getppid output="$d/results" --
printf '\n[variant O2lv]\nconfig = CC_OPTIMIZE_FOR_PERFORMANCE=y LOCALVERSION="%s"\n' "$lv" >> "$d/at-once.conf"
printf '\n[variant Oslv]\nconfig = CC_OPTIMIZE_FOR_SIZE=y LOCALVERSION="%s"\n' "$lv" >> "$d/at-once.conf"
printf 'builds_at_once = 2\njobs = 2\n' > "$d/kernel-keys"
sed -i "/^\[kernel\]/r $d/kernel-keys" "$d/at-once.conf"

t0=$(date +%s)
run_in "$d" "$KBENCH" run "$d/at-once.conf"
diag "two builds at once (ccache, LOCALVERSION only differs): $(($(date +%s) - t0)) s"
grep -E 'builds:|build of|variant .* (built|cached)' "$d/run.err" | sed 's/^/# /'
check "a run with builds at once: exit 0 (rc $rc)" test $rc -eq 0
check "says it builds two at once with one jobserver; both start before either ends" sh -c \
	"grep -q 'builds: up to 2 variants at once, sharing one make jobserver of -j2' '$d/run.err' &&
	 awk '/build of variant .* started/ { s++ } /build of variant .* (done|failed|found)/ { if (s < 2) bad = 1; e++ }
	      END { exit !(s == 2 && e == 2 && !bad) }' '$d/run.err'"
check "each make took its share of the jobserver (no -j of its own)" sh -c \
	"for v in O2lv Oslv; do l='$run'/variants/\$v/build.log;
		grep -q 'bzImage\$' \"\$l\" && ! grep -q -- ' -j[0-9]* bzImage\$' \"\$l\" || exit 1; done"
check "the manifest: both built now (not cached), each with its own ccache counts" \
	jq_true "$run/manifest.json" \
	'[.variants[] | select(.cached == false and .ccache.hits + .ccache.misses > 100)] | length == 2'
hits=$(jq -r '[.variants[].ccache | .hits, .hits + .misses] | "\(.[0] + .[2]) \(.[1] + .[3])"' "$run/manifest.json")
diag "ccache: $hits (hits, compilations)"
check "ccache answered most compilations (at least 80%)" sh -c \
	"echo '$hits' | awk '{ exit !(\$2 > 100 && \$1 >= 0.8 * \$2) }'"
check "each kernel has the text size of the cached one of its level (binutils size)" sh -c \
	"a=\$(size '$run/variants/O2lv/vmlinux' | awk 'NR == 2 { print \$1 }');
	 b=\$(size '$run/variants/Oslv/vmlinux' | awk 'NR == 2 { print \$1 }');
	 [ -n \"\$a\" ] && [ \"\$a\" = '$(text_of "$d/ref.out" O2)' ] && [ \"\$b\" = '$(text_of "$d/ref.out" Os)' ]"
check "every boot ended ok" jq_all "$run/boots.jsonl" 'length == 2 and all(.status == "ok")'
check "no prebuild log or result is left" sh -c "! find '$run/variants' -name 'prebuild.*' | grep -q ."
cleanup
test_done
