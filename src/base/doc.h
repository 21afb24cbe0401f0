/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_DOC_H
#define KB_DOC_H

/*
 * A report as a document (hyperfine's MarkupExporter): headings,
 * paragraphs, tables, lists, preformatted text and figures, built once by
 * the section builders (report-sections.c) and rendered by two emitters,
 * kb_doc_markdown and kb_doc_html, which own every escaping rule.
 * Builders hand over plain text and never escape anything themselves.
 *
 * Text comes in two kinds.  kb_doc_str takes a string from the run (a
 * variant, case or symbol name, a message, a note): every character that
 * means something in Markdown or HTML is made inert.  kb_doc_fmt takes
 * kbench's own words and figures (a printf format with numbers, never a
 * string from the run): Markdown leaves its brackets alone, so "[1.2, 1.3]"
 * stays as written; what could break a table or inject markup is still
 * escaped.
 */

#include <stdarg.h>
#include <stdio.h>

#include "pool.h"

enum kb_span_kind {
	KB_SPAN_DATA,		/* a string from the run */
	KB_SPAN_OWN,		/* kbench's own words and figures */
	KB_SPAN_CODE,		/* a name, as code */
	KB_SPAN_STRONG,		/* kbench's own words, emphasized */
	KB_SPAN_LINK,		/* text and a run-relative path */
	KB_SPAN_ANCHOR,		/* text and a place in this document (a heading's id) */
};

struct kb_span {
	enum kb_span_kind kind;
	const char *text, *href;
	struct kb_span *next;
};

/* A run of spans: a heading, a paragraph, a table cell, a list item, a
 * caption.  cls is a hint for HTML ("faster", "slower", "caveat"). */
struct kb_inline {
	struct kb_pool *pool;
	struct kb_span *first, *last;
	const char *cls;
};

enum kb_align { KB_ALIGN_LEFT, KB_ALIGN_RIGHT };

struct kb_doc_row {
	struct kb_inline *cells;
	struct kb_doc_row *next;
};

struct kb_doc_table {
	struct kb_pool *pool;
	size_t ncols, nhead;
	struct kb_inline *head;
	enum kb_align *align;
	struct kb_doc_row *first, *last;
	size_t filled;			/* cells of the last row so far */
};

struct kb_doc_item {
	struct kb_inline in;
	struct kb_doc_item *next;
};

enum kb_block_kind {
	KB_BLOCK_HEADING,
	KB_BLOCK_PARA,
	KB_BLOCK_TABLE,
	KB_BLOCK_LIST,
	KB_BLOCK_PRE,			/* lines shown as they are (binutils size's table) */
	KB_BLOCK_FIGURE,		/* a plot: HTML only */
	KB_BLOCK_BOX,			/* the start of a box (name: its class), HTML only */
	KB_BLOCK_BOX_END,		/* and its end */
	KB_BLOCK_KINDS
};

struct kb_block {
	enum kb_block_kind kind;
	int level;			/* a heading's: 1 to 4 */
	const char *id;			/* a heading's anchor (an anchor span's target), or NULL */
	int fold;			/* a heading that folds its section (HTML: <details>,
					 * closed up to the next heading of its level or above) */
	int html_only;			/* report.md leaves it out */
	struct kb_inline text;		/* heading, paragraph; a figure's caption */
	struct kb_doc_table table;
	struct kb_doc_item *items, *last_item;	/* list items; pre lines (one data span each) */
	const char *name;		/* figure: for messages */
	const char *script, *data;	/* figure: gnuplot script writing plot.svg from plot.dat */
	struct kb_block *next;
};

struct kb_doc {
	struct kb_pool pool;
	const char *title;
	struct kb_block *first, *last;
	int html_only;			/* blocks added now are for the HTML page only */
};

void kb_doc_init(struct kb_doc *d, const char *title);
void kb_doc_release(struct kb_doc *d);

/* New blocks at the end of the document. */
struct kb_inline *kb_doc_heading(struct kb_doc *d, int level);
/* A heading with an anchor id (kbench's own, [a-z0-9-]), folded or not:
 * a folded heading and what follows it, up to the next heading of its
 * level or above, are one <details> element in HTML, shut until opened
 * (by a click, or by a link to id); report.md shows them as they are. */
struct kb_inline *kb_doc_heading_id(struct kb_doc *d, int level, const char *id, int fold);
/* Blocks added after kb_doc_html_only(d, 1) and before (d, 0) are for
 * report.html only (the per-metric breakdown, which summary.csv holds). */
void kb_doc_html_only(struct kb_doc *d, int on);
/* A box around the blocks up to kb_doc_box_end (HTML: a <div> of class
 * cls, kbench's own name; report.md: nothing). */
void kb_doc_box(struct kb_doc *d, const char *cls);
void kb_doc_box_end(struct kb_doc *d);
struct kb_inline *kb_doc_para(struct kb_doc *d);
struct kb_doc_table *kb_doc_table(struct kb_doc *d, size_t ncols);
struct kb_block *kb_doc_list(struct kb_doc *d);
struct kb_inline *kb_doc_item(struct kb_block *list);
struct kb_block *kb_doc_pre(struct kb_doc *d);
void kb_doc_pre_line(struct kb_block *pre, const char *line);
/* A figure (script and data copied); its caption to fill. */
struct kb_inline *kb_doc_figure(struct kb_doc *d, const char *name, const char *script, const char *data);

/* A table with its header in one string: columns apart by '|', a leading
 * '>' right-aligns one, and {0} to {9} stand for strs[0] to strs[9],
 * strings from the run (escaped as such); the rest is kbench's own words.
 * "case|>{0} vs {1}" is two columns, the second right-aligned. */
struct kb_doc_table *kb_doc_table_heads(struct kb_doc *d, const char *heads, const char *const *strs);
/* Tables: the column headers, left to right, then the cells row by row. */
struct kb_inline *kb_doc_th(struct kb_doc_table *t, enum kb_align align);
struct kb_inline *kb_doc_td(struct kb_doc_table *t);

/* Spans at the end of an inline run. */
void kb_doc_fmt(struct kb_inline *in, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void kb_doc_vfmt(struct kb_inline *in, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
void kb_doc_str(struct kb_inline *in, const char *s);
void kb_doc_code(struct kb_inline *in, const char *s);
void kb_doc_strong(struct kb_inline *in, const char *s);
void kb_doc_link(struct kb_inline *in, const char *text, const char *href);
/* A link to a heading of this document by its id ([a-z0-9-]). */
void kb_doc_anchor(struct kb_inline *in, const char *text, const char *id);

/* An output format (hyperfine's MarkupExporter): what it writes for each
 * kind of block (NULL: nothing, as Markdown does for figures), before the
 * first block, between two and after the last. */
struct kb_doc_emitter {
	int html;			/* shows the blocks marked html_only */
	void (*begin)(FILE *f, const struct kb_doc *d);
	void (*block[KB_BLOCK_KINDS])(FILE *f, const struct kb_block *b);
	const char *between;
	void (*end)(FILE *f, const struct kb_doc *d);
};

/* report.md (doc-md.c), and one self-contained page (doc-html.c): no
 * script, nothing fetched (a content security policy says so to the
 * browser too), figures drawn by gnuplot inlined as SVG; a link is shown
 * as its path, the page pointing nowhere outside. */
extern const struct kb_doc_emitter kb_doc_markdown, kb_doc_html;

void kb_doc_emit(FILE *f, const struct kb_doc *d, const struct kb_doc_emitter *e);

#endif
