// SPDX-License-Identifier: GPL-2.0-or-later
/* The host side of the guest record protocol: the guest is untrusted, so a
 * record is believed only when its syntax and checksum are right. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

static int bad(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -EBADMSG;
}

/* Kinds and keys are plain names (a letter, then letters, digits, '_'),
 * as the runner sends: a sample's keys become JSON member names, metric
 * names and units in every report writer and plot label, none of which
 * should have to think about what else proto.h's value alphabet allows. */
static int is_name(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)s[i];
		int letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');

		if (!letter && (i == 0 || !((c >= '0' && c <= '9') || c == '_')))
			return 0;
	}
	return n > 0;
}

int kb_record_parse(const char *line, size_t len, struct kb_record *r, const char **why)
{
	static const size_t mlen = sizeof(KB_PROTO_MAGIC) - 1;
	const char *start = NULL, *end, *sum, *p;
	unsigned long want;

	/* Console text may precede a record on the same line; the checksum
	 * covers the record from its magic on. */
	for (size_t i = 0; i + mlen <= len; i++)
		if (!memcmp(line + i, KB_PROTO_MAGIC, mlen)) {
			start = line + i;
			break;
		}
	if (!start)
		return KB_RECORD_NONE;
	end = line + len;
	while (end > start && (end[-1] == '\r' || end[-1] == '\n'))
		end--;
	if ((size_t)(end - start) > KB_PROTO_MAX_LINE)
		return bad(why, "overlong record");
	if (end - start < (ptrdiff_t)(mlen + 11))
		return bad(why, "truncated record");
	sum = end - 10;
	if (memcmp(sum, " #", 2))
		return bad(why, "no checksum");
	/* The line is not NUL-terminated: read the eight digits by hand. */
	want = 0;
	for (int i = 2; i < 10; i++) {
		const char *d = memchr("0123456789abcdef", sum[i], 16);

		if (!d)
			return bad(why, "malformed checksum");
		want = want << 4 | (unsigned long)(d - "0123456789abcdef");
	}
	if (kb_proto_sum(start, (size_t)(sum - start)) != (uint32_t)want)
		return bad(why, "checksum mismatch");

	memset(r, 0, sizeof(*r));
	p = start + mlen;
	for (size_t n = 0; p < sum; n++) {
		const char *tok = p, *eq = NULL;

		while (p < sum && *p != ' ') {
			if (*p == '=' && !eq)
				eq = p;
			else if (!kb_proto_char_ok((unsigned char)*p))
				return bad(why, "bad character in record");
			p++;
		}
		if (p == tok)
			return bad(why, "empty field");
		if (n == 0) {
			if (eq || (size_t)(p - tok) >= sizeof(r->kind) || !is_name(tok, (size_t)(p - tok)))
				return bad(why, "bad record kind");
			memcpy(r->kind, tok, (size_t)(p - tok));
		} else {
			if (r->n == KB_PROTO_MAX_FIELDS)
				return bad(why, "too many fields");
			if (!eq || eq == tok || (size_t)(eq - tok) >= sizeof(r->f[0].key) ||
			    (size_t)(p - eq - 1) >= sizeof(r->f[0].value))
				return bad(why, "bad key=value field");
			if (!is_name(tok, (size_t)(eq - tok)))
				return bad(why, "key is not a plain name");
			memcpy(r->f[r->n].key, tok, (size_t)(eq - tok));
			memcpy(r->f[r->n].value, eq + 1, (size_t)(p - eq - 1));
			for (size_t k = 0; k < r->n; k++)
				if (!strcmp(r->f[k].key, r->f[r->n].key))
					return bad(why, "duplicate key");
			r->n++;
		}
		if (p < sum)
			p++;	/* the single space between fields */
	}
	if (!r->kind[0])
		return bad(why, "bad record kind");
	return KB_RECORD_OK;
}

const char *kb_record_get(const struct kb_record *r, const char *key)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->f[i].key, key))
			return r->f[i].value;
	return NULL;
}

int kb_record_get_u64(const struct kb_record *r, const char *key, unsigned long long *v)
{
	const char *s = kb_record_get(r, key);
	char *e;

	if (!s)
		return -ENOENT;
	if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 19)
		return -EINVAL;
	*v = strtoull(s, &e, 10);
	return 0;
}
