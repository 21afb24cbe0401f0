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

char *kb_plot_label(const char *s)
{
	char *l = kb_xstrdup(s ? s : "");

	for (char *p = l; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._/=+-", *p))
			*p = '_';
	return l;
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
out:
	cleanup(dir);
	free(dir);
	free(log);
	free(out);
	return svg;
}
