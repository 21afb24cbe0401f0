/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_BUILD_H
#define KB_BUILD_H

#include "conf.h"

/* The kernel source, located or unpacked once into the cache. */
struct kb_source {
	char *tree;	/* directory holding the top-level Makefile */
	char *id;	/* identity: sha256 of a tarball, or path+version of a tree */
	/* what the files are, where two identities can hold the same files
	 * (two commits of a git work tree with one tree): the object
	 * directory's key, so that such a build finds its objects made
	 * (NULL: id) */
	char *content;
	char *version;	/* make kernelversion, e.g. 6.1.158 */
	/* the tree is kbench's own, in the cache (a tarball unpacked, a git
	 * work tree copied): object directories lie in it, so that Kbuild
	 * names the source relative to them ("..") and ccache shares objects
	 * between copies of the same files */
	int owned;
	char *given;	/* a copied git work tree: the lab's own (else NULL) */
};

/* A built (or prebuilt) kernel. */
struct kb_kernel {
	char *dir;		/* cache directory of this build */
	char *bzimage;
	char *vmlinux;
	char *system_map;	/* NULL for a prebuilt pair */
	char *dotconfig;	/* final .config; NULL for a prebuilt pair */
	char key[65];		/* content hash: source, final .config, flags, compiler */
	char *compiler;		/* first line of $CC --version */
	int cached;		/* found in the cache, not built now */
	long ccache_hits;	/* this build's compilations ccache answered; -1: no ccache */
	long ccache_misses;
	double seconds;		/* wall time of kb_build_variant: what a user waits
				 * for this kernel, lock and shared jobs included */
	char *objdir;		/* its object directory (NULL: prebuilt) */
	/* a hybrid's objects (hybrid.h): compiled by both A and B, with
	 * different commands, and of those taken from B */
	size_t hy_objects, hy_differ, hy_chosen;
	const char *failure;	/* on failure: what went wrong, in a few words */
};

/* A layout replica of a variant: the same flags, and pad[i] bytes of NOPs
 * in the kernel text at padding point i (0: after the head and init
 * objects, 1: between mm/ and fs/).  Layout 0 has none and is the build
 * without the feature, byte for byte. */
#define KB_LAYOUT_PADS 2
/* The padding's symbol at point i, KB_LAYOUT_PAD_SYM "1" and "2": an
 * object of .text, its size the replica's (order-place.c reads it) */
#define KB_LAYOUT_PAD_SYM "kb_layout_pad_"
struct kb_layout {
	int layout;
	unsigned long seed;		/* of the draw; 0 for layout 0 */
	long pad[KB_LAYOUT_PADS];
};

/* The padding of replica layout of a variant, drawn from seed (the
 * configuration's [run] seed, 0 when it gives none), the variant's name and
 * the layout: the same three give the same padding, so cached replicas
 * serve later runs. */
void kb_layout_draw(struct kb_layout *l, unsigned long long seed, const char *variant, int layout);

/* Locate the source, unpacking a tarball into the cache once; with
 * conf->layouts > 1, also add kbench's padding objects to that copy (never
 * to a tree kbench does not own). */
int kb_source_prepare(const struct kb_conf *conf, struct kb_source *src);
/* The same source without unpacking, copying or padding anything (kbench
 * run --dry-run): src->tree NULL where the cache has no copy of it yet. */
int kb_source_find(const struct kb_conf *conf, struct kb_source *src);
void kb_source_release(struct kb_source *src);

/* dir itself, or the one directory under it, holding the kernel's Makefile
 * and Kconfig (malloc'd), or NULL: a tarball unpacked, a git copy's tree. */
char *kb_find_tree(const char *dir);
/* VERSION.PATCHLEVEL.SUBLEVEL from a tree's top-level Makefile (malloc'd),
 * or NULL. */
char *kb_tree_version(const char *tree);

/* The slab allocator a kernel's final .config (dotconfig) selects: "SLUB",
 * "SLUB_TINY" (SLUB for the smallest systems), "SLOB" (up to 6.3) or "SLAB"
 * (up to 6.7); NULL where it says none or cannot be read. */
const char *kb_config_allocator(const char *dotconfig);

/* One make jobserver for builds at once: jobs tokens in all, shared by
 * every make kbench starts until kb_build_jobserver_end (each of the
 * builds makes holds one implicitly, so jobs - builds go in the pipe);
 * the makes find it through MAKEFLAGS and take no -j of their own.  0, or
 * -1 after a message. */
int kb_build_jobserver(long jobs, long builds);
void kb_build_jobserver_end(void);

/* Configure, check and build one variant (or take it from the cache), as
 * layout replica l (NULL: layout 0).  Replicas of a variant share its object
 * directory: one costs the padding objects and the link.  The build log
 * goes to log_path.  0, or -1 after a message; a failed build prints the
 * tail of its log. */
int kb_build_variant(const struct kb_conf *conf, const struct kb_source *src,
		     const struct kb_variant *v, const struct kb_layout *l, const char *log_path,
		     struct kb_kernel *out);
/* v's kernel configured as kb_build_variant configures it (layout 0), and
 * nothing built: out->dotconfig the final .config (in the object
 * directory), out->key and out->dir, out->cached whether the cache has
 * that kernel.  0, else -1 with out->failure (a hybrid or a prebuilt
 * variant has no configuration of its own). */
int kb_build_configure(const struct kb_conf *conf, const struct kb_source *src,
		       const struct kb_variant *v, const char *log_path, struct kb_kernel *out);
void kb_kernel_release(struct kb_kernel *k);
/* Whether kb_build_variant would take v's replica l from the cache, with
 * nothing built, configured or written (src from kb_source_find): 1, out's
 * key, dir and files set; 0, it would build it, *why says why; -1, not
 * known before the build (a hybrid, a prebuilt pair), *why says which. */
int kb_build_lookup(const struct kb_conf *conf, const struct kb_source *src,
		    const struct kb_variant *v, const struct kb_layout *l, struct kb_kernel *out,
		    const char **why);
struct kb_build_watch;
/* Show the progress of the builds kb_build_variant makes in this process
 * while make runs (progress.h), read from their log; NULL: none. */
void kb_build_watch_here(struct kb_build_watch *w);

/* hex sha256 of a file; 0 or -errno */
int kb_sha256_file(const char *path, char hex[65]);
/* hex sha256 of n strings (NULL as "(null)"), each with its length, so that
 * no two lists of fields hash alike by running into each other */
void kb_sha256_fields(char hex[65], const char *const *kv, size_t n);

#endif
