// SPDX-License-Identifier: GPL-2.0-or-later
/* Building a report document (doc.h): blocks and spans in the document's
 * pool, in the order they are added. */
#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "doc.h"

/* x at the end of the list from first to last, linked by next. */
#define APPEND(first, last, x)				\
	do {						\
		if (last)				\
			(last)->next = (x);		\
		else					\
			(first) = (x);			\
		(last) = (x);				\
	} while (0)

void kb_doc_init(struct kb_doc *d, const char *title)
{
	memset(d, 0, sizeof(*d));
	d->title = kb_pool_strdup(&d->pool, title);
}

void kb_doc_release(struct kb_doc *d)
{
	kb_pool_release(&d->pool);
	memset(d, 0, sizeof(*d));
}

static struct kb_block *block(struct kb_doc *d, enum kb_block_kind kind)
{
	struct kb_block *b = kb_pool_alloc(&d->pool, sizeof(*b));

	b->kind = kind;
	b->html_only = d->html_only;
	b->text.pool = &d->pool;
	b->table.pool = &d->pool;
	APPEND(d->first, d->last, b);
	return b;
}

struct kb_inline *kb_doc_heading(struct kb_doc *d, int level)
{
	struct kb_block *b = block(d, KB_BLOCK_HEADING);

	b->level = level;
	return &b->text;
}

struct kb_inline *kb_doc_heading_id(struct kb_doc *d, int level, const char *id, int fold)
{
	struct kb_block *b = block(d, KB_BLOCK_HEADING);

	b->level = level;
	b->id = kb_pool_strdup(&d->pool, id);
	b->fold = fold;
	return &b->text;
}

void kb_doc_html_only(struct kb_doc *d, int on)
{
	d->html_only = on;
}

void kb_doc_box(struct kb_doc *d, const char *cls)
{
	block(d, KB_BLOCK_BOX)->name = kb_pool_strdup(&d->pool, cls);
}

void kb_doc_box_end(struct kb_doc *d)
{
	block(d, KB_BLOCK_BOX_END);
}

struct kb_inline *kb_doc_para(struct kb_doc *d)
{
	return &block(d, KB_BLOCK_PARA)->text;
}

struct kb_doc_table *kb_doc_table(struct kb_doc *d, size_t ncols)
{
	struct kb_doc_table *t = &block(d, KB_BLOCK_TABLE)->table;

	t->ncols = ncols;
	t->head = kb_pool_array(t->pool, ncols, sizeof(*t->head));
	t->align = kb_pool_array(t->pool, ncols, sizeof(*t->align));
	t->filled = ncols;	/* the first cell starts a row */
	return t;
}

struct kb_doc_table *kb_doc_table_heads(struct kb_doc *d, const char *heads, const char *const *strs)
{
	size_t ncols = 1;
	struct kb_doc_table *t;

	for (const char *p = heads; *p; p++)
		ncols += *p == '|';
	t = kb_doc_table(d, ncols);
	for (const char *p = heads; ; p++) {
		struct kb_inline *in = kb_doc_th(t, *p == '>' ? KB_ALIGN_RIGHT : KB_ALIGN_LEFT);

		p += *p == '>';
		while (*p && *p != '|') {
			size_t k = strcspn(p, "{|");

			if (k)
				kb_doc_fmt(in, "%.*s", (int)k, p);
			p += k;
			if (p[0] == '{' && p[1] >= '0' && p[1] <= '9' && p[2] == '}') {
				kb_doc_str(in, strs[p[1] - '0']);
				p += 3;
			} else if (*p == '{') {
				kb_doc_fmt(in, "{");
				p++;
			}
		}
		if (!*p)
			return t;
	}
}

struct kb_inline *kb_doc_th(struct kb_doc_table *t, enum kb_align align)
{
	/* a header past the last column (a builder's slip) rewrites the last */
	size_t i = t->nhead < t->ncols ? t->nhead++ : t->ncols - 1;

