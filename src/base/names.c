// SPDX-License-Identifier: GPL-2.0-or-later
/* Names, each once (names.h): the hash table under them, the names, and
 * which names a run directory may hold. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "pool.h"
#include "util.h"

/* ---- a hash table of two-word keys ---- */

static uint64_t mix(uint64_t a, uint64_t b)
{
	uint64_t h = (a ^ (b * 0x9e3779b97f4a7c15ULL)) * 0xbf58476d1ce4e5b9ULL;

	return h ^ (h >> 31);
}

/* The slot holding (a, b) (and, where strs is given, the string s), or the
 * empty slot where it would go. */
static size_t htab_slot(const struct kb_htab *h, uint64_t a, uint64_t b, const char *const *strs, const char *s)
{
	size_t mask = h->cap - 1, i = (size_t)mix(a, b) & mask;

	while (h->key[2 * i] && (h->key[2 * i] != a || h->key[2 * i + 1] != b ||
				 (strs && strcmp(strs[h->val[i]], s))))
		i = (i + 1) & mask;
	return i;
}

static void htab_grow(struct kb_htab *h)
{
	struct kb_htab old = *h;

	h->cap = old.cap ? 2 * old.cap : 64;
	h->key = kb_xcalloc(2 * h->cap, sizeof(*h->key));
	h->val = kb_xmalloc(h->cap * sizeof(*h->val));
	for (size_t i = 0; i < old.cap; i++) {
		size_t j;

		if (!old.key[2 * i])
			continue;
		/* keys are distinct: the first empty slot */
		for (j = (size_t)mix(old.key[2 * i], old.key[2 * i + 1]) & (h->cap - 1); h->key[2 * j];
		     j = (j + 1) & (h->cap - 1))
			;
		h->key[2 * j] = old.key[2 * i];
		h->key[2 * j + 1] = old.key[2 * i + 1];
		h->val[j] = old.val[i];
	}
	free(old.key);
	free(old.val);
}

uint32_t kb_htab_get(struct kb_htab *h, uint64_t a, uint64_t b, const char *const *strs, const char *s,
		     uint32_t v, int *added)
{
	size_t i;

	if (10 * (h->n + 1) > 7 * h->cap)
		htab_grow(h);
	i = htab_slot(h, a, b, strs, s);
	*added = !h->key[2 * i];
	if (*added) {
		h->key[2 * i] = a;
		h->key[2 * i + 1] = b;
		h->val[i] = v;
		h->n++;
	}
	return h->val[i];
}

void kb_htab_release(struct kb_htab *h)
{
	free(h->key);
	free(h->val);
	memset(h, 0, sizeof(*h));
}

/* ---- names ---- */

static uint64_t str_hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h | 1;	/* a == 0 marks an empty slot */
}

uint32_t kb_names_add(struct kb_names *l, struct kb_pool *p, const char *s)
{
	size_t len = strlen(s);
	int added;
	uint32_t id = kb_htab_get(&l->index, str_hash(s, len), len, l->v, s, (uint32_t)l->n, &added);

	if (added) {
		if (l->n == l->cap) {
			l->cap = l->cap ? 2 * l->cap : 16;
			l->v = kb_xrealloc(l->v, l->cap * sizeof(*l->v));
		}
		l->v[l->n++] = kb_pool_strdup(p, s);
	}
	return id;
}

size_t kb_names_find(const struct kb_names *l, const char *s)
{
	size_t len = strlen(s), i;

	if (!l->index.cap)
		return l->n;
	i = htab_slot(&l->index, str_hash(s, len), len, l->v, s);
	return l->index.key[2 * i] ? l->index.val[i] : l->n;
}

void kb_names_release(struct kb_names *l)
{
	free(l->v);
	kb_htab_release(&l->index);
	memset(l, 0, sizeof(*l));
}

/* ---- plain names ---- */

static int is_letter(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* A letter, then letters, digits and '_'; n bytes, at most 64. */
static int plain(const char *s, size_t n)
{
	if (!n || n > 64 || !is_letter((unsigned char)s[0]))
		return 0;
	for (size_t i = 1; i < n; i++)
		if (!is_letter((unsigned char)s[i]) && !is_digit((unsigned char)s[i]) && s[i] != '_')
			return 0;
	return 1;
}

int kb_model_name_ok(enum kb_name_kind kind, const char *s)
{
	const char *k;
	size_t n = strlen(s);

	switch (kind) {
	case KB_NAME_VARIANT:
		if (!n || n > 64 || s[0] == '.' || s[0] == '-')
			return 0;
		for (; *s; s++)
			if (!is_letter((unsigned char)*s) && !is_digit((unsigned char)*s) && !strchr("._-", *s))
				return 0;
		return 1;
	case KB_NAME_PLAIN:
		return plain(s, n);
	case KB_NAME_CASE:
		k = strchr(s, '/');
		if (!k)
			return plain(s, n);
		if (!plain(s, (size_t)(k - s)) || strncmp(k, "/k=", 3) || !k[3] || strlen(k + 3) > 20)
			return 0;
		for (k += 3; *k; k++)
			if (!is_digit((unsigned char)*k))
				return 0;
		return 1;
	}
	return 0;
}
