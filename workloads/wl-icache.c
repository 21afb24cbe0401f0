// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The icache-pressure sweep: a null system call (getppid), then K KiB of
 * straight-line user code (icache.h), again and again.  The user code evicts
 * the kernel's entry and exit path from the instruction cache (and its
 * translations from the iTLB), so each system call fetches it again: the
 * cost per operation against K, per kernel, shows how much smaller kernel
 * text is worth once it competes for the cache.  One sample per K of the
 * runner's sweep (kb_sweep).
 */
#include <unistd.h>

#include "icache.h"
#include "workload.h"

static inline void sweep(unsigned long k, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		getppid();
		kb_icache_exec(k);
	}
}

int kb_wl_icache_run(const struct kb_wl_args *args, struct kb_wl_result *res)
{
	if (args->k > KB_ICACHE_MAX_KIB)
		return kb_wl_fail(res, "k", 0);
	sweep(args->k, args->warmup);

	KB_REGION_BEGIN(icache, res);
	sweep(args->k, args->iters);
	KB_REGION_END(icache, res);
	return 0;
}
