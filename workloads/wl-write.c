// SPDX-License-Identifier: GPL-2.0-or-later
/* A 1-byte write(2) to /dev/null: the VFS write path, the data discarded. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "workload.h"

int kb_wl_write_run(const struct kb_wl_args *args, struct kb_wl_result *res)
{
	const char c = 'k';
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return kb_wl_fail(res, "open", errno);
	for (unsigned long i = 0; i < args->warmup && !err; i++)
		if (write(fd, &c, 1) != 1)
			err = errno ? errno : EIO;

	if (!err) {
		KB_REGION_BEGIN(write, res);
		for (unsigned long i = 0; i < args->iters; i++)
			if (write(fd, &c, 1) != 1) {
				err = errno ? errno : EIO;
				break;
			}
		KB_REGION_END(write, res);
	}
	close(fd);
	return err ? kb_wl_fail(res, "write", err) : 0;
}
