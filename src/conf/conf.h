/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_CONF_H
#define KB_CONF_H

#include <stddef.h>
#include <stdio.h>

#include "accel.h"
#include "util.h"
#include "backend.h"
#include "executor.h"
#include "pred.h"

/* One Kconfig assignment a variant asks for, e.g. CC_OPTIMIZE_FOR_SIZE=y. */
struct kb_kopt {
	char *name;	/* without the CONFIG_ prefix */
	char *value;	/* y, n, m, a number or a quoted string */
};

struct kb_variant {
	char *name;
	int line;		/* line of its [variant NAME] header */
	char *description;
	struct kb_kopt *kopts;
	size_t n_kopts;
	char *kcflags;		/* passed to make as KCFLAGS=..., one argv entry */
	char *cc;		/* passed as CC=... */
	char *ld;		/* passed as LD=... (NULL: binutils' ld, Kbuild's own) */
	int cc_line;		/* the line that gave cc */
	char *cmdline;		/* extra kernel command line at boot (not a build input) */
	char *bzimage;		/* prebuilt pair instead of a build */
	char *vmlinux;
	/* hybrid = A B PATH...: built as variant A, the objects under the
	 * paths compiled exactly as variant B compiled them (kbench explain) */
	char *hybrid;
	size_t hy_a, hy_b;	/* indexes of A and B in the configuration */
	char **hy_paths;	/* "" (all), "dir/" or "dir/file.o" */
	size_t n_hy_paths;
	/* hybrid_cflags: appended to the command of every object compiled
	 * under the paths (B's command; A may be B), for attribution by flag */
	char *hy_cflags;
	/* order = FILE: the kernel built with its functions in the order's
	 * order first in its text (build/order.h) */
	char *order;
	/* set only on the copy of A that builds a hybrid (build.c), never
	 * from a file: CC's wrapper ("kbench hybrid-cc SPEC --") and the spec */
	const char *cc_wrap, *hy_spec;
	/* ... the object directories of A and B it starts from (a relink,
	 * kb_hybrid_seed), and whether the spec's objects are compiled anew
	 * (hybrid_cflags) rather than copied from B's */
	const char *hy_a_objdir, *hy_b_objdir;
	int hy_fresh;
	/* set on the copies of a hybrid's A and B: a kernel found in the cache
	 * is built again where its object directory holds no build */
	int need_objects;
};

/* A key as the file gave it: "[run] samples", "[variant Os] config"; a key
 * given more than once in a section has its values one per line. */
struct kb_conf_given {
	char *key;
	char *value;
	size_t len, cap;	/* of value */
};

/* A compiler flag outside kbench's policy, where it was given. */
struct kb_unsafe_flag {
	char *variant;
	const char *key;	/* kcflags, cc or hybrid_cflags */
	char *flag;
	const char *why;
	int line;
};

/* One prediction: "A vs B", or "A vs B on CASES" (not for smaller). */
struct kb_prediction {
	enum kb_pred_kind kind;
	char *a, *b;		/* variant names */
	char *cases;		/* "all", or case and workload names, comma-separated */
	int line;
};

/* [claim]: a claim made elsewhere, and what kbench can check of it. */
struct kb_claim_conf {
	char *text;		/* the claim in one sentence; NULL: no [claim] */
	char *source, *date;	/* where and when it was made */
	int line;		/* of the [claim] header */
	struct kb_prediction *preds;
	size_t n_preds;
};

/* Options kbench knows at most (core and backends'), and a configuration's size. */
#define KB_MAX_OPTIONS 128
#define KB_CONF_MAX_BYTES (1 << 20)
/* A line's length at most, its '\n' not counted */
#define KB_CONF_LINE_MAX 4096
/* [run] layouts at most: each is a kernel build and its boots */
#define KB_MAX_LAYOUTS 64

struct kb_conf {
	char *path;		/* the file it came from */
	char *dir;		/* its directory: relative paths resolve here */

	/* [kernel] */
	char *source;		/* tarball or tree */
	char *arch;
	char *base;		/* base config target, e.g. tinyconfig, or an absolute
				 * path: a .config file (kb_conf_base_is_file) */
	char *fragment;		/* extra Kconfig fragment file, or NULL */
	char *cache;		/* build cache directory */
	long jobs;
	long build_timeout;	/* seconds one make step may take */
	long builds_at_once;	/* variants built at once (0: up to jobs) */
	char *ccache;		/* auto, on or off */
	long allow_dirty;	/* 1: a git work tree source may have changes */
	long unsafe_flags;	/* 1: compiler flags that run or load other programs taken */

	/* [run] */
	long accel;		/* enum kb_accel */
	long run_jobs;		/* boots at once where the backends allow ([run] jobs) */
	long boots;
	long layouts;		/* builds of each variant: 1 + padded replicas ([run] layouts) */
	char *workloads;	/* comma-separated, validated */
	long samples;
	double scale;
	double min_effect;	/* smallest relative difference a verdict calls */
	char *sweep;		/* icache sweep, KiB: "0,4,8", validated */
	long timeout;		/* seconds per boot */
	long memory;		/* MiB */
	long serial_limit;	/* bytes per boot */
	char *output;
	unsigned long long seed;
	int seed_drawn;			/* seed was 0: kbench drew it from the clock */
	char *baseline;
	char *backend;		/* "auto" or a primary backend's name */
	char *host_counters;	/* auto, off, hardware or software */
	char *executor;		/* a name in executors.def */
	/* each backend's own [run] keys, by its index in the table */
	void *backend_opts[KB_N_BACKENDS];
	void *executor_opts[KB_N_EXECUTORS];

