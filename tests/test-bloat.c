// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the bloat module's core: bloat-o-meter's renaming and
 * filtering, matching by name, the totals and counts, the order of the rows
 * and the printed lines.  The expected outputs were written by hand from the
 * rules of scripts/bloat-o-meter (Linux 6.1); tests/t0021-bloat.sh compares
 * with the script itself on real files.  Last, mutated and truncated ELF
 * files must give an error or a result, never a crash.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "bloat.h"
#include "scratch.h"
#include "util.h"

static void check_name(const char *raw, const char *want)
{
	char *got = kb_bloat_name(raw);

	assert_string_equal(got, want);
	free(got);
}

static void test_names(void **state)
{
	(void)state;
	check_name("foo", "foo");
	check_name("foo.isra.0", "foo.isra");
	check_name("foo.constprop.0.isra.12", "foo.constprop.isra");
	check_name("__func__.3", "__func__");
	check_name("a.12b.3.c.x4.", "ab.c.x4.");	/* every match, not only a suffix */
	check_name("x.1.2.3", "x");
	check_name(".", ".");
	check_name(".5", "");
	check_name("", "");
	check_name("v..7", "v.");

	assert_true(kb_bloat_ignored("__mod_pci__id_table"));
	assert_true(kb_bloat_ignored("__se_sys_getppid"));
	assert_true(kb_bloat_ignored("__se_compat_sys_ioctl"));
	assert_true(kb_bloat_ignored("__addressable_foo123"));
	assert_true(kb_bloat_ignored("linux_banner"));
	assert_true(kb_bloat_ignored("vermagic"));
	assert_false(kb_bloat_ignored("linux_banner2"));
	assert_false(kb_bloat_ignored("my_vermagic"));
	assert_false(kb_bloat_ignored("__se_compat"));
	assert_false(kb_bloat_ignored("__mod"));
}

static void test_add_filters(void **state)
{
	struct kb_bloat_syms s;

	(void)state;
	kb_bloat_syms_init(&s);
	assert_int_equal(kb_bloat_syms_add(&s, "keep.0", 4, KB_BLOAT_FUNC), 1);
	assert_int_equal(kb_bloat_syms_add(&s, "linux_banner", 4, KB_BLOAT_RODATA), 0);
	/* bloat-o-meter skips nm lines with a ':' (archive member headers) */
	assert_int_equal(kb_bloat_syms_add(&s, "colon:name", 4, KB_BLOAT_FUNC), 0);
	assert_int_equal(kb_bloat_syms_add(&s, "__se_sys_read", 4, KB_BLOAT_FUNC), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.v[0].name, "keep");
	assert_int_equal(s.v[0].size, 4);
	kb_bloat_syms_release(&s);
	assert_int_equal(s.n, 0);
}

struct sym {
	const char *name;
	unsigned long long size;
	unsigned kind;
};

static void fill(struct kb_bloat_syms *s, const struct sym *v, size_t n)
{
	kb_bloat_syms_init(s);
	for (size_t i = 0; i < n; i++)
		kb_bloat_syms_add(s, v[i].name, v[i].size, v[i].kind);
}

static const struct sym old_syms[] = {
	{ "same", 10, KB_BLOAT_FUNC },
	{ "grows", 10, KB_BLOAT_FUNC },
	{ "shrinks", 50, KB_BLOAT_FUNC },
	{ "gone", 7, KB_BLOAT_FUNC },
	{ "twin.1", 3, KB_BLOAT_FUNC },		/* twins: summed under "twin" */
	{ "twin.22", 4, KB_BLOAT_FUNC },
	{ "table", 100, KB_BLOAT_RODATA },
	{ "counter", 8, KB_BLOAT_DATA },
	{ "b_tie", 5, KB_BLOAT_FUNC },
	{ "a_tie", 5, KB_BLOAT_FUNC },
};

static const struct sym new_syms[] = {
	{ "same", 10, KB_BLOAT_FUNC },
	{ "grows", 25, KB_BLOAT_FUNC },
	{ "shrinks", 20, KB_BLOAT_FUNC },
	{ "new", 12, KB_BLOAT_FUNC },
	{ "twin.5", 9, KB_BLOAT_FUNC },
	{ "table", 90, KB_BLOAT_RODATA },
	{ "counter", 8, KB_BLOAT_DATA },
	{ "counter.0", 4, KB_BLOAT_DATA },	/* a static of the same name */
	{ "b_tie", 10, KB_BLOAT_FUNC },
	{ "a_tie", 10, KB_BLOAT_FUNC },
	{ "c_new", 5, KB_BLOAT_FUNC },
};

static const struct kb_bloat_row *row(const struct kb_bloat_diff *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->rows[i].name, name))
			return &d->rows[i];
	fail_msg("no row '%s'", name);
	return NULL;
}

