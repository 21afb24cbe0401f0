// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bloat: what the kernel's scripts/bloat-o-meter prints, without nm.
 *
 * bloat-o-meter reads `nm --size-sort FILE`: each line "size type name".
 * These rules were worked out from binutils 2.40 (nm, BFD) and Linux 6.1's
 * script, and are checked against both by tests/t0021-bloat.sh:
 *  - nm --size-sort lists the symbols of the static symbol table (never the
 *    dynamic one) except the null one, section and file symbols, undefined
 *    and absolute ones (a symbol in a section BFD makes no section of is
 *    absolute), and those of size 0; the size is st_size;
 *  - the type letter: common 'C', IFUNC 'i', weak 'W'/'V', unique 'u', any
 *    other binding than local or global '?'; else from the section: the MSVC
 *    names .drectve .edata .idata .pdata (then '.', '$', a digit or the end)
 *    have their own letters; executable is 't'; allocated with contents is
 *    'd', or 'r' when not writable; no contents (NOBITS) is 'b'; the rest
 *    'n', 'N' or '?'.  Upper case when global;
 *  - bloat-o-meter keeps the letters tTdDbBrR (by mode), skips lines with a
 *    ':' (so names with one), drops __mod_*, __se_sys*, __se_compat_sys*,
 *    __addressable_*, linux_banner and vermagic, removes every '.' followed
 *    by digits from a name, and sums the sizes of names that are then equal;
 *  - rows are sorted by delta, then name, both descending; names are padded
 *    to 40 characters (code points: Python's %-40s).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <getopt.h>
#include <libelf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bloat.h"
#include "commands.h"
#include "report.h"
#include "stats.h"
#include "store.h"
#include "util.h"

/* ---- names ---- */

static int has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

int kb_bloat_ignored(const char *raw)
{
	static const char *const prefixes[] = {
		"__mod_", "__se_sys", "__se_compat_sys", "__addressable_",
	};

	for (size_t i = 0; i < KB_ARRAY_SIZE(prefixes); i++)
		if (has_prefix(raw, prefixes[i]))
			return 1;
	return !strcmp(raw, "linux_banner") || !strcmp(raw, "vermagic");
}

char *kb_bloat_name(const char *raw)
{
	char *out = kb_xmalloc(strlen(raw) + 1), *o = out;

	for (const char *p = raw; *p; ) {
		if (p[0] == '.' && p[1] >= '0' && p[1] <= '9') {
			for (p++; *p >= '0' && *p <= '9'; p++)
				;
			continue;
		}
		*o++ = *p++;
	}
	*o = '\0';
	return out;
}

/* ---- one file's symbols ---- */

void kb_bloat_syms_init(struct kb_bloat_syms *s)
{
	memset(s, 0, sizeof(*s));
}

void kb_bloat_syms_release(struct kb_bloat_syms *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
	kb_bloat_syms_init(s);
}

int kb_bloat_syms_add(struct kb_bloat_syms *s, const char *raw, unsigned long long size,
		      unsigned kind)
{
	/* bloat-o-meter skips any nm line with a ':' in it (archive member names) */
	if (strchr(raw, ':') || kb_bloat_ignored(raw))
		return 0;
	if (s->n == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 256;
		s->v = kb_xrealloc(s->v, s->alloc * sizeof(*s->v));
	}
	s->v[s->n].name = kb_bloat_name(raw);
	s->v[s->n].size = size;
	s->v[s->n].kind = kind;
	s->n++;
	return 1;
}

static int libelf_ready(void)
{
	static int ready;

	if (!ready && elf_version(EV_CURRENT) == EV_NONE) {
		kb_error("libelf: %s", elf_errmsg(-1));
		return -ENOSYS;
	}
	ready = 1;
	return 0;
}

/* BFD's letters of its own for MSVC section names (syms.c coff_section_type). */
static int msvc_section(const char *name)
{
	static const char *const names[] = { ".drectve", ".edata", ".idata", ".pdata" };

	for (size_t i = 0; i < KB_ARRAY_SIZE(names); i++) {
		size_t len = strlen(names[i]);

		if (!strncmp(name, names[i], len) &&
		    (name[len] == '\0' || strchr(".$0123456789", name[len])))
			return 1;
	}
	return 0;
}

/* The kind of the nm letter a symbol defined in this section gets: 0 for
 * none of t, d, b, r. */
static unsigned section_kind(const GElf_Shdr *sh, const char *name)
{
	if (name && msvc_section(name))
		return 0;
	if (sh->sh_flags & SHF_EXECINSTR)
		return KB_BLOAT_FUNC;
	if ((sh->sh_flags & SHF_ALLOC) && sh->sh_type != SHT_NOBITS)
		return (sh->sh_flags & SHF_WRITE) ? KB_BLOAT_DATA : KB_BLOAT_RODATA;
	if (sh->sh_type == SHT_NOBITS)
		return KB_BLOAT_DATA;
	return 0;
}

/* Sections BFD makes no section of (see size.c): a symbol there is absolute. */
static int bfd_skips(const GElf_Ehdr *eh, const GElf_Shdr *sh, size_t i, size_t shstrndx,
		     size_t symtab, size_t strtab, size_t shnum)
{
	if (i == 0 || i == shstrndx || i == symtab || i == strtab)
		return 1;
	switch (sh->sh_type) {
	case SHT_NULL:
	case SHT_SYMTAB:
	case SHT_SYMTAB_SHNDX:
	case SHT_SHLIB:
		return 1;
	case SHT_REL:
	case SHT_RELA:
		/* attached to its target: no section of its own */
		return sh->sh_link == symtab && sh->sh_info > 0 && sh->sh_info < shnum &&
		       sh->sh_info != i &&
		       !((sh->sh_flags & SHF_ALLOC) && (eh->e_type == ET_EXEC || eh->e_type == ET_DYN));
	}
	return 0;
}

static int read_image(Elf *elf, const char *label, struct kb_bloat_syms *s)
{
	size_t shnum, shstrndx, symtab = 0, xsec = 0, strtab, count, entsize;
	unsigned char *kinds = NULL;
	Elf_Data *data, *xdata = NULL;
	GElf_Shdr sh, symsh;
	GElf_Ehdr eh;
	int ret = 0;

	if (!gelf_getehdr(elf, &eh) || elf_getshdrnum(elf, &shnum) < 0) {
		kb_error("'%s': %s", label, elf_errmsg(-1));
		return -ENOEXEC;
	}
	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		shstrndx = 0;
	/* libelf counts no sections when their table is cut off: BFD refuses the file */
	if (eh.e_shoff) {
		size_t size = 0;
		unsigned long long n = eh.e_shnum ? eh.e_shnum : 1;

		elf_rawfile(elf, &size);
		if (eh.e_shoff > size || n * eh.e_shentsize > size - eh.e_shoff) {
			kb_error("'%s': truncated section header table", label);
			return -ENOEXEC;
		}
	}
	for (size_t i = 1; i < shnum; i++) {
		if (!gelf_getshdr(elf_getscn(elf, i), &sh)) {
			kb_error("'%s': section header %zu: %s", label, i, elf_errmsg(-1));
			return -ENOEXEC;
		}
		if (sh.sh_type == SHT_SYMTAB && !symtab) {
			symtab = i;
			symsh = sh;
		}
	}
	if (!symtab) {
		kb_warn("'%s': no symbols", label);
		return 0;
	}
	strtab = symsh.sh_link;
	for (size_t i = 1; i < shnum; i++)
		if (gelf_getshdr(elf_getscn(elf, i), &sh) && sh.sh_type == SHT_SYMTAB_SHNDX &&
		    sh.sh_link == symtab) {
			xsec = i;
			break;
		}
	kinds = kb_xcalloc(shnum ? shnum : 1, 1);
	for (size_t i = 1; i < shnum; i++) {
		const char *name;

		if (!gelf_getshdr(elf_getscn(elf, i), &sh) ||
		    bfd_skips(&eh, &sh, i, shstrndx, symtab, strtab, shnum))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		kinds[i] = (unsigned char)section_kind(&sh, name);
	}
	data = elf_getdata(elf_getscn(elf, symtab), NULL);
	entsize = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	if (!data || !entsize) {
		kb_error("'%s': symbol table: %s", label, elf_errmsg(-1));
		ret = -ENOEXEC;
		goto out;
	}
	if (xsec)
		xdata = elf_getdata(elf_getscn(elf, xsec), NULL);
	count = data->d_size / entsize;
	for (size_t j = 1; j < count; j++) {
		GElf_Sym sym;
		Elf32_Word xndx = 0;
		size_t shndx;
		const char *name;
		int type, bind;

		if (!gelf_getsymshndx(data, xdata, (int)j, &sym, &xndx))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		bind = GELF_ST_BIND(sym.st_info);
		shndx = sym.st_shndx == SHN_XINDEX ? xndx : sym.st_shndx;
		if (type == STT_SECTION || type == STT_FILE || sym.st_size == 0)
			continue;
		/* undefined, absolute, common and other reserved indexes */
		if (shndx == SHN_UNDEF || (sym.st_shndx >= SHN_LORESERVE && sym.st_shndx != SHN_XINDEX) ||
		    shndx >= shnum || !kinds[shndx])
			continue;
		if (type == STT_GNU_IFUNC || (bind != STB_LOCAL && bind != STB_GLOBAL))
			continue;
		name = elf_strptr(elf, strtab, sym.st_name);
		kb_bloat_syms_add(s, name ? name : "(null)", sym.st_size, kinds[shndx]);
	}
out:
	free(kinds);
	return ret;
}

int kb_bloat_syms_read(const char *path, struct kb_bloat_syms *s)
{
	struct stat st;
	Elf *elf;
	int fd, ret = libelf_ready();

	if (ret < 0)
		return ret;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return kb_error_errno(errno, "'%s'", path);
	if (fstat(fd, &st) < 0) {
		ret = kb_error_errno(errno, "'%s'", path);
		goto out_close;
	}
	if (!S_ISREG(st.st_mode)) {
		kb_error("'%s': %s", path, S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
		ret = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		goto out_close;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		kb_error("'%s': %s", path, elf_errmsg(-1));
		ret = -ENOEXEC;
		goto out_close;
	}
	switch (elf_kind(elf)) {
	case ELF_K_ELF:
		ret = read_image(elf, path, s);
		break;
	case ELF_K_AR: {
		Elf_Cmd cmd = ELF_C_READ_MMAP;
		Elf *m;

		/* nm lists every member; bloat-o-meter adds them all up */
		while (ret == 0 && (m = elf_begin(fd, cmd, elf))) {
			Elf_Arhdr *h = elf_getarhdr(m);
			char *label = kb_xasprintf("%s(%s)", path, h && h->ar_name ? h->ar_name : "?");

			if (elf_kind(m) == ELF_K_ELF)
				ret = read_image(m, label, s);
			else
				kb_warn("'%s': not an ELF file", label);
			free(label);
			cmd = elf_next(m);
			elf_end(m);
		}
		break;
	}
	default: {
		char magic[8] = "";

		if (pread(fd, magic, sizeof(magic), 0) == 8 && !memcmp(magic, "!<thin>\n", 8))
			kb_error("'%s': a thin archive: give its members", path);
		else
			kb_error("'%s': not an ELF file", path);
		ret = -ENOEXEC;
	}
	}
	elf_end(elf);
out_close:
	close(fd);
	return ret;
}

/* ---- comparing ---- */

struct named {
	const char *name;
	unsigned long long size;
};

static int cmp_named(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->name, ((const struct named *)b)->name);
}

/* The symbols of the kinds asked for, sorted by name, same names summed. */
static struct named *merged(const struct kb_bloat_syms *s, unsigned kinds, size_t *n,
			    unsigned long long *total)
{
	struct named *v = kb_xcalloc(s->n ? s->n : 1, sizeof(*v));
	size_t k = 0, m = 0;

	*total = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].kind & kinds) {
			v[k].name = s->v[i].name;
			v[k++].size = s->v[i].size;
			*total += s->v[i].size;
		}
	qsort(v, k, sizeof(*v), cmp_named);
	for (size_t i = 0; i < k; i++) {
		if (m && !strcmp(v[m - 1].name, v[i].name))
			v[m - 1].size += v[i].size;
		else
			v[m++] = v[i];
	}
	*n = m;
	return v;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_row(const void *a, const void *b)
{
	const struct kb_bloat_row *x = a, *y = b;

	if (x->delta != y->delta)
		return x->delta > y->delta ? -1 : 1;
	return -strcmp(x->name, y->name);
}

