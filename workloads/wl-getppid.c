// SPDX-License-Identifier: GPL-2.0-or-later
/* The null system call: the kernel's entry and exit path and little else. */
#include <unistd.h>

#include "workload.h"

int kb_wl_getppid_run(const struct kb_wl_args *args, struct kb_wl_result *res)
{
	uint64_t t0, t1;

	/* glibc never caches getppid(): every call enters the kernel */
	for (unsigned long i = 0; i < args->warmup; i++)
		getppid();

	t0 = kb_wl_now();
	KB_MARK(KB_MARK_BEGIN(KB_WL_getppid));
	for (unsigned long i = 0; i < args->iters; i++)
		getppid();
	KB_MARK(KB_MARK_END(KB_WL_getppid));
	t1 = kb_wl_now();

	res->ns = t1 - t0;
	return 0;
}
