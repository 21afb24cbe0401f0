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
#include <dirent.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

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

/* Keys name metrics in the reports: plain names only, though values may use
 * the whole alphabet (the hello's pmu_why, workloads=a+b, sweep=0+4). */
static void keys_are_plain_names(void **state)
{
	static const char *const refused[] = {
		"@KB1 sample wl=getppid x.y=1", "@KB1 sample wl=getppid x:y=1",
		"@KB1 sample wl=getppid x+y=1", "@KB1 sample wl=getppid x-y=1",
		"@KB1 sample wl=getppid _x=1", "@KB1 sample wl=getppid 1x=1",
		"@KB1 sample wl=getppid ins_k=1 l1i.u=2", "@KB1 sam-ple x=1",
		"@KB1 _sample x=1",
	};
	static const char *const taken[] = {
		"@KB1 sample wl=getppid rep=1 iter=10 ns=999 cyc_k=1 l1i_u=2 itlb_k=3 mux_u=1000 k=16",
		"@KB1 hello proto=1 pmu=none pmu_why=no_PMU:x.y+z-1 workloads=getppid+pipe sweep=0+4",
		"@KB1 error param=kb_sweep reason=invalid value=4..8",
		"@KB1 Mark2 A=1 b_C_9=2",
	};
	char buf[600];
	struct kb_record r;
	const char *why;

	(void)state;
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		why = NULL;
		sealed(buf, sizeof(buf), refused[i]);
		assert_int_equal(kb_record_parse(buf, strlen(buf), &r, &why), -EBADMSG);
		assert_non_null(why);
	}
	for (size_t i = 0; i < sizeof(taken) / sizeof(taken[0]); i++) {
		sealed(buf, sizeof(buf), taken[i]);
		assert_int_equal(parse(buf, &r), KB_RECORD_OK);
	}
	assert_string_equal(kb_record_get(&r, "b_C_9"), "2");
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

/* Parse bytes placed flush against a PROT_NONE page: reading one byte past
 * the end faults, with or without a sanitizer. */
static int parse_at_guard(const char *data, size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t span = (len + (size_t)page - 1) / (size_t)page * (size_t)page + (size_t)page;
	char *map = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *p = map + span - (size_t)page - len;
	struct kb_record r;
	int ret;

	assert_true(map != MAP_FAILED);
	assert_int_equal(mprotect(map + span - page, (size_t)page, PROT_NONE), 0);
	memcpy(p, data, len);
	ret = kb_record_parse(p, len, &r, NULL);
	munmap(map, span);
	return ret;
}

static void unterminated_input(void **state)
{
	char buf[600];

	(void)state;
	sealed(buf, sizeof(buf), "@KB1 done samples=1 errors=0");
	assert_int_equal(parse_at_guard(buf, strlen(buf)), KB_RECORD_OK);
	/* checksum digits running into the end of the buffer */
	assert_int_equal(parse_at_guard("@KB1 done x=1 #1234", 19), -EBADMSG);
	assert_int_equal(parse_at_guard("@KB1 ", 5), -EBADMSG);
	assert_int_equal(parse_at_guard("@KB1", 4), KB_RECORD_NONE);
}

/* Inputs the fuzzer found crashing (fuzz/run record), kept as regressions:
 * fuzz-regressions/record/crash-0f0b... read past the end of an
 * unterminated line in the checksum's strtoul (fixed: digits read by hand). */
static void fuzz_regressions(void **state)
{
	const char *top = getenv("TEST_SRCDIR");
	char dir[512];
	struct dirent *de;
	DIR *d;
	int n = 0;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/fuzz-regressions/record", top ? top : "tests");
	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d))) {
		char path[1024], data[8192];
		size_t len;
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		f = fopen(path, "rb");
		assert_non_null(f);
		len = fread(data, 1, sizeof(data), f);
		fclose(f);
		parse_at_guard(data, len);	/* must return, whatever it says */
		n++;
	}
	closedir(d);
	assert_true(n > 0);
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
		cmocka_unit_test(keys_are_plain_names),
		cmocka_unit_test(overlong_rejected),
		cmocka_unit_test(unterminated_input),
		cmocka_unit_test(fuzz_regressions),
	};

	return cmocka_run_group_tests_name("record", tests, NULL, NULL);
}
