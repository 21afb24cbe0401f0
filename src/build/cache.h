/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_CACHE_H
#define KB_CACHE_H

/*
 * The build cache as a lab sees it (kbench cache): what it holds, how many
 * bytes each entry takes on disk, when kbench last used it and how many run
 * directories refer to it; and pruning what no run refers to.
 *
 * Entries: a source (src/HASH: a tarball unpacked; src/git-KEY: a copy of
 * a git work tree), the object directories in a source or under obj/, a
 * kernel (kernels/KEY), ccache's store, llvm-mca's prices (mca/LLVM/CPU),
 * the build logs, and whatever else lies at the top.  Bytes are disk
 * blocks as du counts them (last use: the entry's modification time, which
 * kbench sets with kb_touch where it uses one): a file hard-linked into several copies counts
 * once, in the oldest entry that has it.
 */

#include <stddef.h>

enum kb_cache_kind {
	KB_CACHE_SOURCE,
	KB_CACHE_OBJECTS,
	KB_CACHE_KERNEL,
	KB_CACHE_CCACHE,
	KB_CACHE_MCA,
	KB_CACHE_OTHER,
};

struct kb_cache_entry {
	enum kb_cache_kind kind;
	char *path;		/* absolute */
	char *rel;		/* under the cache */
	char *what;		/* "linux 6.12.118", "git copy of /src/linux", ... */
	unsigned long long bytes;
	double last_use;	/* seconds since the epoch */
	size_t runs;		/* run directories that refer to it */
	int shared;		/* ccache, prices, logs: every run's, none refers to it */
	int busy;		/* being made, or locked by a build now */
};

struct kb_cache {
	char *dir;
	struct kb_cache_entry *e;
	size_t n;
	size_t n_runs;		/* run directories read */
};

/* Read the cache dir and the run directories under each of outputs. 0, or
 * -1 after a message. */
int kb_cache_scan(struct kb_cache *c, const char *dir, const char *const *outputs, size_t n_outputs);
void kb_cache_release(struct kb_cache *c);

const char *kb_cache_kind_name(enum kb_cache_kind k);

/*
 * Whether prune would remove e: no run refers to it (older_than < 0), or
 * it was last used more than older_than days ago and, with keep_runs, no
 * run refers to it.  Never an entry in use (busy, or used in the last ten
 * minutes: a run that builds it may not have named it yet), and never the
 * shared ones unless older_than says so.
 */
int kb_cache_prunable(const struct kb_cache_entry *e, double older_than, int keep_runs, double now);

#endif