void kb_bloat_diff(const struct kb_bloat_syms *old, const struct kb_bloat_syms *new,
		   unsigned kinds, struct kb_bloat_diff *d)
{
	size_t na, nb, i = 0, j = 0;
	struct named *a, *b;

	memset(d, 0, sizeof(*d));
	a = merged(old, kinds, &na, &d->old_total);
	b = merged(new, kinds, &nb, &d->new_total);
	d->rows = kb_xcalloc(na + nb + 1, sizeof(*d->rows));
	while (i < na || j < nb) {
		struct kb_bloat_row *r = &d->rows[d->n++];
		int c = i == na ? 1 : j == nb ? -1 : strcmp(a[i].name, b[j].name);

		if (c < 0) {
			r->name = a[i].name;
			r->in_old = 1;
			r->old_size = a[i++].size;
			r->delta = -(long long)r->old_size;
			d->remove++;
			d->down += r->old_size;
		} else if (c > 0) {
			r->name = b[j].name;
			r->in_new = 1;
			r->new_size = b[j++].size;
			r->delta = (long long)r->new_size;
			d->add++;
			d->up += r->new_size;
		} else {
			r->name = a[i].name;
			r->in_old = r->in_new = 1;
			r->old_size = a[i++].size;
			r->new_size = b[j++].size;
			r->delta = (long long)(r->new_size - r->old_size);
			if (r->delta > 0) {
				d->grow++;
				d->up += (unsigned long long)r->delta;
			} else if (r->delta < 0) {
				d->shrink++;
				d->down += (unsigned long long)-r->delta;
			}
		}
	}
	qsort(d->rows, d->n, sizeof(*d->rows), cmp_row);
	free(a);
	free(b);
}

