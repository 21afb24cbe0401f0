// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer harness: the ELF size reader on any file. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "size.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct kb_size s;
	FILE *f;

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/kbench-fuzz-size.%ld", (long)getpid());
	f = fopen(path, "wb");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	kb_size_read(path, &s);
	return 0;
}
