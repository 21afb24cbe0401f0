// SPDX-License-Identifier: GPL-2.0-or-later
/* The executor table: every entry fit to register, a broken one refused,
 * the smallest executor accepted (what adding one costs: its file, one line
 * in executors.def, one in Makefile.am), and the Slurm executor's [run]
 * keys read into its own options struct. */
#include "config.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "conf.h"
#include "executor.h"
#include "plan.h"
#include "run.h"
#include "scratch.h"
#include "util.h"

static char dir[PATH_MAX];

static int load(struct kb_conf *c, const char *text)
{
	return kb_test_conf_text(c, dir, text);
}

static void table_is_valid(void **state)
{
	const struct kb_executor *const *es;
	size_t n;

	(void)state;
	es = kb_executors(&n);
	assert_int_equal(n, KB_N_EXECUTORS);
	for (size_t i = 0; i < n; i++) {
		assert_null(kb_executor_check(es[i]));
		assert_ptr_equal(kb_executor_find(es[i]->name), es[i]);
		assert_int_equal(kb_executor_index(es[i]), i);
	}
	assert_ptr_equal(es[KB_EXECUTOR_ID_local], &kb_executor_local);
	assert_ptr_equal(es[KB_EXECUTOR_ID_slurm], &kb_executor_slurm);
	assert_null(kb_executor_find("no-such-executor"));
	assert_null(kb_executor_find(NULL));
	assert_string_equal(kb_executor_names(), "local or slurm");
	kb_executor_check_table();
}

/* The least an executor needs, as an executor-*.c file holds it: builds
 * (here: none, kb_run_build then builds every variant here) and boots
 * (here: every boot of the plan ends without an outcome, for --resume). */
struct null_opts {
	long null_x;
};

static const struct kb_option null_options[] = {
	{ .name = "null_x", .section = KB_SEC_RUN, .type = KB_OPT_LONG,
	  .off = offsetof(struct null_opts, null_x), .max = 9, .help = "executor = null: unused" },
	{ NULL },
};

static int null_builds(struct kb_executor_run *x, struct kb_run_variant *vs)
{
	(void)x;
	(void)vs;
	return 0;
}

static long null_boots(struct kb_executor_run *x, const struct kb_plan *plan,
		       struct kb_run_variant *vs)
{
	(void)vs;
	x->ran = (long)plan->n_todo;
	x->unfinished = (long)plan->n_todo;
	return 0;
}

static const struct kb_executor kb_executor_null = {
	.name = "null", .api = KB_EXECUTOR_API, .options = null_options,
	.opts_size = sizeof(struct null_opts), .builds = null_builds, .boots = null_boots,
};

static void registration(void **state)
{
	struct kb_executor e;
	struct kb_executor_run x = { .e = &kb_executor_null };
	struct kb_plan plan = { .n_todo = 3 };

	(void)state;
	assert_null(kb_executor_check(&kb_executor_null));
	/* the pipeline's calls, as pipeline.c makes them */
	assert_int_equal(x.e->builds(&x, NULL), 0);
	assert_int_equal(x.e->boots(&x, &plan, NULL), 0);
	assert_int_equal(x.ran, 3);
	assert_int_equal(x.unfinished, 3);

	e = kb_executor_null;
	e.api = KB_EXECUTOR_API + 1;
	assert_string_equal(kb_executor_check(&e), "built for another executor API version");
	e = kb_executor_null;
	e.boots = NULL;
	assert_string_equal(kb_executor_check(&e), "missing builds or boots");
	e = kb_executor_null;
	e.opts_size = 0;
	assert_string_equal(kb_executor_check(&e), "options without an options struct (opts_size 0)");
	e = kb_executor_slurm;
	e.release = NULL;
	assert_string_equal(kb_executor_check(&e), "init without release (or the reverse)");
	e = kb_executor_null;
	e.name = "";
	assert_string_equal(kb_executor_check(&e), "no name");
}

/* The slurm_* keys are the Slurm executor's: they land in its options
 * struct, not in struct kb_conf; [run] executor takes the table's names. */
static void executor_options(void **state)
{
	const struct kb_conf_option *all;
	struct kb_conf c;
	size_t n, found = 0;

	(void)state;
	assert_int_equal(load(&c, "[run]\nexecutor = slurm\nslurm_partition = debug\n"
				  "slurm_time = 10\n[variant a]\n"), 0);
	assert_string_equal(c.executor, "slurm");
	assert_int_equal(kb_conf_key_line(&c, KB_SEC_RUN, "slurm_time"), 4);
	all = kb_conf_options(&n);
	for (size_t i = 0; i < n; i++) {
		const char *base;

		if (strncmp(all[i].o->name, "slurm_", 6))
			continue;
		assert_ptr_equal(all[i].executor, &kb_executor_slurm);
		assert_null(all[i].owner);
		base = kb_conf_executor_opts(&c, all[i].executor);
		if (!strcmp(all[i].o->name, "slurm_partition"))
			assert_string_equal(*(char *const *)(base + all[i].o->off), "debug");
		else if (!strcmp(all[i].o->name, "slurm_time"))
			assert_string_equal(*(char *const *)(base + all[i].o->off), "10");
		else
			assert_null(*(char *const *)(base + all[i].o->off));
		found++;
	}
	assert_int_equal(found, 4);
	kb_conf_release(&c);

	assert_int_equal(load(&c, "[run]\n[variant a]\n"), 0);
	assert_string_equal(c.executor, "local");
	kb_conf_release(&c);
	assert_int_equal(load(&c, "[run]\nexecutor = null\n[variant a]\n"), -1);
	kb_conf_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_is_valid),
		cmocka_unit_test(registration),
		cmocka_unit_test(executor_options),
	};
	int r;

	setenv("KBENCH_CACHE", "/tmp/kbench-test-cache", 1);
	if (kb_test_scratch(dir, sizeof(dir), "test-executor") < 0)
		return 1;
	r = cmocka_run_group_tests(tests, NULL, NULL);
	kb_test_scratch_remove(dir);
	return r;
}
