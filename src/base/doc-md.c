// SPDX-License-Identifier: GPL-2.0-or-later
/* The Markdown emitter of a report document (doc.h): every escaping rule of
 * report.md is here.  Text from the config and the guest stays inert: in
 * tables, lists, headings and paragraphs alike, and inside the code fence
 * of binutils size's table. */
#include "config.h"

#include <string.h>

#include "doc.h"

/* Characters a string from the run never gets to mean as Markdown. */
static const char data_special[] = "|\\`*_<>[]";
/* kbench's own words keep their brackets ("[1.2, 1.3]"); nothing else of
 * theirs could be markup. */
static const char own_special[] = "|\\`<>";

static void escaped(FILE *f, const char *s, const char *special)
{
	for (; *s; s++) {
		if (strchr(special, *s))
			fputc('\\', f);
		fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
	}
}

/* A code span: backslashes mean nothing inside one, so nothing is escaped
 * but '|', which would end a table cell (GFM reads "\|" as a pipe there);
 * a fence longer than any run of backticks in it, padded with a space where
 * the text starts or ends with one. */
static void code_span(FILE *f, const char *s)
{
	size_t run = 0, longest = 0, len = strlen(s);
	int pad;

	for (const char *p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	pad = len && (s[0] == '`' || s[len - 1] == '`');
	for (size_t i = 0; i <= longest; i++)
		fputc('`', f);
	if (pad)
		fputc(' ', f);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
	}
	if (pad)
		fputc(' ', f);
	for (size_t i = 0; i <= longest; i++)
		fputc('`', f);
}

/* A link target: a run-relative path; anything but plain path characters
 * percent-encoded, so that no ')' or space can end it early. */
static void href(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    strchr("._-/", c))
			fputc(c, f);
		else
			fprintf(f, "%%%02X", c);
	}
}

static void spans(FILE *f, const struct kb_inline *in)
{
	for (const struct kb_span *s = in->first; s; s = s->next) {
		switch (s->kind) {
		case KB_SPAN_DATA:
			escaped(f, s->text, data_special);
			break;
		case KB_SPAN_OWN:
			escaped(f, s->text, own_special);
			break;
		case KB_SPAN_CODE:
			code_span(f, s->text);
			break;
		case KB_SPAN_STRONG:
			fputs("**", f);
			escaped(f, s->text, own_special);
			fputs("**", f);
			break;
		case KB_SPAN_LINK:
			fputc('[', f);
			escaped(f, s->text, data_special);
			fputs("](", f);
			href(f, s->href);
			fputc(')', f);
			break;
		case KB_SPAN_ANCHOR:
			fputc('[', f);
			escaped(f, s->text, data_special);
			fputs("](#", f);
			href(f, s->href);
			fputc(')', f);
			break;
		}
	}
}

static void row(FILE *f, const struct kb_inline *cells, size_t n)
{
	fputs("|", f);
	for (size_t i = 0; i < n; i++) {
		fputc(' ', f);
		spans(f, &cells[i]);
		fputs(" |", f);
	}
	fputc('\n', f);
}

static void table(FILE *f, const struct kb_block *b)
{
	const struct kb_doc_table *t = &b->table;

	row(f, t->head, t->ncols);
	fputs("|", f);
	for (size_t i = 0; i < t->ncols; i++)
		fputs(t->align[i] == KB_ALIGN_RIGHT ? "---:|" : "---|", f);
	fputc('\n', f);
	for (const struct kb_doc_row *r = t->first; r; r = r->next)
		row(f, r->cells, t->ncols);
}

static void heading(FILE *f, const struct kb_block *b)
{
	for (int i = 0; i < b->level; i++)
		fputc('#', f);
	fputc(' ', f);
	spans(f, &b->text);
	fputc('\n', f);
}

static void para(FILE *f, const struct kb_block *b)
{
	spans(f, &b->text);
	fputc('\n', f);
}

static void list(FILE *f, const struct kb_block *b)
{
	for (const struct kb_doc_item *it = b->items; it; it = it->next) {
		fputs("- ", f);
		spans(f, &it->in);
		fputc('\n', f);
	}
}

/* Inside a code fence nothing is markup, but a backtick or a line break in
 * a name could close the fence: those become '?', tabs stay (size's columns). */
static void pre(FILE *f, const struct kb_block *b)
{
	fputs("```\n", f);
	for (const struct kb_doc_item *it = b->items; it; it = it->next) {
		for (const char *s = it->in.first->text; *s; s++)
			fputc(*s == '`' || ((unsigned char)*s < 0x20 && *s != '\t') ? '?' : *s, f);
		fputc('\n', f);
	}
	fputs("```\n", f);
}

/* Blocks apart by a blank line; plots are for the HTML page. */
const struct kb_doc_emitter kb_doc_markdown = {
	.block = { heading, para, table, list, pre, NULL, NULL, NULL },	/* enum kb_block_kind's order */
	.between = "\n",
};