void kb_bloat_diff_release(struct kb_bloat_diff *d)
{
	free(d->rows);
	memset(d, 0, sizeof(*d));
}

double kb_bloat_percent(const struct kb_bloat_diff *d)
{
	if (!d->old_total)
		return 0;
	return (double)(long long)(d->new_total - d->old_total) * 100.0 / (double)d->old_total;
}

/* ---- printing ---- */

/* name, padded to width characters as Python's %-Ns counts them (UTF-8). */
static void print_padded(FILE *f, const char *name, int width)
{
	int chars = 0;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		chars += (*p & 0xc0) != 0x80;
	fputs(name, f);
	for (; chars < width; chars++)
		fputc(' ', f);
}

static void print_size(FILE *f, int present, unsigned long long size)
{
	if (present)
		fprintf(f, " %7llu", size);
	else
		fprintf(f, " %7s", "-");
}

void kb_bloat_print(FILE *f, const char *title, const struct kb_bloat_diff *d)
{
	fprintf(f, "add/remove: %zu/%zu grow/shrink: %zu/%zu up/down: %llu/%lld (%lld)\n",
		d->add, d->remove, d->grow, d->shrink, d->up, -(long long)d->down,
		(long long)(d->up - d->down));
	print_padded(f, title, 40);
	fprintf(f, " %7s %7s %7s\n", "old", "new", "delta");
	for (size_t i = 0; i < d->n; i++) {
		const struct kb_bloat_row *r = &d->rows[i];

		if (!r->delta)
			continue;
		print_padded(f, r->name, 40);
		print_size(f, r->in_old, r->old_size);
		print_size(f, r->in_new, r->new_size);
		fprintf(f, " %+7lld\n", r->delta);
	}
	fprintf(f, "Total: Before=%llu, After=%llu, chg %+.2f%%\n", d->old_total, d->new_total,
		kb_bloat_percent(d));
}

