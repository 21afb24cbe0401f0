// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where an ordered build (order.h) will put a kernel's code, worked out
 * from the unordered build alone: its System.map and the objects in its
 * object directory, the way GNU ld lays out the kernel's .text output
 * section.
 *
 * The unordered kernel's layout is read back from its objects: each
 * executable section of each object is found in System.map by its
 * symbols (every symbol of the section at one offset from one base), so
 * that the input sections of the .text output section, their sizes,
 * alignments and link order are known without a link map.  An ordered
 * build compiles the objects that define the order's functions with
 * -ffunction-sections (kb_order_objects: the same objects here), so their
 * main text becomes a section per function, and the linker script takes
 * the order's sections first.  The layout is laid out again from the
 * main text's start: the order's functions, each aligned as its padding
 * in the unordered object says; then every other section of the main
 * text in link order; then the sections after the main text (the cold
 * parts, .noinstr.text, .sched.text, the entry text...), each aligned
 * again, where an alignment the linker script adds is read from the
 * unordered kernel's gaps.
 *
 * In its own section a function's jumps to another function (a tail
 * call) can no longer be the two-byte form the assembler chose where the
 * target was near in the same section: such a jmp becomes five bytes, a
 * jcc six.  The objects' code is read with LLVM's disassembler
 * (disasm.h) to find them, and a function's code after each is moved on
 * by what it grew.
 */
#include "config.h"

#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "conf.h"
#include "disasm.h"
#include "hybrid.h"
#include "names.h"
#include "order.h"
#include "pool.h"
#include "util.h"

/* System.map's text symbols: for each name, its addresses. */
struct map {
	struct kb_names idx;
	struct kb_pool pool;
	size_t *first;		/* [idx.n + 1]: name i's addresses are addr[first[i]..first[i + 1]) */
	uint64_t *addr;
	uint64_t etext;
	int has_etext;
};

/* One executable section of an object, found in the unordered kernel. */
struct sec {
	size_t obj;
	uint64_t addr, size;	/* in the unordered kernel */
	uint64_t align;
	int is_text;		/* the object's ".text" */
	int pad;		/* kbench's layout padding: its size is the map's */
	int weak;		/* found by weak symbols alone */
	/* laid out again */
	uint64_t pre;		/* bytes the unordered kernel has before it that no alignment explains */
	uint64_t to;
};

/* A function of an object compiled with -ffunction-sections. */
struct fn {
	size_t obj;
	uint64_t off, size;	/* in its object's .text */
	uint64_t align;
	uint64_t grow;		/* bytes its tail calls grow by */
	size_t jump0, njump;	/* its grown jumps: jump[jump0 .. jump0 + njump) */
	size_t name0, nname;	/* its names: fname[name0 .. name0 + nname) */
	/* its own section's size and alignment where its object was compiled
	 * with -ffunction-sections here (a self-aligned object's): exact */
	uint64_t split_size, split_align;
	int exact;
	int placed;
	uint64_t to;
};

struct jump {
	uint64_t end;		/* offset in the function just past the jump */
	unsigned grow;
};

struct obj {
	char *rel;
	int split;		/* compiled with -ffunction-sections */
	int self_aligned;	/* code of a function aligns itself */
	int compiled;		/* ... and its sections were read from a compilation here */
	size_t text;		/* its .text's sec, or SIZE_MAX */
	uint64_t text_align;
	size_t fn0, nfn;
};

struct placer {
	struct map map;
	char **split;		/* kb_order_objects' */
	size_t nsplit;
	struct obj *obj;
	size_t nobj, capobj;
	struct sec *sec;
	size_t nsec, capsec;
	struct fn *fn;
	size_t nfn, capfn;
	char **fname;
	size_t nfname, capfname;
	struct jump *jump;
	size_t njump, capjump;
	char **hex;		/* per fn: its bytes, for the disassembler */
	int elfclass;
	int err;
};

static void *grow_array(void *v, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return v;
	*cap = *cap ? 2 * *cap : 256;
	return kb_xrealloc(v, *cap * size);
}

/* ---- System.map ---- */

static int by_name_addr(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;	/* (name id, address) pairs */

	return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : (x[1] < y[1] ? -1 : x[1] > y[1]);
}

