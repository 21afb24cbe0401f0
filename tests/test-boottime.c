// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading hyperfine's JSON export: from real hyperfine runs (one command
 * that fails every other run, kept with --ignore-failure), and refusing
 * exports that do not hold what kbench needs. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "boottime.h"
#include "scratch.h"
#include "util.h"

static char dir[PATH_MAX];

static char *path(const char *name)
{
	return kb_xasprintf("%s/%s", dir, name);
}

static void write_text(const char *file, const char *text)
{
	FILE *f = fopen(file, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* What went wrong running hyperfine, on stdout (the TAP log keeps stdout
 * only): kb_run_argv's result, errno and hyperfine's log.  It failed with
 * -1 twice in make check -j2 and never alone. */
static void show_failure(int r, const char *log)
{
	char *text = NULL;
	int err = errno;

	printf("# kb_run_argv: %d (errno %d: %s)\n", r, err, strerror(err));
	if (kb_read_file(log, &text, NULL) == 0) {
		for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n"))
			printf("# hyperfine.log: %s\n", l);
		free(text);
	}
	fflush(stdout);
}

static void real_hyperfine(void **state)
{
	char *json = path("alt.json"), *flag = path("flag"), *cmd, *log = path("hyperfine.log");
	const char *why = NULL;
	double *t;
	size_t n, failed;
	int r;

	(void)state;
	/* fails when the flag is absent (and makes it), succeeds when present
	 * (and removes it): runs 1 and 3 fail, 2 and 4 succeed.  The sleep
	 * keeps each run well above the shell's start-up time, which hyperfine
	 * subtracts: a command about as short gave a time of 0.0 under load */
	cmd = kb_xasprintf("sleep 0.05; if test -e %s; then rm %s; else touch %s; exit 3; fi", flag, flag,
			   flag);
	{
		char *argv[] = { HYPERFINE_PROG, "--style", "basic", "--ignore-failure", "--runs", "4",
				 "--export-json", json, cmd, NULL };

		r = kb_run_argv(argv, NULL, log);
	}
	if (r != 0)
		show_failure(r, log);
	assert_int_equal(r, 0);
	r = kb_boottime_parse(json, &t, &n, &failed, &why);
	if (r != 0) {	/* say why */
		char *text = NULL;

		printf("# kb_boottime_parse: %s\n", why ? why : "?");
		if (kb_read_file(json, &text, NULL) == 0)
			printf("# %s: %.2000s\n", json, text);
		free(text);
		show_failure(0, log);
	}
	assert_int_equal(r, 0);
	assert_int_equal(n, 2);
	assert_int_equal(failed, 2);
	for (size_t i = 0; i < n; i++)
		assert_true(t[i] > 0 && t[i] < 10);
	free(t);

	/* all good: every time kept, in order */
	unlink(json);
	{
		char *argv[] = { HYPERFINE_PROG, "-N", "--style", "basic", "--runs", "3",
				 "--export-json", json, "true", NULL };

		assert_int_equal(kb_run_argv(argv, NULL, log), 0);
	}
	assert_int_equal(kb_boottime_parse(json, &t, &n, &failed, &why), 0);
	assert_int_equal(n, 3);
	assert_int_equal(failed, 0);
	free(t);
	free(cmd);
	free(json);
	free(flag);
	free(log);
}

static void refused(void **state)
{
	static const char *const bad[] = {
		"not json",
		"{}",
		"{\"results\": []}",
		"{\"results\": [{\"times\": [1.0, 2.0], \"exit_codes\": [0]}]}",
		"{\"results\": [{\"times\": [1.0, -2.0], \"exit_codes\": [0, 0]}]}",
		"{\"results\": [{\"times\": [1.0, \"x\"]}]}",
		"{\"results\": [{\"times\": 1.0}]}",
	};
	char *json = path("bad.json");
	const char *why;
	double *t;
	size_t n, failed;

	(void)state;
	for (size_t i = 0; i < KB_ARRAY_SIZE(bad); i++) {
		write_text(json, bad[i]);
		why = NULL;
		assert_int_equal(kb_boottime_parse(json, &t, &n, &failed, &why), -1);
		assert_non_null(why);
		assert_null(t);
	}
	/* a run ended by a signal: hyperfine writes a null exit code */
	write_text(json, "{\"results\": [{\"times\": [1.5, 2.5], \"exit_codes\": [null, 0]}]}");
	assert_int_equal(kb_boottime_parse(json, &t, &n, &failed, &why), 0);
	assert_int_equal(n, 1);
	assert_int_equal(failed, 1);
	assert_true(t[0] == 2.5);
	free(t);
	unlink(json);
	free(json);
	json = path("missing.json");
	assert_int_equal(kb_boottime_parse(json, &t, &n, &failed, &why), -1);
	free(json);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(real_hyperfine),
		cmocka_unit_test(refused),
	};
	int r;

	if (kb_test_scratch(dir, sizeof(dir), "test-boottime") < 0)
		return 99;
	r = cmocka_run_group_tests(tests, NULL, NULL);
	if (kb_test_scratch_remove(dir) < 0)
		r = r ? r : 1;
	return r;
}
