// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the size module.  The reference is binutils size itself:
 * where it is installed, every figure is checked against its output for the
 * same file.  Files are real ELF programs found on the host, and ELF files
 * written here with libelf so that every section kind has a known answer, in
 * both classes and both byte orders.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
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

#include "commands.h"
#include "commands.h"
#include "size.h"
#include "scratch.h"
#include "util.h"

static char scratch[PATH_MAX];
static char self[PATH_MAX];

static char *scratch_path(const char *name)
{
	return kb_xasprintf("%s/%s", scratch, name);
}

/* binutils size, or -1 when the host lacks it (the comparison is then skipped). */
static int have_binutils_size(void)
{
	static int have = -1;

	if (have < 0)
		have = system("size --version >/dev/null 2>&1") == 0;
	return have;
}

/* Output of a shell command, malloc'd; its exit status in *status. */
static char *capture(const char *cmd, int *status)
{
	FILE *p = popen(cmd, "r");
	size_t len = 0, cap = 4096, n;
	char *buf = kb_xmalloc(cap);

	assert_non_null(p);
	while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
		len += n;
		if (cap - len < 2) {
			cap *= 2;
			buf = kb_xrealloc(buf, cap);
		}
	}
	buf[len] = '\0';
	*status = pclose(p);
	return buf;
}

/* The Berkeley figures binutils size gives for path. */
static void binutils_berkeley(const char *path, struct kb_size *out)
{
	char *cmd = kb_xasprintf("size -B -- '%s' 2>/dev/null", path);
	int status;
	char *text = capture(cmd, &status);
	char *row = strchr(text, '\n');

	assert_int_equal(status, 0);
	assert_non_null(row);
	assert_int_equal(sscanf(row + 1, "%llu %llu %llu", &out->text, &out->data, &out->bss), 3);
	free(text);
	free(cmd);
}

/* Run `kbench size ARGS...` in-process with its stdout captured. */
static char *run_cmd_size(int *rc, ...)
{
	char *argv[16] = { "size" };
	int argc = 1, saved;
	FILE *tmp = tmpfile();
	va_list ap;
	char *buf;
	long len;

	va_start(ap, rc);
	while (argc < 15 && (argv[argc] = va_arg(ap, char *)) != NULL)
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	assert_non_null(tmp);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(tmp), STDOUT_FILENO) >= 0);
	*rc = kb_command_size.fn(argc, argv);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	len = ftell(tmp);
	assert_true(len >= 0);
	buf = kb_xmalloc((size_t)len + 1);
	rewind(tmp);
	assert_int_equal(fread(buf, 1, (size_t)len, tmp), (size_t)len);
	buf[len] = '\0';
	fclose(tmp);
	return buf;
}

static void write_bytes(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
	close(fd);
}

/*
 * One section of each kind binutils tells apart, with where its bytes go:
 * 't'ext, 'd'ata, 'b'ss or '-' (not counted).
 */
static const struct synth_section {
	const char *name;
	unsigned type;
	unsigned long long flags;
	size_t size;
	char where;
} synth[] = {
	{ ".text",	SHT_PROGBITS,	SHF_ALLOC | SHF_EXECINSTR,		100, 't' },
	{ ".rodata",	SHT_PROGBITS,	SHF_ALLOC,				 20, 't' },
	{ ".note.x",	SHT_NOTE,	SHF_ALLOC,				 24, 't' },
	{ ".robss",	SHT_NOBITS,	SHF_ALLOC,				 64, 't' },
	{ ".data",	SHT_PROGBITS,	SHF_ALLOC | SHF_WRITE,			 30, 'd' },
	{ ".tdata",	SHT_PROGBITS,	SHF_ALLOC | SHF_WRITE | SHF_TLS,	  8, 'd' },
	{ ".init_array", SHT_INIT_ARRAY, SHF_ALLOC | SHF_WRITE,			  8, 'd' },
	{ ".tbss",	SHT_NOBITS,	SHF_ALLOC | SHF_WRITE | SHF_TLS,	 16, 'b' },
	{ ".bss",	SHT_NOBITS,	SHF_ALLOC | SHF_WRITE,			400, 'b' },
	{ ".comment",	SHT_PROGBITS,	SHF_MERGE | SHF_STRINGS,		 10, '-' },
	{ ".wnobits",	SHT_NOBITS,	SHF_WRITE,				 50, '-' },
	{ ".debug_x",	SHT_PROGBITS,	0,					 12, '-' },
};

