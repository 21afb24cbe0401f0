/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_BLOCKS_H
#define KB_BLOCKS_H

/*
 * A blocks file of the sim plugin (plugin/simfmt.h) read unit by unit: each
 * unit's executions per region, its cost from LLVM's machine model (mca.h:
 * cycles per execution, modeled) and the kernel function that holds its
 * first instruction.  The function is found as the plugin finds the
 * function of an instruction for sim.jsonl: the last text symbol (T t W w)
 * of System.map at or below the address, a function's best name where
 * several share its address (T, then t W w, then section labels such as
 * _stext, each in file order), "[kernel]" for kernel code below the first
 * symbol, more than 64 KiB past the last, or under a symbol on the other
 * side of page_offset; "[user]" for user code.  A unit that runs on past
 * its function's end counts whole in the function it starts in.
 */

#include <stddef.h>
#include <stdint.h>

struct kb_mca;

/* System.map's text symbols, sorted. */
struct kb_symmap;
/* NULL after a message. */
struct kb_symmap *kb_symmap_load(const char *path);
void kb_symmap_free(struct kb_symmap *s);
/* The function of address va (owned by s, or a static "[kernel]"/"[user]"). */
const char *kb_symmap_function(const struct kb_symmap *s, uint64_t va, uint64_t page_offset);
/* Its addresses in order, each by its best name: how many, and the i-th's
 * name (owned by s), address and extent (to the next address; the last
 * gets what the plugin gives it, 64 KiB). */
size_t kb_symmap_count(const struct kb_symmap *s);
const char *kb_symmap_at(const struct kb_symmap *s, size_t i, uint64_t *addr, uint64_t *size);
/* Whether the i-th is a section or range label (_etext, __bss_start...)
 * that no function shares its address with. */
int kb_symmap_is_label(const struct kb_symmap *s, size_t i);
/* 1 if symbol i is one of the linker's section or range markers (_stext,
 * _etext, __begin_*, __end_*...), not code of its own: a function named
 * mas_start is a label to kb_symmap_is_label, not a marker. */
int kb_symmap_is_marker(const struct kb_symmap *m, size_t i);

/* One unit of a blocks file. */
struct kb_blocks_unit {
	uint32_t id;
	uint64_t va;
	unsigned insn_k, insn_u;
	const char *hex;
	uint64_t execs;		/* in every region of the file */
	double cycles;		/* per execution, modeled (mca given), else NAN */
	int unpriced;		/* llvm could not read it: one cycle an instruction */
	int rare;		/* ran too rarely to price (mca.h): one cycle an instruction */
	const char *function;	/* map given, else NULL */
};

/* Read path.  For each "x" line of a region whose "r" line ends it and that
 * want(ctx, seq) keeps (want NULL: every region): fn(ctx, seq, unit, n),
 * the unit having run n times in region seq; then end(ctx, seq) once for
 * each such region, in file order (end may be NULL).  The units fn gets are
 * priced with mca (NULL: not priced) and mapped with map (NULL: no
 * function), each once.  *page_offset (may be NULL) gets the header's.
 * 0, or -1 after a message naming the file and line. */
int kb_blocks_read(const char *path, struct kb_mca *mca, const struct kb_symmap *map,
		   int (*want)(void *ctx, uint64_t seq),
		   void (*fn)(void *ctx, uint64_t seq, const struct kb_blocks_unit *u, uint64_t n),
		   void (*end)(void *ctx, uint64_t seq), void *ctx, uint64_t *page_offset);

#endif
