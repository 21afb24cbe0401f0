// SPDX-License-Identifier: GPL-2.0-or-later
/* The guest record parser: the guest is untrusted input. */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "record.h"

/* A line with a correct checksum appended. */
static char *sealed(char *buf, size_t size, const char *body)
{
	snprintf(buf, size, "%s #%08x", body, (unsigned)kb_proto_sum(body, strlen(body)));
	return buf;
}

static int parse(const char *line, struct kb_record *r)
{
	return kb_record_parse(line, strlen(line), r, NULL);
}

static void fnv_reference_vectors(void **state)
{
	(void)state;
	/* Published FNV-1a 32-bit test vectors. */
	assert_int_equal(kb_proto_sum("", 0), 0x811c9dc5u);
	assert_int_equal(kb_proto_sum("a", 1), 0xe40c292cu);
	assert_int_equal(kb_proto_sum("foobar", 6), 0xbf9cf968u);
}

static void valid_sample(void **state)
{
	char buf[600];
	struct kb_record r;
	unsigned long long v;

	(void)state;
	sealed(buf, sizeof(buf), "@KB1 sample wl=getppid rep=3 iter=500000 ns=199000000");
	assert_int_equal(parse(buf, &r), KB_RECORD_OK);
	assert_string_equal(r.kind, "sample");
	assert_int_equal(r.n, 4);
	assert_string_equal(kb_record_get(&r, "wl"), "getppid");
	assert_int_equal(kb_record_get_u64(&r, "iter", &v), 0);
	assert_int_equal(v, 500000);
	assert_int_equal(kb_record_get_u64(&r, "ns", &v), 0);
	assert_int_equal(v, 199000000ull);
	assert_null(kb_record_get(&r, "missing"));
	assert_int_equal(kb_record_get_u64(&r, "missing", &v), -ENOENT);
	assert_int_equal(kb_record_get_u64(&r, "wl", &v), -EINVAL);
}

static void console_text_is_not_a_record(void **state)
{
	struct kb_record r;

	(void)state;
	assert_int_equal(parse("[    0.000000] Linux version 6.1", &r), KB_RECORD_NONE);
	assert_int_equal(parse("", &r), KB_RECORD_NONE);
	assert_int_equal(parse("@KB2 sample #00000000", &r), KB_RECORD_NONE);
}

static void crlf_and_prefix_accepted(void **state)
{
	char buf[600], line[700];
	struct kb_record r;

	(void)state;
	sealed(buf, sizeof(buf), "@KB1 done samples=10 errors=0");
	snprintf(line, sizeof(line), "%s\r", buf);
	assert_int_equal(parse(line, &r), KB_RECORD_OK);
	/* console text glued in front: the record itself is intact */
	snprintf(line, sizeof(line), "[ 1.2] random: crng init%s", buf);
	assert_int_equal(parse(line, &r), KB_RECORD_OK);
	assert_string_equal(r.kind, "done");
}

static void garbled_lines_rejected(void **state)
{
	char buf[600], bad[700];
	struct kb_record r;
	const char *why = NULL;

	(void)state;
	sealed(buf, sizeof(buf), "@KB1 sample wl=getppid rep=1 iter=10 ns=999");
	/* every single-byte corruption of the body is caught */
	for (size_t i = 5; i < strlen(buf) - 10; i++) {
		snprintf(bad, sizeof(bad), "%s", buf);
		bad[i] ^= 0x01;
		assert_int_equal(kb_record_parse(bad, strlen(bad), &r, &why), -EBADMSG);
		assert_non_null(why);
	}
	/* kernel text interleaved in the middle */
	snprintf(bad, sizeof(bad), "@KB1 sample wl=get[ 3.1] oopsppid rep=1 iter=10 ns=999 #%s",
		 buf + strlen(buf) - 8);
	assert_int_equal(parse(bad, &r), -EBADMSG);
	/* truncated: checksum cut off */
	snprintf(bad, sizeof(bad), "%.*s", (int)strlen(buf) - 4, buf);
	assert_int_equal(parse(bad, &r), -EBADMSG);
	assert_int_equal(parse("@KB1 ", &r), -EBADMSG);
	assert_int_equal(parse("@KB1 sample #zzzzzzzz", &r), -EBADMSG);
}

static void malformed_but_checksummed_rejected(void **state)
{
	static const char *const bodies[] = {
		"@KB1 sample wl=a<b>",		/* character outside the alphabet */
		"@KB1 sample wl=a wl=b",	/* duplicate key */
		"@KB1 sample =x",		/* empty key */
		"@KB1 sample novalue",		/* no '=' */
		"@KB1 k=v",			/* kind missing */
		"@KB1 sample  wl=a",		/* empty field */
		"@KB1 averyveryverylongkindname x=1",
	};
	char buf[600];
	struct kb_record r;

	(void)state;
	for (size_t i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
		sealed(buf, sizeof(buf), bodies[i]);
		assert_int_equal(parse(buf, &r), -EBADMSG);
	}
}

static void overlong_rejected(void **state)
{
	char body[2000], buf[2100];
	struct kb_record r;

	(void)state;
	snprintf(body, sizeof(body), "@KB1 sample x=");
	memset(body + strlen(body), 'a', 1000);
	body[1014] = '\0';
	sealed(buf, sizeof(buf), body);
	assert_int_equal(parse(buf, &r), -EBADMSG);
	/* a value longer than the record keeps */
	snprintf(body, sizeof(body), "@KB1 sample x=");
	memset(body + strlen(body), 'a', 300);
	body[314] = '\0';
	sealed(buf, sizeof(buf), body);
	assert_int_equal(parse(buf, &r), -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fnv_reference_vectors),
		cmocka_unit_test(valid_sample),
		cmocka_unit_test(console_text_is_not_a_record),
		cmocka_unit_test(crlf_and_prefix_accepted),
		cmocka_unit_test(garbled_lines_rejected),
		cmocka_unit_test(malformed_but_checksummed_rejected),
		cmocka_unit_test(overlong_rejected),
	};

	return cmocka_run_group_tests_name("record", tests, NULL, NULL);
}