static const struct kb_size synth_expected = {
	.text = 100 + 20 + 24 + 64, .data = 30 + 8 + 8, .bss = 16 + 400,
};

/* An ELF file of class cls, byte order order, type type, with the synth sections. */
static void write_synth(const char *path, int cls, int order, int type)
{
	static unsigned char zeros[512];
	char names[512] = "";
	size_t names_len = 1;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	Elf_Scn *scn;
	Elf_Data *d;
	Elf *e;
	int fd;

	assert_int_not_equal(elf_version(EV_CURRENT), EV_NONE);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	e = elf_begin(fd, ELF_C_WRITE, NULL);
	assert_non_null(e);
	assert_non_null(gelf_newehdr(e, cls));
	assert_non_null(gelf_getehdr(e, &eh));
	eh.e_ident[EI_DATA] = (unsigned char)order;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_machine = order == ELFDATA2LSB ? (cls == ELFCLASS64 ? EM_X86_64 : EM_386) :
		       (cls == ELFCLASS64 ? EM_S390 : EM_PPC);
	eh.e_type = (GElf_Half)type;
	eh.e_version = EV_CURRENT;
	assert_true(gelf_update_ehdr(e, &eh) != 0);
	for (size_t i = 0; i < KB_ARRAY_SIZE(synth); i++) {
		scn = elf_newscn(e);
		assert_non_null(scn);
		d = elf_newdata(scn);
		assert_non_null(d);
		d->d_buf = synth[i].type == SHT_NOBITS ? NULL : zeros;
		d->d_size = synth[i].size;
		d->d_type = ELF_T_BYTE;
		d->d_align = 1;
		assert_non_null(gelf_getshdr(scn, &sh));
		sh.sh_name = (GElf_Word)names_len;
		sh.sh_type = synth[i].type;
		sh.sh_flags = synth[i].flags;
		sh.sh_size = synth[i].size;
		sh.sh_addralign = 1;
		sh.sh_entsize = (synth[i].flags & SHF_STRINGS) ? 1 : 0;
		if (type == ET_EXEC && (synth[i].flags & SHF_ALLOC))
			sh.sh_addr = 0x8048000 + 0x1000 * i;
		assert_true(gelf_update_shdr(scn, &sh) != 0);
		strcpy(names + names_len, synth[i].name);
		names_len += strlen(synth[i].name) + 1;
	}
	scn = elf_newscn(e);
	assert_non_null(scn);
	strcpy(names + names_len, ".shstrtab");
	assert_non_null(gelf_getshdr(scn, &sh));
	sh.sh_name = (GElf_Word)names_len;
	names_len += strlen(".shstrtab") + 1;
	sh.sh_type = SHT_STRTAB;
	sh.sh_addralign = 1;
	assert_true(gelf_update_shdr(scn, &sh) != 0);
	d = elf_newdata(scn);
	assert_non_null(d);
	d->d_buf = names;
	d->d_size = names_len;
	d->d_type = ELF_T_BYTE;
	d->d_align = 1;
	assert_non_null(gelf_getehdr(e, &eh));
	eh.e_shstrndx = (GElf_Half)elf_ndxscn(scn);
	assert_true(gelf_update_ehdr(e, &eh) != 0);
	assert_true(elf_update(e, ELF_C_WRITE) > 0);
	elf_end(e);
	close(fd);
}

static void assert_size_equal(const struct kb_size *a, const struct kb_size *b)
{
	assert_int_equal(a->text, b->text);
	assert_int_equal(a->data, b->data);
	assert_int_equal(a->bss, b->bss);
}

static void check_against_binutils(const char *path)
{
	struct kb_size got, want;

	assert_int_equal(kb_size_read(path, &got), 0);
	if (!have_binutils_size())
		return;
	binutils_berkeley(path, &want);
	assert_size_equal(&got, &want);
}

/* Every section kind, 32/64-bit, both byte orders, object and program. */
static void test_synthetic_rules(void **state)
{
	static const int classes[] = { ELFCLASS32, ELFCLASS64 };
	static const int orders[] = { ELFDATA2LSB, ELFDATA2MSB };
	static const int types[] = { ET_REL, ET_EXEC };

	(void)state;
	for (size_t c = 0; c < 2; c++)
		for (size_t o = 0; o < 2; o++)
			for (size_t t = 0; t < 2; t++) {
				char *name = kb_xasprintf("synth-%d-%d-%d", classes[c], orders[o],
							  types[t]);
				char *path = scratch_path(name);
				struct kb_size got;

				write_synth(path, classes[c], orders[o], types[t]);
				assert_int_equal(kb_size_read(path, &got), 0);
				assert_size_equal(&got, &synth_expected);
				check_against_binutils(path);
				free(path);
				free(name);
			}
}

