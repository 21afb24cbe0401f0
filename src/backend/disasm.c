// SPDX-License-Identifier: GPL-2.0-or-later
/* Blocks of i386 code, instruction by instruction, by llvm-mc (disasm.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "disasm.h"
#include "util.h"

/* After each block (kb_mc_write_blocks): KB_MC_PAD_N one-byte nops, then
 * the separator, as bytes and as llvm-mc prints it in each mode. */
#define SEP_BYTES	"0x0f 0x1f 0x84 0x00 0xef 0xbe 0xad 0xde"
#define SEP_TEXT	"nopl\t-559038737(%eax,%eax)"
#define SEP_TEXT_64	"nopl\t-559038737(%rax,%rax)"
#define MAX_INSNS	4096

int kb_mc_write_blocks(const char *path, const char *const *hex, size_t n)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return kb_error_errno(errno, "cannot create '%s'", path);
	for (size_t i = 0; i < n; i++) {
		for (const char *p = hex[i]; p[0] && p[1]; p += 2)
			fprintf(f, "0x%c%c ", p[0], p[1]);
		fputc('\n', f);
		for (int j = 0; j < KB_MC_PAD_N; j++)
			fputs("0x90 ", f);
		fputs("\n" SEP_BYTES "\n", f);
	}
	if (fclose(f))
		return kb_error_errno(errno, "cannot write '%s'", path);
	return 0;
}

const char *kb_mc_separator(const char *triple)
{
	return strncmp(triple, "x86_64", 6) ? SEP_TEXT : SEP_TEXT_64;
}

static const char *const prefixes[] = { "lock", "rep", "repe", "repne", "data16", "data32", NULL };

static int is_prefix(const char *s, size_t n)
{
	for (size_t i = 0; prefixes[i]; i++)
		if (strlen(prefixes[i]) == n && !strncmp(s, prefixes[i], n))
			return 1;
	return 0;
}

/* "[0xf7,0xf1]", "[0xe8,A,A,A,A]": its bytes */
static unsigned encoding_len(const char *line)
{
	const char *e = strstr(line, "# encoding: [");
	unsigned n = 1;

	if (!e)
		return 0;
	for (e += strlen("# encoding: ["); *e && *e != ']'; e++)
		n += *e == ',';
	return n;
}

static char *find_mc(void)
{
	static const char *const names[] = { "llvm-mc", "llvm-mc-16", "llvm-mc-15", "llvm-mc-14", NULL };
	char *f = NULL;

	for (size_t i = 0; names[i] && !f; i++)
		f = kb_path_lookup(names[i]);
	return f;
}

struct block {
	struct kb_insn in[MAX_INSNS];
	char mn[MAX_INSNS][32];
	size_t n;
	unsigned at;		/* bytes read */
	int bad;
	char prefix[16];	/* a lone prefix line, for the next */
	unsigned prefix_off, prefix_len;
};

/* One line of the disassembly: an instruction of block b (hex bytes long). */
static void add_line(struct block *b, const char *p, unsigned bytes)
{
	unsigned len = encoding_len(p);
	size_t a = strcspn(p, " \t");
	const char *q = p + a + strspn(p + a, " \t");

	if (b->bad || b->at >= bytes)	/* the padding */
		return;
	if (!len) {
		b->bad = 1;
		return;
	}
	if (is_prefix(p, a) && (!*q || *q == '#')) {	/* "lock", its instruction next */
		snprintf(b->prefix, sizeof(b->prefix), "%.*s", (int)a, p);
		b->prefix_off = b->at;
		b->prefix_len = len;
		b->at += len;
		return;
	}
	if (b->n == MAX_INSNS) {
		b->bad = 1;
		return;
	}
	if (*b->prefix) {
		snprintf(b->mn[b->n], sizeof(b->mn[b->n]), "%s %.*s", b->prefix, (int)a, p);
		b->in[b->n].off = b->prefix_off;
		b->in[b->n].len = b->prefix_len + len;
		b->prefix[0] = '\0';
	} else if (is_prefix(p, a) && *q && *q != '#') {	/* "rep\t\tmovsl\t..." */
		snprintf(b->mn[b->n], sizeof(b->mn[b->n]), "%.*s %.*s", (int)a, p, (int)strcspn(q, " \t"), q);
		b->in[b->n].off = b->at;
		b->in[b->n].len = len;
	} else {
		snprintf(b->mn[b->n], sizeof(b->mn[b->n]), "%.*s", (int)a, p);
		b->in[b->n].off = b->at;
		b->in[b->n].len = len;
	}
	b->in[b->n].mnemonic = b->mn[b->n];
	b->n++;
	b->at += len;
}

int kb_disasm_blocks(const char *triple, const char *const *hex, size_t n,
		     void (*fn)(void *ctx, size_t i, const struct kb_insn *insns, size_t ninsns), void *ctx)
{
	char *mc = find_mc(), *dir = NULL, *in = NULL, *out = NULL, *log = NULL, *line = NULL;
	/* the separator as llvm-mc prints it: its registers are the mode's */
	const char *sep = kb_mc_separator(triple);
	struct block *b = NULL;
	size_t cap = 0, k = 0;
	FILE *f;
	int ret = -1, r;

	if (!n) {
		free(mc);
		return 0;
	}
	if (!mc) {
		kb_error("llvm-mc not found: install Debian package 'llvm'");
		return -1;
	}
	dir = kb_xasprintf("%s/kbench-disasm.XXXXXX", kb_tmpdir());
	if (!mkdtemp(dir)) {
		kb_error_errno(errno, "cannot create a temporary directory in '%s'", kb_tmpdir());
		goto out;
	}
	in = kb_xasprintf("%s/blocks.hex", dir);
	out = kb_xasprintf("%s/blocks.s", dir);
	log = kb_xasprintf("%s/llvm-mc.log", dir);
	if (kb_mc_write_blocks(in, hex, n) < 0)
		goto out;
	{
		char *t = kb_xasprintf("-triple=%s", triple);
		char *argv[] = { mc, "--disassemble", "--show-encoding", t, "-o", out, in, NULL };

		r = kb_run_argv(argv, NULL, log);	/* its warnings into the log, however many */
		free(t);
		if (r != 0) {
			kb_error("llvm-mc --disassemble failed (exit status %d)", r);
			goto out;
		}
	}
	f = fopen(out, "r");
	if (!f) {
		kb_error_errno(errno, "cannot open '%s'", out);
		goto out;
	}
	b = kb_xcalloc(1, sizeof(*b));
	while (k < n && getline(&line, &cap, f) > 0) {
		char *p = line + strspn(line, " \t");
		unsigned bytes = (unsigned)(strlen(hex[k]) / 2);

		line[strcspn(line, "\n")] = '\0';
		if (*p == '.' || *p == '#' || !*p)
			continue;	/* .text, a fixup's note */
		if (!strncmp(p, sep, strlen(sep))) {	/* block k ends */
			if (!b->bad && b->at == bytes && !*b->prefix)
				fn(ctx, k, b->in, b->n);
			memset(b, 0, sizeof(*b));
			k++;
			continue;
		}
		add_line(b, p, bytes);
	}
	fclose(f);
	ret = 0;
out:
	if (in)
		unlink(in);
	if (out)
		unlink(out);
	if (log)
		unlink(log);
	if (dir)
		rmdir(dir);
	free(b);
	free(line);
	free(in);
	free(out);
	free(log);
	free(dir);
	free(mc);
	return ret;
}
