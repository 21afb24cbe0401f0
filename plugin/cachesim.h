/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A set-associative cache with true LRU replacement, indexed and tagged by
 * line number (address >> log2(line size)).  The same model as cachegrind's:
 * each set keeps its lines most-recently-used first; a hit moves the line to
 * the front, a miss inserts it there and drops the last.  Header-only so the
 * plugin and the unit tests use the same code.
 */
#ifndef KB_CACHESIM_H
#define KB_CACHESIM_H

#include <stdint.h>
#include <stdlib.h>

#define KB_CACHE_EMPTY UINT64_MAX

struct kb_cache {
	uint64_t size;		/* bytes */
	unsigned ways, line;	/* associativity, line size in bytes */
	unsigned line_shift;
	uint64_t sets;
	uint64_t set_mask;	/* sets - 1 when sets is a power of two, else 0 */
	uint64_t *tags;		/* sets * ways line numbers, MRU first per set */
};

/* 0, or -1 when the geometry is impossible: line a power of two of 16 bytes
 * or more (an x86 instruction then spans at most two lines), ways >= 1,
 * size a multiple of ways * line. */
static inline int kb_cache_init(struct kb_cache *c, uint64_t size, unsigned ways, unsigned line)
{
	c->tags = NULL;
	if (line < 16 || (line & (line - 1)) || ways < 1 || ways > 64 || size == 0 ||
	    size % ((uint64_t)ways * line))
		return -1;
	c->size = size;
	c->ways = ways;
	c->line = line;
	for (c->line_shift = 0; (1u << c->line_shift) < line; c->line_shift++)
		;
	c->sets = size / ((uint64_t)ways * line);
	c->set_mask = (c->sets & (c->sets - 1)) ? 0 : c->sets - 1;
	c->tags = malloc(c->sets * ways * sizeof(*c->tags));
	if (!c->tags)
		return -1;
	for (uint64_t i = 0; i < c->sets * ways; i++)
		c->tags[i] = KB_CACHE_EMPTY;
	return 0;
}

static inline void kb_cache_release(struct kb_cache *c)
{
	free(c->tags);
	c->tags = NULL;
}

static inline uint64_t kb_cache_set(const struct kb_cache *c, uint64_t ln)
{
	return c->set_mask ? (ln & c->set_mask) : (ln % c->sets);
}

/* Look up line number ln in its set (t: the set's first tag); 1 on a miss
 * (the line is then filled), 0 on a hit. */
static inline int kb_cache_access_set(struct kb_cache *c, uint64_t *t, uint64_t ln)
{
	unsigned i;

	if (t[0] == ln)
		return 0;
	for (i = 1; i < c->ways; i++) {
		if (t[i] == ln) {
			for (; i > 0; i--)
				t[i] = t[i - 1];
			t[0] = ln;
			return 0;
		}
	}
	for (i = c->ways - 1; i > 0; i--)
		t[i] = t[i - 1];
	t[0] = ln;
	return 1;
}

static inline int kb_cache_access_line(struct kb_cache *c, uint64_t ln)
{
	return kb_cache_access_set(c, c->tags + kb_cache_set(c, ln) * c->ways, ln);
}

static inline int kb_cache_access(struct kb_cache *c, uint64_t addr)
{
	return kb_cache_access_line(c, addr >> c->line_shift);
}

#endif