/* Real programs and libraries of the host, and this test itself. */
static void test_host_files(void **state)
{
	static const char *const candidates[] = {
		"/bin/sh", "/bin/ls", "/usr/bin/env",
		"/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6",
		"/lib/x86_64-linux-gnu/libelf.so.1", "/usr/lib32/libc.so.6",
		"/usr/lib32/crt1.o", "/usr/lib/x86_64-linux-gnu/crt1.o",
	};
	int checked = 0;

	(void)state;
	check_against_binutils(self);
	for (size_t i = 0; i < KB_ARRAY_SIZE(candidates); i++) {
		char real[PATH_MAX];

		if (!realpath(candidates[i], real) || access(real, R_OK))
			continue;
		check_against_binutils(real);
		checked++;
	}
	assert_true(checked > 0);
}

/* The whole output of `kbench size` against `size`, Berkeley and sysv. */
static void test_cmd_output(void **state)
{
	char *a = scratch_path("synth-1-2-1"), *b = scratch_path("synth-2-1-2");
	const char *const formats[] = { "--format=berkeley", "--format=sysv" };
	const char *const binutils_formats[] = { "-B", "-A" };

	(void)state;
	write_synth(a, ELFCLASS32, ELFDATA2MSB, ET_REL);
	write_synth(b, ELFCLASS64, ELFDATA2LSB, ET_EXEC);
	for (size_t f = 0; f < 2; f++) {
		int rc, status;
		char *got = run_cmd_size(&rc, formats[f], self, a, b, (char *)NULL);

		assert_int_equal(rc, KB_EXIT_OK);
		if (have_binutils_size()) {
			char *cmd = kb_xasprintf("size %s -- '%s' '%s' '%s'", binutils_formats[f],
						 self, a, b);
			char *want = capture(cmd, &status);

			assert_int_equal(status, 0);
			assert_string_equal(got, want);
			free(want);
			free(cmd);
		}
		free(got);
	}
	free(a);
	free(b);
}

static void test_print_format(void **state)
{
	struct kb_size small = { 1, 2, 3 }, big = { 123456789ULL, 0, 4294967296ULL };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	kb_size_print_header(f);
	kb_size_print_row(f, &small, "x.o");
	kb_size_print_row(f, &big, "vmlinux");
	fclose(f);
	assert_string_equal(buf,
		"   text\t   data\t    bss\t    dec\t    hex\tfilename\n"
		"      1\t      2\t      3\t      6\t      6\tx.o\n"
		"123456789\t      0\t4294967296\t4418424085\t1075bcd15\tvmlinux\n");
	free(buf);
}

static void test_not_elf(void **state)
{
	char *path = scratch_path("notelf.txt");
	struct kb_size s;

	(void)state;
	write_bytes(path, "hello, world\n", 13);
	assert_int_equal(kb_size_read(path, &s), -ENOEXEC);
	write_bytes(path, "\177EL", 3);
	assert_int_equal(kb_size_read(path, &s), -ENOEXEC);
	/* the magic, then a class that does not exist */
	write_bytes(path, "\177ELF\003\001\001\000\000\000\000\000\000\000\000\000", 16);
	assert_int_equal(kb_size_read(path, &s), -ENOEXEC);
	free(path);
}

static void test_empty_missing_directory(void **state)
{
	char *empty = scratch_path("empty"), *missing = scratch_path("missing");
	struct kb_size s;

	(void)state;
	write_bytes(empty, "", 0);
	assert_int_equal(kb_size_read(empty, &s), -ENOEXEC);
	assert_int_equal(kb_size_read(missing, &s), -ENOENT);
	assert_int_equal(kb_size_read(scratch, &s), -EISDIR);
	free(empty);
	free(missing);
}

