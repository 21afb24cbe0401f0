/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Block costs from LLVM's machine model: each distinct run of instructions
 * the sim plugin counted (its blocks file, plugin/simfmt.h) priced by
 * llvm-mca for a named CPU, in cycles per execution, modeled.  The bytes go
 * through llvm-mc's disassembler and then llvm-mca, thousands of blocks per
 * call; costs are cached by (bytes, CPU, LLVM version) under the build
 * cache (<cache>/mca/llvm-<version>/<cpu>.v2), so a block is priced once
 * per CPU and LLVM, also by boots that run at once (they share the file,
 * one pricing at a time).  rep movs/stos are
 * priced apart, from a vendor's table (mca.c).
 */
#ifndef KB_MCA_H
#define KB_MCA_H

#include <stddef.h>
#include <stdint.h>

struct kb_mca;

/* A block that ran fewer times than this in its boot (every region of its
 * blocks file) is not priced by llvm-mca: what it would get costs one cycle
 * an instruction, as model_cycles prices it (rep movs/stos and instructions
 * LLVM has no figure for as in any block).  llvm-mca's figure is a steady
 * state, the block run back to back; code that runs once or twice is no
 * such thing (its cost is fetching it, which the miss penalties charge).  Most such blocks are
 * QEMU's, cut short where an interrupt fell under -icount (the icache
 * workload's straight-line code ends anywhere): in a boot of the default
 * run, 36% of its distinct blocks, 0.014% of its instructions, and most of
 * llvm-mca's work. */
#define KB_MCA_RARE_EXECS 3

/* One block to price: its bytes as lowercase hex, its instructions, its
 * executions in its boot (0: not known, priced as a block that ran often);
 * cycles and how they were found come back. */
struct kb_mca_block {
	const char *hex;
	unsigned insns;
	uint64_t execs;
	double cycles;		/* per execution, modeled */
	int unpriced;		/* llvm could not read it: one cycle an instruction */
	int rare;		/* ran too rarely for llvm-mca (KB_MCA_RARE_EXECS) */
};

struct kb_mca_stats {
	unsigned long calls;	/* llvm-mca runs (each prices a batch) */
	unsigned long priced;	/* distinct blocks llvm-mca priced */
	unsigned long hits;	/* distinct blocks found in the cache */
	unsigned long unpriced;	/* distinct blocks llvm could not read */
	unsigned long shared;	/* of the priced: llvm-mca ran another with its text but numbers */
	unsigned long unmodeled;	/* of the priced: holding an instruction LLVM has no figure for */
	unsigned long rare;	/* distinct blocks that ran too rarely to price (KB_MCA_RARE_EXECS) */
	double seconds;		/* host time pricing (wall; waits for another boot's pricing not counted) */
	double cpu_seconds;	/* CPU time of llvm-mc and llvm-mca (user + system) */
};

/* The model for cpu (an llvm-mca -mcpu name) with its cache under
 * cache_dir/mca (NULL: kb_default_cache_dir()).  NULL with *why (malloc'd)
 * when llvm-mca or llvm-mc is not there (it names Debian's package) or
 * does not know the CPU. */
struct kb_mca *kb_mca_new(const char *cpu, const char *cache_dir, char **why);
void kb_mca_free(struct kb_mca *m);
/* The llvm-mca kb_mca_new runs: the first of llvm-mca, llvm-mca-16,
 * llvm-mca-15 and llvm-mca-14 in PATH (malloc'd; NULL: none, Debian's
 * package 'llvm' has it), and with version (may be NULL) its LLVM version
 * ("14.0.6", malloc'd; NULL where its --version names none). */
char *kb_mca_locate(char **version);
/* The guest's architecture, "i386" (kb_mca_new's) or "x86_64": the triple
 * llvm-mc and llvm-mca decode with (x86_64-linux-gnu), and a cache of its
 * own.  0, or -1 after a message. */
int kb_mca_set_arch(struct kb_mca *m, const char *arch);
/* Its target triple, as llvm-mc and llvm-mca take it (i386-linux-gnu...). */
const char *kb_mca_triple(const struct kb_mca *m);
/* Price n blocks (repeats allowed): from the cache, else by llvm-mca, the
 * new costs then added to the cache; a rare one (execs) as KB_MCA_RARE_EXECS
 * says, whatever llvm-mca's figure for its bytes.  0, or -1 after a
 * message. */
int kb_mca_price(struct kb_mca *m, struct kb_mca_block *b, size_t n);
const struct kb_mca_stats *kb_mca_stats(const struct kb_mca *m);
/* "LLVM 14.0.6 llvm-mca, -mcpu=skylake": the model, named; owned by m. */
const char *kb_mca_model(const struct kb_mca *m);
/* Its CPU, as given to kb_mca_new. */
const char *kb_mca_cpu(const struct kb_mca *m);
/* NULL where llvm-mca -mtriple=i386-linux-gnu -mcpu=help lists cpu, or
 * where there is no llvm-mca to ask; else what is wrong (static text). */
const char *kb_mca_check_cpu(const char *cpu);

/* The blocks file of one run of the plugin, priced: modeled cycles per
 * region (block costs times executions, misses not included). */
struct kb_mca_region {
	uint64_t seq;
	uint32_t id;
	double cycles;
	uint64_t insns;		/* executions x instructions, as a check */
};
/* Read path (plugin/simfmt.h's blocks format) and price it (its rare
 * blocks counted over the whole file).  *r (malloc'd) gets its regions in
 * order; 0, or -1 after a message. */
int kb_mca_blocks_file(struct kb_mca *m, const char *path, struct kb_mca_region **r, size_t *n);

/* A blocks file, read by complete lines (a region's counts are there once
 * its "r" line is, which the plugin writes and flushes when the region's
 * end marker runs); the sim backend reads a boot's once QEMU has exited. */
struct kb_blocks;
struct kb_blocks *kb_blocks_new(void);
void kb_blocks_free(struct kb_blocks *b);
/* Read the complete lines appended to path since the last call.  0,
 * -ENOENT (not there yet), or -1 after a message (a line not understood:
 * every later call fails too). */
int kb_blocks_poll(struct kb_blocks *b, const char *path);
/* Every block b has read priced under m, in one batch (the fewest llvm-mca
 * calls): a boot's, once QEMU has exited.  0, or -1 after a message. */
int kb_mca_price_all(struct kb_mca *m, struct kb_blocks *b);
/* Region seq of b (the latest of that number) priced under m into *out.
 * 0; 1 when b has no such region (yet); -1 after a message.  Which blocks
 * are rare (KB_MCA_RARE_EXECS) is counted over what b has read: the boot's
 * once the file is whole. */
int kb_mca_region_of(struct kb_mca *m, struct kb_blocks *b, uint64_t seq, struct kb_mca_region *out);

#endif
