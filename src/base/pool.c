// SPDX-License-Identifier: GPL-2.0-or-later
/* Memory freed all at once (pool.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pool.h"
#include "util.h"

void *kb_pool_adopt(struct kb_pool *p, void *mem)
{
	if (!mem)
		return NULL;
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->blocks = kb_xrealloc(p->blocks, p->cap * sizeof(*p->blocks));
	}
	p->blocks[p->n++] = mem;
	return mem;
}

void *kb_pool_alloc(struct kb_pool *p, size_t n)
{
	return kb_pool_adopt(p, kb_xcalloc(n ? n : 1, 1));
}

void *kb_pool_array(struct kb_pool *p, size_t n, size_t size)
{
	return kb_pool_adopt(p, kb_xcalloc(n ? n : 1, size ? size : 1));
}

void *kb_pool_memdup(struct kb_pool *p, const void *src, size_t n)
{
	void *d = kb_pool_alloc(p, n);

	if (n)
		memcpy(d, src, n);
	return d;
}

void *kb_pool_grow(struct kb_pool *p, void *old, size_t n, size_t *cap, size_t size)
{
	void *v;

	if (n < *cap)
		return old;
	*cap = *cap ? 2 * *cap : 8;
	v = kb_pool_array(p, *cap, size);
	if (n)
		memcpy(v, old, n * size);
	return v;
}

char *kb_pool_strdup(struct kb_pool *p, const char *s)
{
	return s ? kb_pool_adopt(p, kb_xstrdup(s)) : NULL;
}

char *kb_pool_vprintf(struct kb_pool *p, const char *fmt, va_list ap)
{
	return kb_pool_adopt(p, kb_xvasprintf(fmt, ap));
}

char *kb_pool_printf(struct kb_pool *p, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = kb_pool_vprintf(p, fmt, ap);
	va_end(ap);
	return s;
}

void kb_pool_release(struct kb_pool *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->blocks[i]);
	free(p->blocks);
	memset(p, 0, sizeof(*p));
}
