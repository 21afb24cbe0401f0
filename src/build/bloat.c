// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bloat: what the kernel's scripts/bloat-o-meter prints, without nm.
 *
 * bloat-o-meter reads `nm --size-sort FILE`: each line "size type name".
 * These rules were worked out from binutils 2.40 (nm, BFD) and the script of
 * Linux 6.12 (the default kernel), and are checked against both by
 * tests/t0021-bloat.sh:
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
 *  - bloat-o-meter keeps the letters tTwW as functions, dDbBvV as data, rR
 *    as read-only data (Linux 6.1's script kept no weak symbols, so its
 *    totals are smaller where a file has any), skips lines with a
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
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bloat.h"
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
	/* nm would read names from whatever sh_link names: a section past the
	 * table is no string table, and its symbols have no names */
	strtab = symsh.sh_link;
	if (!strtab || strtab >= shnum || !gelf_getshdr(elf_getscn(elf, strtab), &sh) || sh.sh_type != SHT_STRTAB) {
		kb_error("'%s': the symbol table's string table is section %zu, %s", label, strtab,
			 strtab >= shnum ? "past the section table" : "not a string table");
		return -ENOEXEC;
	}
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
		/* 0x80: a section of BFD's (a symbol in it is not absolute) */
		kinds[i] = (unsigned char)(0x80 | section_kind(&sh, name));
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
		if (bind != STB_WEAK && !(kinds[shndx] & 0x7f))
			continue;
		if (type == STT_GNU_IFUNC || (bind != STB_LOCAL && bind != STB_GLOBAL &&
						     bind != STB_WEAK))
			continue;
		name = elf_strptr(elf, strtab, sym.st_name);
		if (!name) {
			kb_error("'%s': symbol %zu: its name is past the string table", label, j);
			ret = -ENOEXEC;
			goto out;
		}
		/* weak: 'V' for an object, 'W' for the rest, whatever the section */
		kb_bloat_syms_add(s, name, sym.st_size,
				  bind != STB_WEAK ? kinds[shndx] & 0x7fu :
				  type == STT_OBJECT ? KB_BLOAT_DATA : KB_BLOAT_FUNC);
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
	/* a FIFO or a device is refused before it is read: open() would wait on a FIFO */
	fd = kb_open_regular(path, &st);
	if (fd < 0) {
		kb_error("'%s': %s", path, kb_file_strerror(fd));
		return fd;
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

static int cmp_named(const void *a, const void *b)
{
	return strcmp(((const struct kb_bloat_named *)a)->name, ((const struct kb_bloat_named *)b)->name);
}

struct kb_bloat_named *kb_bloat_merged(const struct kb_bloat_syms *s, unsigned kinds, size_t *n,
				       unsigned long long *total)
{
	struct kb_bloat_named *v = kb_xcalloc(s->n ? s->n : 1, sizeof(*v));
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

unsigned long long kb_bloat_lookup(const struct kb_bloat_named *tab, size_t n, const char *name)
{
	struct kb_bloat_named key = { name, 0 }, *hit = bsearch(&key, tab, n, sizeof(*tab), cmp_named);

	return hit ? hit->size : 0;
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
	struct kb_bloat_named *a, *b;

	memset(d, 0, sizeof(*d));
	a = kb_bloat_merged(old, kinds, &na, &d->old_total);
	b = kb_bloat_merged(new, kinds, &nb, &d->new_total);
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

/* bloat-o-meter's output for one set of kinds: the add/remove line, the
 * "Function  old new delta" header with title, a line per changed symbol
 * and the "Total: Before=..., After=..., chg ...%" line. */
static void kb_bloat_print(FILE *f, const char *title, const struct kb_bloat_diff *d)
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

/* ---- the command ---- */