static int map_load(struct map *m, const char *path)
{
	FILE *f = fopen(path, "r");
	uint64_t (*pair)[2] = NULL;
	size_t n = 0, cap = 0;
	char line[512];

	if (!f)
		return kb_error_errno(errno, "cannot open '%s'", path);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char type, name[256];

		if (sscanf(line, "%llx %c %255s", &a, &type, name) != 3)
			continue;
		if (!strcmp(name, "_etext")) {
			m->etext = a;
			m->has_etext = 1;
		}
		if (type != 'T' && type != 't' && type != 'W' && type != 'w')
			continue;
		pair = grow_array(pair, &cap, n, sizeof(*pair));
		pair[n][0] = kb_names_add(&m->idx, &m->pool, name);
		pair[n][1] = a;
		n++;
	}
	fclose(f);
	if (!n) {
		free(pair);
		return kb_error("'%s' has no text symbols: no System.map", path);
	}
	qsort(pair, n, sizeof(*pair), by_name_addr);
	m->first = kb_xcalloc(m->idx.n + 1, sizeof(*m->first));
	m->addr = kb_xcalloc(n, sizeof(*m->addr));
	for (size_t i = 0; i < n; i++) {
		m->first[pair[i][0] + 1]++;
		m->addr[i] = pair[i][1];
	}
	for (size_t i = 0; i < m->idx.n; i++)
		m->first[i + 1] += m->first[i];
	free(pair);
	return 0;
}

static void map_release(struct map *m)
{
	kb_names_release(&m->idx);
	kb_pool_release(&m->pool);
	free(m->first);
	free(m->addr);
}

/* ---- the objects ---- */

struct osym {
	uint64_t value, size;
	size_t shndx;
	int func, weak;
	const char *name;
};

static int by_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* Where section shndx of an object sits in the unordered kernel: the base
 * at which each of its symbols (its strong ones; its weak functions where
 * it has no other) is at its offset; 0 and *base, or -1 where the map has
 * a function of it nowhere (an object the link left out) or no one base
 * takes them all. */
static int locate(const struct map *m, const struct osym *s, size_t n, size_t shndx, uint64_t *base,
		  int *weak)
{
	uint64_t *cand = NULL;
	size_t nc = 0, cap = 0, voters = 0, best = 0;
	int weak_only = 1, ret = -1;

	for (size_t i = 0; i < n; i++)
		if (s[i].shndx == shndx && !s[i].weak)
			weak_only = 0;
	for (size_t i = 0; i < n; i++) {
		size_t id;

		if (s[i].shndx != shndx || s[i].weak != weak_only)
			continue;
		id = kb_names_find(&m->idx, s[i].name);
		if (id >= m->idx.n) {
			if (s[i].func)
				goto out;	/* a function the kernel has not */
			continue;		/* a label System.map leaves out */
		}
		voters++;
		for (size_t k = m->first[id]; k < m->first[id + 1]; k++) {
			cand = grow_array(cand, &cap, nc, sizeof(*cand));
			cand[nc++] = m->addr[k] - s[i].value;
		}
	}
	if (!voters)
		goto out;
	qsort(cand, nc, sizeof(*cand), by_u64);
	for (size_t i = 0, j; i < nc; i = j) {
		for (j = i; j < nc && cand[j] == cand[i]; j++)
			;
		if (j - i > best) {
			best = j - i;
			*base = cand[i];
		}
	}
	ret = best == voters ? 0 : -1;
	*weak = weak_only;
out:
	free(cand);
	return ret;
}

static int split_object(const struct placer *p, const char *rel)
{
	size_t lo = 0, hi = p->nsplit;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(p->split[mid], rel);

		if (!c)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static void hex_of(char *out, const unsigned char *b, size_t n)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[b[i] >> 4];
		out[2 * i + 1] = digits[b[i] & 15];
	}
	out[2 * n] = '\0';
}

/* The functions of a split object's .text, with the alignment the padding
 * before each says (the first takes the section's) and their bytes. */