static void test_diff_functions(void **state)
{
	struct kb_bloat_syms old, new;
	struct kb_bloat_diff d;
	const struct kb_bloat_row *r;

	(void)state;
	fill(&old, old_syms, KB_ARRAY_SIZE(old_syms));
	fill(&new, new_syms, KB_ARRAY_SIZE(new_syms));
	kb_bloat_diff(&old, &new, KB_BLOAT_FUNC, &d);
	/* same grows shrinks gone twin b_tie a_tie new c_new */
	assert_int_equal(d.n, 9);
	assert_int_equal(d.add, 2);
	assert_int_equal(d.remove, 1);
	assert_int_equal(d.grow, 4);	/* grows, twin, a_tie, b_tie */
	assert_int_equal(d.shrink, 1);	/* shrinks */
	assert_int_equal(d.up, 15 + 2 + 5 + 5 + 12 + 5);
	assert_int_equal(d.down, 30 + 7);
	assert_int_equal(d.old_total, 10 + 10 + 50 + 7 + 3 + 4 + 5 + 5);
	assert_int_equal(d.new_total, 10 + 25 + 20 + 12 + 9 + 10 + 10 + 5);
	r = row(&d, "twin");
	assert_true(r->in_old && r->in_new);
	assert_int_equal(r->old_size, 7);
	assert_int_equal(r->new_size, 9);
	assert_int_equal(r->delta, 2);
	r = row(&d, "gone");
	assert_true(r->in_old && !r->in_new);
	assert_int_equal(r->delta, -7);
	r = row(&d, "new");
	assert_true(!r->in_old && r->in_new);
	assert_int_equal(r->delta, 12);
	assert_int_equal(row(&d, "same")->delta, 0);

	/* delta descending, then name descending (Python's sort, reversed) */
	static const char *const order[] = {
		"grows", "new", "c_new", "b_tie", "a_tie", "twin", "same", "gone", "shrinks",
	};
	for (size_t i = 0; i < KB_ARRAY_SIZE(order); i++)
		assert_string_equal(d.rows[i].name, order[i]);
	kb_bloat_diff_release(&d);

	/* data: "counter" and "counter.0" are one name */
	kb_bloat_diff(&old, &new, KB_BLOAT_DATA, &d);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.rows[0].old_size, 8);
	assert_int_equal(d.rows[0].new_size, 12);
	assert_int_equal(d.grow, 1);
	kb_bloat_diff_release(&d);
	kb_bloat_syms_release(&old);
	kb_bloat_syms_release(&new);
}

/* Output of print_mode as a string. */
static char *printed(int mode, const struct kb_bloat_syms *old, const struct kb_bloat_syms *new)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	kb_bloat_print_mode(f, mode, old, new);
	fclose(f);
	return text;
}

static void test_print(void **state)
{
	struct kb_bloat_syms old, new;
	char *out;

	(void)state;
	fill(&old, old_syms, KB_ARRAY_SIZE(old_syms));
	fill(&new, new_syms, KB_ARRAY_SIZE(new_syms));
	out = printed('t', &old, &new);
	assert_string_equal(out,
		"add/remove: 2/1 grow/shrink: 4/1 up/down: 44/-37 (7)\n"
		"Function                                     old     new   delta\n"
		"grows                                         10      25     +15\n"
		"new                                            -      12     +12\n"
		"c_new                                          -       5      +5\n"
		"b_tie                                          5      10      +5\n"
		"a_tie                                          5      10      +5\n"
		"twin                                           7       9      +2\n"
		"gone                                           7       -      -7\n"
		"shrinks                                       50      20     -30\n"
		"Total: Before=94, After=101, chg +7.45%\n");
	free(out);

	out = printed('c', &old, &new);
	assert_non_null(strstr(out, "Total: Before=94, After=101, chg +7.45%\n"
				    "add/remove: 0/0 grow/shrink: 1/0 up/down: 4/0 (4)\n"
				    "Data                                         old     new   delta\n"
				    "counter                                        8      12      +4\n"
				    "Total: Before=8, After=12, chg +50.00%\n"
				    "add/remove: 0/0 grow/shrink: 0/1 up/down: 0/-10 (-10)\n"
				    "RO Data                                      old     new   delta\n"
				    "table                                        100      90     -10\n"
				    "Total: Before=100, After=90, chg -10.00%\n"));
	free(out);

	out = printed('d', &old, &new);
	assert_string_equal(out,
		"add/remove: 0/0 grow/shrink: 1/1 up/down: 4/-10 (-6)\n"
		"Data                                         old     new   delta\n"
		"counter                                        8      12      +4\n"
		"table                                        100      90     -10\n"
		"Total: Before=108, After=102, chg -5.56%\n");
	free(out);

	/* the default mode takes every kind, under the title "Function" */
	out = printed(0, &old, &new);
	assert_non_null(strstr(out, "add/remove: 2/1 grow/shrink: 5/2 up/down: 48/-47 (1)\n"
				    "Function "));
	assert_non_null(strstr(out, "Total: Before=202, After=203, chg +0.50%\n"));
	free(out);
	kb_bloat_syms_release(&old);
	kb_bloat_syms_release(&new);
}

