// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Block costs from LLVM's machine model (mca.h).
 *
 * Which figure: llvm-mca's steady state over back-to-back runs of the
 * block.  A block of up to 20 instructions: Total Cycles / Iterations at
 * MCA_ITERATIONS runs.  A longer one: the difference of two short runs,
 * (Total(b) - Total(a)) / (b - a), which drops the pipeline's fill that
 * Total / Iterations keeps, at fewer simulated instructions (llvm-mca's
 * time grows with them, and a boot's regions hold thousands of user blocks
 * of 100 to 500 instructions, the icache workload's straight-line code).
 * classes[] has the runs.  Against 8 times the single-run figure's runs (300
 * blocks of a default run a class, skylake), in all: 21-40 instructions at
 * 16-8 runs -0.02% (50 runs: +1.3%), 41-80 at 8-4 -0.05% (25: +0.7%), 81-160
 * at 3-2 -0.08% (12: +0.5%), over 160 at 3-2 +0.05% (6: +1.0%); one block
 * can be off by more (a dependency chain that has not settled in a few
 * runs).  Each class is one llvm-mca input a batch (two runs where it takes
 * the difference): llvm-mca's start costs about 16 ms a call.  A block of kernel code
 * runs amid others on an out-of-order core: its one-shot latency (the
 * critical path from an empty pipeline) would charge every block the
 * pipeline's fill and drain, which overlap with the blocks around it on
 * hardware; the steady state keeps what repeats (throughput, and the
 * dependencies carried from one run to the next, as in a loop of divl)
 * and is what basic-block cost models (uiCA, BHive's measurements) report.
 * Its limits: no branch mispredictions, no data-cache misses, calls and
 * returns as plain instructions.
 *
 * String instructions: under TCG each iteration of rep movs/stos is one
 * execution of the instruction (QEMU runs one iteration, then the same
 * instruction again as a block of its own, c + 1 times for a count c > 0).
 * So a block that only holds a rep movs/stos is one iteration, and a block
 * that reaches one after other instructions is where it starts.  Priced from
 * AMD's Software Optimization Guide for AMD64 Processors (25112, rev. 3.06,
 * 2005), table 6, "Latency of Repeated String Instructions" (DF = 0):
 * rep movs 15 + c cycles, rep stos 14 + c, for c elements: the start is
 * charged the constant, each iteration 1.  That table is for the K8 core,
 * whatever CPU llvm-mca models; a rep that begins its own block (a jump to
 * it) counts as an iteration, its start-up missed.
 *
 * Push and pop: LLVM 14's x86 models chain every push and pop to the one
 * before through the stack pointer, each a load or store plus an add (4 popl
 * back to back: 24 cycles on skylake, against 2 for 4 movl loads).  Cores
 * since the Pentium M track the stack pointer's offset in the decoder
 * instead (Intel 64 and IA-32 Architectures Optimization Reference Manual,
 * "stack pointer tracker"), so a push issues as its store and a pop as its
 * load.  Each is priced so, on every CPU model: "pushl %ebx" goes to
 * llvm-mca as "movl %ebx, (%esp)", "popl %ebx" as "movl (%esp), %ebx"
 * (pushes and pops of memory or segment registers as they are).  Left out:
 * the one synchronising uop the tracker adds when the stack pointer is then
 * read or written explicitly.
 *
 * Instructions the model has no figure for: LLVM's x86 models put those in
 * a placeholder class of 100 cycles' latency (cli, sti, wrmsr, mov to %cr3,
 * sysenter... on skylake; rdtsc, cpuid, in and out as well on znver3).
 * Which they are is asked of llvm-mca itself, for every instruction a block
 * holds, once per model, mode and instruction text but numbers (classify():
 * its instruction info at -iterations=1), and those it gives a latency of
 * 100 or more are unmodeled (fxsave and fxrstor too, on skylake).  An
 * unmodeled instruction is priced as model_cycles prices every instruction,
 * 1 cycle, and left out of llvm-mca's input; kb_mca_stats counts the blocks
 * that hold one.
 *
 * Blocks that ran fewer than KB_MCA_RARE_EXECS times in their boot are not
 * llvm-mca's (mca.h says why): what would go to llvm-mca costs one cycle an
 * instruction; their string and unmodeled instructions are priced as in any
 * block.  Their cost is cached apart ("rHEX CYCLES"): the same bytes run
 * often elsewhere get llvm-mca's figure there.
 *
 * Blocks that differ only in numbers (displacements, immediates, branch
 * offsets: a kernel's code at another address, a layout replica's) cost the
 * same under these models, which price an instruction by its opcode and
 * operand kinds: a batch sends llvm-mca one of each.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "disasm.h"
#include "mca.h"
#include "util.h"

#define MCA_ITERATIONS	100	/* runs of a block of up to 20 instructions */
#define MCA_BATCH	4000	/* blocks per llvm-mc call */
/* how costs are found: a change makes a new cache file (kb_mca_new) */
#define MCA_METHOD	3
/* llvm-mc's input: disasm.h's kb_mc_write_blocks.  A block whose last
 * instruction lacks bytes eats into the nops after it: it alone is
 * unpriced (fewer than KB_MC_PAD_N nops before the cut). */
#define PAD_TEXT	"nop"

/* Runs of a block by its instructions (see above): one llvm-mca call per
 * class and batch, two where the class takes the difference of two runs. */
static const struct {
	unsigned most;		/* instructions, at most */
	int iterations;		/* Total Cycles / iterations */
	int fewer;		/* else: (Total(iterations) - Total(fewer)) / (iterations - fewer) */
} classes[] = {
	{ 20, MCA_ITERATIONS, 0 }, { 40, 16, 8 }, { 80, 8, 4 }, { ~0u, 3, 2 },
};
#define NCLASSES KB_ARRAY_SIZE(classes)

static size_t class_of(unsigned insns)
{
	size_t c = 0;

	while (insns > classes[c].most)
		c++;
	return c;
}

/* AMD 25112 rev. 3.06 table 6 (see above): start-up cycles, and per element */
static const struct {
	const char *mnemonic;	/* as llvm-mc prints it after "rep\t\t" */
	double start, per;
} string_costs[] = {
	{ "movs", 15, 1 },
	{ "stos", 14, 1 },
};

struct entry {
	char *hex;
	double cycles;
	unsigned char unpriced;
	unsigned char known;	/* cycles is its cost (else queued, or a failed call's) */
	unsigned char used;	/* asked for in this process */
	unsigned char rare_seen;	/* asked for as a rare block in this process */
	unsigned char rare_known;	/* rare_cycles is its cost as a rare block */
	double rare_cycles;	/* its cost as a rare block ("r" lines of the cache) */
	unsigned long rare_queued;	/* the kb_mca_price call that queued it as rare */
	unsigned long queued;	/* the kb_mca_price call that queued it */
};