/* An archive has members, not sizes: refused by kb_size_read, listed by the command. */
static void test_archive(void **state)
{
	char *obj = scratch_path("member.o"), *ar = scratch_path("lib.a");
	char *buf, *member, hdr[61];
	size_t len;
	struct kb_size s;
	FILE *f;
	int rc;

	(void)state;
	write_synth(obj, ELFCLASS64, ELFDATA2LSB, ET_REL);
	assert_int_equal(kb_read_file(obj, &buf, &len), 0);
	snprintf(hdr, sizeof(hdr), "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", "member.o/", "0", "0", "0",
		 "644", len);
	f = fopen(ar, "wb");
	assert_non_null(f);
	fputs("!<arch>\n", f);
	fputs(hdr, f);
	fwrite(buf, 1, len, f);
	if (len & 1)
		fputc('\n', f);
	fclose(f);
	free(buf);
	assert_int_equal(kb_size_read(ar, &s), -EINVAL);
	member = run_cmd_size(&rc, ar, (char *)NULL);
	assert_int_equal(rc, KB_EXIT_OK);
	buf = kb_xasprintf("   text\t   data\t    bss\t    dec\t    hex\tfilename\n"
			   "    208\t     46\t    416\t    670\t    29e\tmember.o (ex %s)\n", ar);
	assert_string_equal(member, buf);
	free(buf);
	free(member);
	free(obj);
	free(ar);
}

/*
 * Truncated copies of src, cut at every byte of its last 4 KiB and every
 * step bytes before: an error, or the figures of the whole file, never a crash.
 */
static void check_truncations(const char *src, const char *copy, size_t step)
{
	struct kb_size whole, cut;
	size_t len, errors = 0, off;
	char *buf;
	int fd;

	assert_int_equal(kb_size_read(src, &whole), 0);
	assert_int_equal(kb_read_file(src, &buf, &len), 0);
	write_bytes(copy, buf, len);
	free(buf);
	fd = open(copy, O_WRONLY);
	assert_true(fd >= 0);
	off = len;
	while (off > 0) {
		int ret;

		off -= (len - off < 4096 || off < step) ? 1 : step;
		assert_int_equal(ftruncate(fd, (off_t)off), 0);
		ret = kb_size_read(copy, &cut);
		if (ret < 0) {
			errors++;
			continue;
		}
		assert_size_equal(&cut, &whole);
	}
	close(fd);
	/* the section header table comes last: losing any byte of it is an error */
	assert_true(errors > 0);
}

static void test_truncated(void **state)
{
	char *small = scratch_path("synth-trunc"), *copy = scratch_path("truncated");

	(void)state;
	write_synth(small, ELFCLASS32, ELFDATA2MSB, ET_EXEC);
	check_truncations(small, copy, 1);
	check_truncations(self, copy, 997);
	free(small);
	free(copy);
}

/* Usage errors exit 2; a bad file among good ones exits 1 after the others. */
static void test_cmd_exit_codes(void **state)
{
	char *bad = scratch_path("notelf.txt"), *good = scratch_path("synth-good");
	char *out, *want;
	int rc;

	(void)state;
	write_bytes(bad, "not an ELF file\n", 16);
	write_synth(good, ELFCLASS64, ELFDATA2LSB, ET_EXEC);
	free(run_cmd_size(&rc, (char *)NULL));
	assert_int_equal(rc, KB_EXIT_USAGE);
	free(run_cmd_size(&rc, "--format=gnu", good, (char *)NULL));
	assert_int_equal(rc, KB_EXIT_USAGE);
	free(run_cmd_size(&rc, "--no-such-option", good, (char *)NULL));
	assert_int_equal(rc, KB_EXIT_USAGE);
	out = run_cmd_size(&rc, bad, good, bad, (char *)NULL);
	assert_int_equal(rc, KB_EXIT_FAILED);
	want = kb_xasprintf("   text\t   data\t    bss\t    dec\t    hex\tfilename\n"
			    "    208\t     46\t    416\t    670\t    29e\t%s\n", good);
	assert_string_equal(out, want);
	free(want);
	free(out);
	free(bad);
	free(good);
}

static int setup(void **state)
{
	(void)state;
	if (!realpath("/proc/self/exe", self))
		return -1;
	return kb_test_scratch(scratch, sizeof(scratch), "test-size");
}

static int teardown(void **state)
{
	(void)state;
	return kb_test_scratch_remove(scratch);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_print_format),
		cmocka_unit_test(test_synthetic_rules),
		cmocka_unit_test(test_host_files),
		cmocka_unit_test(test_cmd_output),
		cmocka_unit_test(test_not_elf),
		cmocka_unit_test(test_empty_missing_directory),
		cmocka_unit_test(test_archive),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_cmd_exit_codes),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
