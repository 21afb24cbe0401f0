// SPDX-License-Identifier: GPL-2.0-or-later
/* kb_vm_boot's deadline and exit against stand-in "QEMU"s that are real
 * processes (shell scripts): one that never writes a byte, one that writes a
 * line and then hangs, one that writes and exits.  A guest that hangs, silent
 * or not, is ended at the timeout and said to be so, with what it sent; one
 * that exits is not a timeout, and its status is kept.  Wall times are lower
 * bounds where the deadline must have passed, with a wide upper bound, so a
 * busy machine cannot fail them. */
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

static void boot(const char *qemu, double timeout, struct kb_vm_result *res, char **reason)
{
	struct kb_vm_opts o = {
		.qemu = qemu, .accel = KB_ACCEL_TCG, .kernel = "/nonexistent", .memory_mb = 32,
		.timeout = timeout, .max_bytes = 1 << 16,
	};

	assert_int_equal(kb_vm_boot(&o, res), 0);
	kb_vm_outcome(res, &o, 0, 0, "", reason);
}

/* One stand-in QEMU that hangs, and what must come of it. */
struct hang_case {
	const char *name, *body;
	double timeout;
	size_t bytes;		/* serial bytes it sends before it hangs */
	const char *why;	/* kb_vm_outcome's reason */
};

static void run_hang(const struct hang_case *c)
{
	char *q = script(c->name, c->body), *why;
	struct kb_vm_result res;

	boot(q, c->timeout, &res, &why);
	assert_true(res.timed_out);
	assert_false(res.exited);
	assert_int_equal(res.bytes, c->bytes);
	assert_true(res.seconds >= c->timeout && res.seconds < 30);
	assert_string_equal(why, c->why);
	free(why);
	free(q);
}

static void silent_guest_ends_at_timeout(void **state)
{
	static const struct hang_case c = {
		"mute", "exec sleep 60", 2, 0, "no end within 2 s (the runner never started)",
	};

	(void)state;
	run_hang(&c);
}

static void talking_guest_ends_at_timeout(void **state)
{
	static const struct hang_case c = {
		"talk", "echo 'Linux version 6.1'; exec sleep 60", 2, 18,
		"no end within 2 s (the runner never started)",
	};

	(void)state;
	run_hang(&c);
}

static void quick_exit_is_no_timeout(void **state)
{
	char *q = script("quit", "echo bye; exit 3"), *why;
	struct kb_vm_result res;

	(void)state;
	boot(q, 30, &res, &why);
	assert_false(res.timed_out);
	assert_true(res.exited);
	assert_int_equal(res.status, 3);
	assert_int_equal(res.bytes, 4);
	assert_true(res.seconds < 30);
	assert_string_equal(why, "QEMU exited (status 3) before the guest said done; the runner never started");
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
		cmocka_unit_test(silent_guest_ends_at_timeout),
		cmocka_unit_test(talking_guest_ends_at_timeout),
		cmocka_unit_test(quick_exit_is_no_timeout),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