static void add_functions(struct placer *p, size_t o, const struct osym *s, size_t n, size_t shndx,
			  uint64_t size)
{
	struct obj *ob = &p->obj[o];
	uint64_t prev_end = 0, all, most = 1;

	ob->fn0 = p->nfn;
	for (size_t i = 0; i < n; i++) {	/* s is sorted by value */
		struct fn *f;

		if (s[i].shndx != shndx || !s[i].func || s[i].value >= size)
			continue;
		if (p->nfn > ob->fn0 && p->fn[p->nfn - 1].off == s[i].value) {	/* an alias */
			f = &p->fn[p->nfn - 1];
			if (s[i].size > f->size)
				f->size = s[i].size;
		} else {
			p->fn = grow_array(p->fn, &p->capfn, p->nfn, sizeof(*p->fn));
			f = &p->fn[p->nfn++];
			memset(f, 0, sizeof(*f));
			f->obj = o;
			f->off = s[i].value;
			f->size = s[i].size;
			f->name0 = p->nfname;
		}
		p->fname = grow_array(p->fname, &p->capfname, p->nfname, sizeof(*p->fname));
		p->fname[p->nfname++] = kb_xstrdup(s[i].name);
		f->nname++;
	}
	ob->nfn = p->nfn - ob->fn0;
	/* the alignment the compiler gives every function of the object (the
	 * same for all but those that ask for more): no more than any
	 * function's offset allows */
	all = ob->text_align ? ob->text_align : 1;
	for (size_t k = ob->fn0; k < p->nfn; k++)
		if (p->fn[k].off && (p->fn[k].off & (~p->fn[k].off + 1)) < all)
			all = p->fn[k].off & (~p->fn[k].off + 1);
	for (size_t k = ob->fn0; k < p->nfn; k++) {
		struct fn *f = &p->fn[k];
		uint64_t a = all;

		if (f->off + f->size > size)
			f->size = size - f->off;
		f->align = all;
		if (k > ob->fn0 && prev_end < f->off) {
			/* more where the padding before it says so: the smallest
			 * power of two that rounds the end of the function before
			 * up to this one's start */
			while (a < 4096 && ((prev_end + a - 1) & ~(a - 1)) < f->off)
				a *= 2;
			if (((prev_end + a - 1) & ~(a - 1)) == f->off)
				f->align = a;
		}
		if (f->off + f->size > prev_end)
			prev_end = f->off + f->size;
		if (f->align > most)
			most = f->align;
	}
	/* an alignment of the section that no function's asks: the assembly
	 * in one of them aligns its own code (".align 2" in usercopy_32.c's
	 * asm), which in its own section may take other padding */
	ob->self_aligned = (ob->text_align ? ob->text_align : 1) > most;
}

/* read_object's symbols: the named code symbols (functions, labels and
 * objects) of executable sections, and whether the compiler wrote the source's
 * name (a FILE symbol: the assembler, here, does not) */
struct osyms {
	struct osym *v;
	size_t n, cap;
	int has_file;
};

static void code_symbol(void *ctx, Elf *e, const GElf_Sym *sym, const char *name)
{
	struct osyms *os = ctx;
	int type = GELF_ST_TYPE(sym->st_info);
	GElf_Shdr ts;

	if (type == STT_FILE) {
		os->has_file = 1;
		return;
	}
	/* an object in code: kbench's layout padding (kb_layout_pad_N), a
	 * table in an assembler file */
	if ((type != STT_FUNC && type != STT_NOTYPE && type != STT_OBJECT) || sym->st_shndx == SHN_UNDEF ||
	    sym->st_shndx >= SHN_LORESERVE || !*name || !strncmp(name, ".L", 2) || name[0] == '$' ||
	    !gelf_getshdr(elf_getscn(e, sym->st_shndx), &ts) || !(ts.sh_flags & SHF_EXECINSTR))
		return;
	os->v = grow_array(os->v, &os->cap, os->n, sizeof(*os->v));
	os->v[os->n++] = (struct osym){ sym->st_value, sym->st_size, sym->st_shndx, type == STT_FUNC,
					GELF_ST_BIND(sym->st_info) == STB_WEAK, name };
}

static int by_section_value(const void *a, const void *b)
{
	const struct osym *x = a, *y = b;

	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	return x->value < y->value ? -1 : x->value > y->value;
}

/* The sizes and alignments of the function sections of object rel of the
 * object directory, compiled here as its recorded command does with
 * -ffunction-sections (the ordered build's flag) into a scratch file:
 * for an object whose functions' own assembly aligns their code, what
 * their sections take can be read, not worked out.  Sets its functions'
 * split_size, split_align and exact; nothing where the compilation fails
 * (the object is then placed as before, and counted self-aligned). */
