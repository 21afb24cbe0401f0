// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer harness: variants.conf parsing, through a real file as users do. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "conf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct kb_conf c;
	FILE *f;

	if (!path[0]) {
		snprintf(path, sizeof(path), "/tmp/kbench-fuzz-conf.%ld", (long)getpid());
		setenv("KBENCH_CACHE", "/tmp/kbench-fuzz-cache", 1);
	}
	f = fopen(path, "wb");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	if (kb_conf_load(&c, path) == 0) {
		/* a config that loads is complete */
		if (!c.n_variants || !c.baseline || !c.workloads || !c.cache)
			__builtin_trap();
		if (!kb_conf_variant(&c, c.baseline))
			__builtin_trap();
	}
	kb_conf_release(&c);
	return 0;
}
