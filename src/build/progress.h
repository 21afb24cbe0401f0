/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_PROGRESS_H
#define KB_PROGRESS_H

#include <stddef.h>
#include <sys/types.h>

/*
 * A kernel build's progress, read back from its build log: kb_build_variant
 * writes a "kbench: build step: ..." line into the log at each step, and
 * make's own lines ("  CC      mm/slub.o") count the objects compiled.  The
 * log is all there is to read, so that a build in a child process (builds
 * at once, run/prebuild.c) shows the same progress as one in kbench itself.
 */
enum kb_build_step {
	KB_STEP_WAITING,	/* nothing in the log yet */
	KB_STEP_CONFIGURING,	/* the object directory's lock, make defconfig, olddefconfig */
	KB_STEP_COMPILING,	/* make bzImage up to the link of vmlinux */
	KB_STEP_LINKING,	/* vmlinux, System.map, bzImage, into the cache */
	KB_STEP_DONE,		/* built, or found in the cache */
	KB_STEP_FAILED,
};

struct kb_build_watch {
	const char *what;	/* "'O2'": how messages name the build */
	const char *log;
	off_t seen;		/* bytes of the log read */
	int skip;		/* inside a cached build's log copied into this one */
	enum kb_build_step step;
	int layout;		/* the replica the last step line named */
	int cached;		/* done: found in the cache */
	long objects;		/* "  CC " lines since compiling began */
	long total;		/* objects of a whole build of this .config, or -1 */
	double t0;		/* when this replica's build began (kb_now()) */
	double seconds;		/* done: its one duration, as the step line gave it */
	/* what kb_build_watch_show said last, outside a terminal */
	enum kb_build_step said;
	int said_layout;
	double said_at;
};

/* The step line kb_build_variant writes into log_path (appended): step,
 * layout, and for compiling the objects of a whole build or -1, for done
 * the build's duration (cached: found in the cache). */
void kb_build_step(const char *log_path, enum kb_build_step step, int layout, long total,
		   double seconds, int cached);

/* Start watching log (kept, not copied), the build named what; reads from
 * its current end, so that an earlier build's lines do not count. */
void kb_build_watch_init(struct kb_build_watch *w, const char *what, const char *log);
/* Read what the log gained since, up to the next change of step: 1 when
 * there was one (show it, then scan again: a step seconds long is not
 * skipped), else 0. */
int kb_build_watch_scan(struct kb_build_watch *w);
/* Read one line of a log into w (kb_build_watch_scan's step), for tests. */
void kb_build_watch_line(struct kb_build_watch *w, const char *line, double now);

/* The progress of n builds as one line of at most width columns (malloc'd):
 * "building 'O2': compiling 1204 of 2391 objects, 5:02" or, with several,
 * "building 'O2' compiling 1204/2391 5:02 | 'Os' linking 9:40". */
char *kb_build_progress_line(const struct kb_build_watch *w, size_t n, double now, size_t width);

/* Say the progress of n builds: on a terminal one line rewritten in place;
 * elsewhere (a log, CI) a line per build at each step and at most one a
 * minute between, plus done where say_done (the caller says nothing then). */
void kb_build_watch_show(struct kb_build_watch *w, size_t n, int say_done);
/* Clear the terminal's progress line. */
void kb_build_watch_end(void);

#endif