/* uint64 -> double, open addressing (key 0: empty) */
struct htab {
	uint64_t *key;
	double *val;
	size_t cap, n;
};

struct kb_mca {
	char *cpu, *model, *cache_file, *mca, *mc;
	struct htab text;	/* llvm-mca's figure by a block's text but numbers (text_hash) */
	struct htab cls;	/* an instruction's text but numbers: 1 modeled, 2 no figure */
	const char *triple;	/* i386-linux-gnu, or x86_64-linux-gnu (kb_mca_set_arch) */
	struct entry *tab;	/* open addressing, by hex */
	size_t cap, n;
	long cache_off;		/* the cache file read up to here */
	unsigned long call;	/* kb_mca_price calls */
	struct kb_mca_stats st;
};

#define FNV_OFFSET	0xcbf29ce484222325ull

static uint64_t fnv1a_byte(uint64_t h, unsigned char c)
{
	return (h ^ c) * 0x100000001b3ull;
}

static uint64_t fnv1a(const char *s)
{
	uint64_t h = FNV_OFFSET;

	for (; *s; s++)
		h = fnv1a_byte(h, (unsigned char)*s);
	return h;
}

static struct entry *lookup(struct kb_mca *m, const char *hex)
{
	size_t i = fnv1a(hex) & (m->cap - 1);

	while (m->tab[i].hex && strcmp(m->tab[i].hex, hex))
		i = (i + 1) & (m->cap - 1);
	return &m->tab[i];
}

/* hex's entry, made if it is not there */
static struct entry *entry_of(struct kb_mca *m, const char *hex)
{
	struct entry *e;

	if (2 * (m->n + 1) > m->cap) {
		struct entry *old = m->tab;
		size_t oc = m->cap;

		m->cap = oc ? 2 * oc : 4096;
		m->tab = kb_xcalloc(m->cap, sizeof(*m->tab));
		for (size_t i = 0; i < oc; i++)
			if (old[i].hex)
				*lookup(m, old[i].hex) = old[i];
		free(old);
	}
	e = lookup(m, hex);
	if (!e->hex) {
		e->hex = kb_xstrdup(hex);
		m->n++;
	}
	return e;
}

static void set_cost(struct kb_mca *m, const char *hex, double cycles, int unpriced)
{
	struct entry *e = entry_of(m, hex);

	e->cycles = cycles;
	e->unpriced = (unsigned char)unpriced;
	e->known = 1;
}

static double *htab_slot(struct htab *t, uint64_t key, int make)
{
	size_t i;

	if (make && 2 * (t->n + 1) > t->cap) {
		struct htab old = *t;

		t->cap = old.cap ? 2 * old.cap : 4096;
		t->key = kb_xcalloc(t->cap, sizeof(*t->key));
		t->val = kb_xcalloc(t->cap, sizeof(*t->val));
		for (size_t j = 0; j < old.cap; j++)
			if (old.key[j]) {
				for (i = old.key[j] & (t->cap - 1); t->key[i]; i = (i + 1) & (t->cap - 1))
					;
				t->key[i] = old.key[j];
				t->val[i] = old.val[j];
			}
		free(old.key);
		free(old.val);
	}
	if (!t->cap)
		return NULL;
	for (i = key & (t->cap - 1); t->key[i] && t->key[i] != key; i = (i + 1) & (t->cap - 1))
		;
	if (!t->key[i]) {
		if (!make)
			return NULL;
		t->key[i] = key;
		t->n++;
	}
	return &t->val[i];
}

static void htab_free(struct htab *t)
{
	free(t->key);
	free(t->val);
	memset(t, 0, sizeof(*t));
}

static char *find_tool(const char *const *names)
{
	char *f = NULL;

	for (; *names && !f; names++)
		f = kb_path_lookup(*names);
	return f;
}

static const char *const mca_names[] = { "llvm-mca", "llvm-mca-16", "llvm-mca-15", "llvm-mca-14", NULL };

/* "14.0.6" from 'mca --version' (malloc'd), NULL where it says none. */
static char *mca_version(const char *mca)
{
	char *argv[] = { (char *)mca, "--version", NULL }, *out = NULL, *v, *r;

	kb_capture(argv, 15, 4096, &out);
	v = out ? strstr(out, "LLVM version ") : NULL;
	if (!v) {
		free(out);
		return NULL;
	}
	v += strlen("LLVM version ");
	v[strcspn(v, " \n")] = '\0';
	r = kb_xstrdup(v);
	free(out);
	return r;
}

char *kb_mca_locate(char **version)
{
	char *mca = find_tool(mca_names);

	if (version)
		*version = mca ? mca_version(mca) : NULL;
	return mca;
}

/* One line of the cache (fmt, with its newline) with one write: boots at
 * once append to it.  Costs go as %.17g: read back, bit for bit the cost
 * used here. */
