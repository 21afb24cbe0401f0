/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_POOL_H
#define KB_POOL_H

/*
 * Memory that lives exactly as long as one object: the result model
 * (model.h) and a report document (doc.h) allocate every string and array
 * from their pool and free it all at once in kb_pool_release, so neither
 * needs a free function per field.  Allocation failure aborts (kb_xmalloc).
 */

#include <stdarg.h>
#include <stddef.h>

struct kb_pool {
	void **blocks;
	size_t n, cap;
};

#define KB_POOL_INIT { NULL, 0, 0 }

/* n zeroed bytes (at least one), owned by the pool. */
void *kb_pool_alloc(struct kb_pool *p, size_t n);
/* An array of n elements of size each, zeroed. */
void *kb_pool_array(struct kb_pool *p, size_t n, size_t size);
/* A copy of n bytes of src; a copy of s (NULL stays NULL). */
void *kb_pool_memdup(struct kb_pool *p, const void *src, size_t n);
char *kb_pool_strdup(struct kb_pool *p, const char *s);
char *kb_pool_printf(struct kb_pool *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *kb_pool_vprintf(struct kb_pool *p, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* An array with room for more than n elements of size each: old itself
 * while n < *cap, else a copy of its n elements in a new array of twice
 * the room (*cap updated; old stays in the pool until its release). */
void *kb_pool_grow(struct kb_pool *p, void *old, size_t n, size_t *cap, size_t size);
/* Hand memory from malloc over to the pool (NULL is ignored); returns it. */
void *kb_pool_adopt(struct kb_pool *p, void *mem);
void kb_pool_release(struct kb_pool *p);

#endif
