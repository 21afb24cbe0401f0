// SPDX-License-Identifier: GPL-2.0-or-later
/* A 1-byte read(2) of /dev/null: the VFS read path, always at end of file. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "workload.h"

int kb_wl_read_run(const struct kb_wl_args *args, struct kb_wl_result *res)
{
	char c;
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return kb_wl_fail(res, "open", errno);
	for (unsigned long i = 0; i < args->warmup && !err; i++)
		if (read(fd, &c, 1) != 0)
			err = errno ? errno : EIO;

	if (!err) {
		KB_REGION_BEGIN(read, res);
		for (unsigned long i = 0; i < args->iters; i++)
			if (read(fd, &c, 1) != 0) {
				err = errno ? errno : EIO;
				break;
			}
		KB_REGION_END(read, res);
	}
	close(fd);
	return err ? kb_wl_fail(res, "read", err) : 0;
}
