// SPDX-License-Identifier: GPL-2.0-or-later
/* The null system call: the kernel's entry and exit path and little else. */
#include <unistd.h>

#include "workload.h"

int kb_wl_getppid_run(const struct kb_wl_args *args, struct kb_wl_result *res)
{
	/* glibc never caches getppid(): every call enters the kernel */
	for (unsigned long i = 0; i < args->warmup; i++)
		getppid();

	KB_REGION_BEGIN(getppid, res);
	for (unsigned long i = 0; i < args->iters; i++)
		getppid();
	KB_REGION_END(getppid, res);
	return 0;
}
