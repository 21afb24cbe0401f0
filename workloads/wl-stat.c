// SPDX-License-Identifier: GPL-2.0-or-later
/* stat(2) of a file on tmpfs: the path walk and attribute copy, no file opened. */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workload.h"

int kb_wl_stat_run(const struct kb_wl_args *args, struct kb_wl_result *res)
{
	struct stat st;
	char path[256];
	int err = 0;

	if (kb_wl_tmpfile(args, "stat", path, sizeof(path)) < 0)
		return kb_wl_fail(res, "create", errno);
	for (unsigned long i = 0; i < args->warmup && !err; i++)
		if (stat(path, &st) < 0)
			err = errno;

	if (!err) {
		KB_REGION_BEGIN(stat, res);
		for (unsigned long i = 0; i < args->iters; i++)
			if (stat(path, &st) < 0) {
				err = errno;
				break;
			}
		KB_REGION_END(stat, res);
	}
	unlink(path);
	return err ? kb_wl_fail(res, "stat", err) : 0;
}