static void split_exact(struct placer *p, const char *objdir, const char *rel, size_t o)
{
	char *cmd = kb_object_command(objdir, rel), *tmp = NULL, *line = NULL, *out = NULL, *c, *q;
	int fd = -1, efd = -1, r;
	size_t shstrndx;
	Elf *e = NULL;
	Elf_Scn *scn = NULL;

	if (!cmd)
		return;
	fd = kb_mkstemp("order-split", &tmp);
	if (fd < 0)
		goto out;
	close(fd);
	/* its output and its dependency file elsewhere, the flag at the end */
	c = kb_xasprintf("%s", cmd);
	q = strstr(c, " -o ");
	if (!q) {
		free(c);
		goto out;
	}
	{
		size_t w = strcspn(q + 4, " ");
		char *d = strstr(c, "-Wp,-MMD,");

		line = kb_xasprintf("cd '%s' && %.*s -o '%s'%s -ffunction-sections -Wp,-MMD,'%s.d'", objdir,
				    (int)(q - c), c, tmp, q + 4 + w, tmp);
		if (d) {	/* Kbuild's own dependency file: not written from here */
			char *l2 = kb_xstrdup(line), *dd = strstr(l2, "-Wp,-MMD,");
			size_t dw = strcspn(dd, " ");

			memmove(dd, dd + dw, strlen(dd + dw) + 1);
			free(line);
			line = l2;
		}
	}
	free(c);
	{
		char *argv[] = { "/bin/sh", "-c", line, NULL };

		r = kb_capture(argv, 120, 1 << 16, &out);
	}
	if (r != 0)
		goto out;
	if (kb_elf_object(tmp, &e, &efd, &shstrndx) <= 0)
		goto out;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_EXECINSTR) ||
		    !(name = elf_strptr(e, shstrndx, sh.sh_name)) || strncmp(name, ".text.", 6))
			continue;
		for (size_t k = p->obj[o].fn0; k < p->obj[o].fn0 + p->obj[o].nfn; k++) {
			struct fn *f = &p->fn[k];

			for (size_t i = 0; i < f->nname; i++)
				if (!strcmp(p->fname[f->name0 + i], name + 6)) {
					f->split_size = sh.sh_size;
					f->split_align = sh.sh_addralign ? sh.sh_addralign : 1;
					f->align = f->split_align;
					f->exact = 1;
					p->obj[o].compiled = 1;
				}
		}
	}
out:
	if (e)
		kb_elf_object_close(e, efd);
	if (tmp) {
		char *d = kb_xasprintf("%s.d", tmp);

		unlink(tmp);
		unlink(d);
		free(d);
	}
	free(tmp);
	free(line);
	free(out);
	free(cmd);
}

static int read_object(struct placer *p, const char *path, const char *rel)
{
	struct osyms os = { 0 };
	struct osym *s;
	Elf *e;
	Elf_Scn *scn = NULL;
	size_t shstrndx, ns, text_ndx = 0, o;
	int fd, has_file, ret = kb_elf_object(path, &e, &fd, &shstrndx);

	if (ret <= 0)
		return ret;
	ret = 0;
	p->elfclass = gelf_getclass(e);
	kb_elf_symbols(e, code_symbol, &os);
	s = os.v;
	ns = os.n;
	has_file = os.has_file;
	if (!ns)
		goto out;
	/* by section, then value: add_functions walks them in order (qsort
	 * is not stable: aliases keep no order, and need none) */
	qsort(s, ns, sizeof(*s), by_section_value);
	p->obj = grow_array(p->obj, &p->capobj, p->nobj, sizeof(*p->obj));
	o = p->nobj;
	p->obj[o] = (struct obj){ .rel = NULL, .text = SIZE_MAX };
	scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;
		uint64_t base = 0;
		size_t ndx = elf_ndxscn(scn);
		int weak = 0;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || !sh.sh_size ||
		    (sh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) != (SHF_ALLOC | SHF_EXECINSTR) ||
		    !(name = elf_strptr(e, shstrndx, sh.sh_name)))
			continue;
		if (locate(&p->map, s, ns, ndx, &base, &weak) < 0)
			continue;
		p->sec = grow_array(p->sec, &p->capsec, p->nsec, sizeof(*p->sec));
		p->sec[p->nsec] = (struct sec){ o, base, sh.sh_size, sh.sh_addralign ? sh.sh_addralign : 1,
						!strcmp(name, ".text"), 0, weak, 0, 0 };
		for (size_t k = 0; k < ns; k++)
			p->sec[p->nsec].pad |= s[k].shndx == ndx && !strncmp(s[k].name, KB_LAYOUT_PAD_SYM,
									   strlen(KB_LAYOUT_PAD_SYM));
		if (p->sec[p->nsec].is_text) {
			p->obj[o].text = p->nsec;
			p->obj[o].text_align = p->sec[p->nsec].align;
			text_ndx = ndx;
		}
		p->nsec++;
	}
	if (p->nsec == 0 || p->sec[p->nsec - 1].obj != o)
		goto out;	/* nothing of it in the kernel */
	p->obj[o].rel = kb_xstrdup(rel);
	p->nobj++;
	/* compiled from C (the compiler writes the source's name; the
	 * assembler, here, does not) and defining an order's function: its
	 * main text becomes a section per function */
	p->obj[o].split = has_file && split_object(p, rel) && p->obj[o].text != SIZE_MAX;
	if (p->obj[o].split) {
		Elf_Scn *ts = elf_getscn(e, text_ndx);
		Elf_Data *d = ts ? elf_getdata(ts, NULL) : NULL;
		const struct sec *t = &p->sec[p->obj[o].text];
		size_t f0 = p->nfn;

		add_functions(p, o, s, ns, text_ndx, t->size);
		p->hex = kb_xrealloc(p->hex, (p->nfn + 1) * sizeof(*p->hex));
		for (size_t k = f0; k < p->nfn; k++) {
			const struct fn *f = &p->fn[k];

			p->hex[k] = NULL;
			if (d && d->d_buf && d->d_size >= f->off + f->size && f->size) {
				p->hex[k] = kb_xmalloc(2 * f->size + 1);
				hex_of(p->hex[k], (const unsigned char *)d->d_buf + f->off, f->size);
			}
		}
		if (p->obj[o].self_aligned) {
			char *objdir = kb_xstrndup(path, strlen(path) - strlen(rel) - 1);

			split_exact(p, objdir, rel, o);
			free(objdir);
		}
	}
