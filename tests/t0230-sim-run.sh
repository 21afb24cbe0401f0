#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kbench run with the sim backend on a real kernel (O2, from the build cache;
# the first run builds it): backend auto picks sim under TCG; two boots of the
# same kernel give identical counts; each sample carries them, labelled
# simulated or modeled; per-function attribution (System.map) sums to the
# region's totals, and so do the blocks' counts; the dynamic footprint is
# there.
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
d=$(scratch)
needs_kernel_source "sim backend run"
write_tcg_conf "$d/variants.conf" backend=auto boots=2 samples=2 workloads=getppid,pipe timeout=240 \
	output="$d/results" -- O2

run_in "$d" "$KBENCH" run "$d/variants.conf"
check "kbench run exits 0 (got $rc)" test $rc -eq 0
[ $rc -eq 0 ] || sed 's/^/# /' "$d/run.err" | tail -n 30
j() { jq -r "$1" "$run/manifest.json" 2>/dev/null; }
diag "backend: $(j '.backend + ": " + .backend_why')"

check "backend auto under TCG chose sim, with the plugin and geometry recorded" test \
	"$(j '.backend == "sim" and (.sim.plugin | length > 0) and .sim.l1i.size > 0')" = true
check "cycles are stated as a model" sh -c \
	"jq -e '.sim.cycle_model.formula | test(\"a model, not a measurement\")' '$run/manifest.json' >/dev/null"
check "8 samples, each from the sim backend with its counts" test \
	"$(jq -s '[.[] | select(.backend == "sim" and .fields.ins_k > 0 and .fields.ins_u > 0 and
		(.fields | has("l1i_k") and has("l2_miss") and has("model_cycles")))] | length' "$run/samples.jsonl")" = 8

# Determinism: both boots of the kernel give the same counts, sample by sample.
check "two boots, identical counts in every sample" test \
	"$(jq -s 'group_by([.workload, .rep]) | map(map(.fields) | unique | length) | (length == 4 and all(. == 1))' "$run/samples.jsonl")" = true
check "two boots, identical footprint and attribution" test \
	"$(jq -s 'group_by([.workload, .rep]) | map(map(del(.boot, .vboot)) | unique | length) | (length == 4 and all(. == 1))' "$run/sim.jsonl")" = true
jq -r 'select(.boot == 1) | "\(.workload) rep \(.rep): \(.insn_k) kernel + \(.insn_u) user instructions, \(.l1i_miss_k) kernel L1i misses, \(.kfoot_lines) kernel lines"' "$run/sim.jsonl" |
	sed 's/^/# /'

check "per-function instructions and misses sum to the region's" test \
	"$(jq -s 'all(.[]; ([.functions[][1]] | add) == .insn_k + .insn_u and ([.functions[][2]] | add) == .l1i_miss_k + .l1i_miss_u)' "$run/sim.jsonl")" = true
check "getppid's kernel time is in functions named from System.map" test \
	"$(jq -s '[.[] | select(.workload == "getppid") | .functions[][0]] | any(test("sys_getppid")) and any(test("entry_SYSENTER_32|entry_INT80_32"))' "$run/sim.jsonl")" = true
check "a dynamic kernel footprint: lines and bytes" test \
	"$(jq -s 'all(.[]; .kfoot_lines > 0 and .kfoot_bytes > .kfoot_lines and .kfoot_bytes <= 64 * .kfoot_lines)' "$run/sim.jsonl")" = true
# Block counts (issue 24): beside each boot's .sim, its .blocks; in every
# region of every boot, executions x instructions summed over the units are
# the region's insn_k and insn_u, exactly.
all=1 nreg=0
for sim in "$run"/boots/*.sim; do
	b=${sim%.sim}.blocks
	blocks_sums "$sim" "$b" "$d/sums" 2>/dev/null
	[ -s "$d/sums.sim" ] && cmp -s "$d/sums.sim" "$d/sums.blocks" || { all=0; diff "$d/sums.sim" "$d/sums.blocks" | head -n 5 | sed 's/^/# /'; }
	nreg=$((nreg + $(wc -l < "$d/sums.sim")))
done
check "every region's instructions (kernel, user) are the sum of its blocks' executions x instructions ($nreg regions)" \
	test $all = 1 -a $nreg -gt 0
diag "units in the blocks files: $(cat "$run"/boots/*.blocks | grep -c '^b ')"
check "no marker or plugin problems in any boot" test \
	"$(jq -s 'length == 2 and all(.status == "ok" and .sim_problems == 0)' "$run/boots.jsonl")" = true
test_done