static void print_one(FILE *f, const char *title, unsigned kinds, const struct kb_bloat_syms *old,
		      const struct kb_bloat_syms *new)
{
	struct kb_bloat_diff d;

	kb_bloat_diff(old, new, kinds, &d);
	kb_bloat_print(f, title, &d);
	kb_bloat_diff_release(&d);
}

void kb_bloat_print_mode(FILE *f, int mode, const struct kb_bloat_syms *old,
			 const struct kb_bloat_syms *new)
{
	switch (mode) {
	case 'c':
		print_one(f, "Function", KB_BLOAT_FUNC, old, new);
		print_one(f, "Data", KB_BLOAT_DATA, old, new);
		print_one(f, "RO Data", KB_BLOAT_RODATA, old, new);
		break;
	case 'd':
		print_one(f, "Data", KB_BLOAT_DATA | KB_BLOAT_RODATA, old, new);
		break;
	case 't':
		print_one(f, "Function", KB_BLOAT_FUNC, old, new);
		break;
	default:
		print_one(f, "Function", KB_BLOAT_ALL, old, new);
	}
}

/* ---- the report ---- */

#define KB_BLOAT_TOP 20

/* A variant of the run and its symbols. */
struct vsyms {
	json_t *v;			/* borrowed from the manifest */
	const char *name;
	unsigned long long text;
	struct kb_bloat_syms syms;
	int ok;
};