static void test_print_edges(void **state)
{
	struct kb_bloat_syms old, new;
	char *out;

	(void)state;
	/* a change too small to show keeps its sign, as Python's %+.2f does */
	kb_bloat_syms_init(&old);
	kb_bloat_syms_init(&new);
	kb_bloat_syms_add(&old, "big", 100000, KB_BLOAT_FUNC);
	kb_bloat_syms_add(&new, "big", 99999, KB_BLOAT_FUNC);
	/* names are padded by characters, not bytes; a long one is not cut */
	kb_bloat_syms_add(&new, "caf\xc3\xa9_\xc3\xbcn\xc3\xaf", 3, KB_BLOAT_FUNC);
	kb_bloat_syms_add(&new, "a_name_longer_than_forty_characters_is_not_cut", 1, KB_BLOAT_FUNC);
	out = printed('t', &old, &new);
	assert_string_equal(out,
		"add/remove: 2/0 grow/shrink: 0/1 up/down: 4/-1 (3)\n"
		"Function                                     old     new   delta\n"
		"caf\xc3\xa9_\xc3\xbcn\xc3\xaf                                       -       3      +3\n"
		"a_name_longer_than_forty_characters_is_not_cut       -       1      +1\n"
		"big                                       100000   99999      -1\n"
		"Total: Before=100000, After=100003, chg +0.00%\n");
	free(out);
	kb_bloat_syms_release(&new);
	kb_bloat_syms_init(&new);
	kb_bloat_syms_add(&new, "big", 99999, KB_BLOAT_FUNC);
	out = printed('t', &old, &new);
	assert_non_null(strstr(out, "chg -0.00%\n"));
	free(out);

	/* nothing at all: no division by zero, "+0.00%", "0/0" */
	out = printed('d', &old, &new);
	assert_string_equal(out,
		"add/remove: 0/0 grow/shrink: 0/0 up/down: 0/0 (0)\n"
		"Data                                         old     new   delta\n"
		"Total: Before=0, After=0, chg +0.00%\n");
	free(out);
	kb_bloat_syms_release(&old);
	kb_bloat_syms_release(&new);
}

/* ---- damaged files ---- */

static char scratch[PATH_MAX];

static int write_bytes(const char *path, const unsigned char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, buf, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

/* An object file of this build: small, with every section kind of a
 * compiled C file.  Found through TEST_BUILDDIR as make check sets it. */
static char *find_object(void)
{
	const char *base = getenv("TEST_BUILDDIR");
	char *path;

	if (!base || !*base)
		return NULL;
	path = kb_xasprintf("%s/../src/build/libkbench_a-bloat.o", base);
	if (access(path, R_OK) == 0)
		return path;
	free(path);
	return NULL;
}

static void test_mutations(void **state)
{
	char *obj = find_object(), *copy = kb_xasprintf("%s/mutant.o", scratch);
	unsigned char *orig, *buf;
	unsigned long long shoff;
	size_t len;
	int saved, devnull, crashed = 0, errors = 0, read_ok = 0;

	(void)state;
	if (!obj) {
		free(copy);
		skip();
	}
	assert_int_equal(kb_read_file(obj, (char **)&orig, &len), 0);
	assert_true(len > 64 && orig[4] == 2);	/* a 64-bit object */
	memcpy(&shoff, orig + 0x28, sizeof(shoff));
	buf = kb_xmalloc(len);
	srand(20040114);
	saved = dup(2);
	devnull = open("/dev/null", O_WRONLY);
	dup2(devnull, 2);	/* thousands of error messages: not in the log */
	for (int i = 0; i < 3000; i++) {
		struct kb_bloat_syms s;
		size_t n = len;
		int r;

		memcpy(buf, orig, len);
		if (i % 10 == 9) {
			n = (size_t)rand() % len;	/* truncated */
		} else {
			for (int k = 1 + rand() % 4; k > 0; k--) {
				size_t at;

				switch (rand() % 3) {
				case 0: at = (size_t)rand() % 64; break;	/* ELF header */
				case 1: at = shoff + (size_t)rand() % (len - shoff); break;
				default: at = (size_t)rand() % len;
				}
				buf[at] = rand() % 2 ? (unsigned char)rand() : buf[at] ^ (1u << (rand() % 8));
			}
		}
		if (write_bytes(copy, buf, n) < 0) {
			crashed++;
			break;
		}
		kb_bloat_syms_init(&s);
		r = kb_bloat_syms_read(copy, &s);
		if (r < 0)
			errors++;
		else if (r == 0)
			read_ok++;
		else
			crashed++;
		kb_bloat_syms_release(&s);
	}
	dup2(saved, 2);
	close(saved);
	close(devnull);
	assert_int_equal(crashed, 0);
	assert_true(errors > 0);	/* some damage is noticed */
	assert_true(read_ok > 0);	/* and some leaves a readable file */
	unlink(copy);
	free(buf);
	free(orig);
	free(copy);
	free(obj);
}

static int setup(void **state)
{
	(void)state;
	return kb_test_scratch(scratch, sizeof(scratch), "test-bloat");
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(scratch) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_add_filters),
		cmocka_unit_test(test_diff_functions),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_print_edges),
		cmocka_unit_test(test_mutations),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