	struct kb_variant *variants;
	size_t n_variants;

	struct kb_claim_conf claim;

	/* Compiler flags kbench refuses unless [kernel] unsafe_flags = yes
	 * (they make the compiler driver run or load another program, or
	 * write outside the build): with it, each one taken, for the report. */
	struct kb_unsafe_flag *unsafe;
	size_t n_unsafe;

	/* every key given, in the file's order: what the manifest records of
	 * the configuration, and what a resume checks the run's copy against */
	struct kb_conf_given *given;
	size_t n_given;

	/* the line of each [kernel] and [run] key given, by its index in
	 * kb_conf_options(); 0 for a default, -N for the Nth of sets */
	int key_line[KB_MAX_OPTIONS];

	/* kbench run --set SECTION.KEY=VALUE, as given and in order (owned):
	 * each taken after the file as if the file said it, in place of the
	 * file's own value of that key */
	char **sets;
	size_t n_sets;
};

/* Parse path into conf.  0 on success; -1 after printing every problem found
 * as "file:line: message".  Relative paths in the file are made absolute. */
int kb_conf_load(struct kb_conf *conf, const char *path);
/* Same, with relative paths resolved against dir instead of the file's
 * directory (a run directory's saved copy of the configuration). */
int kb_conf_load_dir(struct kb_conf *conf, const char *path, const char *dir);
/* Same, then each of sets ("kernel.KEY=VALUE", "run.KEY=VALUE" or
 * "variant.NAME.KEY=VALUE"; NAME a variant of the file) checked and taken
 * as that key of the file would be, its value replacing the file's; a
 * problem with one is "--set SET: message".  The sets are kept in
 * conf->sets. */
int kb_conf_load_set(struct kb_conf *conf, const char *path, const char *dir,
		     const char *const *sets, size_t n_sets);
/* Where the key of line came from (kb_conf_key_line): "FILE:LINE",
 * "--set SET", or "FILE" for a default (malloc'd; inline: an executor's
 * check names it, and conf.c calls the executors). */
static inline char *kb_conf_where(const struct kb_conf *conf, int line)
{
	if (line < 0 && (size_t)-line <= conf->n_sets)
		return kb_xasprintf("--set %s", conf->sets[-line - 1]);
	if (line > 0)
		return kb_xasprintf("%s:%d", conf->path, line);
	return kb_xstrdup(conf->path);
}
void kb_conf_release(struct kb_conf *conf);
const struct kb_variant *kb_conf_variant(const struct kb_conf *conf, const char *name);
/* What the configuration names on disk, checked before a run makes any
 * directory: the output and cache directories can be made and written
 * (not in /proc or /sys, not on a read-only mount, not a file), the source
 * is a tarball or a tree, the fragment a readable file.  0, or -1 after a
 * "file:line: 'key': ..." message per problem. */
int kb_conf_check_paths(const struct kb_conf *conf);
/* [kernel] base names a .config file (an absolute path), not a make target
 * (inline: the build layer asks it, and conf.c calls no build code back). */
static inline int kb_conf_base_is_file(const struct kb_conf *conf)
{
	return conf->base && conf->base[0] == '/';
}
/* The line that set a [kernel] or [run] key, or 0 when it has its default
 * (negative: a --set, kb_conf_where says which). */
int kb_conf_key_line(const struct kb_conf *conf, enum kb_opt_section sec, const char *key);
/* A backend's [run] options (its struct, defaults filled in). */
const void *kb_conf_backend_opts(const struct kb_conf *conf, const struct kb_backend *b);
/* An executor's [run] options (its struct, defaults filled in). */
const void *kb_conf_executor_opts(const struct kb_conf *conf, const struct kb_executor *e);
/* Every key kbench knows: the core table's, then each backend's [run] keys
 * (owner NULL for the core); the man page and --help-config list them. */
struct kb_conf_option {
	const struct kb_option *o;
	const struct kb_backend *owner;
	const struct kb_executor *executor; /* an executor's key (owner NULL) */
};
const struct kb_conf_option *kb_conf_options(size_t *n);
/* "kernel", "run", "variant NAME" */
const char *kb_conf_section_name(enum kb_opt_section s);
/* Print every key with its default and help (kbench run --help-config). */
void kb_conf_help(FILE *f);
/* How a line is read: comments, values, lengths (--help-config and the man page). */
extern const char kb_conf_syntax[];
/* A list of workloads as [run] workloads takes it ("all", or names
 * separated by commas or blanks, each once), given elsewhere (what: an
 * option's name, the start of each message).  0, or -1 after a message
 * per problem. */
int kb_conf_check_workloads(const char *what, const char *value);
/* Levenshtein distance, for "did you mean". */
size_t kb_edit_distance(const char *a, const char *b);
/* The candidate nearest word by edit distance, or NULL where the nearest is
 * more than 2 + strlen(word) / 4 edits away. */
const char *kb_closest(const char *word, const char *const *cands, size_t n);

#endif