out:
	free(s);
	kb_elf_object_close(e, fd);
	return ret;
}

static int visit_object(void *ctx, const char *path, const char *rel)
{
	return read_object(ctx, path, rel);
}

/* ---- the tail calls that grow ---- */

/* The functions given to the disassembler (those whose bytes were read),
 * by their index there, and which of them it read whole. */
struct jumps_read {
	struct placer *p;
	const size_t *of;	/* disassembler's index -> p->fn's */
	unsigned char *read;
};

static void read_jumps(void *ctx, size_t i, const struct kb_insn *in, size_t n)
{
	struct jumps_read *jr = ctx;
	struct placer *p = jr->p;
	struct fn *f = &p->fn[jr->of[i]];
	const char *h = p->hex[jr->of[i]];

	jr->read[i] = 1;
	f->jump0 = p->njump;
	for (size_t k = 0; k < n; k++) {
		unsigned b0, b1;
		int64_t target;

		if (in[k].len != 2 || sscanf(h + 2 * in[k].off, "%2x%2x", &b0, &b1) != 2 ||
		    (b0 != 0xeb && (b0 & 0xf0) != 0x70))
			continue;
		target = (int64_t)in[k].off + 2 + (int8_t)b1;
		if (target >= 0 && (uint64_t)target < f->size)
			continue;	/* within the function: the assembler's choice stays */
		p->jump = grow_array(p->jump, &p->capjump, p->njump, sizeof(*p->jump));
		p->jump[p->njump++] = (struct jump){ in[k].off + 2, b0 == 0xeb ? 3 : 4 };
		f->grow += b0 == 0xeb ? 3 : 4;
	}
	/* a function of a self-aligned object, compiled on its own: what its
	 * section holds more than its tail calls explain (the padding its own
	 * assembly's .align takes there), at its end */
	if (f->exact) {
		if (f->split_size >= f->size + f->grow) {
			uint64_t rest = f->split_size - f->size - f->grow;

			if (rest) {
				p->jump = grow_array(p->jump, &p->capjump, p->njump, sizeof(*p->jump));
				p->jump[p->njump++] = (struct jump){ f->size, (unsigned)rest };
				f->grow += rest;
			}
		} else if (f->split_size >= f->grow) {
			/* shorter on its own (its .align takes less): the code
			 * after it is where the section's size puts it, the last
			 * bytes of its own left where they are */
			f->size = f->split_size - f->grow;
		} else {
			f->exact = 0;
		}
	}
	f->njump = p->njump - f->jump0;
}

static int find_jumps(struct placer *p, struct kb_order_place *st)
{
	const char **hex = kb_xcalloc(p->nfn + 1, sizeof(*hex));
	size_t *of = kb_xcalloc(p->nfn + 1, sizeof(*of)), n = 0;
	struct jumps_read jr = { p, of, NULL };
	int r;

	for (size_t k = 0; k < p->nfn; k++)
		if (p->hex[k]) {
			of[n] = k;
			hex[n++] = p->hex[k];
		}
	jr.read = kb_xcalloc(n + 1, 1);
	r = kb_disasm_blocks(p->elfclass == ELFCLASS64 ? "x86_64-linux-gnu" : "i386-linux-gnu", hex, n,
			     read_jumps, &jr);
	for (size_t k = 0; k < n; k++) {
		const struct fn *f = &p->fn[of[k]];

		if (!jr.read[k]) {
			st->unread++;
			continue;
		}
		st->grown += f->njump;
		st->grow_bytes += f->grow;
	}
	st->unread += p->nfn - n;
	free(jr.read);
	free(hex);
	free(of);
	return r;
}