static void pct_of(FILE *f, double x, double base)
{
	if (base > 0)
		fprintf(f, "%+.1f%%", 100 * (x - base) / base);
	else
		fputs("n/a", f);
}

/* Names become paths (variants/<name>/...): only what variants.conf allows. */
static int safe_name(const char *s)
{
	if (!*s || !strcmp(s, ".") || !strcmp(s, ".."))
		return 0;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *s))
			return 0;
	return 1;
}

static void load_variants(const char *run_dir, json_t *variants, struct vsyms *vs)
{
	json_t *v;
	size_t i;

	json_array_foreach(variants, i, v) {
		const char *p = kb_report_str(v, "vmlinux");
		json_t *sz = json_object_get(v, "size");
		char *path;

		vs[i].v = v;
		vs[i].name = kb_report_str(v, "name");
		kb_bloat_syms_init(&vs[i].syms);
		if (!json_is_object(sz) || !*p || !safe_name(vs[i].name))
			continue;
		vs[i].text = (unsigned long long)json_integer_value(json_object_get(sz, "text"));
		path = p[0] == '/' ? kb_xstrdup(p) : kb_xasprintf("%s/%s", run_dir, p);
		/* a run without its kernels (copied, made by a test) has no symbols to show */
		vs[i].ok = access(path, R_OK) == 0 && kb_bloat_syms_read(path, &vs[i].syms) == 0;
		free(path);
	}
}

static void summary_rows(FILE *f, const struct vsyms *base, const struct vsyms *x)
{
	static const struct {
		const char *what;
		unsigned kinds;
	} cats[] = {
		{ "functions", KB_BLOAT_FUNC },
		{ "data", KB_BLOAT_DATA },
		{ "read-only data", KB_BLOAT_RODATA },
	};

	for (size_t c = 0; c < KB_ARRAY_SIZE(cats); c++) {
		struct kb_bloat_diff d;

		kb_bloat_diff(&base->syms, &x->syms, cats[c].kinds, &d);
		fputs("| ", f);
		kb_report_md_cell(f, x->name);
		fprintf(f, " | %s | %zu/%zu | %zu/%zu | %llu/%lld | %llu | %llu | %+.2f%% |\n",
			cats[c].what, d.add, d.remove, d.grow, d.shrink, d.up,
			-(long long)d.down, d.old_total, d.new_total, kb_bloat_percent(&d));
		kb_bloat_diff_release(&d);
	}
}

static void top_row(FILE *f, const struct kb_bloat_row *r)
{
	fputs("| ", f);
	kb_report_md_cell(f, r->name);
	fputs(" | ", f);
	if (r->in_old)
		fprintf(f, "%llu", r->old_size);
	else
		fputs("-", f);
	fputs(" | ", f);
	if (r->in_new)
		fprintf(f, "%llu", r->new_size);
	else
		fputs("-", f);
	fprintf(f, " | %+lld |\n", r->delta);
}

