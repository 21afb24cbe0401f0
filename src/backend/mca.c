// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Block costs from LLVM's machine model (mca.h).
 *
 * Which figure: llvm-mca's steady state, Total Cycles / Iterations over
 * MCA_ITERATIONS back-to-back runs of the block.  A block of kernel code
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
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mca.h"
#include "util.h"

#define MCA_ITERATIONS	100
#define MCA_BATCH	4000	/* blocks per llvm-mca call */
/* between blocks in llvm-mc's input: nopl 0xdeadbeef(%eax,%eax), which no
 * compiler emits; the disassembly is cut where it appears */
#define SEP_BYTES	"0x0f 0x1f 0x84 0x00 0xef 0xbe 0xad 0xde"
#define SEP_TEXT	"nopl\t-559038737(%eax,%eax)"

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
	int unpriced;
	int used;	/* asked for in this process */
};

struct kb_mca {
	char *cpu, *model, *cache_file, *mca, *mc;
	const char *triple;	/* i386-linux-gnu, or x86_64-linux-gnu (kb_mca_set_arch) */
	struct entry *tab;	/* open addressing, by hex */
	size_t cap, n;
	struct kb_mca_stats st;
};

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

static struct entry *lookup(struct kb_mca *m, const char *hex)
{
	size_t i = fnv1a(hex) & (m->cap - 1);

	while (m->tab[i].hex && strcmp(m->tab[i].hex, hex))
		i = (i + 1) & (m->cap - 1);
	return &m->tab[i];
}

static void insert(struct kb_mca *m, const char *hex, double cycles, int unpriced)
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
		e->used = 0;
		m->n++;
	}
	e->cycles = cycles;
	e->unpriced = unpriced;
}

/* the first tool of names found in PATH, malloc'd, or NULL */
static char *find_tool(const char *const *names)
{
	char *f = NULL;

	for (; *names && !f; names++)
		f = kb_path_lookup(*names);
	return f;
}

/* The cache file: "HEX CYCLES [unpriced]" a line. */
static void cache_load(struct kb_mca *m)
{
	FILE *f = fopen(m->cache_file, "r");
	char *line = NULL;
	size_t cap = 0;

	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		char *sp = strchr(line, ' '), *end;
		double c;

		if (!sp)
			continue;
		*sp = '\0';
		c = strtod(sp + 1, &end);
		if (end == sp + 1 || strspn(line, "0123456789abcdef") != strlen(line))
			continue;	/* a torn line: priced again */
		insert(m, line, c, !strncmp(end, " unpriced", 9));
	}
	free(line);
	fclose(f);
}

struct kb_mca *kb_mca_new(const char *cpu, const char *cache_dir, char **why)
{
	static const char *const mcas[] = { "llvm-mca", "llvm-mca-16", "llvm-mca-15", "llvm-mca-14", NULL };
	struct kb_mca *m = kb_xcalloc(1, sizeof(*m));
	char *ver = NULL, *v, *dir, *out = NULL;
	const char *mcs[2];

	*why = NULL;
	m->mca = find_tool(mcas);
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
	{
		char *argv[] = { m->mca, "--version", NULL };

		kb_capture(argv, 15, 4096, &ver);
	}
	v = ver ? strstr(ver, "LLVM version ") : NULL;
	if (!v) {
		*why = kb_xasprintf("'%s --version' does not say its LLVM version", m->mca);
		free(ver);
		kb_mca_free(m);
		return NULL;
	}
	v += strlen("LLVM version ");
	v[strcspn(v, " \n")] = '\0';
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
	m->cache_file = kb_xasprintf("%s/mca/llvm-%s/%s", dir, v, cpu);
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
	file = kb_xasprintf("%s.x86_64", m->cache_file);
	free(m->cache_file);
	m->cache_file = file;
	for (size_t i = 0; i < m->cap; i++) {
		free(m->tab[i].hex);
		m->tab[i].hex = NULL;
	}
	m->n = 0;
	cache_load(m);
	return 0;
}

