/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bloat: per-symbol size changes between two ELF files, by the rules of the
 * kernel's scripts/bloat-o-meter (which reads `nm --size-sort`), with the
 * symbol table read through libelf so that kbench never runs nm.
 */
#ifndef KB_BLOAT_H
#define KB_BLOAT_H

#include <stddef.h>
#include <stdio.h>

/* Which symbols count, by the nm type letters bloat-o-meter selects. */
enum {
	KB_BLOAT_FUNC	= 1u << 0,	/* t T w W */
	KB_BLOAT_DATA	= 1u << 1,	/* d D b B v V */
	KB_BLOAT_RODATA	= 1u << 2,	/* r R */
	KB_BLOAT_ALL	= KB_BLOAT_FUNC | KB_BLOAT_DATA | KB_BLOAT_RODATA,
};

/* One symbol as nm lists it, under the name bloat-o-meter keys it by. */
struct kb_bloat_sym {
	char *name;
	unsigned long long size;
	unsigned kind;			/* one KB_BLOAT_* bit */
};

/* The symbols of one file: not merged, in symbol table order. */
struct kb_bloat_syms {
	struct kb_bloat_sym *v;
	size_t n, alloc;
};

void kb_bloat_syms_init(struct kb_bloat_syms *s);
void kb_bloat_syms_release(struct kb_bloat_syms *s);
/*
 * One symbol nm --size-sort would list with a type letter of kind, under
 * its symbol table name: the symbols bloat-o-meter drops are dropped, the
 * others renamed as it does.  Returns 1 if kept, 0 if dropped.
 */
int kb_bloat_syms_add(struct kb_bloat_syms *s, const char *raw, unsigned long long size,
		      unsigned kind);
/*
 * The symbols of an ELF file (or of every member of an ar archive) that
 * nm --size-sort lists with a t, d, b, r, v or w type letter, either case.  0, or a
 * negative errno after a message naming the file.  A file without a symbol
 * table has no symbols (nm says so; bloat-o-meter reads nothing).
 */
int kb_bloat_syms_read(const char *path, struct kb_bloat_syms *s);

/* bloat-o-meter's key for a symbol: every '.' followed by digits removed
 * (static and clone suffixes: "foo.isra.0" is "foo.isra").  Malloc'd. */
char *kb_bloat_name(const char *raw);
/* Symbols bloat-o-meter leaves out (__mod_*, __se_sys*, linux_banner, ...). */
int kb_bloat_ignored(const char *raw);

/* A table to look names up in: the symbols of the kinds asked for, sorted
 * by name, same names summed (names borrowed from s); n in *n, the sum of
 * their sizes in *total.  Malloc'd. */
struct kb_bloat_named {
	const char *name;
	unsigned long long size;
};
struct kb_bloat_named *kb_bloat_merged(const struct kb_bloat_syms *s, unsigned kinds, size_t *n,
				       unsigned long long *total);
/* The size of name in such a table; 0 when it is not there. */
unsigned long long kb_bloat_lookup(const struct kb_bloat_named *tab, size_t n, const char *name);

/* One name in either file. */
struct kb_bloat_row {
	const char *name;		/* borrowed from the kb_bloat_syms */
	unsigned long long old_size, new_size;
	int in_old, in_new;
	long long delta;
};

/* Two files compared, as bloat-o-meter's calc() does for one set of kinds. */
struct kb_bloat_diff {
	struct kb_bloat_row *rows;	/* delta, then name, both descending */
	size_t n;
	size_t add, remove, grow, shrink;
	unsigned long long up, down;		/* bytes gained, bytes lost */
	unsigned long long old_total, new_total;
};

/* Same-named symbols of the kinds asked for are summed, then matched by
 * name.  The rows borrow names from old and new: release d first. */
void kb_bloat_diff(const struct kb_bloat_syms *old, const struct kb_bloat_syms *new,
		   unsigned kinds, struct kb_bloat_diff *d);
void kb_bloat_diff_release(struct kb_bloat_diff *d);
/* The change of the total, in per cent, as bloat-o-meter computes it (0 when
 * the old total is 0). */
double kb_bloat_percent(const struct kb_bloat_diff *d);

/* The whole output of `bloat-o-meter [-c|-d|-t] old new`: mode 0, 'c', 'd'
 * or 't'. */
void kb_bloat_print_mode(FILE *f, int mode, const struct kb_bloat_syms *old,
			 const struct kb_bloat_syms *new);

#endif
