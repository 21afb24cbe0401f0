/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_HYBRID_H
#define KB_HYBRID_H

/*
 * Hybrid kernels ([variant] hybrid = A B PATH..., kbench explain): variant
 * A's build in which the objects under the paths are compiled exactly as
 * variant B compiled them.  Kbuild records every object's command in its
 * .<object>.cmd file; the objects whose command differs between A's and B's
 * builds and that lie under a path make the hybrid's spec, one file per
 * object holding B's command.  The hybrid is built with A's .config and a
 * CC that is `kbench hybrid-cc SPEC -- <A's CC>`: for an object in the spec
 * it runs B's command (through ccache, a cache hit), for any other it runs
 * A's.  The two .configs may differ only in the optimization level, so the
 * objects are interchangeable.  Its object directory starts as a copy of
 * A's with B's objects in (kb_hybrid_seed), so that make has only to link.
 */

#include <stddef.h>

#include "build.h"

struct kb_hybrid_counts {
	size_t objects;		/* objects both builds compiled */
	size_t differ;		/* ... with different commands */
	size_t chosen;		/* ... of those, under the paths: B's in the hybrid */
};

/* The spec of a hybrid of built kernels a and b (their object
 * directories) over paths: made once under cache/hybrid/ (named by its
 * content), its directory in *specdir (malloc'd).  With cflags (not NULL),
 * every object compiled under the paths is in the spec, with B's command
 * and cflags after its -c.  0, or -1 after a message naming the variant. */
int kb_hybrid_spec(const char *cache, const char *variant, const struct kb_kernel *a,
		   const struct kb_kernel *b, char *const *paths, size_t npaths, const char *cflags,
		   char **specdir, struct kb_hybrid_counts *c);

/* One optimizer setting in which two compilations differ: its name
 * ("optimize-strlen", "align-functions", "param-min-crossjump-insns") and
 * the option that sets it as each compilation has it ("-foptimize-strlen",
 * "-fno-optimize-strlen", "-falign-functions=16", "--param=...=1"). */
struct kb_flag {
	char *name, *a, *b;
};

/* The settings of gcc's optimizers and params (gcc -Q --help=optimizers,
 * --help=params) in which object's compilation in a's object directory
 * differs from its compilation in b's: each compiler run with that
 * compilation's own options (its recorded command up to the -c).  0 with
 * *flags (malloc'd, *n of them), or -1 after a message. */
int kb_hybrid_flag_diff(const struct kb_kernel *a, const struct kb_kernel *b, const char *object,
			struct kb_flag **flags, size_t *n);
void kb_hybrid_flags_free(struct kb_flag *flags, size_t n);

/* Every object a and b both compiled, with different commands (sorted
 * names, malloc'd, in *objs); what names the builds in messages.  0, or -1
 * after a message. */
int kb_hybrid_objects(const char *what, const struct kb_kernel *a, const struct kb_kernel *b,
		      char ***objs, size_t *n, struct kb_hybrid_counts *c);

/* Seed the object directory of hybrid (objdir) from A's: a copy of
 * a_objdir, its command files naming the hybrid's compiler (cc_h) where
 * they named A's (cc_a), so that make finds them up to date; then each
 * object the spec holds is B's (copied from b_objdir, written now so that
 * the archives holding it are made again) or, fresh (hybrid_cflags: a
 * command neither build ran), removed for make to compile.  The hybrid's
 * make then compiles only what it must and links: a relink, not a build.
 * Whatever objdir held goes first; .kbench-seeding marks a copy under way,
 * .kbench-seed (what was done, also in the log, and the compiler cc_h)
 * a finished one.  0, or -1
 * after a message. */
int kb_hybrid_seed(const char *hybrid, const char *objdir, const char *a_objdir, const char *b_objdir,
		   const char *spec, int fresh, const char *cc_a, const char *cc_h, const char *log_path);

/* Whether objdir was seeded (.kbench-seed) for the hybrid compiler cc_h:
 * a copy seeded for another (kbench run from another path) would have
 * make compile every object again. */
int kb_hybrid_seeded_for(const char *objdir, const char *cc_h);

/* Whether object (relative to the object tree) is under one of paths. */
int kb_hybrid_match(const char *object, char *const *paths, size_t npaths);
/* The command Kbuild recorded for compiling object (relative to objdir,
 * "arch/x86/lib/usercopy_32.o") in objdir's .<object>.cmd, run in objdir,
 * without what Kbuild chains after it (objtool); malloc'd, or NULL where
 * there is no such compilation. */
char *kb_object_command(const char *objdir, const char *object);

/* The .config lines of a and b that differ, other than the optimization
 * level's (CONFIG_CC_OPTIMIZE_FOR_*): NULL when none, else the first such
 * option's name (malloc'd).  *err set when a file cannot be read. */
char *kb_hybrid_config_diff(const char *a, const char *b, int *err);

#endif
