// SPDX-License-Identifier: GPL-2.0-or-later
/* The HTML emitter of a report document (doc.h): one self-contained page,
 * no script and nothing fetched (a content security policy says so to the
 * browser too), gnuplot's SVG plots inlined.  Every escaping rule of
 * report.html is here; text from the config and the guest reaches gnuplot
 * only through kb_plot_label, in the section builders. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "plot.h"
#include "util.h"

/* Column n of a table of class rn is right-aligned. */
#define R(n) ".r" #n " td:nth-child(" #n "),"
static const char style[] =
	"body{font:15px/1.45 system-ui,sans-serif;max-width:1340px;margin:1em auto;padding:0 1em;color:#222}"
	"h1{font-size:1.5em;margin:.3em 0}h2{font-size:1.25em}"
	/* the answer line above the title, as the terminal's last line */
	".title p{font-weight:600;font-size:1.05em;margin:.2em 0;padding:.4em .6em;background:#f3f6fa;"
	"border-left:4px solid #3b6ea8}"
	".screen{display:grid;grid-template-columns:minmax(0,.85fr) minmax(0,1.15fr);gap:0 1.5em;align-items:start}"
	".screen figure{margin:0;grid-row:span 9}.screen p{margin:.4em 0 .2em}.screen .tw,.screen pre{margin:.2em 0}"
	".screen table{font-size:13px}.screen td,.screen th{padding:2px 5px}.screen td{white-space:nowrap}"
	"summary{cursor:pointer}.h2{font-size:1.25em;font-weight:bold}.h3{font-size:1.1em;font-weight:bold}"
	"details{margin:.6em 0}"
	"table{border-collapse:collapse;margin:0;font-size:14px}.tw{overflow-x:auto;margin:1em 0}p,li{overflow-wrap:break-word}"
	"th,td{border:1px solid #ccc;padding:3px 8px}td{font-variant-numeric:tabular-nums}"
	R(1) R(2) R(3) R(4) R(5) R(6) R(7) R(8) R(9) R(10) R(11) R(12) R(13) R(14) R(15) R(16) "td.n{text-align:right}"
	"th{background:#f3f3f3}pre{background:#f7f7f7;padding:.6em;overflow-x:auto}"
	"figure{margin:1.5em 0}figure svg{width:100%;max-width:760px;height:auto;border:1px solid #eee}"
	"figcaption{color:#555;font-size:14px}.faster{color:#1a7f37;font-weight:600}"
	".slower{color:#b3261e;font-weight:600}.caveat{color:#7a5b00}"
	/* a phone: one column, the figure first; a wide table scrolls in its
	 * box (.tw), a long word breaks: the page is never wider than the screen */
	"@media (max-width:800px){.screen{grid-template-columns:minmax(0,1fr)}.screen figure{grid-row:auto}}";

/* Text and attribute values alike: & < > " ' escaped, control characters
 * dropped (a line break or, outside pre, a tab becomes a space). */
static void text(FILE *f, const char *s, int pre)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		case '\t': fputc(pre ? '\t' : ' ', f); break;
		case '\n': fputc(' ', f); break;
		default:
			if ((unsigned char)*s >= 0x20 && *s != 0x7f)
				fputc(*s, f);
		}
	}
}

static void spans(FILE *f, const struct kb_inline *in)
{
	for (const struct kb_span *s = in->first; s; s = s->next) {
		switch (s->kind) {
		case KB_SPAN_DATA:
		case KB_SPAN_OWN:
			text(f, s->text, 0);
			break;
		case KB_SPAN_CODE:
		case KB_SPAN_LINK:	/* the page links nowhere: a path is shown as code */
			if (!*s->text)
				break;	/* an empty name: no empty element */
			fputs("<code>", f);
			text(f, s->text, 0);
			fputs("</code>", f);
			break;
		case KB_SPAN_ANCHOR:	/* a place in this page: the only href it has */
			fputs("<a href=\"#", f);
			text(f, s->href, 0);
			fputs("\">", f);
			text(f, s->text, 0);
			fputs("</a>", f);
			break;
		case KB_SPAN_STRONG:
			fputs("<strong>", f);
			text(f, s->text, 0);
			fputs("</strong>", f);
			break;
		}
	}
}

/* <tag class="...">; the class from fixed names, escaped all the same. */
static void open_tag(FILE *f, const char *tag, const char *cls, const char *cls2)
{
	fprintf(f, "<%s", tag);
	if (cls || cls2) {
		fputs(" class=\"", f);
		text(f, cls ? cls : "", 0);
		fputs(cls && cls2 ? " " : "", f);
		text(f, cls2 ? cls2 : "", 0);
		fputc('"', f);
	}
	fputc('>', f);
}

static void element(FILE *f, const char *tag, const struct kb_inline *in, const char *cls2)
{
	open_tag(f, tag, in->cls, cls2);
	spans(f, in);
	fprintf(f, "</%s>", tag);
}