/* ---- the layout ---- */

static const struct sec *SORT_SEC;	/* qsort has no closure */

static int idx_by_addr(const void *a, const void *b)
{
	const struct sec *x = &SORT_SEC[*(const size_t *)a], *y = &SORT_SEC[*(const size_t *)b];

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static uint64_t align_up(uint64_t a, uint64_t al);

/* A section found by weak symbols alone is where their strong definitions
 * are, another object's code, when the link took those (an overridden
 * __weak function, the only code of its object's .text: free_initrd_mem
 * in Linux 6.1's init/initramfs.o).  Where it overlaps another section it
 * goes to the one gap between the others that it fills exactly (its
 * alignment before it, the next section's after it, or, where the linker
 * script aligns what follows, under 64 bytes more: the tightest such); where
 * no gap or two as tight do, it stays and is counted an overlap. */
static void fit_weak(struct placer *p)
{
	size_t *ix = kb_xcalloc(p->nsec + 1, sizeof(*ix));

	for (size_t i = 0; i < p->nsec; i++)
		ix[i] = i;
	SORT_SEC = p->sec;
	qsort(ix, p->nsec, sizeof(*ix), idx_by_addr);
	for (size_t w = 0; w < p->nsec; w++) {
		struct sec *s = &p->sec[w];
		uint64_t at = 0, best = UINT64_MAX;
		size_t fits = 0, prev = SIZE_MAX;
		int overlaps = 0;

		if (!s->weak)
			continue;
		for (size_t k = 0; k < p->nsec; k++) {
			const struct sec *o = &p->sec[k];

			if (k != w && !o->weak && o->addr < s->addr + s->size && s->addr < o->addr + o->size)
				overlaps = 1;
		}
		if (!overlaps)
			continue;
		for (size_t k = 0; k < p->nsec; k++) {
			const struct sec *o = &p->sec[ix[k]];
			uint64_t pos;

			if (o->weak)
				continue;
			if (prev != SIZE_MAX) {
				const struct sec *a = &p->sec[prev];

				/* right after a, or, where the linker script aligns
				 * what follows a (the main text after the head),
				 * right before o */
				pos = align_up(a->addr + a->size, s->align);
				if (pos + s->size <= o->addr && (align_up(pos + s->size, o->align) == o->addr ||
								 (o->addr - pos - s->size < 64 &&
								  (o->addr - s->size) % s->align == 0))) {
					uint64_t slack = o->addr - pos - s->size;

					/* the tightest gap; two as tight: neither */
					if (slack < best) {
						best = slack;
						fits = 0;
					}
					if (slack == best) {
						fits++;
						at = align_up(pos + s->size, o->align) == o->addr ? pos : o->addr - s->size;
					}
				}
			}
			prev = ix[k];
		}
		if (fits == 1) {
			s->addr = at;
			s->weak = 0;
		}
	}
	free(ix);
}

static int sec_by_addr(const void *a, const void *b)
{
	const struct sec *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static uint64_t align_up(uint64_t a, uint64_t al)
{
	return al > 1 ? (a + al - 1) & ~(al - 1) : a;
}

/* What the unordered kernel puts before s, after the end of the section
 * before it: the padding s's alignment asks, or an alignment the linker
 * script adds (the smallest power of two that explains the
 * gap), or bytes nothing here explains, kept as they are. */
static void gap_of(struct sec *s, uint64_t prev_end, struct kb_order_place *st)
{
	uint64_t want = align_up(prev_end, s->align);

	if (s->addr == want)
		return;
	if (s->addr > want)
		for (uint64_t a = s->align * 2; a <= (uint64_t)1 << 30; a *= 2)
			if (align_up(prev_end, a) == s->addr) {
				s->align = a;
				return;
			}
	if (s->addr > want) {
		s->pre = s->addr - want;
		st->unexplained++;
		st->unexplained_bytes += s->pre;
	}
}

static uint64_t put_fn(struct fn *f, uint64_t at)
{
	f->to = align_up(at, f->align);
	f->placed = 1;
	return f->to + f->size + f->grow;
}

static uint64_t put_sec(struct sec *s, uint64_t at)
{
	s->to = align_up(at + s->pre, s->align);
	return s->to + s->size;
}

/* Whether f is what the order's name w takes (kb_order_header's rule:
 * ".text.W", and a syscall entry's body "__do_sys_X"). */
static int takes(const struct placer *p, const struct fn *f, const char *w)
{
	const char *sys = NULL;

	if (!strncmp(w, "__ia32_sys_", 11) || !strncmp(w, "__x64_sys_", 10) || !strncmp(w, "__x32_sys_", 10))
		sys = strstr(w, "_sys_") + 5;
	for (size_t k = 0; k < f->nname; k++) {
		const char *n = p->fname[f->name0 + k];

		if (!strcmp(n, w) || (sys && !strncmp(n, "__do_sys_", 9) && !strcmp(n + 9, sys)))
			return 1;
	}
	return 0;
}

static void put_ranges(FILE *out, const struct placer *p, const struct fn *f, uint64_t base)
{
	uint64_t from = 0, shift = 0;

	for (size_t j = 0; j <= f->njump; j++) {
		uint64_t end = j < f->njump ? p->jump[f->jump0 + j].end : f->size;

		if (end > from && (f->to + from + shift != base + f->off + from))
			fprintf(out, "0x%" PRIx64 " %" PRIu64 " 0x%" PRIx64 "\n", base + f->off + from,
				end - from, f->to + from + shift);
		if (j < f->njump)
			shift += p->jump[f->jump0 + j].grow;
		from = end;
	}
}

int kb_order_place(const struct kb_order_file *o, const char *objdir, const char *system_map, FILE *out,
		   struct kb_order_place *st)
{
	/* host programs and what no link takes: the objects of vmlinux are
	 * told by the map (locate) */
	static const char *const skipped[] = { "scripts", "tools", "usr", "arch/x86/boot", "arch/x86/tools" };
	struct placer p = { 0 };
	size_t defined, nmain, *split_order = NULL, nso = 0;
	uint64_t at, main_start = UINT64_MAX, main_end = 0, etext = 0, prev_end;
	int ret = -1;

	memset(st, 0, sizeof(*st));
	if (elf_version(EV_CURRENT) == EV_NONE)
		return kb_error("libelf: %s", elf_errmsg(-1));
	if (map_load(&p.map, system_map) < 0)
		return -1;
	for (size_t k = 0; k < o->n; k++)	/* a name the kernel has not: the order's line */
		if (kb_names_find(&p.map.idx, o->names[k]) >= p.map.idx.n &&
		    !(strlen(o->names[k]) > 5 && !strcmp(o->names[k] + strlen(o->names[k]) - 5, ".cold"))) {
			const char *near = kb_closest(o->names[k], p.map.idx.v, p.map.idx.n);

			kb_error("%s:%zu: '%s' is no function of '%s'%s%s%s", o->path, o->lines[k], o->names[k],
				 system_map, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
			goto out;
		}
	if (kb_order_objects(o, objdir, &p.split, &p.nsplit, &defined) < 0)
		goto out;
	if (kb_objdir_objects(objdir, skipped, KB_ARRAY_SIZE(skipped), visit_object, &p) < 0)
		goto out;
	/* kbench's layout padding: one object directory builds every layout
	 * replica, each with its own sizes, so the object holds the last
	 * one's; the replica's is the map's, to the next section (a multiple
	 * of 16, which the next section's alignment, 16 at most, leaves) */
	for (size_t i = 0; i < p.nsec; i++) {
		uint64_t next = UINT64_MAX;

		if (!p.sec[i].pad)
			continue;
		for (size_t j = 0; j < p.nsec; j++)
			if (p.sec[j].addr > p.sec[i].addr && p.sec[j].addr < next)
				next = p.sec[j].addr;
		if (next != UINT64_MAX)
			p.sec[i].size = (next - p.sec[i].addr) & ~(uint64_t)15;
	}
	fit_weak(&p);
	for (size_t i = 0; i < p.nsec; i++)
		if (p.sec[i].is_text) {
			if (p.sec[i].addr < main_start)
				main_start = p.sec[i].addr;
			if (p.sec[i].addr + p.sec[i].size > main_end)
				main_end = p.sec[i].addr + p.sec[i].size;
		}
	if (main_start == UINT64_MAX) {
		kb_error("no object of '%s' has its .text in '%s': not the object directory of that kernel",
			 objdir, system_map);
		goto out;
	}
	etext = p.map.has_etext ? p.map.etext : main_end;
	st->objects = p.nobj;
	if (find_jumps(&p, st) < 0)
		goto out;
	/* the unordered kernel's .text output section from the main text on,
	 * in its order; the sections of the tail to _etext */
	qsort(p.sec, p.nsec, sizeof(*p.sec), sec_by_addr);
	for (size_t i = 0; i < p.nobj; i++)
		p.obj[i].text = SIZE_MAX;
	{
		size_t n = 0;

		for (size_t i = 0; i < p.nsec; i++) {
			struct sec *s = &p.sec[i];

			if (s->addr < main_start || s->addr >= etext)
				continue;
			if (n && s->addr < p.sec[n - 1].addr + p.sec[n - 1].size) {
				st->overlaps++;	/* found at a place another holds: left where it is */
				continue;
			}
			p.sec[n] = *s;
			if (s->is_text)
				p.obj[s->obj].text = n;
			n++;
		}
		p.nsec = n;
	}
	nmain = 0;
	while (nmain < p.nsec && p.sec[nmain].addr < main_end)
		nmain++;
	prev_end = main_start;
	for (size_t i = 0; i < p.nsec; i++) {
		if (i)
			gap_of(&p.sec[i], prev_end, st);
		prev_end = p.sec[i].addr + p.sec[i].size;
	}
	/* the split objects in link order */
	split_order = kb_xcalloc(p.nobj + 1, sizeof(*split_order));
	for (size_t i = 0; i < nmain; i++)
		if (p.sec[i].is_text && p.obj[p.sec[i].obj].split) {
			const struct obj *ob = &p.obj[p.sec[i].obj];

			split_order[nso++] = p.sec[i].obj;
			if (ob->self_aligned && ob->compiled)
				st->compiled++;
			else if (ob->self_aligned && st->self_aligned++ < KB_ARRAY_SIZE(st->self_aligned_objects))
				snprintf(st->self_aligned_objects[st->self_aligned - 1],
					 sizeof(st->self_aligned_objects[0]), "%s", ob->rel);
		}
	st->split = nso;
	/* the order's functions first */
	at = main_start;
	for (size_t k = 0; k < o->n; k++) {
		const char *w = o->names[k];
		size_t l = strlen(w), took = 0;

		if (l > 5 && !strcmp(w + l - 5, ".cold")) {
			st->cold++;	/* a cold part: its own rule, not modeled */
			continue;
		}
		for (size_t j = 0; j < nso; j++) {
			const struct obj *ob = &p.obj[split_order[j]];

			for (size_t f = ob->fn0; f < ob->fn0 + ob->nfn; f++)
				if (!p.fn[f].placed && takes(&p, &p.fn[f], w)) {
					at = put_fn(&p.fn[f], at);
					st->functions++;
					took = 1;
				}
		}
		if (took)
			st->listed++;
		else
			st->unmovable++;
	}
	/* then the main text in link order, then the tail */
	for (size_t i = 0; i < p.nsec; i++) {
		struct sec *s = &p.sec[i];
		const struct obj *ob = &p.obj[s->obj];

		if (i == nmain)
			st->main_end_new = at;
		if (s->is_text && ob->split) {
			s->to = at;
			for (size_t f = ob->fn0; f < ob->fn0 + ob->nfn; f++)
				if (!p.fn[f].placed)
					at = put_fn(&p.fn[f], at);
		} else {
			at = put_sec(s, at);
		}
	}
	if (nmain == p.nsec)
		st->main_end_new = at;
	st->main_start = main_start;
	st->main_end = main_end;
	st->etext = p.nsec ? p.sec[p.nsec - 1].addr + p.sec[p.nsec - 1].size : main_end;
	st->etext_new = at;
	/* the ranges that move: "START SIZE NEW", the sim plugin's vl_file */
	fprintf(out, "layout order\n");
	for (size_t i = 0; i < p.nsec; i++) {
		const struct sec *s = &p.sec[i];
		const struct obj *ob = &p.obj[s->obj];

		if (s->is_text && ob->split) {
			for (size_t f = ob->fn0; f < ob->fn0 + ob->nfn; f++)
				put_ranges(out, &p, &p.fn[f], s->addr);
		} else if (s->to != s->addr) {
			fprintf(out, "0x%" PRIx64 " %" PRIu64 " 0x%" PRIx64 "\n", s->addr, s->size, s->to);
		}
	}
	ret = 0;
out:
	free(split_order);
	kb_order_objects_free(p.split, p.nsplit);
	for (size_t i = 0; i < p.nobj; i++)
		free(p.obj[i].rel);
	free(p.obj);
	free(p.sec);
	for (size_t i = 0; i < p.nfname; i++)
		free(p.fname[i]);
	free(p.fname);
	if (p.hex)
		for (size_t i = 0; i < p.nfn; i++)
			free(p.hex[i]);
	free(p.hex);
	free(p.fn);
	free(p.jump);
	map_release(&p.map);
	return ret;
}
