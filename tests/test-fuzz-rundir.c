// SPDX-License-Identifier: GPL-2.0-or-later
/* The run-directory fuzz harness (fuzz/fuzz-rundir.c) without libFuzzer:
 * every input a fuzzer once crashed on (tests/fuzz-regressions/rundir/, the
 * expected and the buggy result in tests/fuzz-regressions/rundir/README)
 * and every seed (fuzz/corpus/rundir/) goes through the loaders and every
 * report writer again, with the harness's own checks. */
#include "../fuzz/fuzz-rundir.c"

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

/* Each file of dir (under TEST_SRCDIR, the tests directory) through the
 * harness; how many. */
static size_t replay(const char *sub)
{
	const char *top = getenv("TEST_SRCDIR");
	char *dir = kb_xasprintf("%s/%s", top ? top : "tests", sub);
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	while ((e = readdir(d))) {
		char *path, *data = NULL;
		size_t len = 0;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "README"))
			continue;
		path = kb_xasprintf("%s/%s", dir, e->d_name);
		assert_int_equal(kb_read_file(path, &data, &len), 0);
		print_message("%s\n", path);
		LLVMFuzzerTestOneInput((const uint8_t *)data, len);
		free(data);
		free(path);
		n++;
	}
	closedir(d);
	free(dir);
	return n;
}

static void regressions(void **state)
{
	(void)state;
	assert_true(replay("fuzz-regressions/rundir") > 0);
}

static void seeds(void **state)
{
	(void)state;
	assert_true(replay("../fuzz/corpus/rundir") > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(regressions),
		cmocka_unit_test(seeds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
