/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The guest-to-host record protocol, shared by the guest runner and the host
 * parser so the two cannot drift.  A record is one line on the serial port:
 *
 *   @KB1 <kind> key=value key=value ... #<fnv1a-32 of everything before " #">
 *
 * The kind and the keys are plain names (a letter, then letters, digits and
 * '_'); values are restricted to [A-Za-z0-9_.:+-]; the line is at most
 * KB_PROTO_MAX_LINE bytes.  Kernel console output may interleave with a
 * record; the checksum turns that into a counted, skipped line.
 */
#ifndef KB_PROTO_H
#define KB_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define KB_PROTO_MAGIC		"@KB1 "
#define KB_PROTO_VERSION	1
#define KB_PROTO_MAX_LINE	512
#define KB_PROTO_MAX_FIELDS	24

/* Marker IDs: the guest brackets each measured region with a multi-byte NOP
 * (0f 1f 84 00 imm32) whose displacement is one of these. */
#define KB_MARK_BASE		0x4b420000u	/* "KB" */
#define KB_MARK_BEGIN(wl)	(KB_MARK_BASE | ((unsigned)(wl) << 8) | 0x01u)
#define KB_MARK_END(wl)		(KB_MARK_BASE | ((unsigned)(wl) << 8) | 0x02u)

static inline uint32_t kb_proto_sum(const char *s, size_t n)
{
	uint32_t h = 2166136261u;	/* FNV-1a, 32 bit */

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

static inline int kb_proto_char_ok(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == ':' ||
	       c == '+' || c == '-';
}

#endif
