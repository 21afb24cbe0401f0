// SPDX-License-Identifier: GPL-2.0-or-later
/* open(2) and close(2) of a file on tmpfs: path walk, file allocation, fd table. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "workload.h"

int kb_wl_open_run(const struct kb_wl_args *args, struct kb_wl_result *res)
{
	char path[256];
	int fd, err = 0;

	if (kb_wl_tmpfile(args, "open", path, sizeof(path)) < 0)
		return kb_wl_fail(res, "create", errno);
	for (unsigned long i = 0; i < args->warmup && !err; i++) {
		fd = open(path, O_RDONLY);
		if (fd < 0)
			err = errno;
		else
			close(fd);
	}

	if (!err) {
		KB_REGION_BEGIN(open, res);
		for (unsigned long i = 0; i < args->iters; i++) {
			fd = open(path, O_RDONLY);
			if (fd < 0) {
				err = errno;
				break;
			}
			close(fd);
		}
		KB_REGION_END(open, res);
	}
	unlink(path);
	return err ? kb_wl_fail(res, "open", err) : 0;
}
