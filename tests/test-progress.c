// SPDX-License-Identifier: GPL-2.0-or-later
/* A kernel build's progress (progress.h): the steps and objects read back
 * from a build log as kb_build_variant and make write it (a cached build's
 * log copied into it does not count), and the progress line's words. */
#include "config.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "progress.h"
#include "scratch.h"
#include "util.h"

static char dir[PATH_MAX];

static void append(const char *log, const char *text)
{
	FILE *f = fopen(log, "a");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Every line written so far, past each step. */
static void scan_all(struct kb_build_watch *w)
{
	while (kb_build_watch_scan(w))
		;
}

static void steps_from_log(void **state)
{
	char *log = kb_xasprintf("%s/build.log", dir);
	struct kb_build_watch w;

	(void)state;
	append(log, "an earlier build's lines\n  CC      old.o\n");
	kb_build_watch_init(&w, "'O2'", log);
	assert_int_equal(w.step, KB_STEP_WAITING);
	kb_build_step(log, KB_STEP_CONFIGURING, 0, -1, 0, 0);
	append(log, "$ make defconfig\n  HOSTCC  scripts/basic/fixdep\n");
	assert_true(kb_build_watch_scan(&w));
	assert_int_equal(w.step, KB_STEP_CONFIGURING);
	kb_build_step(log, KB_STEP_COMPILING, 0, 2391, 0, 0);
	append(log, "  CC      init/main.o\n  CC [M]  fs/x.o\n  AS      arch/x86/entry/entry_64.o\n"
		    "  HOSTCC  scripts/kallsyms\n  CC      mm/sl");	/* a line make still writes */
	scan_all(&w);
	assert_int_equal(w.step, KB_STEP_COMPILING);
	assert_int_equal(w.total, 2391);
	assert_int_equal(w.objects, 2);
	append(log, "ub.o\n  AR      built-in.a\n  LD      vmlinux.o\n  CC      arch/x86/boot/a20.o\n");
	scan_all(&w);
	assert_int_equal(w.objects, 4);
	assert_int_equal(w.step, KB_STEP_LINKING);	/* the boot code after the link: still linking */
	kb_build_step(log, KB_STEP_DONE, 0, -1, 914.54, 0);
	scan_all(&w);
	assert_int_equal(w.step, KB_STEP_DONE);
	assert_false(w.cached);
	assert_true(w.seconds > 914.49 && w.seconds < 914.51);

	/* layout 1 in the same log: a cached build's log copied in between
	 * does not move the steps */
	kb_build_step(log, KB_STEP_CONFIGURING, 1, -1, 0, 0);
	append(log, "kbench: cached build /c/kernels/x; its log follows\n");
	kb_build_step(log, KB_STEP_COMPILING, 0, 100, 0, 0);
	append(log, "  CC      a.o\n");
	kb_build_step(log, KB_STEP_DONE, 0, -1, 800, 0);
	append(log, "kbench: end of the cached build's log\n");
	scan_all(&w);
	assert_int_equal(w.step, KB_STEP_CONFIGURING);
	assert_int_equal(w.layout, 1);
	assert_int_equal(w.objects, 0);
	kb_build_step(log, KB_STEP_DONE, 1, -1, 2.3, 1);
	kb_build_step(log, KB_STEP_CONFIGURING, 2, -1, 0, 0);
	/* two steps in one scan's reach: each is seen, one at a time */
	assert_true(kb_build_watch_scan(&w));
	assert_int_equal(w.step, KB_STEP_DONE);
	assert_true(w.cached);
	assert_true(w.seconds > 2.29 && w.seconds < 2.31);
	assert_true(kb_build_watch_scan(&w));
	assert_int_equal(w.step, KB_STEP_CONFIGURING);
	assert_int_equal(w.layout, 2);
	assert_false(kb_build_watch_scan(&w));
	free(log);
}

static void progress_line(void **state)
{
	struct kb_build_watch w[2];
	char *l;

	(void)state;
	memset(w, 0, sizeof(w));
	w[0] = (struct kb_build_watch){ .what = "'O2'", .step = KB_STEP_COMPILING, .objects = 1204,
					.total = 2391, .t0 = 100 };
	w[1] = (struct kb_build_watch){ .what = "'Os'", .step = KB_STEP_LINKING, .layout = 3,
					.objects = 12, .total = -1, .t0 = 20 };
	l = kb_build_progress_line(w, 1, 402, 0);
	assert_string_equal(l, "building 'O2': compiling 1204 of 2391 objects, 5:02");
	free(l);
	l = kb_build_progress_line(w, 2, 402, 0);
	assert_string_equal(l, "building 'O2' compiling 1204/2391 5:02 | 'Os' layout 3 linking 12 6:22");
	free(l);
	l = kb_build_progress_line(w, 2, 402, 30);	/* a narrow terminal: cut, never wrapped */
	assert_int_equal(strlen(l), 30);
	free(l);
	/* the total unknown (an incremental build): the count alone; done: its duration */
	w[0].total = -1;
	l = kb_build_progress_line(w, 1, 402, 0);
	assert_string_equal(l, "building 'O2': compiling 1204 objects, 5:02");
	free(l);
	w[0] = (struct kb_build_watch){ .what = "'O2'", .step = KB_STEP_DONE, .seconds = 914.5 };
	l = kb_build_progress_line(w, 1, 5000, 0);
	assert_string_equal(l, "building 'O2': done, 15:15");
	free(l);
	w[0].step = KB_STEP_CONFIGURING;
	w[0].t0 = 4999.6;
	l = kb_build_progress_line(w, 1, 5000, 0);
	assert_string_equal(l, "building 'O2': configuring, 0:00");
	free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(steps_from_log),
		cmocka_unit_test(progress_line),
	};
	int r;

	if (kb_test_scratch(dir, sizeof(dir), "test-progress") < 0)
		return 1;
	r = cmocka_run_group_tests(tests, NULL, NULL);
	if (r == 0)
		kb_test_scratch_remove(dir);
	return r;
}