static void top_header(FILE *f, const char *what, const struct vsyms *base, const struct vsyms *x)
{
	fprintf(f, "Top %d %s, ", KB_BLOAT_TOP, what);
	kb_report_md_cell(f, x->name);
	fputs(" against ", f);
	kb_report_md_cell(f, base->name);
	fputs(":\n\n| symbol | ", f);
	kb_report_md_cell(f, base->name);
	fputs(" | ", f);
	kb_report_md_cell(f, x->name);
	fputs(" | delta |\n|---|---:|---:|---:|\n", f);
}

/* The top growers and shrinkers (head and tail of the full list). */
static void top_tables(FILE *f, const struct vsyms *base, const struct vsyms *x,
		       const struct kb_bloat_diff *d)
{
	size_t n = 0;

	top_header(f, "growers", base, x);
	for (size_t i = 0; i < d->n && n < KB_BLOAT_TOP && d->rows[i].delta > 0; i++, n++)
		top_row(f, &d->rows[i]);
	if (!n)
		fputs("| (none) | | | |\n", f);
	fputs("\n", f);
	top_header(f, "shrinkers", base, x);
	n = 0;
	for (size_t i = d->n; i-- > 0 && n < KB_BLOAT_TOP && d->rows[i].delta < 0; n++)
		top_row(f, &d->rows[i]);
	if (!n)
		fputs("| (none) | | | |\n", f);
	fputs("\n", f);
}

/* variants/<name>/bloat-vs-<baseline>.txt: bloat-o-meter's full output. */
static char *write_full(const char *run_dir, const struct vsyms *base, const struct vsyms *x)
{
	char *rel = kb_xasprintf("variants/%s/bloat-vs-%s.txt", x->name, base->name);
	char *path = kb_xasprintf("%s/%s", run_dir, rel), *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	kb_bloat_print_mode(f, 0, &base->syms, &x->syms);
	fclose(f);
	if (kb_write_file_atomic(path, text, len) < 0) {
		kb_warn("'%s': not written", path);
		free(rel);
		rel = NULL;
	}
	free(text);
	free(path);
	return rel;
}

/* ---- executed text: the sim backend's dynamic kernel footprint ---- */

/* Per case and variant: each sample's executed bytes and the size of the
 * functions that ran in it. */
struct exec_cell {
	double *foot, *fsize;
	size_t n;
};

static unsigned long long functions_size(json_t *funcs, const struct named *tab, size_t ntab)
{
	size_t n = json_array_size(funcs), k = 0;
	char **names = kb_xcalloc(n ? n : 1, sizeof(*names));
	unsigned long long sum = 0;

	for (size_t i = 0; i < n; i++) {
		const char *raw = json_string_value(json_array_get(json_array_get(funcs, i), 0));

		if (raw)
			names[k++] = kb_bloat_name(raw);
	}
	qsort(names, k, sizeof(*names), cmp_str);
	for (size_t i = 0; i < k; i++) {
		struct named key = { names[i], 0 }, *hit;

		if (i && !strcmp(names[i - 1], names[i]))
			continue;
		hit = bsearch(&key, tab, ntab, sizeof(*tab), cmp_named);
		if (hit)
			sum += hit->size;
	}
	for (size_t i = 0; i < k; i++)
		free(names[i]);
	free(names);
	return sum;
}