void kb_mca_free(struct kb_mca *m)
{
	if (!m)
		return;
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

/* ---- pricing a batch ---- */

struct todo {
	const char *hex;
	unsigned insns;
	double fixed;		/* string instructions, from the table */
	int region;		/* its llvm-mca region, -1: none (nothing left to price) */
	int bad;		/* the disassembly did not give its instructions */
};

/* Run a tool, its output into dir/tool.log: llvm-mca warns once for each
 * block with a call or a return, megabytes for a kernel's blocks, and a
 * pipe read only so far would fail it (EPIPE, exit status 74). */
static int run_tool(char **argv, const char *what, const char *dir)
{
	char *log = kb_xasprintf("%s/tool.log", dir), *out = NULL, *e;
	int r;

	unlink(log);
	r = kb_run_argv(argv, NULL, log);
	if (r != 0) {
		kb_read_file(log, &out, NULL);
		e = out ? strstr(out, "error") : NULL;	/* the error, not the warnings before it */
		kb_error("%s failed (exit status %d): %.400s", what, r, e ? e : out ? out : "");
		free(out);
	}
	unlink(log);
	free(log);
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

/* Disassemble t[0..n) with one llvm-mc call and write llvm-mca's input: a
 * code region per block that has something left to price. */
static int disassemble(struct kb_mca *m, struct todo *t, size_t n, const char *dir, int *nreg)
{
	char *in = kb_xasprintf("%s/blocks.hex", dir), *asmf = kb_xasprintf("%s/blocks.s", dir);
	char *mcaf = kb_xasprintf("%s/mca.s", dir);
	FILE *f = fopen(in, "w"), *g = NULL, *h = NULL;
	char *line = NULL;
	size_t cap = 0, k = 0, got = 0;
	int ret = -1, opened = 0;

	if (!f) {
		kb_error_errno(errno, "cannot create '%s'", in);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		for (const char *p = t[i].hex; p[0] && p[1]; p += 2)
			fprintf(f, "0x%c%c ", p[0], p[1]);
		fputs("\n" SEP_BYTES "\n", f);
	}
	if (fclose(f)) {
		kb_error_errno(errno, "cannot write '%s'", in);
		goto out;
	}
	{
		char *triple = kb_xasprintf("-triple=%s", m->triple);
		char *argv[] = { m->mc, "--disassemble", triple, "-o", asmf, in, NULL };
		int r = run_tool(argv, "llvm-mc --disassemble", dir);

		free(triple);
		if (r < 0)
			goto out;
	}
	g = fopen(asmf, "r");
	h = fopen(mcaf, "w");
	if (!g || !h) {
		kb_error_errno(errno, "cannot open '%s' or '%s'", asmf, mcaf);
		goto out;
	}
	*nreg = 0;
	while (k < n && getline(&line, &cap, g) > 0) {
		char *p = line + strspn(line, " \t");
		int s;

		line[strcspn(line, "\n")] = '\0';
		if (*p == '.' || !*p)
			continue;	/* .text */
		if (!strcmp(p, SEP_TEXT)) {	/* the block ends */
			t[k].bad = got != t[k].insns;
			if (opened) {
				fputs("# LLVM-MCA-END\n", h);
				opened = 0;
			}
			got = 0;
			k++;
			continue;
		}
		got++;
		if ((s = string_insn(p)) >= 0) {
			t[k].fixed += t[k].insns == 1 ? string_costs[s].per : string_costs[s].start;
			continue;
		}
		if (!opened) {
			fprintf(h, "# LLVM-MCA-BEGIN b%zu\n", k);
			t[k].region = (*nreg)++;
			opened = 1;
		}
		fprintf(h, "%s\n", p);
	}
	if (opened)
		fputs("# LLVM-MCA-END\n", h);
	for (; k < n; k++)
		t[k].bad = 1;
	ret = 0;
out:
	if (g)
		fclose(g);
	if (h && fclose(h))
		ret = -1;
	free(line);
	free(in);
	free(asmf);
	free(mcaf);
	return ret;
}

/* llvm-mca over mca.s: each region's Total Cycles / Iterations, by name */
static int simulate(struct kb_mca *m, struct todo *t, size_t n, const char *dir, double *cyc)
{
	char *in = kb_xasprintf("%s/mca.s", dir), *outf = kb_xasprintf("%s/mca.out", dir);
	char iters[32];
	FILE *f = NULL;
	char *line = NULL, *cpu = kb_xasprintf("-mcpu=%s", m->cpu);
	size_t cap = 0;
	long cur = -1;
	double it = 0;
	int ret = -1;

	snprintf(iters, sizeof(iters), "-iterations=%d", MCA_ITERATIONS);
	{
		char *triple = kb_xasprintf("-mtriple=%s", m->triple);
		char *argv[] = { m->mca, triple, cpu, iters, "-resource-pressure=false",
				 "-instruction-info=false", "-o", outf, in, NULL };
		int r;

		m->st.calls++;
		r = run_tool(argv, "llvm-mca", dir);
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
		else if (sscanf(line, "Iterations: %lf", &v) == 1)
			it = v;
		else if (sscanf(line, "Total Cycles: %lf", &v) == 1 && cur >= 0 && (size_t)cur < n && it > 0)
			cyc[cur] = v / it;
	}
	ret = 0;
out:
	if (f)
		fclose(f);
	(void)t;
	free(line);
	free(cpu);
	free(in);
	free(outf);
	return ret;
}

static int price_batch(struct kb_mca *m, struct todo *t, size_t n, FILE *cache)
{
	char *dir = kb_xasprintf("%s/kbench-mca.XXXXXX", kb_tmpdir());
	double *cyc = kb_xcalloc(n + 1, sizeof(*cyc));
	int nreg = 0, ret = -1;

	if (!mkdtemp(dir)) {
		kb_error_errno(errno, "cannot create a temporary directory in '%s'", kb_tmpdir());
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		t[i].region = -1;
		cyc[i] = -1;
	}
	if (disassemble(m, t, n, dir, &nreg) < 0)
		goto out;
	if (nreg > 0 && simulate(m, t, n, dir, cyc) < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		int bad = t[i].bad || (t[i].region >= 0 && cyc[i] < 0);
		double c = bad ? t[i].insns : t[i].fixed + (t[i].region >= 0 ? cyc[i] : 0);

		insert(m, t[i].hex, c, bad);
		if (bad)
			m->st.unpriced++;
		else
			m->st.priced++;
		if (cache)
			fprintf(cache, "%s %.6g%s\n", t[i].hex, c, bad ? " unpriced" : "");
	}
	ret = 0;
out:
	{	/* the batch's files: only those disassemble and simulate made */
		static const char *const names[] = { "blocks.hex", "blocks.s", "mca.s", "mca.out" };

		for (size_t i = 0; i < KB_ARRAY_SIZE(names); i++) {
			char *p = kb_xasprintf("%s/%s", dir, names[i]);

			unlink(p);
			free(p);
		}
		rmdir(dir);
	}
	free(dir);
	free(cyc);
	return ret;
}

int kb_mca_price(struct kb_mca *m, struct kb_mca_block *b, size_t n)
{
	struct todo *t = kb_xcalloc(n + 1, sizeof(*t));
	size_t nt = 0;
	double t0 = kb_now();
	FILE *cache = NULL;
	int ret = 0;

	for (size_t i = 0; i < n; i++) {
		struct entry *e = lookup(m, b[i].hex);

		if (e->hex) {
			m->st.hits += !e->used;
			e->used = 1;
			continue;
		}
		insert(m, b[i].hex, -1, 0);	/* once per distinct block */
		e = lookup(m, b[i].hex);
		e->used = 1;
		t[nt].hex = e->hex;
		t[nt].insns = b[i].insns;
		nt++;
	}
	if (nt) {
		char *dir = kb_xstrdup(m->cache_file);

		*strrchr(dir, '/') = '\0';
		if (kb_mkdir_p(dir, 0755) == 0)
			cache = fopen(m->cache_file, "a");
		if (!cache)
			kb_warn("cannot write the block cost cache '%s': %s", m->cache_file, strerror(errno));
		free(dir);
	}
	for (size_t i = 0; i < nt && ret == 0; i += MCA_BATCH)
		ret = price_batch(m, t + i, nt - i < MCA_BATCH ? nt - i : MCA_BATCH, cache);
	if (cache && fclose(cache))
		kb_warn("cannot write the block cost cache '%s': %s", m->cache_file, strerror(errno));
	m->st.seconds += kb_now() - t0;
	for (size_t i = 0; i < n && ret == 0; i++) {
		const struct entry *e = lookup(m, b[i].hex);

		b[i].cycles = e->cycles;
		b[i].unpriced = e->unpriced;
	}
	free(t);
	return ret;
}

/* ---- a blocks file ---- */

struct unit {
	char *hex;
	unsigned insns;
};

int kb_mca_blocks_file(struct kb_mca *m, const char *path, struct kb_mca_region **r, size_t *n)
{
	FILE *f = fopen(path, "r");
	struct unit *u = NULL;
	struct kb_mca_block *b;
	struct { uint64_t seq; uint32_t id; uint64_t n; } *x = NULL;
	size_t nu = 0, cu = 0, nx = 0, cx = 0, nr = 0, cr = 0, lineno = 0, from = 0;
	char *line = NULL;
	size_t cap = 0;
	int ret = -1;

	*r = NULL;
	*n = 0;
	if (!f) {
		kb_error_errno(errno, "cannot open the blocks file '%s'", path);
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		unsigned long long a, c, d;
		unsigned k, uu;
		int off = 0;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (lineno == 1) {
			if (strncmp(line, "kbblocks 1 ", 11)) {
				kb_error("'%s': not a blocks file of the sim plugin (format 1)", path);
				goto out;
			}
			continue;
		}
		if (sscanf(line, "b %llu %llx %u %u %n", &a, &c, &k, &uu, &off) == 4 && off > 0) {
			if (a != nu + 1 || strspn(line + off, "0123456789abcdef") != strlen(line + off))
				goto bad;
			if (nu == cu)
				u = kb_xrealloc(u, (cu = cu ? 2 * cu : 4096) * sizeof(*u));
			u[nu].hex = kb_xstrdup(line + off);
			u[nu].insns = k + uu;
			nu++;
		} else if (sscanf(line, "x %llu %llu %llu", &a, &c, &d) == 3) {
			if (!c || c > nu)
				goto bad;
			if (nx == cx)
				x = kb_xrealloc(x, (cx = cx ? 2 * cx : 4096) * sizeof(*x));
			x[nx].seq = a;
			x[nx].id = (uint32_t)c;
			x[nx].n = d;
			nx++;
		} else if (sscanf(line, "r %llu %llx", &a, &c) == 2) {
			if (nr == cr)
				*r = kb_xrealloc(*r, (cr = cr ? 2 * cr : 64) * sizeof(**r));
			(*r)[nr] = (struct kb_mca_region){ .seq = a, .id = (uint32_t)c };
			for (size_t i = from; i < nx; i++)
				x[i].seq = nr;	/* index of the region, from here on */
			from = nx;
			nr++;
		} else if (strncmp(line, "end ", 4)) {
			goto bad;
		}
	}
	nx = from;	/* x lines of a region never closed count nowhere */
	b = kb_xcalloc(nu + 1, sizeof(*b));
	for (size_t i = 0; i < nu; i++) {
		b[i].hex = u[i].hex;
		b[i].insns = u[i].insns;
	}
	ret = kb_mca_price(m, b, nu);
	for (size_t i = 0; ret == 0 && i < nx; i++) {
		struct kb_mca_region *g = &(*r)[x[i].seq];

		g->cycles += (double)x[i].n * b[x[i].id - 1].cycles;
		g->insns += x[i].n * u[x[i].id - 1].insns;
	}
	free(b);
	*n = nr;
	goto out;
bad:
	kb_error("%s:%zu: not understood: '%.80s'", path, lineno, line);
out:
	if (ret < 0) {
		free(*r);
		*r = NULL;
	}
	for (size_t i = 0; i < nu; i++)
		free(u[i].hex);
	free(u);
	free(x);
	free(line);
	fclose(f);
	return ret;
}
