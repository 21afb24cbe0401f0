// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mmap(2) of one anonymous page, a write to it, munmap(2): VMA set-up, a
 * page fault that allocates and zeroes a page, and the unmap with its TLB
 * flush.
 */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "workload.h"

/* One map, touch, unmap; 0, or an errno value. */
static inline int map_touch_unmap(size_t len)
{
	volatile char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				-1, 0);

	if (p == MAP_FAILED)
		return errno;
	p[0] = 1;
	return munmap((void *)p, len) < 0 ? errno : 0;
}

int kb_wl_mmap_run(const struct kb_wl_args *args, struct kb_wl_result *res)
{
	size_t len = (size_t)sysconf(_SC_PAGESIZE);
	int err = 0;

	for (unsigned long i = 0; i < args->warmup && !err; i++)
		err = map_touch_unmap(len);

	if (!err) {
		KB_REGION_BEGIN(mmap, res);
		for (unsigned long i = 0; i < args->iters && !err; i++)
			err = map_touch_unmap(len);
		KB_REGION_END(mmap, res);
	}
	return err ? kb_wl_fail(res, "mmap", err) : 0;
}