static void exec_section(FILE *f, const char *run_dir, struct vsyms *vs, size_t nv, size_t ib)
{
	char *path = kb_xasprintf("%s/sim.jsonl", run_dir);
	json_t *lines, *l, *cases = json_array();
	struct named **tab = kb_xcalloc(nv, sizeof(*tab));
	size_t *ntab = kb_xcalloc(nv, sizeof(*ntab));
	struct exec_cell *cells = NULL;
	size_t i, nc;
	int bad = 0;

	lines = access(path, F_OK) == 0 ? kb_store_read_lines(path, &bad) : NULL;
	free(path);
	if (!json_array_size(lines))
		goto out;
	for (size_t v = 0; v < nv; v++) {
		unsigned long long total;

		if (vs[v].ok)
			tab[v] = merged(&vs[v].syms, KB_BLOAT_FUNC, &ntab[v], &total);
	}
	json_array_foreach(lines, i, l) {
		const char *c = kb_report_str(l, "case"), *vn = kb_report_str(l, "variant");
		json_t *foot = json_object_get(l, "kfoot_bytes");
		size_t ic, v;

		for (v = 0; v < nv && strcmp(vs[v].name, vn); v++)
			;
		if (v == nv || !json_is_integer(foot) || !*c)
			continue;
		for (ic = 0; ic < json_array_size(cases); ic++)
			if (!strcmp(json_string_value(json_array_get(cases, ic)), c))
				break;
		if (ic == json_array_size(cases)) {
			json_array_append_new(cases, json_string(c));
			cells = kb_xrealloc(cells, (ic + 1) * nv * sizeof(*cells));
			memset(cells + ic * nv, 0, nv * sizeof(*cells));
		}
		struct exec_cell *e = &cells[ic * nv + v];

		e->foot = kb_xrealloc(e->foot, (e->n + 1) * sizeof(double));
		e->fsize = kb_xrealloc(e->fsize, (e->n + 1) * sizeof(double));
		e->foot[e->n] = (double)json_integer_value(foot);
		e->fsize[e->n] = tab[v] ? (double)functions_size(json_object_get(l, "functions"), tab[v], ntab[v]) : NAN;
		e->n++;
	}
	nc = json_array_size(cases);
	if (!nc)
		goto out;
	fprintf(f, "### Executed text\n\n"
		"Does the shrink land in the code that runs?  Executed text is the sim backend's dynamic "
		"kernel footprint: the distinct bytes of kernel text executed in a measured region.  "
		"Beside it, the size of the functions that ran (their whole symbols, as bloat-o-meter "
		"names them: same-named statics summed).  Medians over the samples (sim.jsonl); "
		"simulated, not measured.\n\n");
	fputs("| case | variant | text | executed text | vs ", f);
	kb_report_md_cell(f, vs[ib].name);
	fputs(" | executed / text | functions that ran | vs ", f);
	kb_report_md_cell(f, vs[ib].name);
	fputs(" | samples |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n", f);
	for (size_t ic = 0; ic < nc; ic++) {
		const struct exec_cell *b = &cells[ic * nv + ib];
		double bfoot = b->n ? kb_stats_median(b->foot, b->n) : NAN;
		double bfs = b->n ? kb_stats_median(b->fsize, b->n) : NAN;

		for (size_t v = 0; v < nv; v++) {
			const struct exec_cell *e = &cells[ic * nv + v];
			double foot, fs;

			if (!e->n)
				continue;
			foot = kb_stats_median(e->foot, e->n);
			fs = kb_stats_median(e->fsize, e->n);
			fputs("| ", f);
			kb_report_md_cell(f, json_string_value(json_array_get(cases, ic)));
			fputs(" | ", f);
			kb_report_md_cell(f, vs[v].name);
			fprintf(f, " | %llu | %.0f | ", vs[v].text, foot);
			pct_of(f, foot, bfoot);
			fputs(" | ", f);
			if (vs[v].text)
				fprintf(f, "%.2f%%", 100 * foot / (double)vs[v].text);
			else
				fputs("n/a", f);
			fputs(" | ", f);
			if (isfinite(fs))
				fprintf(f, "%.0f | ", fs);
			else
				fputs("n/a | ", f);
			if (isfinite(fs) && isfinite(bfs))
				pct_of(f, fs, bfs);
			else
				fputs("n/a", f);
			fprintf(f, " | %zu |\n", e->n);
		}
	}
	fputs("\n", f);
	if (bad)
		fprintf(f, "(%d unreadable lines of sim.jsonl skipped.)\n\n", bad);
out:
	if (cells)
		for (size_t k = 0; k < json_array_size(cases) * nv; k++) {
			free(cells[k].foot);
			free(cells[k].fsize);
		}
	free(cells);
	for (size_t v = 0; v < nv; v++)
		free(tab[v]);
	free(tab);
	free(ntab);
	json_decref(cases);
	json_decref(lines);
}

