/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plugin's output format, shared by the plugin (which writes it) and
 * src/backend/sim.c (which parses it) so the two cannot drift.  One record per line,
 * space-separated key=value fields after the record kind; numbers in decimal
 * except marker IDs and addresses (0x...); a function's name is always the
 * last field.
 *
 *   kbsim 1 api=1 target=i386 system=1 mode=full l1i=32768:8:64 l2=... page_offset=0x... symbols=N
 *   region seq=1 id=0x4b420001 insn_k=... (every counter below) host_ns=...
 *   func seq=1 insn=... l1i_miss=... name=NAME        (functions that ran in region 1)
 *   error seq=2 kind=nested id=0x4b420101 open=0x4b420001
 *   total insn_k=... (every counter, whole run)
 *   func seq=0 ...                                     (whole run)
 *   vl seq=1 layout=0 l1i_miss_k=... (every KB_SIM_VL_COUNTER)   (virtual layouts, below)
 *   end errors=N blocks=N descriptor_bytes=N          (blocks described, memory)
 *
 * Virtual layouts (plugin arguments vl=K, vl_file=FILE): the header gains
 * "vl=N vl_seeded=K vl_seed=S vl_funcs=M vl_place=pad|shuffle vl_pads=P",
 * and every region line, and the
 * total line, is followed by N "vl" lines, one per layout in order (seq=0
 * for the whole run), and the end line gains "vl_unmoved=N": instructions
 * translated (each time a block is) between the first and the last function
 * of the map but in none, which the seeded layouts leave in place where
 * moved code may land (0 on a kernel: its text is all functions; the BIOS,
 * high above, stays apart).  Without layouts the output is what it was.
 *
 * A file without its "end" line was cut short (QEMU killed).
 *
 * blocks=FILE (a second file): the units of code the counts are made of, a
 * unit being a run of instructions counted together (a translation block
 * less a possible tail, a piece of a block between markers, or a tail: one
 * instruction), and how often each ran per region:
 *
 *   kbblocks 1 page_offset=0x...          (0 in user mode)
 *   b ID VA INSN_K INSN_U HEXBYTES        (a unit, the first time it runs in a region)
 *   x SEQ ID N                            (unit ID ran N times in region SEQ)
 *   r SEQ 0x4b42nn01                      (region SEQ ends: its x lines are above)
 *   end units=N
 *
 * In every region, the sum over its x lines of N x (INSN_K, INSN_U) is the
 * region's (insn_k, insn_u), exactly.  Units of equal bytes may have two
 * IDs (QEMU translated the code twice).
 *
 * calls=FILE (a third file): the calls made in each region, each call
 * site with each code it was followed by:
 *
 *   kbcalls 1 target=i386 page_offset=0x...
 *   c SEQ CALL_VA ENTRY_VA N      (the call at CALL_VA entered ENTRY_VA N times in region SEQ)
 *   r SEQ 0x4b42nn01              (region SEQ ends: its c lines are above)
 *   end calls=N cut=M edges=E
 *
 * A call ends a translation block: the next block to run is the callee's
 * entry, exactly, unless an interrupt or exception came first.  A direct
 * call (e8 rel32) names its target: where something else ran next the
 * call is not counted but tallied in cut.  An indirect call's ENTRY_VA is
 * whatever ran next.
 */
#ifndef KB_SIMFMT_H
#define KB_SIMFMT_H

#define KB_SIM_FORMAT	1
#define KB_SIM_MAGIC	"kbsim"
#define KB_BLOCKS_MAGIC	"kbblocks"
#define KB_CALLS_MAGIC	"kbcalls"

/* KB_SIM_COUNTER(name, help): the per-region counters, in output order. */
#define KB_SIM_COUNTERS \
	KB_SIM_COUNTER(insn_k, "guest instructions executed in the kernel (address >= page_offset)") \
	KB_SIM_COUNTER(insn_u, "guest instructions executed in user space") \
	KB_SIM_COUNTER(l1i_access, "L1i accesses: instruction fetches, as cachegrind counts them (= insn_k + insn_u)") \
	KB_SIM_COUNTER(l1i_miss_k, "L1i misses of kernel instructions (a fetch that missed in any line it spans)") \
	KB_SIM_COUNTER(l1i_miss_u, "L1i misses of user instructions") \
	KB_SIM_COUNTER(l1i_fill, "lines brought into L1i, each one L2 access") \
	KB_SIM_COUNTER(l2_miss, "L2 misses of those fills (instruction side only: data is not modelled)") \
	KB_SIM_COUNTER(kfoot_lines, "dynamic kernel footprint: distinct kernel L1i lines executed in the region") \
	KB_SIM_COUNTER(kfoot_bytes, "distinct bytes of kernel text executed in the region")

/* KB_SIM_VL_COUNTER(name, help): per virtual layout, in output order. */
#define KB_SIM_VL_COUNTERS \
	KB_SIM_VL_COUNTER(l1i_miss_k, "L1i misses of kernel instructions, fetched at their addresses in this layout") \
	KB_SIM_VL_COUNTER(l1i_miss_u, "L1i misses of user instructions (user code is not moved: they change through the kernel's lines)") \
	KB_SIM_VL_COUNTER(l1i_fill, "lines brought into this layout's L1i") \
	KB_SIM_VL_COUNTER(l2_miss_k, "L2 misses of the fills of kernel lines") \
	KB_SIM_VL_COUNTER(l2_miss_u, "L2 misses of the fills of user lines")

enum kb_sim_vl_counter {
#define KB_SIM_VL_COUNTER(name, help) KB_SIM_VL_##name,
	KB_SIM_VL_COUNTERS
#undef KB_SIM_VL_COUNTER
	KB_SIM_VL_NCOUNTERS
};

/* x86_64 guests: kernel addresses are the upper canonical half; the kernel
 * image (its code) is mapped in the top 2 GiB (__START_KERNEL_map). */
#define KB_SIM_PAGE_OFFSET_X86_64	0xffff800000000000ull
#define KB_SIM_KERNEL_MAP_X86_64	0xffffffff80000000ull
#define KB_SIM_VL_MAX	64	/* virtual layouts in one run, at most */
#define KB_SIM_VL_ALIGN	16	/* a moved function keeps its alignment, this at most */

enum kb_sim_counter {
#define KB_SIM_COUNTER(name, help) KB_SIM_##name,
	KB_SIM_COUNTERS
#undef KB_SIM_COUNTER
	KB_SIM_NCOUNTERS
};

/* Marker error kinds the plugin reports. */
#define KB_SIM_ERR_NESTED	"nested"	/* a begin while a region is open */
#define KB_SIM_ERR_UNBALANCED	"unbalanced"	/* an end with no region open */
#define KB_SIM_ERR_MISMATCHED	"mismatched"	/* an end for another region */
#define KB_SIM_ERR_UNCLOSED	"unclosed"	/* a region still open at exit */
#define KB_SIM_ERR_VCPUS	"vcpus"		/* more than one vCPU ran */

#endif