/* A table: its right-aligned columns named once by the table's classes
 * (r1 to r16, in the style sheet), cells and rows without their optional
 * end tags: the rows of a long table are most of the page.  It sits in a
 * box of its own that scrolls sideways where the table is wider than the
 * page (a phone), so that the page itself never is. */
static void table(FILE *f, const struct kb_block *b)
{
	const struct kb_doc_table *t = &b->table;
	int classes = 0;

	fputs("<div class=\"tw\"><table", f);
	for (size_t i = 0; i < t->ncols && i < 16; i++)
		if (t->align[i] == KB_ALIGN_RIGHT)
			fprintf(f, "%sr%zu", classes++ ? " " : " class=\"", i + 1);
	fputs(classes ? "\">\n<tr>" : ">\n<tr>", f);
	for (size_t i = 0; i < t->ncols; i++)
		element(f, "th", &t->head[i], NULL);
	fputc('\n', f);
	for (const struct kb_doc_row *r = t->first; r; r = r->next) {
		fputs("<tr>", f);
		for (size_t i = 0; i < t->ncols; i++) {
			open_tag(f, "td", r->cells[i].cls, NULL);
			spans(f, &r->cells[i]);
		}
		fputc('\n', f);
	}
	fputs("</table></div>\n", f);
}

static void figure(FILE *f, const struct kb_block *b)
{
	char *why = NULL, *svg = kb_plot_svg(b->script, b->data, &why);

	fputs("<figure>", f);
	if (svg) {
		fputs(svg, f);
	} else {
		fputs("<p class=\"caveat\">Plot not drawn: ", f);
		text(f, why ? why : "gnuplot failed", 0);
		fputs(".</p>", f);
		kb_warn("report.html: plot '%s' not drawn: %s", b->name, why ? why : "gnuplot failed");
	}
	element(f, "figcaption", &b->text, NULL);
	fputs("</figure>\n", f);
	free(svg);
	free(why);
}

/* The levels of the folded headings whose <details> are open (one page
 * written at a time: begin resets it, end shuts what is left). */
static struct {
	int level[8];
	size_t n;
} folds;

/* Shut the folds of level or below (0: all). */
static void unfold(FILE *f, int level)
{
	while (folds.n && folds.level[folds.n - 1] >= level) {
		fputs("</details>\n", f);
		folds.n--;
	}
}

static void heading(FILE *f, const struct kb_block *b)
{
	int level = b->level < 1 ? 1 : b->level > 6 ? 6 : b->level;
	int fold = b->fold && folds.n < KB_ARRAY_SIZE(folds.level);

	unfold(f, level);
	if (fold) {
		fputs("<details", f);
		if (b->id) {
			fputs(" id=\"", f);
			text(f, b->id, 0);
			fputc('"', f);
		}
		fputs("><summary>", f);
		folds.level[folds.n++] = level;
	}
	/* a summary holds no heading element: a heading by its role */
	if (fold)
		fprintf(f, "<span class=\"h%d\" role=\"heading\" aria-level=\"%d\"", level, level);
	else
		fprintf(f, "<h%d", level);
	if (b->id && !fold) {
		fputs(" id=\"", f);
		text(f, b->id, 0);
		fputc('"', f);
	}
	fputc('>', f);
	spans(f, &b->text);
	if (fold)
		fputs("</span></summary>\n", f);
	else
		fprintf(f, "</h%d>\n", level);
}

static void box(FILE *f, const struct kb_block *b)
{
	open_tag(f, "div", b->name, NULL);
	fputc('\n', f);
}

static void box_end(FILE *f, const struct kb_block *b)
{
	(void)b;
	fputs("</div>\n", f);
}

static void para(FILE *f, const struct kb_block *b)
{
	element(f, "p", &b->text, NULL);
	fputc('\n', f);
}

static void list(FILE *f, const struct kb_block *b)
{
	fputs("<ul>", f);
	for (const struct kb_doc_item *it = b->items; it; it = it->next)
		element(f, "li", &it->in, NULL);
	fputs("</ul>\n", f);
}

static void pre(FILE *f, const struct kb_block *b)
{
	fputs("<pre>", f);
	for (const struct kb_doc_item *it = b->items; it; it = it->next) {
		text(f, it->in.first->text, 1);
		fputc('\n', f);
	}
	fputs("</pre>\n", f);
}

static void begin(FILE *f, const struct kb_doc *d)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; img-src data:\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", f);
	text(f, d->title, 0);
	folds.n = 0;
	fprintf(f, "</title>\n<style>%s</style></head><body>\n", style);
}

static void end(FILE *f, const struct kb_doc *d)
{
	(void)d;
	unfold(f, 0);
	fputs("</body></html>\n", f);
}

const struct kb_doc_emitter kb_doc_html = {
	.begin = begin,
	.html = 1,
	.block = { heading, para, table, list, pre, figure, box, box_end },	/* enum kb_block_kind's order */
	.end = end,
};
