// SPDX-License-Identifier: GPL-2.0-or-later
/* kb_vm_boot's two deadlines against stand-in "QEMU"s that are real
 * processes (shell scripts): one that never writes a byte, one that writes a
 * line and then hangs, one that writes and exits.  A silent guest is ended at
 * silence_timeout and called silent; one that has spoken runs to the full
 * timeout; without a silence_timeout nothing changes.  Wall times are lower
 * bounds where the deadline must have passed, and upper bounds with the
 * whole other deadline as margin, so a busy machine cannot fail them. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "scratch.h"
#include "util.h"
#include "vm.h"

static char dir[4096];

/* An executable script dir/NAME running BODY; its path (malloc'd). */
static char *script(const char *name, const char *body)
{
	char *p = kb_xasprintf("%s/%s", dir, name);
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	fprintf(f, "#!/bin/sh\n%s\n", body);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(p, 0755), 0);
	return p;
}

static void boot(const char *qemu, double timeout, double silence, struct kb_vm_result *res,
		 char **reason)
{
	struct kb_vm_opts o = {
		.qemu = qemu, .accel = "tcg", .kernel = "/nonexistent", .memory_mb = 32,
		.timeout = timeout, .silence_timeout = silence, .max_bytes = 1 << 16,
	};

	assert_int_equal(kb_vm_boot(&o, res), 0);
	kb_vm_outcome(res, &o, 0, 0, "", reason);
}

/* One stand-in QEMU, its two deadlines and what must come of them. */
struct deadline_case {
	const char *name, *body;
	double timeout, silence;
	int silent;		/* ended as silent */
	double at;		/* ended at this deadline, seconds (lower bound) */
	const char *why;	/* kb_vm_outcome's reason, or NULL: not checked */
};

static void run_case(const struct deadline_case *c)
{
	char *q = script(c->name, c->body), *why;
	struct kb_vm_result res;

	boot(q, c->timeout, c->silence, &res, &why);
	assert_true(res.timed_out);
	assert_int_equal(res.silent, c->silent);
	if (c->silent)
		assert_int_equal(res.bytes, 0);
	assert_true(res.seconds >= c->at && res.seconds < 30);
	if (c->why)
		assert_string_equal(why, c->why);
	free(why);
	free(q);
}

static void silent_guest_ends_at_silence_timeout(void **state)
{
	static const struct deadline_case c = {
		"mute", "exec sleep 60", 30, 1, 1, 1.0, "not one byte of serial output within 1 s",
	};

	(void)state;
	run_case(&c);
}

static void talking_guest_runs_to_timeout(void **state)
{
	static const struct deadline_case c = {
		"talk", "echo 'Linux version 6.1'; exec sleep 60", 3, 1, 0, 3.0,
		"no end within 3 s (the runner never started)",
	};

	(void)state;
	run_case(&c);
}

static void no_silence_timeout_waits_for_timeout(void **state)
{
	static const struct deadline_case c = { "mute2", "exec sleep 60", 2, 0, 0, 2.0, NULL };

	(void)state;
	run_case(&c);
}

/* A silence_timeout past the timeout: the timeout decides, as before. */
static void silence_past_timeout_is_timeout(void **state)
{
	static const struct deadline_case c = { "mute3", "exec sleep 60", 1, 20, 0, 1.0, NULL };

	(void)state;
	run_case(&c);
}

static void quick_exit_is_no_timeout(void **state)
{
	char *q = script("quit", "echo bye; exit 3"), *why;
	struct kb_vm_result res;

	(void)state;
	boot(q, 30, 5, &res, &why);
	assert_false(res.timed_out);
	assert_true(res.exited);
	assert_int_equal(res.status, 3);
	free(why);
	free(q);
}

static int setup(void **state)
{
	(void)state;
	return kb_test_scratch(dir, sizeof(dir), "test-vm");
}

static int teardown(void **state)
{
	(void)state;
	return kb_test_scratch_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(silent_guest_ends_at_silence_timeout),
		cmocka_unit_test(talking_guest_runs_to_timeout),
		cmocka_unit_test(no_silence_timeout_waits_for_timeout),
		cmocka_unit_test(silence_past_timeout_is_timeout),
		cmocka_unit_test(quick_exit_is_no_timeout),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
