/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_PROFILE_H
#define KB_PROFILE_H

/*
 * A kernel's execution profile from a sim run (kbench profile) and the
 * function orders made from it (kbench order).  Every count is the sim
 * plugin's, exact (simulated, not sampled): per function of System.map
 * its instructions executed, the calls that entered it and the bytes of
 * it that ran; per call edge between two functions, how often it was
 * taken (the plugin's calls files, plugin/simfmt.h).
 *
 * The profile file, one record per line, names last:
 *
 *   kbprofile 1
 *   variant NAME
 *   run DIR
 *   cases all | CASE,CASE...
 *   boots N
 *   f ADDR SIZE INSN CALLS HOT NAME       (System.map's functions, in its order)
 *   e COUNT CALLER CALLEE                  (call edges, each pair once)
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct kb_prof_func {
	char *name;
	uint64_t addr, size;	/* in System.map of the profiled build */
	uint64_t insn;		/* instructions executed in it */
	uint64_t calls;		/* calls that entered it */
	uint64_t hot;		/* its bytes that ran */
};

struct kb_prof_edge {
	size_t from, to;	/* functions (indices) */
	uint64_t n;
};

struct kb_profile {
	char *variant, *run, *cases;
	size_t boots;
	struct kb_prof_func *f;
	size_t nf;
	struct kb_prof_edge *e;
	size_t ne;
};

/* The profile of variant's layout-0 boots in a sim run: cases NULL for
 * every case, else a comma-separated list, each of which must be a case
 * of the run.  0, or -1 after a message (no such variant or case, no
 * calls files: a run from before kbench recorded calls). */
int kb_profile_from_run(const char *run_dir, const char *variant, const char *cases,
			struct kb_profile *p);
void kb_profile_write(FILE *f, const struct kb_profile *p);
/* 0, or -1 after a message naming the file and line. */
int kb_profile_read(const char *path, struct kb_profile *p);
void kb_profile_release(struct kb_profile *p);

enum kb_order_method {
	KB_ORDER_C3,		/* Ottoni and Maher, CGO 2017 */
	KB_ORDER_PH,		/* Pettis and Hansen, PLDI 1990 */
	KB_ORDER_HOT_COLD,	/* the functions that ran, in System.map's order */
};
#define KB_ORDER_METHODS	"c3, pettis-hansen, hot-cold"
/* "c3", "pettis-hansen", "hot-cold": 0 and *m, else -1. */
int kb_order_method_parse(const char *s, enum kb_order_method *m);
const char *kb_order_method_name(enum kb_order_method m);
/* C3 merges a function's cluster into its heaviest caller's only while
 * the two together stay within this many bytes (a page, as the paper's). */
#define KB_C3_MERGE_BYTES	4096

/* The hot functions of p (those that executed an instruction) in the
 * order the method gives, as indices into p->f in out[] (p->nf entries
 * at most); how many. */
size_t kb_order(const struct kb_profile *p, enum kb_order_method m, size_t *out);
/* The order file: a comment header (method, profile, its variant, cases
 * and run, the functions' count, bytes and hot bytes), then one function
 * name a line. */
void kb_order_write(FILE *f, const struct kb_profile *p, const char *profile_path,
		    enum kb_order_method m, const size_t *order, size_t n);

/* The placement an order file gives the functions of a symbol map (a
 * System.map, or nm's output of a program), as kbench sim --vl-file reads
 * it ("layout", then START SIZE NEW per function): the functions the order
 * names first, in its order, from the map's first function's address;
 * then the others in the map's order; each at the first address past the
 * previous one's end that keeps its alignment (the largest power of two
 * dividing its address in the map, KB_ORDER_ALIGN at most), as a linker
 * places one section per function.  Labels (_etext...) stay.  A name the
 * map does not have, or the order's second naming of one: -1 after a
 * message naming the order file and line.  *listed: the functions placed
 * by name. */
#define KB_ORDER_ALIGN	16
int kb_order_placement(const char *order_path, const char *map_path, FILE *out, size_t *listed);

#endif