static void cache_put(struct kb_mca *m, int fd, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cache_put(struct kb_mca *m, int fd, const char *fmt, ...)
{
	char *line;
	size_t len;
	va_list ap;

	if (fd < 0)
		return;
	va_start(ap, fmt);
	line = kb_xvasprintf(fmt, ap);
	va_end(ap);
	len = strlen(line);
	if (write(fd, line, len) != (ssize_t)len)
		kb_warn("cannot write the block cost cache '%s': %s", m->cache_file, strerror(errno));
	free(line);
}

/* The cache file: "HEX CYCLES [unpriced]" a line (and "tHASH CYCLES":
 * llvm-mca's figure for a block's text but numbers; "iHASH 1", "iHASH 2":
 * an instruction's text but numbers, which the model has a figure for or
 * not; "rHEX CYCLES": a rare block's cost), appended by whoever priced the
 * block (boots at once share it: kb_mca_price).  The lines added since the
 * last read; a line not yet complete waits for the next. */
static void cache_load(struct kb_mca *m)
{
	FILE *f = fopen(m->cache_file, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	if (!f)
		return;
	if (fseek(f, m->cache_off, SEEK_SET) == 0)
		while ((len = getline(&line, &cap, f)) > 0 && line[len - 1] == '\n') {
			char *sp = strchr(line, ' '), *end;
			double c;
			int rare;

			m->cache_off += len;
			if (!sp)
				continue;
			if (line[0] == 't' || line[0] == 'i') {	/* "tHASH CYCLES", "iHASH 1|2" */
				unsigned long long h;
				char *e2;

				*sp = '\0';
				h = strtoull(line + 1, &e2, 16);
				c = strtod(sp + 1, &end);
				if (h && !*e2 && sp - line == 17 && end != sp + 1 && *end == '\n')
					*htab_slot(line[0] == 't' ? &m->text : &m->cls, h, 1) = c;
				continue;
			}
			/* "HEX CYCLES [unpriced]", or "rHEX CYCLES": a rare block's */
			rare = line[0] == 'r';
			*sp = '\0';
			c = strtod(sp + 1, &end);
			if (end == sp + 1 || !line[rare] || strspn(line + rare, "0123456789abcdef") != strlen(line + rare))
				continue;	/* a line torn by a crash: priced again */
			if (rare) {
				struct entry *e = entry_of(m, line + 1);

				e->rare_cycles = c;
				e->rare_known = 1;
			} else {
				set_cost(m, line, c, !strncmp(end, " unpriced", 9));
			}
		}
	free(line);
	fclose(f);
}

struct kb_mca *kb_mca_new(const char *cpu, const char *cache_dir, char **why)
{
	struct kb_mca *m = kb_xcalloc(1, sizeof(*m));
	char *ver = NULL, *v, *dir, *out = NULL;
	const char *mcs[2];

	*why = NULL;
	m->mca = kb_mca_locate(NULL);
	if (m->mca) {	/* llvm-mc of the same version, beside it */
		const char *suffix = strstr(strrchr(m->mca, '/'), "-mca") + 4;
		char *name = kb_xasprintf("llvm-mc%s", suffix);

		mcs[0] = name;
		mcs[1] = NULL;
		m->mc = find_tool(mcs);
		free(name);
	}
	if (!m->mca || !m->mc) {
		*why = kb_xasprintf("%s not found: install Debian package 'llvm' for the modeled cycles "
				    "of LLVM's machine model (mca_cycles); model_cycles alone is used",
				    m->mca ? "llvm-mc" : "llvm-mca");
		kb_mca_free(m);
		return NULL;
	}
	v = ver = mca_version(m->mca);
	if (!v) {
		*why = kb_xasprintf("'%s --version' does not say its LLVM version", m->mca);
		kb_mca_free(m);
		return NULL;
	}
	{	/* does it know the CPU?  an unknown one is a warning, then the generic model */
		char *argv[] = { m->mca, "-mtriple=i386-linux-gnu", NULL, "/dev/null", NULL };

		argv[2] = kb_xasprintf("-mcpu=%s", cpu);
		kb_capture(argv, 15, 1 << 16, &out);
		free(argv[2]);
		if (out && strstr(out, "is not a recognized processor")) {
			*why = kb_xasprintf("llvm-mca (LLVM %s) does not know CPU '%s' (llvm-mca "
					    "-mtriple=i386-linux-gnu -mcpu=help lists those it does)", v, cpu);
			free(out);
			free(ver);
			kb_mca_free(m);
			return NULL;
		}
		free(out);
	}
	m->cpu = kb_xstrdup(cpu);
	m->triple = "i386-linux-gnu";
	m->model = kb_xasprintf("LLVM %s llvm-mca, -mcpu=%s", v, cpu);
	dir = cache_dir ? kb_xstrdup(cache_dir) : kb_default_cache_dir();
	m->cache_file = kb_xasprintf("%s/mca/llvm-%s/%s.v%d", dir, v, cpu, MCA_METHOD);
	{
		char *used = kb_xasprintf("%s/mca/llvm-%s", dir, v);

		kb_touch(used);	/* the build cache's last use of these prices */
		free(used);
	}
	free(dir);
	free(ver);
	m->cap = 4096;
	m->tab = kb_xcalloc(m->cap, sizeof(*m->tab));
	cache_load(m);
	return m;
}

int kb_mca_set_arch(struct kb_mca *m, const char *arch)
{
	char *file;

	if (!strcmp(arch, "i386"))
		return 0;	/* kb_mca_new's */
	if (strcmp(arch, "x86_64"))
		return kb_error("llvm-mca: no guest architecture '%s' (i386 or x86_64)", arch);
	/* the same bytes decode otherwise in 64-bit mode: a cache of their own */
	m->triple = "x86_64-linux-gnu";
	/* ".x86_64" held every block unpriced: the separator was looked for
	 * with i386's registers, so no block ended */
	file = kb_xasprintf("%s.x86_64.2", m->cache_file);
	free(m->cache_file);
	m->cache_file = file;
	for (size_t i = 0; i < m->cap; i++) {
		free(m->tab[i].hex);
		memset(&m->tab[i], 0, sizeof(m->tab[i]));
	}
	m->n = 0;
	htab_free(&m->text);
	htab_free(&m->cls);
	m->cache_off = 0;
	cache_load(m);
	return 0;
}

const char *kb_mca_triple(const struct kb_mca *m)
{
	return m->triple;
}

void kb_mca_free(struct kb_mca *m)
{
	if (!m)
		return;
	htab_free(&m->text);
	htab_free(&m->cls);
	for (size_t i = 0; i < m->cap; i++)
		free(m->tab[i].hex);
	free(m->tab);
	free(m->cpu);
	free(m->model);
	free(m->cache_file);
	free(m->mca);
	free(m->mc);
	free(m);
}

const struct kb_mca_stats *kb_mca_stats(const struct kb_mca *m)
{
	return &m->st;
}

const char *kb_mca_model(const struct kb_mca *m)
{
	return m->model;
}

const char *kb_mca_cpu(const struct kb_mca *m)
{
	return m->cpu;
}

const char *kb_mca_check_cpu(const char *cpu)
{
	static char *list;	/* " alderlake amdfam10 ... ": llvm-mca's, read once */
	static int read;
	char *key;
	int found;

	if (!*cpu || strspn(cpu, "abcdefghijklmnopqrstuvwxyz0123456789-_.") != strlen(cpu))
		return "not a CPU name (llvm-mca -mtriple=i386-linux-gnu -mcpu=help lists them: skylake, "
		       "sandybridge, znver3, ...)";
	if (!read) {
		char *mca = find_tool(mca_names), *out = NULL, *p;
		char *argv[] = { mca, "-mtriple=i386-linux-gnu", "-mcpu=help", NULL };
		size_t len = 0;
		FILE *f;

		read = 1;
		if (mca && (p = (kb_capture(argv, 15, 1 << 18, &out), out ? strstr(out, "Available CPUs") : NULL))) {
			f = open_memstream(&list, &len);
			if (!f)
				abort();
			fputc(' ', f);
			/* "  NAME - Select the NAME processor." a line, until the features */
			for (p = strchr(p, '\n'); p && *++p && strncmp(p, "Available features", 18); p = strchr(p, '\n')) {
				size_t n = strspn(p, " ");

				if (p[n] != '\n' && strstr(p, " - "))
					fprintf(f, "%.*s ", (int)strcspn(p + n, " \n"), p + n);
			}
			fclose(f);
		}
		free(out);
		free(mca);
	}
	if (!list)	/* no llvm-mca to ask: the run says so, and uses model_cycles */
		return NULL;
	key = kb_xasprintf(" %s ", cpu);
	found = strstr(list, key) != NULL;
	free(key);
	return found ? NULL : "not a CPU that llvm-mca -mtriple=i386-linux-gnu -mcpu=help lists (skylake, "
			      "sandybridge, znver3, ...)";
}

/* ---- pricing a batch ---- */

struct todo {
	const char *hex;	/* its entry's */
	unsigned insns;
	double fixed;		/* string instructions, from the table; unmodeled ones */
	int region;		/* in an llvm-mca input, -1: none (nothing left to price) */
	int same;		/* priced as block same of the batch (its text but numbers), else -1 */
	uint64_t text;		/* its text's hash (text_hash), 0: nothing for llvm-mca */
	double known;		/* llvm-mca's figure for that text, known before (-1: not) */
	int unmodeled;		/* instructions the model has no figure for */
	char **lines;		/* its instructions as llvm-mc printed them, while a batch is priced */
	size_t nlines;
	int bad;		/* the disassembly did not give its instructions */
	int rare;		/* ran too rarely for llvm-mca (mca.h): what it would get, 1 cycle each */
	unsigned rest;		/* of a rare one: those instructions */
};

/* argv with its output in dir/tool.log: llvm-mca warns of every call and
 * ret it reads, far more than a pipe's worth for a kernel's blocks */
static int run_tool(struct kb_mca *m, char **argv, const char *dir, const char *what)
{
	char *log = kb_xasprintf("%s/tool.log", dir), *line = NULL;
	struct rusage a, b;
	int r;

	getrusage(RUSAGE_CHILDREN, &a);
	r = kb_run_argv(argv, NULL, log);
	getrusage(RUSAGE_CHILDREN, &b);
	/* its CPU time, which a busy machine does not stretch as it does the wall's */
	m->st.cpu_seconds += (double)(b.ru_utime.tv_sec - a.ru_utime.tv_sec + b.ru_stime.tv_sec - a.ru_stime.tv_sec) +
			     (double)(b.ru_utime.tv_usec - a.ru_utime.tv_usec + b.ru_stime.tv_usec - a.ru_stime.tv_usec) / 1e6;

	if (r != 0) {
		FILE *f = fopen(log, "r");
		size_t cap = 0;

		/* the first line that is not one of those warnings and notes */
		while (f && getline(&line, &cap, f) > 0 &&
		       (!strncmp(line, "warning: found a", 16) || !strncmp(line, "note: ", 6)))
			;
		if (line)
			line[strcspn(line, "\n")] = '\0';
		kb_error("%s failed (exit status %d): %.400s", what, r, line ? line : "");
		if (f)
			fclose(f);
	}
	unlink(log);
	free(log);
	free(line);
	return r != 0 ? -1 : 0;
}

/* "rep\t\tmovsb\t..." -> the table's row, else -1 */
static int string_insn(const char *line)
{
	const char *p = line + strspn(line, " \t");

	if (strncmp(p, "rep", 3) || (p[3] != '\t' && p[3] != ' '))
		return -1;
	p += 3;
	p += strspn(p, " \t");
	for (size_t i = 0; i < KB_ARRAY_SIZE(string_costs); i++)
		if (!strncmp(p, string_costs[i].mnemonic, strlen(string_costs[i].mnemonic)))
			return (int)i;
	return -1;
}

/* ---- what the model leaves out (see the top of the file) ---- */

static int is_segreg(const char *op)
{
	static const char *const seg[] = { "%cs", "%ds", "%es", "%fs", "%gs", "%ss" };

	for (size_t i = 0; i < KB_ARRAY_SIZE(seg); i++)
		if (!strncmp(op, seg[i], 3) && !op[3 + strspn(op + 3, " \t")])
			return 1;
	return 0;
}

/* A push or pop of a general register or an immediate as the store or load
 * a stack engine leaves (see the top of the file) into out: 1, else 0. */
static int stack_op(const char *line, int is64, char *out, size_t n)
{
	const char *p = line + strspn(line, " \t"), *op;
	const char *sp = is64 ? "%rsp" : "%esp";
	char sfx = is64 ? 'q' : 'l';
	int push;

	if (!strncmp(p, "push", 4) && p[4] == sfx)
		push = 1;
	else if (!strncmp(p, "pop", 3) && p[3] == sfx)
		push = 0;
	else
		return 0;
	op = p + (push ? 5 : 4);
	if (*op != ' ' && *op != '\t')
		return 0;
	op += strspn(op, " \t");
	if (is_segreg(op) || (*op != '%' && !(push && *op == '$')))
		return 0;	/* memory, a segment register: as they are */
	if (*op == '$')		/* the value costs nothing: one the assembler takes in either mode */
		snprintf(out, n, "mov%c\t$0, (%s)", sfx, sp);
	else if (push)
		snprintf(out, n, "mov%c\t%.*s, (%s)", sfx, (int)strcspn(op, " \t#"), op, sp);
	else
		snprintf(out, n, "mov%c\t(%s), %.*s", sfx, sp, (int)strcspn(op, " \t#"), op);
	return 1;
}

/* h (FNV-1a) fed with an instruction's text but numbers, its key: each
 * digit run not part of a register's name as one 'N', the comment out, then
 * a newline.  A block's key is its instructions' fed in turn. */
static uint64_t text_hash(uint64_t h, const char *s)
{
	for (const char *p = s; *p && *p != '#'; p++) {
		if (*p >= '0' && *p <= '9' && (p == s || !(p[-1] == '%' || (p[-1] >= 'a' && p[-1] <= 'z') ||
							  (p[-1] >= '0' && p[-1] <= '9')))) {
			p += strspn(p, "0123456789abcdefx") - 1;
			h = fnv1a_byte(h, 'N');
			continue;
		}
		h = fnv1a_byte(h, (unsigned char)*p);
	}
	return fnv1a_byte(h, '\n');
}

static char *class_file(const char *dir, size_t c)
{
	return kb_xasprintf("%s/mca%zu.s", dir, c);
}

/* An instruction's text but numbers, hashed: its class's key */
static uint64_t insn_hash(const char *ins)
{
	return text_hash(FNV_OFFSET, ins) | 1;
}

/* Which instructions of t[0..n) the model has a figure for, asked of
 * llvm-mca for those not known yet: one call, its instruction info (a row
 * an instruction: "UOPS LATENCY RTHROUGHPUT [flags] TEXT"), a latency of 100
 * or more being LLVM's placeholder.  Into m->cls, and the cache. */
static void classify(struct kb_mca *m, struct todo *t, size_t n, const char *dir, int fd)
{
	char *in = kb_xasprintf("%s/insns.s", dir), *outf = kb_xasprintf("%s/insns.out", dir);
	char *triple = kb_xasprintf("-mtriple=%s", m->triple), *cpu = kb_xasprintf("-mcpu=%s", m->cpu);
	char *argv[] = { m->mca, triple, cpu, "-iterations=1", "-resource-pressure=false", "-o", outf, in, NULL };
	uint64_t *ask = NULL;
	size_t nask = 0, cask = 0, rows = 0, cap = 0;
	struct htab seen = { 0 };
	char *line = NULL;
	FILE *f = fopen(in, "w");
	int table = 0;

	for (size_t k = 0; f && k < n; k++)
		for (size_t i = 0; i < t[k].nlines; i++) {
			uint64_t h;

			if (string_insn(t[k].lines[i]) >= 0)
				continue;
			h = insn_hash(t[k].lines[i]);
			if (htab_slot(&m->cls, h, 0) || htab_slot(&seen, h, 0))
				continue;
			*htab_slot(&seen, h, 1) = 1;
			if (nask == cask)
				ask = kb_xrealloc(ask, (cask = cask ? 2 * cask : 256) * sizeof(*ask));
			ask[nask++] = h;
			fprintf(f, "%s\n", t[k].lines[i]);
		}
	if (f && fclose(f))
		f = NULL;
	if (!nask)
		goto out;
	if (!f || run_tool(m, argv, dir, "llvm-mca (its instruction info)") < 0 || !(f = fopen(outf, "r"))) {
		kb_warn("llvm-mca -mcpu=%s: cannot tell which instructions its model has a figure for: "
			"priced as it says", m->cpu);
		goto out;
	}
	while (getline(&line, &cap, f) > 0 && rows < nask) {
		unsigned uops, lat;
		double rt;

		if (!table) {
			table = strstr(line, "[1]") && strstr(line, "Instructions:");
			continue;
		}
		if (sscanf(line, "%u %u %lf", &uops, &lat, &rt) != 3)
			break;
		/* 2: LLVM's placeholder, no figure */
		*htab_slot(&m->cls, ask[rows++], 1) = lat >= 100 ? 2 : 1;
	}
	fclose(f);
	if (rows != nask) {
		kb_warn("llvm-mca -mcpu=%s: its instruction info has %zu rows for %zu instructions", m->cpu,
			rows, nask);
		goto out;
	}
	for (size_t i = 0; i < nask; i++)	/* for the processes to come */
		cache_put(m, fd, "i%016llx %d\n", (unsigned long long)ask[i], (int)*htab_slot(&m->cls, ask[i], 0));
out:
	unlink(in);
	unlink(outf);
	htab_free(&seen);
	free(ask);
	free(line);
	free(in);
	free(outf);
	free(triple);
	free(cpu);
}

static int is_unmodeled(struct kb_mca *m, const char *ins)
{
	const double *v = htab_slot(&m->cls, insn_hash(ins), 0);

	return v && *v == 2;
}

/* Disassemble t[0..n) with one llvm-mc call, and write llvm-mca's inputs,
 * one per class (mca<c>.s): a code region per block that has something
 * left to price and whose text but numbers no block before it had; nreg[c]
 * of them in class c. */
static int disassemble(struct kb_mca *m, struct todo *t, size_t n, const char *dir, int fd, int nreg[NCLASSES])
{
	char *in = kb_xasprintf("%s/blocks.hex", dir), *asmf = kb_xasprintf("%s/blocks.s", dir);
	FILE *g = NULL, *h[NCLASSES] = { NULL };
	char *line = NULL, **lines = NULL;
	const char **hex = kb_xcalloc(n + 1, sizeof(*hex)), *sep = kb_mc_separator(m->triple);
	size_t cap = 0, k = 0, nl = 0, capl = 0;
	struct htab same = { 0 };	/* a text's first block of the batch, + 1 */
	int ret = -1;

	for (size_t i = 0; i < n; i++)
		hex[i] = t[i].hex;
	if (kb_mc_write_blocks(in, hex, n) < 0)
		goto out;
	{
		char *triple = kb_xasprintf("-triple=%s", m->triple);
		char *argv[] = { m->mc, "--disassemble", triple, "-o", asmf, in, NULL };
		int r = run_tool(m, argv, dir, "llvm-mc --disassemble");

		free(triple);
		if (r < 0)
			goto out;
	}
	g = fopen(asmf, "r");
	for (size_t c = 0; c < NCLASSES; c++) {
		char *p = class_file(dir, c);

		h[c] = fopen(p, "w");
		nreg[c] = 0;
		free(p);
		if (!h[c])
			break;
	}
	if (!g || !h[NCLASSES - 1]) {
		kb_error_errno(errno, "cannot open llvm-mca's input in '%s'", dir);
		goto out;
	}
	/* each block's instructions: the lines before its pad */
	while (k < n && getline(&line, &cap, g) > 0) {
		char *p = line + strspn(line, " \t");
		size_t pad = 0;

		line[strcspn(line, "\n")] = '\0';
		if (*p == '.' || !*p)
			continue;	/* .text */
		if (strcmp(p, sep)) {	/* an instruction of block k, or a pad */
			if (nl == capl)
				lines = kb_xrealloc(lines, (capl = capl ? 2 * capl : 64) * sizeof(*lines));
			lines[nl++] = kb_xstrdup(p);
			continue;
		}
		while (pad < KB_MC_PAD_N && pad < nl && !strcmp(lines[nl - 1 - pad], PAD_TEXT))
			pad++;
		t[k].bad = pad != KB_MC_PAD_N || nl - pad != t[k].insns;
		if (!t[k].bad) {
			t[k].nlines = nl - pad;
			t[k].lines = kb_xcalloc(t[k].nlines + 1, sizeof(*lines));
			memcpy(t[k].lines, lines, t[k].nlines * sizeof(*lines));
		}
		for (size_t i = t[k].bad ? 0 : t[k].nlines; i < nl; i++)
			free(lines[i]);
		nl = 0;
		k++;
	}
	for (; k < n; k++)
		t[k].bad = 1;
	classify(m, t, n, dir, fd);
	for (k = 0; k < n; k++) {
		size_t c = class_of(t[k].insns), tlen = 0;
		char *text = NULL, buf[256];
		uint64_t key = FNV_OFFSET;
		FILE *tf;
		int s;

		if (t[k].bad)
			continue;
		tf = open_memstream(&text, &tlen);
		if (!tf)
			abort();
		for (size_t i = 0; i < t[k].nlines; i++) {
			const char *ins = t[k].lines[i];

			if ((s = string_insn(ins)) >= 0) {
				t[k].fixed += t[k].insns == 1 ? string_costs[s].per : string_costs[s].start;
				continue;
			}
			if (is_unmodeled(m, ins)) {
				t[k].fixed += 1;	/* model_cycles' price */
				t[k].unmodeled++;
				continue;
			}
			if (stack_op(ins, !strcmp(m->triple, "x86_64-linux-gnu"), buf, sizeof(buf)))
				ins = buf;
			fprintf(tf, "%s\n", ins);
			key = text_hash(key, ins);
			t[k].rest++;
		}
		fclose(tf);
		if (tlen && !t[k].rare) {	/* something for llvm-mca: once per text but its numbers */
			double *slot;
			const double *v;

			t[k].text = key | 1;
			slot = htab_slot(&same, t[k].text, 1);
			if ((v = htab_slot(&m->text, t[k].text, 0)) != NULL) {
				t[k].known = *v;
			} else if (*slot > 0) {
				t[k].same = (int)*slot - 1;
			} else {
				*slot = (double)k + 1;
				fprintf(h[c], "# LLVM-MCA-BEGIN b%zu\n%s# LLVM-MCA-END\n", k, text);
				t[k].region = nreg[c]++;
			}
		}
		free(text);
	}
	ret = 0;
out:
	if (g)
		fclose(g);
	for (size_t c = 0; c < NCLASSES; c++)
		if (h[c] && fclose(h[c]))
			ret = -1;
	for (size_t i = 0; i < nl; i++)
		free(lines[i]);
	for (k = 0; k < n; k++) {
		for (size_t i = 0; i < t[k].nlines; i++)
			free(t[k].lines[i]);
		free(t[k].lines);
		t[k].lines = NULL;
		t[k].nlines = 0;
	}
	free(lines);
	free(line);
	free(in);
	free(asmf);
	free(hex);
	htab_free(&same);
	return ret;
}

/* llvm-mca over class c's input at iters runs: each region's Total Cycles,
 * by name, into tot[] */
static int simulate_at(struct kb_mca *m, size_t c, int iters, size_t n, const char *dir, double *tot)
{
	char *in = class_file(dir, c), *outf = kb_xasprintf("%s/mca.out", dir);
	char it_arg[32];
	FILE *f = NULL;
	char *line = NULL, *cpu = kb_xasprintf("-mcpu=%s", m->cpu);
	size_t cap = 0;
	long cur = -1;
	int ret = -1;

	snprintf(it_arg, sizeof(it_arg), "-iterations=%d", iters);
	{
		char *triple = kb_xasprintf("-mtriple=%s", m->triple);
		char *argv[] = { m->mca, triple, cpu, it_arg, "-resource-pressure=false",
				 "-instruction-info=false", "-o", outf, in, NULL };
		int r;

		m->st.calls++;
		r = run_tool(m, argv, dir, "llvm-mca");
		free(triple);
		if (r < 0)
			goto out;
	}
	f = fopen(outf, "r");
	if (!f) {
		kb_error_errno(errno, "cannot open '%s'", outf);
		goto out;
	}
	while (getline(&line, &cap, f) > 0) {
		const char *name = strstr(line, "Code Region - b");
		double v;

		if (name)
			cur = strtol(name + strlen("Code Region - b"), NULL, 10);
		else if (sscanf(line, "Iterations: %lf", &v) == 1 && v != iters)
			cur = -1;	/* not the runs asked for */
		else if (sscanf(line, "Total Cycles: %lf", &v) == 1 && cur >= 0 && (size_t)cur < n)
			tot[cur] = v;
	}
	ret = 0;
out:
	if (f)
		fclose(f);
	unlink(outf);
	free(line);
	free(cpu);
	free(in);
	free(outf);
	return ret;
}

/* Class c's regions' cycles a run into cyc[] (see classes[]) */
static int simulate(struct kb_mca *m, size_t c, size_t n, const char *dir, double *cyc)
{
	int b = classes[c].iterations, a = classes[c].fewer, ret;
	double *tb = kb_xcalloc(n + 1, sizeof(*tb)), *ta = NULL;

	for (size_t i = 0; i < n; i++)
		tb[i] = -1;
	ret = simulate_at(m, c, b, n, dir, tb);
	if (ret == 0 && a > 0) {
		ta = kb_xcalloc(n + 1, sizeof(*ta));
		for (size_t i = 0; i < n; i++)
			ta[i] = -1;
		ret = simulate_at(m, c, a, n, dir, ta);
	}
	for (size_t i = 0; ret == 0 && i < n; i++) {
		if (tb[i] < 0 || (a > 0 && ta[i] < 0))
			continue;	/* not in this class, or not reported */
		/* a difference that is not positive (never seen): the single run's */
		cyc[i] = a > 0 && tb[i] > ta[i] ? (tb[i] - ta[i]) / (b - a) : tb[i] / b;
	}
	free(ta);
	free(tb);
	return ret;
}


static int price_batch(struct kb_mca *m, struct todo *t, size_t n, int fd)
{
	char *dir = kb_xasprintf("%s/kbench-mca.XXXXXX", kb_tmpdir());
	double *cyc = kb_xcalloc(n + 1, sizeof(*cyc));
	int nreg[NCLASSES] = { 0 }, ret = -1;

	if (!mkdtemp(dir)) {
		kb_error_errno(errno, "cannot create a temporary directory in '%s'", kb_tmpdir());
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		t[i].region = -1;
		t[i].same = -1;
		t[i].known = -1;
		t[i].text = 0;
		cyc[i] = -1;
	}
	if (disassemble(m, t, n, dir, fd, nreg) < 0)
		goto out;
	for (size_t c = 0; c < NCLASSES; c++)
		if (nreg[c] > 0 && simulate(m, c, n, dir, cyc) < 0)
			goto out;
	for (size_t i = 0; i < n; i++) {
		/* a block priced as another of the batch: that one's llvm-mca figure */
		size_t j = t[i].same >= 0 ? (size_t)t[i].same : i;

		if (t[i].rare) {	/* its fixed costs, the rest 1 cycle each */
			struct entry *e = entry_of(m, t[i].hex);

			e->rare_cycles = t[i].bad ? t[i].insns : t[i].fixed + t[i].rest;
			e->rare_known = 1;
			cache_put(m, fd, "r%s %.17g\n", t[i].hex, e->rare_cycles);
			continue;
		}
		int mca = t[j].region >= 0;
		int bad = t[i].bad || (mca && cyc[j] < 0);
		double c = bad ? t[i].insns : t[i].fixed + (t[i].known >= 0 ? t[i].known : mca ? cyc[j] : 0);

		if (!bad && t[i].same < 0 && mca) {	/* its text priced: for the blocks to come */
			*htab_slot(&m->text, t[i].text, 1) = cyc[i];
			cache_put(m, fd, "t%016llx %.17g\n", (unsigned long long)t[i].text, cyc[i]);
		}

		set_cost(m, t[i].hex, c, bad);
		if (bad)
			m->st.unpriced++;
		else
			m->st.priced++;
		m->st.shared += !bad && (t[i].same >= 0 || t[i].known >= 0);
		m->st.unmodeled += !bad && t[i].unmodeled > 0;
		cache_put(m, fd, "%s %.17g%s\n", t[i].hex, c, bad ? " unpriced" : "");
	}
	ret = 0;
out:
	{	/* the batch's files: only those disassemble and simulate made */
		static const char *const names[] = { "blocks.hex", "blocks.s", "insns.s", "insns.out" };

		for (size_t i = 0; i < KB_ARRAY_SIZE(names); i++) {
			char *p = kb_xasprintf("%s/%s", dir, names[i]);

			unlink(p);
			free(p);
		}
		for (size_t c = 0; c < NCLASSES; c++) {
			char *p = class_file(dir, c);

			unlink(p);
			free(p);
		}
		rmdir(dir);
	}
	free(dir);
	free(cyc);
	return ret;
}

/* Ran too rarely in its boot for llvm-mca (KB_MCA_RARE_EXECS) */
static int is_rare(const struct kb_mca_block *b)
{
	return b->execs && b->execs < KB_MCA_RARE_EXECS;
}

int kb_mca_price(struct kb_mca *m, struct kb_mca_block *b, size_t n)
{
	struct todo *t = kb_xcalloc(n + 1, sizeof(*t));
	size_t nq = 0, nt = 0;
	double t0 = kb_now();
	int ret = 0, fd = -1;

	m->call++;
	for (size_t i = 0; i < n; i++) {	/* the distinct blocks not known yet */
		struct entry *e = lookup(m, b[i].hex);

		int rare = is_rare(&b[i]);

		if (rare) {	/* not llvm-mca's */
			e = entry_of(m, b[i].hex);
			m->st.rare += !e->rare_seen;
			e->rare_seen = 1;
			if (e->rare_known || e->rare_queued == m->call)
				continue;
			e->rare_queued = m->call;
		} else {
			if (e->hex && e->known) {
				m->st.hits += !e->used;
				e->used = 1;
				continue;
			}
			e = entry_of(m, b[i].hex);
			if (e->queued == m->call)
				continue;
			e->queued = m->call;
			e->used = 1;
		}
		t[nq].hex = e->hex;
		t[nq].insns = b[i].insns;
		t[nq].rare = rare;
		nq++;
	}
	if (nq) {
		char *dir = kb_xstrdup(m->cache_file);

		*strrchr(dir, '/') = '\0';
		if (kb_mkdir_p(dir, 0755) == 0)
			fd = open(m->cache_file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (fd < 0)
			kb_warn("cannot write the block cost cache '%s': %s", m->cache_file, strerror(errno));
		free(dir);
		/* another process pricing (a boot beside this one) finishes first;
		 * what it priced is then read, not priced again */
		if (fd >= 0) {
			double w = kb_now();

			while (flock(fd, LOCK_EX) < 0 && errno == EINTR)
				;
			t0 += kb_now() - w;
		}
		cache_load(m);
		for (size_t i = 0; i < nq; i++) {
			const struct entry *e = lookup(m, t[i].hex);

			if (t[i].rare) {
				if (!e->rare_known)
					t[nt++] = t[i];
			} else if (e->known) {
				m->st.hits++;
			} else {
				t[nt++] = t[i];
			}
		}
	}
	for (size_t i = 0; i < nt && ret == 0; i += MCA_BATCH)
		ret = price_batch(m, t + i, nt - i < MCA_BATCH ? nt - i : MCA_BATCH, fd);
	if (fd >= 0) {
		/* under the lock, the file was read to its end and then only this
		 * process wrote: read on after its own lines */
		off_t end = lseek(fd, 0, SEEK_END);

		if (end >= 0)
			m->cache_off = (long)end;
		flock(fd, LOCK_UN);
		close(fd);
	}
	m->st.seconds += kb_now() - t0;
	for (size_t i = 0; i < n && ret == 0; i++) {
		const struct entry *e = lookup(m, b[i].hex);

		b[i].rare = is_rare(&b[i]);
		b[i].cycles = !b[i].rare ? e->cycles : e->rare_known ? e->rare_cycles : b[i].insns;
		b[i].unpriced = !b[i].rare && e->unpriced;
	}
	free(t);
	return ret;
}

/* ---- a blocks file ---- */

struct unit {
	char *hex;
	unsigned insns;
	uint64_t execs;		/* in every region read so far */
};

struct xline {
	uint32_t id;		/* the unit, from 1 */
	uint64_t n;
};

struct bregion {
	uint64_t seq;
	uint32_t id;
	size_t x0, x1;		/* its x lines */
};

struct kb_blocks {
	int fd;
	uint64_t lineno;
	char *part;		/* a line not yet complete */
	size_t npart;
	int header, bad;
	struct unit *u;
	size_t nu, cu;
	struct xline *x;
	size_t nx, cx;
	size_t from;		/* the x lines of the region still open start here */
	struct bregion *r;
	size_t nr, cr;
	char *path;		/* for messages */
};

struct kb_blocks *kb_blocks_new(void)
{
	struct kb_blocks *b = kb_xcalloc(1, sizeof(*b));

	b->fd = -1;
	return b;
}

void kb_blocks_free(struct kb_blocks *b)
{
	if (!b)
		return;
	if (b->fd >= 0)
		close(b->fd);
	for (size_t i = 0; i < b->nu; i++)
		free(b->u[i].hex);
	free(b->u);
	free(b->x);
	free(b->r);
	free(b->part);
	free(b->path);
	free(b);
}

/* One line, without its newline: 0, or -1 after a message. */
static int blocks_line(struct kb_blocks *b, char *line)
{
	unsigned long long a, c, d;
	unsigned k, uu;
	int off = 0;

	b->lineno++;
	if (b->lineno == 1) {
		if (strncmp(line, "kbblocks 1 ", 11))
			return kb_error("'%s': not a blocks file of the sim plugin (format 1)", b->path), -1;
		b->header = 1;
		return 0;
	}
	if (sscanf(line, "b %llu %llx %u %u %n", &a, &c, &k, &uu, &off) == 4 && off > 0) {
		if (a != b->nu + 1 || strspn(line + off, "0123456789abcdef") != strlen(line + off))
			goto bad;
		if (b->nu == b->cu)
			b->u = kb_xrealloc(b->u, (b->cu = b->cu ? 2 * b->cu : 4096) * sizeof(*b->u));
		b->u[b->nu].hex = kb_xstrdup(line + off);
		b->u[b->nu].insns = k + uu;
		b->u[b->nu].execs = 0;
		b->nu++;
	} else if (sscanf(line, "x %llu %llu %llu", &a, &c, &d) == 3) {
		if (!c || c > b->nu)
			goto bad;
		if (b->nx == b->cx)
			b->x = kb_xrealloc(b->x, (b->cx = b->cx ? 2 * b->cx : 4096) * sizeof(*b->x));
		b->x[b->nx++] = (struct xline){ (uint32_t)c, d };
		b->u[c - 1].execs += d;
	} else if (sscanf(line, "r %llu %llx", &a, &c) == 2) {
		if (b->nr == b->cr)
			b->r = kb_xrealloc(b->r, (b->cr = b->cr ? 2 * b->cr : 64) * sizeof(*b->r));
		b->r[b->nr++] = (struct bregion){ a, (uint32_t)c, b->from, b->nx };
		b->from = b->nx;
	} else if (strncmp(line, "end ", 4)) {
		goto bad;
	}
	return 0;
bad:
	return kb_error("%s:%llu: not understood: '%.80s'", b->path, (unsigned long long)b->lineno, line), -1;
}

int kb_blocks_poll(struct kb_blocks *b, const char *path)
{
	char buf[65536];
	ssize_t got;

	if (b->bad)
		return -1;
	if (!b->path)
		b->path = kb_xstrdup(path);
	if (b->fd < 0) {
		b->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (b->fd < 0)
			return errno == ENOENT ? -ENOENT : (kb_error_errno(errno, "cannot open the blocks "
								     "file '%s'", path), -1);
	}
	while ((got = read(b->fd, buf, sizeof(buf))) > 0) {
		char *p = buf, *nl, *end = buf + got;

		while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
			char *line;

			if (b->npart) {	/* the start of this line came in the last read */
				b->part = kb_xrealloc(b->part, b->npart + (size_t)(nl - p) + 1);
				memcpy(b->part + b->npart, p, (size_t)(nl - p));
				b->part[b->npart + (size_t)(nl - p)] = '\0';
				line = b->part;
				b->npart = 0;
			} else {
				*nl = '\0';
				line = p;
			}
			if (blocks_line(b, line) < 0) {
				b->bad = 1;
				return -1;
			}
			p = nl + 1;
		}
		if (p < end) {
			b->part = kb_xrealloc(b->part, b->npart + (size_t)(end - p) + 1);
			memcpy(b->part + b->npart, p, (size_t)(end - p));
			b->npart += (size_t)(end - p);
		}
	}
	if (got < 0)
		return kb_error_errno(errno, "cannot read the blocks file '%s'", path), -1;
	return 0;
}

/* region i's cycles under m (its units priced, from the cache where they are) */
static int region_cycles(struct kb_mca *m, struct kb_blocks *b, size_t i, struct kb_mca_region *out)
{
	const struct bregion *g = &b->r[i];
	size_t n = g->x1 - g->x0;
	struct kb_mca_block *k = kb_xcalloc(n + 1, sizeof(*k));
	int ret;

	for (size_t j = 0; j < n; j++) {
		const struct unit *u = &b->u[b->x[g->x0 + j].id - 1];

		k[j].hex = u->hex;
		k[j].insns = u->insns;
		k[j].execs = u->execs;
	}
	ret = kb_mca_price(m, k, n);
	*out = (struct kb_mca_region){ .seq = g->seq, .id = g->id };
	for (size_t j = 0; ret == 0 && j < n; j++) {
		out->cycles += (double)b->x[g->x0 + j].n * k[j].cycles;
		out->insns += b->x[g->x0 + j].n * k[j].insns;
	}
	free(k);
	return ret;
}

int kb_mca_region_of(struct kb_mca *m, struct kb_blocks *b, uint64_t seq, struct kb_mca_region *out)
{
	for (size_t i = b->nr; i-- > 0; )	/* the latest first: a boot asks in order */
		if (b->r[i].seq == seq)
			return region_cycles(m, b, i, out) < 0 ? -1 : 0;
	return 1;
}

int kb_mca_price_all(struct kb_mca *m, struct kb_blocks *b)
{
	struct kb_mca_block *all = kb_xcalloc(b->nu + 1, sizeof(*all));
	int ret;

	for (size_t i = 0; i < b->nu; i++) {
		all[i].hex = b->u[i].hex;
		all[i].insns = b->u[i].insns;
		all[i].execs = b->u[i].execs;
	}
	ret = kb_mca_price(m, all, b->nu);
	free(all);
	return ret;
}

int kb_mca_blocks_file(struct kb_mca *m, const char *path, struct kb_mca_region **r, size_t *n)
{
	struct kb_blocks *b = kb_blocks_new();
	int ret = kb_blocks_poll(b, path);

	*r = NULL;
	*n = 0;
	if (ret == -ENOENT)
		kb_error_errno(ENOENT, "cannot open the blocks file '%s'", path);
	if (ret < 0 || (!b->header && (kb_error("'%s': not a blocks file of the sim plugin (format 1)",
						 path), 1))) {
		kb_blocks_free(b);
		return -1;
	}
	ret = kb_mca_price_all(m, b);
	if (ret == 0) {
		*r = kb_xcalloc(b->nr + 1, sizeof(**r));
		for (size_t i = 0; i < b->nr && ret == 0; i++)
			ret = region_cycles(m, b, i, &(*r)[i]);
		*n = b->nr;
	}
	if (ret < 0) {
		free(*r);
		*r = NULL;
		*n = 0;
	}
	kb_blocks_free(b);
	return ret;
}
