// SPDX-License-Identifier: GPL-2.0-or-later
/* gnuplot as a child process: data and script in a private temporary
 * directory, SVG read back; nothing from the network, nothing left behind. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plot.h"
#include "util.h"

#ifndef GNUPLOT_PROG
#define GNUPLOT_PROG "gnuplot"
#endif

static char *only(const char *s, const char *keep)
{
	char *l = kb_xstrdup(s ? s : "");

	for (char *p = l; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr(keep, *p))
			*p = '_';
	return l;
}

char *kb_plot_label(const char *s)
{
	return only(s, "._/=+-");
}

char *kb_plot_text(const char *s)
{
	return only(s, "._/=+- (),:");
}

/* Drop every "<tag...>...</tag>" whose opening starts with open. */
static void drop_element(char *svg, const char *open, const char *close)
{
	char *p, *e;

	while ((p = strstr(svg, open)) && (e = strstr(p, close)))
		memmove(p, e + strlen(close), strlen(e + strlen(close)) + 1);
}

/* "<g ...></g>", and the groups that leaves empty. */
static void drop_empty_groups(char *svg)
{
	char *p = svg;

	while ((p = strstr(p, "<g"))) {
		char *end = strchr(p, '>');

		if (!end)
			return;
		if ((p[2] == ' ' || p[2] == '>') && !strncmp(end + 1, "</g>", 4)) {
			memmove(p, end + 5, strlen(end + 5) + 1);
			p = svg;	/* its parent may be empty now */
			continue;
		}
		p = end;
	}
}

void kb_plot_compact(char *svg)
{
	char *w = svg;
	int in_tag = 0, quote = 0;

	drop_element(svg, "<title>Gnuplot", "</title>");
	drop_element(svg, "<desc>", "</desc>");
	/* SVG's defaults, which gnuplot writes on every group */
	drop_element(svg, " stroke-linecap=\"butt\"", "\"butt\"");
	drop_element(svg, " stroke-linejoin=\"miter\"", "\"miter\"");
	for (const char *r = svg; *r; r++) {
		char c = *r;

		if (!in_tag) {
			/* white space between two elements goes */
			if (isspace((unsigned char)c) && w > svg && w[-1] == '>') {
				const char *q = r;

				while (isspace((unsigned char)*q))
					q++;
				if (*q == '<' || !*q) {
					r = q - 1;
					continue;
				}
			}
			in_tag = c == '<';
			*w++ = c;
			continue;
		}
		if (quote) {
			if (c == quote) {
				while (w > svg && w[-1] == ' ')
					w--;
				quote = 0;
			} else if (c == ' ' && w > svg && w[-1] == ' ') {
				continue;
			} else if (c == '.' && w > svg && isdigit((unsigned char)w[-1]) &&
				   isdigit((unsigned char)r[1])) {
				/* a number's fraction without its trailing zeros */
				const char *q = r + 1, *last = r;

				while (isdigit((unsigned char)*q)) {
					if (*q != '0')
						last = q;
					q++;
				}
				if (last > r) {
					memmove(w, r, (size_t)(last - r + 1));
					w += last - r + 1;
				}
				r = q - 1;
				continue;
			}
		} else if (c == '"' || c == '\'') {
			quote = c;
		} else if (c == '>') {
			in_tag = 0;
		} else if (c == ' ' && w > svg && w[-1] == ' ') {
			continue;
		}
		*w++ = c;
	}
	*w = '\0';
	drop_empty_groups(svg);
}

static int put(const char *dir, const char *name, const char *text)
{
	char *p = kb_xasprintf("%s/%s", dir, name);
	int r = kb_write_file_atomic(p, text, strlen(text));

	free(p);
	return r;
}

static void cleanup(const char *dir)
{
	static const char *const files[] = { "plot.gp", "plot.dat", "plot.svg", "gnuplot.log" };

	for (size_t i = 0; i < KB_ARRAY_SIZE(files); i++) {
		char *p = kb_xasprintf("%s/%s", dir, files[i]);

		unlink(p);
		free(p);
	}
	rmdir(dir);
}

char *kb_plot_svg(const char *script, const char *data, char **why)
{
	const char *prog = getenv("KBENCH_GNUPLOT");
	char *dir = kb_xasprintf("%s/kbench-plot.XXXXXX", kb_tmpdir());
	char *log, *out, *svg = NULL, *start;
	char *argv[] = { (char *)(prog && *prog ? prog : GNUPLOT_PROG), "plot.gp", NULL };
	int r;

	*why = NULL;
	if (prog && !strcmp(prog, "none")) {
		*why = kb_xstrdup("plots turned off (KBENCH_GNUPLOT=none)");
		free(dir);
		return NULL;
	}
	if (!mkdtemp(dir)) {
		*why = kb_xasprintf("cannot create a temporary directory: %s", strerror(errno));
		free(dir);
		return NULL;
	}
	log = kb_xasprintf("%s/gnuplot.log", dir);
	out = kb_xasprintf("%s/plot.svg", dir);
	if (put(dir, "plot.gp", script) < 0 || put(dir, "plot.dat", data) < 0) {
		*why = kb_xstrdup("cannot write the plot's files");
		goto out;
	}
	r = kb_run_argv(argv, dir, log);
	if (r != 0 || kb_read_file(out, &svg, NULL) < 0) {
		char *msg = NULL, *last = NULL;

		kb_read_file(log, &msg, NULL);
		for (char *l = msg ? strtok(msg, "\n") : NULL; l; l = strtok(NULL, "\n"))
			last = l;
		*why = kb_xasprintf("%s %s (status %d)%s%s", argv[0], r == 127 ? "could not run" : "failed",
				    r, last ? ": " : "", last ? last : "");
		free(msg);
		free(svg);
		svg = NULL;
		goto out;
	}
	/* Inline SVG starts at its element: drop the XML declaration and doctype. */
	start = strstr(svg, "<svg");
	if (!start) {
		*why = kb_xstrdup("gnuplot wrote no SVG element");
		free(svg);
		svg = NULL;
		goto out;
	}
	memmove(svg, start, strlen(start) + 1);
	kb_plot_compact(svg);
out:
	cleanup(dir);
	free(dir);
	free(log);
	free(out);
	return svg;
}
