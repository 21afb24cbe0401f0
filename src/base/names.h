/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_NAMES_H
#define KB_NAMES_H

/*
 * Names, each once: the tables the model (model-input.h) and the
 * miss-o-meter (miss-o-meter.h) keep the names of a run directory in, the hash
 * table under them, and which names a run directory may hold.  A leaf: it
 * calls nothing of theirs.
 */

#include <stddef.h>
#include <stdint.h>

struct kb_pool;

/* Open addressing on a key of two words (a != 0) to a 32-bit value. */
struct kb_htab {
	uint64_t *key;			/* [2 * cap]; a == 0: an empty slot */
	uint32_t *val;			/* [cap] */
	size_t cap, n;
};

/* The value of (a, b) (and, where strs is given, of the string s, which
 * strs[value] holds), or v after adding it (*added set). */
uint32_t kb_htab_get(struct kb_htab *h, uint64_t a, uint64_t b, const char *const *strs, const char *s,
		     uint32_t v, int *added);
void kb_htab_release(struct kb_htab *h);

/* Strings, each once, in the order first added; ids index v. */
struct kb_names {
	const char **v;
	size_t n, cap;
	struct kb_htab index;
};

/* The id of s (copied into p the first time it is added). */
uint32_t kb_names_add(struct kb_names *l, struct kb_pool *p, const char *s);
/* Its id, or l->n when it was never added. */
size_t kb_names_find(const struct kb_names *l, const char *s);
void kb_names_release(struct kb_names *l);

/* Which names a run directory may hold (kb_model_name_ok): they become
 * paths, gnuplot text and markup, and are checked as they are read. */
enum kb_name_kind {
	KB_NAME_VARIANT,	/* as variants.conf allows: letters, digits, '.', '_', '-',
				 * not first '.' or '-', at most 64; also a backend */
	KB_NAME_PLAIN,		/* a workload or a field: a letter, then letters,
				 * digits, '_', at most 64 */
	KB_NAME_CASE,		/* a workload name, or one with "/k=<digits>" */
};
int kb_model_name_ok(enum kb_name_kind kind, const char *s);

#endif
