// SPDX-License-Identifier: GPL-2.0-or-later
/* A kernel build's progress on the terminal or in a log (progress.h), read
 * back from its build log, as `tail -f` would. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "progress.h"
#include "util.h"

#define STEP_PREFIX "kbench: build step: layout "
/* from_cache (build.c) copies a cached build's own log between these */
#define CACHED_BEGIN "kbench: cached build "
#define CACHED_END "kbench: end of the cached build's log"
#define SAY_EVERY 60.0	/* seconds between lines of one build, outside a terminal */

static const char *const step_names[] = {
	[KB_STEP_WAITING] = "starting", [KB_STEP_CONFIGURING] = "configuring",
	[KB_STEP_COMPILING] = "compiling", [KB_STEP_LINKING] = "linking",
	[KB_STEP_DONE] = "done", [KB_STEP_FAILED] = "failed",
};

void kb_build_step(const char *log_path, enum kb_build_step step, int layout, long total,
		   double seconds, int cached)
{
	FILE *f = fopen(log_path, "a");

	if (!f)
		return;
	fprintf(f, STEP_PREFIX "%d: %s", layout, step_names[step]);
	if (step == KB_STEP_COMPILING && total > 0)
		fprintf(f, ", %ld objects in a whole build", total);
	else if (step == KB_STEP_DONE)
		fprintf(f, " %s %.1f s", cached ? "from the cache after" : "in", seconds);
	fputc('\n', f);
	fclose(f);
}

void kb_build_watch_init(struct kb_build_watch *w, const char *what, const char *log)
{
	struct stat st;

	memset(w, 0, sizeof(*w));
	w->what = what;
	w->log = log;
	w->total = -1;
	w->said = KB_STEP_WAITING;
	w->said_at = kb_now();
	w->t0 = w->said_at;
	w->seen = stat(log, &st) == 0 ? st.st_size : 0;
}

/* make's line for a link of vmlinux (vmlinux.o first, in 5.x and 6.x) */
static int links_vmlinux(const char *l)
{
	if (strncmp(l, "  LD ", 5))
		return 0;
	l += strspn(l + 5, " ") + 5;
	return !strncmp(l, "vmlinux", 7) || !strncmp(l, ".tmp_vmlinux", 12);
}

void kb_build_watch_line(struct kb_build_watch *w, const char *l, double now)
{
	int layout;
	char step[16];
	long total;
	double s;

	if (!strncmp(l, CACHED_BEGIN, strlen(CACHED_BEGIN))) {
		w->skip++;
		return;
	}
	if (!strcmp(l, CACHED_END)) {
		w->skip -= w->skip > 0;
		return;
	}
	if (w->skip)
		return;
	if (sscanf(l, STEP_PREFIX "%d: %15[a-z]", &layout, step) == 2) {
		if (!strcmp(step, "configuring")) {
			/* a replica begins: its own objects and clock */
			w->step = KB_STEP_CONFIGURING;
			w->layout = layout;
			w->objects = 0;
			w->total = -1;
			w->cached = 0;
			w->t0 = now;
		} else if (!strcmp(step, "compiling")) {
			w->step = KB_STEP_COMPILING;
			w->total = sscanf(l, STEP_PREFIX "%*d: compiling, %ld", &total) == 1 ? total : -1;
		} else if (!strcmp(step, "linking")) {
			w->step = KB_STEP_LINKING;
		} else if (!strcmp(step, "done")) {
			w->step = KB_STEP_DONE;
			w->cached = strstr(l, " from the cache ") != NULL;
			/* "... done in 914.5 s": the figure is the word before "s" */
			s = 0;
			for (const char *e = l + strlen(l) - 2; e > l; e--)
				if (*e == ' ' && e[1] != 's') {
					s = strtod(e + 1, NULL);
					break;
				}
			w->seconds = s;
		} else if (!strcmp(step, "failed")) {
			w->step = KB_STEP_FAILED;
		}
		return;
	}
	if (w->step != KB_STEP_COMPILING && w->step != KB_STEP_LINKING)
		return;
	if (!strncmp(l, "  CC ", 5))
		w->objects++;
	/* steps only go forward: the boot code compiled after the link is
	 * counted, and the step stays linking */
	if (w->step == KB_STEP_COMPILING && links_vmlinux(l))
		w->step = KB_STEP_LINKING;
}

