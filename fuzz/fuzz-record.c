// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer harness: the guest record parser takes any bytes. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kb_record r;
	const char *why;
	unsigned long long v;

	if (kb_record_parse((const char *)data, size, &r, &why) == KB_RECORD_OK) {
		for (size_t i = 0; i < r.n; i++) {
			/* every field is NUL-terminated and reachable by key */
			if (kb_record_get(&r, r.f[i].key) == NULL)
				__builtin_trap();
			kb_record_get_u64(&r, r.f[i].key, &v);
		}
	}
	return 0;
}