	t->head[i].pool = t->pool;
	t->align[i] = align;
	return &t->head[i];
}

struct kb_inline *kb_doc_td(struct kb_doc_table *t)
{
	if (t->filled == t->ncols) {
		struct kb_doc_row *r = kb_pool_alloc(t->pool, sizeof(*r));

		r->cells = kb_pool_array(t->pool, t->ncols, sizeof(*r->cells));
		for (size_t i = 0; i < t->ncols; i++)
			r->cells[i].pool = t->pool;
		APPEND(t->first, t->last, r);
		t->filled = 0;
	}
	return &t->last->cells[t->filled++];
}

static struct kb_doc_item *item(struct kb_block *b)
{
	struct kb_doc_item *it = kb_pool_alloc(b->text.pool, sizeof(*it));

	it->in.pool = b->text.pool;
	APPEND(b->items, b->last_item, it);
	return it;
}

struct kb_block *kb_doc_list(struct kb_doc *d)
{
	return block(d, KB_BLOCK_LIST);
}

struct kb_inline *kb_doc_item(struct kb_block *list)
{
	return &item(list)->in;
}

struct kb_block *kb_doc_pre(struct kb_doc *d)
{
	return block(d, KB_BLOCK_PRE);
}

void kb_doc_pre_line(struct kb_block *pre, const char *line)
{
	kb_doc_str(&item(pre)->in, line);
}

struct kb_inline *kb_doc_figure(struct kb_doc *d, const char *name, const char *script, const char *data)
{
	struct kb_block *b = block(d, KB_BLOCK_FIGURE);

	b->name = kb_pool_strdup(&d->pool, name);
	b->script = kb_pool_strdup(&d->pool, script);
	b->data = kb_pool_strdup(&d->pool, data);
	return &b->text;
}

static void span(struct kb_inline *in, enum kb_span_kind kind, char *text, const char *href)
{
	struct kb_span *s = kb_pool_alloc(in->pool, sizeof(*s));

	s->kind = kind;
	s->text = text;
	s->href = kb_pool_strdup(in->pool, href);
	APPEND(in->first, in->last, s);
}

void kb_doc_vfmt(struct kb_inline *in, const char *fmt, va_list ap)
{
	span(in, KB_SPAN_OWN, kb_pool_vprintf(in->pool, fmt, ap), NULL);
}

void kb_doc_fmt(struct kb_inline *in, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kb_doc_vfmt(in, fmt, ap);
	va_end(ap);
}

void kb_doc_str(struct kb_inline *in, const char *s)
{
	span(in, KB_SPAN_DATA, kb_pool_strdup(in->pool, s ? s : ""), NULL);
}

void kb_doc_code(struct kb_inline *in, const char *s)
{
	span(in, KB_SPAN_CODE, kb_pool_strdup(in->pool, s ? s : ""), NULL);
}

void kb_doc_strong(struct kb_inline *in, const char *s)
{
	span(in, KB_SPAN_STRONG, kb_pool_strdup(in->pool, s), NULL);
}

void kb_doc_link(struct kb_inline *in, const char *text, const char *href)
{
	span(in, KB_SPAN_LINK, kb_pool_strdup(in->pool, text), href);
}

void kb_doc_anchor(struct kb_inline *in, const char *text, const char *id)
{
	span(in, KB_SPAN_ANCHOR, kb_pool_strdup(in->pool, text), id);
}

void kb_doc_emit(FILE *f, const struct kb_doc *d, const struct kb_doc_emitter *e)
{
	int first = 1;

	if (e->begin)
		e->begin(f, d);
	for (const struct kb_block *b = d->first; b; b = b->next) {
		if (!e->block[b->kind] || (b->html_only && !e->html))
			continue;
		if (!first && e->between)
			fputs(e->between, f);
		first = 0;
		e->block[b->kind](f, b);
	}
	if (e->end)
		e->end(f, d);
}
