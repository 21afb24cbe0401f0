#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Linux 6.12, the default source (issue 32): Debian's linux-source-6.12
# built as variants.conf builds it, i386 tinyconfig with kbench's guest
# fragment and configs/slub.config, boots under QEMU and runs the
# allocation-heavy workloads; the kernel is SLUB (CONFIG_SLUB=y, SLUB_TINY
# not set: not tinyconfig's own SLUB_TINY), and the manifest, summary.json
# and the report say so.  One variant (Os) and one layout: the kernel is
# the one t0100 and the rest of the suite build (lib.sh's kernel_section is
# this [kernel] section), so a cold cache builds it once.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
src612=/usr/src/linux-source-6.12.tar.xz
[ -f "$src612" ] || skip_all "needs:linux-source-6.12" "Linux 6.12"
needs_cmd jq "Linux 6.12"
top=$TEST_SRCDIR/..

# the default's [kernel] section, the cache the tests share
awk '/^\[/ { on = $0 == "[kernel]" } on && /^(source|arch|base|fragment) *=/' "$top/variants.conf" > "$d/kernel.keys"
check "variants.conf: the default is $src612 with configs/slub.config" sh -c \
	"grep -qx 'source = $src612' '$d/kernel.keys' && grep -qx 'fragment = configs/slub.config' '$d/kernel.keys'"
{
	printf '[kernel]\nsource = %s\narch = i386\nbase = tinyconfig\nfragment = %s\ncache = %s\n' \
		"$src612" "$top/configs/slub.config" "$kernel_cache"
	printf '[run]\nbackend = sim\naccel = tcg\nboots = 1\nsamples = 1\nscale = 0.05\nboot_runs = 0\n'
	printf 'workloads = getppid,fork,mmap\nsim_virtual_layouts = 0\ntimeout = 300\noutput = %s/results\n' "$d"
	printf '[variant Os]\nconfig = CC_OPTIMIZE_FOR_SIZE=y\n'
} > "$d/v.conf"
diag "cache: $kernel_cache (a cold cache builds one 6.12 kernel: several minutes)"
run_in "$d" "$KBENCH" run --no-color "$d/v.conf"
check "kbench run on Linux 6.12 exits 0 (got $rc)" test $rc -eq 0
[ $rc -eq 0 ] || { sed 's/^/# /' "$d/run.err" | tail -n 30; test_done; }
m=$run/manifest.json
key=$(jq -r '.variants[0].key' "$m")
cfg=$kernel_cache/kernels/$key/config
diag "kernel $(jq -r .kernel.version "$m"), $cfg"
check "the kernel is 6.12 (make kernelversion), i386" sh -c \
	"jq -e '(.kernel.version | startswith(\"6.12.\")) and .kernel.arch == \"i386\"' '$m' > /dev/null &&
	 grep -q '^# Linux/i386 6.12' '$cfg'"
check "its .config: SLUB, SLUB_TINY not set (configs/slub.config over tinyconfig's SLUB_TINY)" sh -c \
	"grep -qx 'CONFIG_SLUB=y' '$cfg' && grep -qx '# CONFIG_SLUB_TINY is not set' '$cfg' && ! grep -q '^CONFIG_SLOB=' '$cfg'"
check "every workload ran in the booted kernel (getppid, fork, mmap: samples, the boot ok)" sh -c \
	"jq -se 'length == 1 and .[0].status == \"ok\"' '$run/boots.jsonl' > /dev/null &&
	 [ \$(jq -s '[.[] | select(.ns_per_op > 0 and .iterations > 0) | .workload] | unique | length' '$run/samples.jsonl') -eq 3 ]"
check "the manifest, summary.json and report.md name the allocator: SLUB" sh -c \
	"jq -e '.variants[0].allocator == \"SLUB\"' '$m' > /dev/null &&
	 jq -e '.kernel.allocator == \"SLUB\"' '$run/summary.json' > /dev/null &&
	 grep -q '^Kernel 6\.12\.[0-9]* (i386, slab allocator SLUB: the only one from Linux 6\.8 on, and what the labs run), 1 variants' '$run/report.md'"
# fork allocates (task_struct, mm, vmas): the plugin's functions of its
# region are SLUB's (kmem_cache_alloc*), none SLOB's (slob_*)
slub=$(jq -s '[.[] | select(.case == "fork") | .functions[][0]] as $f |
	($f | map(select(startswith("kmem_cache_alloc"))) | length > 0) and
	($f | map(select(startswith("slob_"))) | length == 0)' "$run/sim.jsonl")
check "fork's kernel functions (sim.jsonl): SLUB's kmem_cache_alloc*, no slob_*" test "$slub" = true
test_done
