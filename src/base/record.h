/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_RECORD_H
#define KB_RECORD_H

#include <stddef.h>

#include "proto.h"

/* One validated guest record (see proto.h for the line format). */
struct kb_record {
	char kind[16];
	size_t n;
	struct {
		char key[32];
		char value[160];
	} f[KB_PROTO_MAX_FIELDS];
};

enum {
	KB_RECORD_OK = 0,	/* a valid record */
	KB_RECORD_NONE = 1,	/* ordinary console text */
};

/* Parse one serial line (no newline).  KB_RECORD_OK, KB_RECORD_NONE, or
 * -EBADMSG for a line that carries the record magic but is malformed,
 * overlong or fails its checksum: it must be counted and skipped.  On
 * -EBADMSG *why says what was wrong. */
int kb_record_parse(const char *line, size_t len, struct kb_record *r, const char **why);
const char *kb_record_get(const struct kb_record *r, const char *key);
/* 0, -ENOENT when absent, -EINVAL when not an unsigned decimal number */
int kb_record_get_u64(const struct kb_record *r, const char *key, unsigned long long *v);

#endif