void kb_bloat_report_md(FILE *f, const char *run_dir, json_t *variants, const char *baseline)
{
	size_t nv = json_array_size(variants), ib;
	struct vsyms *vs;
	int others = 0;

	if (!nv)
		return;
	vs = kb_xcalloc(nv, sizeof(*vs));
	load_variants(run_dir, variants, vs);
	for (ib = 0; ib < nv && strcmp(vs[ib].name, baseline); ib++)
		;
	if (ib == nv || !vs[ib].ok)
		goto out;
	for (size_t i = 0; i < nv; i++)
		others += i != ib && vs[i].ok;
	if (others) {
		fputs("### Symbols against ", f);
		kb_report_md_cell(f, baseline);
		fputs("\n\nPer-symbol changes counted as the kernel's `scripts/bloat-o-meter` counts them "
		      "(`kbench bloat -c`: nm's t, d/b and r symbols; `.N` suffixes dropped).\n\n"
		      "| variant | symbols | add/remove | grow/shrink | up/down | total in ", f);
		kb_report_md_cell(f, baseline);
		fputs(" | total in variant | change |\n|---|---|---:|---:|---:|---:|---:|---:|\n", f);
		for (size_t i = 0; i < nv; i++)
			if (i != ib && vs[i].ok)
				summary_rows(f, &vs[ib], &vs[i]);
		fputs("\n", f);
	}
	for (size_t i = 0; i < nv; i++) {
		struct kb_bloat_diff d;
		char *rel;

		if (i == ib || !vs[i].ok)
			continue;
		kb_bloat_diff(&vs[ib].syms, &vs[i].syms, KB_BLOAT_ALL, &d);
		rel = write_full(run_dir, &vs[ib], &vs[i]);
		if (rel) {
			kb_report_md_cell(f, vs[i].name);
			fputs(" against ", f);
			kb_report_md_cell(f, baseline);
			fputs(", every symbol (`kbench bloat`, the same as `scripts/bloat-o-meter`): [", f);
			kb_report_md_cell(f, rel);
			fprintf(f, "](%s)\n\n", rel);
		}
		top_tables(f, &vs[ib], &vs[i], &d);
		kb_bloat_diff_release(&d);
		free(rel);
	}
	exec_section(f, run_dir, vs, nv, ib);
out:
	for (size_t i = 0; i < nv; i++)
		kb_bloat_syms_release(&vs[i].syms);
	free(vs);
}

/* ---- the command ---- */

static void bloat_help(FILE *f)
{
	fprintf(f,
		"usage: kbench bloat [-c | -d | -t] [-p PREFIX] OLD NEW\n\n"
		"Per-symbol size changes from OLD to NEW (ELF files or ar archives), as the\n"
		"kernel's scripts/bloat-o-meter prints them, read with libelf (no nm).\n\n"
		"  -c         by category: functions, data, read-only data\n"
		"  -d         data and read-only data only\n"
		"  -t         functions only\n"
		"  -p PREFIX  accepted for bloat-o-meter's sake (nm's cross prefix); unused\n");
}

int kb_cmd_bloat(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kb_bloat_syms old, new;
	int mode = 0, c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "cdtp:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
		case 'd':
		case 't':
			if (mode && mode != c) {
				kb_error("bloat: -%c is not allowed with -%c", c, mode);
				return KB_EXIT_USAGE;
			}
			mode = c;
			break;
		case 'p':
			break;
		case 'h':
			bloat_help(stdout);
			return KB_EXIT_OK;
		default:
			bloat_help(stderr);
			return KB_EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		kb_error("bloat: two files to compare, OLD and NEW");
		bloat_help(stderr);
		return KB_EXIT_USAGE;
	}
	kb_bloat_syms_init(&old);
	kb_bloat_syms_init(&new);
	ret = kb_bloat_syms_read(argv[optind], &old);
	if (ret == 0)
		ret = kb_bloat_syms_read(argv[optind + 1], &new);
	if (ret == 0)
		kb_bloat_print_mode(stdout, mode, &old, &new);
	kb_bloat_syms_release(&old);
	kb_bloat_syms_release(&new);
	if (fflush(stdout) != 0 && ret == 0)
		ret = kb_error_errno(errno, "standard output");
	return ret == 0 ? KB_EXIT_OK : KB_EXIT_FAILED;
}