int kb_build_watch_scan(struct kb_build_watch *w)
{
	char buf[65536];
	int fd = open(w->log, O_RDONLY | O_CLOEXEC), moved = 0;
	double now = kb_now();
	ssize_t n;

	if (fd < 0)
		return 0;
	/* whole lines only: a line make is still writing waits for the next scan */
	while (!moved && (n = pread(fd, buf, sizeof(buf) - 1, w->seen)) > 0) {
		char *p = buf, *nl;

		buf[n] = '\0';
		while (!moved && (nl = memchr(p, '\n', (size_t)(buf + n - p)))) {
			enum kb_build_step step0 = w->step;
			int layout0 = w->layout;

			*nl = '\0';
			kb_build_watch_line(w, p, now);
			p = nl + 1;
			moved = w->step != step0 || w->layout != layout0;
		}
		if (p == buf) {
			if (n < (ssize_t)sizeof(buf) - 1)
				break;
			p = buf + n;	/* a line longer than buf: skip it */
		}
		w->seen += p - buf;
	}
	close(fd);
	return moved;
}

static void name(FILE *f, const struct kb_build_watch *w)
{
	fputs(w->what, f);
	if (w->layout > 0)
		fprintf(f, " layout %d", w->layout);
}

static double elapsed(const struct kb_build_watch *w, double now)
{
	return w->step == KB_STEP_DONE ? w->seconds : now - w->t0;
}

char *kb_build_progress_line(const struct kb_build_watch *w, size_t n, double now, size_t width)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	fputs("building ", f);
	for (size_t i = 0; i < n; i++) {
		long t = (long)(elapsed(&w[i], now) + 0.5);

		if (i)
			fputs(" | ", f);
		name(f, &w[i]);
		fprintf(f, "%s%s", n == 1 ? ": " : " ",
			w[i].step == KB_STEP_DONE && w[i].cached ? "cached" : step_names[w[i].step]);
		if (w[i].step == KB_STEP_COMPILING || w[i].step == KB_STEP_LINKING) {
			if (w[i].total > 0 && n == 1)
				fprintf(f, " %ld of %ld objects", w[i].objects, w[i].total);
			else if (w[i].total > 0)
				fprintf(f, " %ld/%ld", w[i].objects, w[i].total);
			else if (w[i].objects)
				fprintf(f, n == 1 ? " %ld object%s" : " %ld", w[i].objects,
					w[i].objects == 1 ? "" : "s");
		}
		fprintf(f, "%s%ld:%02ld", n == 1 ? ", " : " ", t / 60, t % 60);
	}
	fclose(f);
	if (width > 0 && len > width)
		buf[width] = '\0';
	return buf;
}

static size_t columns(void)
{
	struct winsize ws;

	return ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20 ? ws.ws_col : 80;
}

/* One build's line outside a terminal: its step, objects, seconds. */
static void say(const struct kb_build_watch *w, double now)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	fputs("build of ", f);
	name(f, w);
	if (w->step == KB_STEP_DONE)
		fprintf(f, ": %s %.1f s", w->cached ? "found in the cache after" : "done in", w->seconds);
	else
		fprintf(f, ": %s", step_names[w->step]);
	if (w->step == KB_STEP_COMPILING || w->step == KB_STEP_LINKING) {
		if (w->objects && w->total > 0)
			fprintf(f, ", %ld of %ld objects", w->objects, w->total);
		else if (w->objects)
			fprintf(f, ", %ld object%s", w->objects, w->objects == 1 ? "" : "s");
		if (now - w->t0 >= 1)
			fprintf(f, ", %.0f s", now - w->t0);
	}
	fclose(f);
	kb_info("%s", buf);
	free(buf);
}

/* Whether w ended (done or failed). */
static int ended(const struct kb_build_watch *w)
{
	return w->step == KB_STEP_DONE || w->step == KB_STEP_FAILED;
}

void kb_build_watch_show(struct kb_build_watch *w, size_t n, int say_done)
{
	double now = kb_now();
	int tty = isatty(2);

	for (size_t i = 0; i < n; i++) {
		int moved = w[i].step != w[i].said || w[i].layout != w[i].said_layout;

		if (ended(&w[i])) {
			/* a line of its own, on a terminal too: its one duration stays */
			if (moved && say_done && w[i].step == KB_STEP_DONE)
				say(&w[i], now);
		} else if (!tty && w[i].step != KB_STEP_WAITING &&
			   (moved || now - w[i].said_at >= SAY_EVERY)) {
			say(&w[i], now);
			w[i].said_at = now;
		}
		if (moved) {
			w[i].said = w[i].step;
			w[i].said_layout = w[i].layout;
			w[i].said_at = now;
		}
	}
	if (tty) {
		struct kb_build_watch live[n + 1];
		size_t going = 0;
		char *line;

		for (size_t i = 0; i < n; i++)
			if (!ended(&w[i]))
				live[going++] = w[i];
		if (!going) {
			kb_status(NULL);
			return;
		}
		line = kb_build_progress_line(live, going, now, columns() - 1);
		kb_status(line);
		free(line);
	}
}

void kb_build_watch_end(void)
{
	if (isatty(2))
		kb_status(NULL);
}
