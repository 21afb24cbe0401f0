// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * size: text, data and bss of ELF files, as binutils size prints them.
 *
 * size sees a file through BFD, so what counts is BFD's view of the section
 * headers.  These rules were worked out by comparing with binutils 2.40:
 *  - BFD makes no section of SHT_NULL, SHT_SYMTAB_SHNDX or SHT_SHLIB entries,
 *    of the section name table, of the symbol table and its string table
 *    (unless the symbol table is allocated in a shared object), of a second
 *    dynamic symbol table, nor of a relocation section that it attaches to
 *    its target (one that uses the symbol table, points at a valid target and
 *    is not allocated in an executable or shared object);
 *  - Berkeley counts allocated sections only: code or read-only (no
 *    SHF_WRITE) is text, so a read-only NOBITS section is text; otherwise
 *    one with contents is data; the rest, .tbss included, is bss;
 *  - sysv (-A) lists every section in the order BFD made them, except those
 *    with no BFD flag at all (writable, non-allocated NOBITS), with its size
 *    as stored, so a compressed debug section shows its compressed size.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "size.h"
#include "util.h"

/* The BFD section flags that decide where a section goes. */
enum {
	SF_ALLOC	= 1u << 0,
	SF_CONTENTS	= 1u << 1,	/* not SHT_NOBITS */
	SF_READONLY	= 1u << 2,	/* no SHF_WRITE */
	SF_CODE		= 1u << 3,	/* SHF_EXECINSTR */
	SF_OTHER	= 1u << 4,	/* any other flag BFD would set */
};

struct section {
	const char *name;		/* points into scan.names */
	unsigned long long size, addr;
	unsigned flags;
};

/* One ELF image, a file or an archive member, seen as BFD sees it. */
struct scan {
	const char *label;		/* names the image in messages */
	int fd;
	off_t base;			/* where the image starts in fd */
	Elf *elf;
	unsigned long long file_size;	/* bytes the image occupies */
	GElf_Ehdr ehdr;
	size_t shnum, shstrndx;
	size_t symtab, dynsym;		/* the ones BFD uses, once visited */
	GElf_Shdr *shdr;
	char *names;			/* the section name table, NUL added */
	size_t names_len;
	unsigned char *state;		/* visit(): 0 new, 1 under way, 2 done */
	unsigned char *made;		/* BFD made a section of this header */
	unsigned char *relocs;		/* bit 0 REL, bit 1 RELA attached */
	struct section *sect;		/* in the order BFD makes them */
	size_t nsect;
};

/* An opened file: a thin archive is read by hand, libelf cannot. */
struct file {
	int fd;
	unsigned long long size;
	Elf *elf;
	bool thin;
};

/* kb_error() returning -err: callers tell a missing file from a bad one */
static int fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(int err, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	msg = kb_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(msg, (size_t)n + 1, fmt, ap);
	va_end(ap);
	kb_error("%s", msg);
	free(msg);
	return -err;
}

static int libelf_init(void)
{
	static int ready;

	if (!ready) {
		if (elf_version(EV_CURRENT) == EV_NONE)
			return fail(ENOSYS, "libelf: %s", elf_errmsg(-1));
		ready = 1;
	}
	return 0;
}

/* Why the first bytes of an image do not start an ELF file, or 0. */
static int check_ident(const char *label, const unsigned char *id, size_t n,
		       unsigned long long size)
{
	if (n < SELFMAG || memcmp(id, ELFMAG, SELFMAG))
		return fail(ENOEXEC, "'%s': not an ELF file", label);
	if (n < EI_NIDENT)
		return fail(ENOEXEC, "'%s': truncated ELF header", label);
	if (id[EI_CLASS] != ELFCLASS32 && id[EI_CLASS] != ELFCLASS64)
		return fail(ENOEXEC, "'%s': unknown ELF class %u", label, id[EI_CLASS]);
	if (id[EI_DATA] != ELFDATA2LSB && id[EI_DATA] != ELFDATA2MSB)
		return fail(ENOEXEC, "'%s': unknown ELF data encoding %u", label, id[EI_DATA]);
	if (id[EI_VERSION] != EV_CURRENT)
		return fail(ENOEXEC, "'%s': unknown ELF version %u", label, id[EI_VERSION]);
	if (size < (id[EI_CLASS] == ELFCLASS64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
		return fail(ENOEXEC, "'%s': truncated ELF header", label);
	return 0;
}

static void file_close(struct file *f)
{
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	f->elf = NULL;
	f->fd = -1;
}

static int file_open(struct file *f, const char *path)
{
	unsigned char magic[EI_NIDENT];
	struct stat st;
	ssize_t n;
	int ret;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	ret = libelf_init();
	if (ret < 0)
		return ret;
	/* never waits on a FIFO: anything but a regular file is refused */
	ret = kb_open_regular(path, &st);
	if (ret == -EISDIR)
		return fail(EISDIR, "'%s': is a directory", path);
	if (ret == -EINVAL)
		return fail(EINVAL, "'%s': not a regular file", path);
	if (ret < 0)
		return kb_error_errno(-ret, "'%s'", path);
	f->fd = ret;
	if (st.st_size == 0) {
		ret = fail(ENOEXEC, "'%s': empty file, not an ELF file", path);
		goto out_close;
	}
	f->size = (unsigned long long)st.st_size;
	n = pread(f->fd, magic, sizeof(magic), 0);
	if (n < 0) {
		ret = kb_error_errno(errno, "'%s'", path);
		goto out_close;
	}
	if (n >= 8 && !memcmp(magic, "!<thin>\n", 8)) {
		f->thin = true;
		return 0;
	}
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (!f->elf) {
		/* say what is wrong with the header when that is the cause */
		ret = check_ident(path, magic, (size_t)n, f->size);
		if (!ret)
			ret = fail(EIO, "'%s': %s", path, elf_errmsg(-1));
		goto out_close;
	}
	return 0;
out_close:
	file_close(f);
	return ret;
}

static void scan_release(struct scan *s)
{
	free(s->shdr);
	free(s->names);
	free(s->state);
	free(s->made);
	free(s->relocs);
	free(s->sect);
	memset(s, 0, sizeof(*s));
}

static bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* BFD knows debugging sections by name only, and flags them. */
static bool debug_name(const char *name)
{
	static const char *const prefixes[] = {
		".debug", ".gnu.debuglto_.debug_", ".gnu.linkonce.wi.", ".zdebug",
		".gnu.build.attributes", ".note.gnu", ".line", ".stab",
	};

	for (size_t i = 0; i < KB_ARRAY_SIZE(prefixes); i++)
		if (has_prefix(name, prefixes[i]))
			return true;
	return !strcmp(name, ".gdb_index");
}

static unsigned section_flags(const GElf_Shdr *sh, const char *name)
{
	unsigned f = 0;

	if (sh->sh_type != SHT_NOBITS)
		f |= SF_CONTENTS;
	if (sh->sh_flags & SHF_ALLOC)
		f |= SF_ALLOC;
	if (!(sh->sh_flags & SHF_WRITE))
		f |= SF_READONLY;
	if (sh->sh_flags & SHF_EXECINSTR)
		f |= SF_CODE;
	if (sh->sh_type == SHT_GROUP ||
	    (sh->sh_flags & (SHF_MERGE | SHF_STRINGS | SHF_GROUP | SHF_TLS | SHF_EXCLUDE)))
		f |= SF_OTHER;
	if (!(f & SF_ALLOC) && debug_name(name))
		f |= SF_OTHER;
	if (has_prefix(name, ".gnu.linkonce"))
		f |= SF_OTHER;
	return f;
}

static void add_section(struct scan *s, size_t i)
{
	const GElf_Shdr *sh = &s->shdr[i];
	struct section *sec;

	if (s->made[i])
		return;
	sec = &s->sect[s->nsect++];

	sec->name = s->names + sh->sh_name;
	sec->size = sh->sh_size;
	sec->addr = sh->sh_addr;
	sec->flags = section_flags(sh, sec->name);
	s->made[i] = 1;
}

static bool is_symtab(const struct scan *s, size_t i)
{
	return i < s->shnum &&
	       (s->shdr[i].sh_type == SHT_SYMTAB || s->shdr[i].sh_type == SHT_DYNSYM);
}

static bool is_reloc(const struct scan *s, size_t i)
{
	return s->shdr[i].sh_type == SHT_REL || s->shdr[i].sh_type == SHT_RELA;
}

static int visit(struct scan *s, size_t i);

/* A symbol table: BFD checks each one and keeps the first valid one.  1: visit again. */
static int visit_symtab(struct scan *s, size_t i, size_t *first)
{
	const GElf_Shdr *sh = &s->shdr[i];

	if (sh->sh_entsize != gelf_fsize(s->elf, ELF_T_SYM, 1, EV_CURRENT))
		return fail(ENOEXEC, "'%s': section %zu: bad symbol size %llu", s->label, i,
			    (unsigned long long)sh->sh_entsize);
	if ((unsigned long long)sh->sh_info * sh->sh_entsize > sh->sh_size) {
		if (sh->sh_size)
			return fail(ENOEXEC, "'%s': section %zu: bad local symbol count %u",
				    s->label, i, (unsigned)sh->sh_info);
		/* BFD zeroes the count of an empty table and takes it the next time */
		s->shdr[i].sh_info = 0;
		return 1;
	}
	if (*first)
		return 0;
	*first = i;
	/* the dynamic one is a section too, the other one only when mapped in a DSO */
	if (sh->sh_type == SHT_DYNSYM ||
	    ((sh->sh_flags & SHF_ALLOC) && s->ehdr.e_type == ET_DYN))
		add_section(s, i);
	return 0;
}

/* A string table is a section unless it names sections or static symbols. */
static int visit_strtab(struct scan *s, size_t i)
{
	if (i == s->shstrndx || (s->symtab && s->shdr[s->symtab].sh_link == i))
		return 0;
	if (s->dynsym && s->shdr[s->dynsym].sh_link == i) {
		add_section(s, i);
		return 0;
	}
	/* a table that comes before its symbol table: BFD reads its users first */
	if (!s->symtab || !s->dynsym) {
		for (size_t j = 1; j < s->shnum; j++) {
			int ret;

			if (s->shdr[j].sh_link != i)
				continue;
			if (j == i)
				return fail(ENOEXEC, "'%s': section %zu links to itself",
					    s->label, i);
			ret = visit(s, j);
			if (ret < 0)
				return ret;
			if (j == s->symtab)
				return 0;
			if (j == s->dynsym)
				break;
		}
	}
	add_section(s, i);
	return 0;
}

/* Relocations: a section of their own, or attached to their target. */
static int visit_reloc(struct scan *s, size_t i)
{
	const GElf_Shdr *sh = &s->shdr[i];
	bool program = s->ehdr.e_type == ET_EXEC || s->ehdr.e_type == ET_DYN;
	size_t link = sh->sh_link, info = sh->sh_info, entsize;
	int ret;

	entsize = sh->sh_type == SHT_REL ? gelf_fsize(s->elf, ELF_T_REL, 1, EV_CURRENT) :
		  sh->sh_type == SHT_RELA ? gelf_fsize(s->elf, ELF_T_RELA, 1, EV_CURRENT) :
		  gelf_fsize(s->elf, ELF_T_ADDR, 1, EV_CURRENT);
	if (sh->sh_entsize != entsize)
		return fail(ENOEXEC, "'%s': section %zu: bad relocation size %llu", s->label, i,
			    (unsigned long long)sh->sh_entsize);
	if (link >= s->shnum)
		return fail(ENOEXEC, "'%s': section %zu: bad link %zu", s->label, i, link);
	if (is_symtab(s, link)) {
		ret = visit(s, link);
		if (ret < 0)
			return ret;
	}
	if (sh->sh_type == SHT_RELR) {
		add_section(s, i);
		return 0;
	}
	if (info >= s->shnum)
		return fail(ENOEXEC, "'%s': section %zu: bad target section %zu", s->label, i,
			    info);
	if ((program && (sh->sh_flags & SHF_ALLOC)) || link == 0 || link != s->symtab ||
	    info == 0 || is_reloc(s, info)) {
		add_section(s, i);
		return 0;
	}
	ret = visit(s, info);
	if (ret < 0)
		return ret;
	if (!s->made[info])
		return fail(ENOEXEC, "'%s': section %zu: relocations for section %zu, not a section",
			    s->label, i, info);
	/* a second table for the same target stays a section of its own */
	if (s->relocs[info] & (1u << (sh->sh_type == SHT_RELA)))
		add_section(s, i);
	s->relocs[info] |= 1u << (sh->sh_type == SHT_RELA);
	return 0;
}

/*
 * Make BFD's section for header i, if BFD makes one.  BFD reads a few
 * headers out of order (a relocation section's symbol table and target, a
 * string table's users), so doing the same keeps sysv's order.
 */
static int visit(struct scan *s, size_t i)
{
	int ret = 0;

	if (s->state[i] == 2)
		return 0;
	if (s->state[i] == 1)
		return fail(ENOEXEC, "'%s': loop in section links at section %zu", s->label, i);
	s->state[i] = 1;
	switch (s->shdr[i].sh_type) {
	case SHT_NULL:
	case SHT_SYMTAB_SHNDX:
	case SHT_SHLIB:
		break;
	case SHT_SYMTAB:
		ret = visit_symtab(s, i, &s->symtab);
		break;
	case SHT_DYNSYM:
		ret = visit_symtab(s, i, &s->dynsym);
		break;
	case SHT_STRTAB:
		ret = visit_strtab(s, i);
		break;
	case SHT_REL:
	case SHT_RELA:
	case SHT_RELR:
		ret = visit_reloc(s, i);
		break;
	default:
		add_section(s, i);
	}
	s->state[i] = ret > 0 ? 0 : 2;
	return ret < 0 ? ret : 0;
}

static bool past_end(unsigned long long off, unsigned long long len, unsigned long long end)
{
	return off > end || len > end - off;
}

static int load_names(struct scan *s)
{
	const GElf_Shdr *sh = &s->shdr[s->shstrndx];
	Elf_Data *d;

	if (sh->sh_type != SHT_STRTAB)
		return fail(ENOEXEC, "'%s': section name table is not a string table", s->label);
	if (past_end(sh->sh_offset, sh->sh_size, s->file_size))
		return fail(ENOEXEC, "'%s': truncated section name table", s->label);
	d = elf_rawdata(elf_getscn(s->elf, s->shstrndx), NULL);
	if (sh->sh_size && (!d || !d->d_buf || d->d_size != sh->sh_size))
		return fail(EIO, "'%s': cannot read the section name table: %s",
			    s->label, elf_errmsg(-1));
	/* BFD terminates the table itself, and so do we */
	s->names_len = sh->sh_size;
	s->names = kb_xmalloc(s->names_len + 1);
	if (s->names_len)
		memcpy(s->names, d->d_buf, s->names_len);
	s->names[s->names_len] = '\0';
	return 0;
}

/* The checks by which BFD refuses a file on one bad section header. */
static int check_header(const struct scan *s, size_t i)
{
	const GElf_Shdr *sh = &s->shdr[i];
	bool x86 = s->ehdr.e_machine == EM_386 || s->ehdr.e_machine == EM_IAMCU ||
		   s->ehdr.e_machine == EM_X86_64;

	/* Solaris x86 links SHF_LINK_ORDER sections to SHN_BEFORE and SHN_AFTER */
	if (sh->sh_link >= s->shnum &&
	    !(x86 && (sh->sh_link == SHN_BEFORE || sh->sh_link == SHN_AFTER)))
		return fail(ENOEXEC, "'%s': section %zu: bad link %u", s->label, i,
			    (unsigned)sh->sh_link);
	if (((sh->sh_flags & SHF_INFO_LINK) || sh->sh_type == SHT_REL ||
	     sh->sh_type == SHT_RELA) && sh->sh_info >= s->shnum)
		return fail(ENOEXEC, "'%s': section %zu: bad info %u", s->label, i,
			    (unsigned)sh->sh_info);
	switch (sh->sh_type) {
	case SHT_GNU_versym:
		if (sh->sh_entsize != sizeof(Elf32_Half))
			return fail(ENOEXEC, "'%s': section %zu: bad version entry size %llu",
				    s->label, i, (unsigned long long)sh->sh_entsize);
		break;
	case SHT_NOTE:
		/* BFD reads notes as it opens the file */
		if (sh->sh_size && past_end(sh->sh_offset, sh->sh_size, s->file_size))
			return fail(ENOEXEC, "'%s': section '%s': truncated notes", s->label,
				    s->names + sh->sh_name);
		break;
	case SHT_GROUP:
		/* and groups: a flag word, then at least one member */
		if (sh->sh_entsize != sizeof(Elf32_Word) || sh->sh_size < 2 * sizeof(Elf32_Word) ||
		    past_end(sh->sh_offset, sh->sh_size, s->file_size) || sh->sh_link == 0)
			return fail(ENOEXEC, "'%s': section '%s': bad section group", s->label,
				    s->names + sh->sh_name);
		break;
	}
	return 0;
}

static int load_headers(struct scan *s)
{
	bool warned = false;
	int ret;

	s->shdr = kb_xcalloc(s->shnum, sizeof(*s->shdr));
	for (size_t i = 0; i < s->shnum; i++) {
		Elf_Scn *scn = elf_getscn(s->elf, i);

		if (!scn || !gelf_getshdr(scn, &s->shdr[i]))
			return fail(ENOEXEC, "'%s': section %zu: %s", s->label, i, elf_errmsg(-1));
	}
	ret = load_names(s);
	if (ret < 0)
		return ret;
	for (size_t i = 1; i < s->shnum; i++) {
		const GElf_Shdr *sh = &s->shdr[i];

		if (sh->sh_type == SHT_NULL)
			continue;
		/* BFD names every header, used or not, and gives up if it cannot */
		if (sh->sh_name >= s->names_len)
			return fail(ENOEXEC, "'%s': section %zu: bad name offset %u",
				    s->label, i, (unsigned)sh->sh_name);
		ret = check_header(s, i);
		if (ret < 0)
			return ret;
		/* size warns and goes on: Berkeley sums need no contents */
		if (!warned && sh->sh_type != SHT_NOBITS &&
		    past_end(sh->sh_offset, sh->sh_size, s->file_size)) {
			kb_warn("'%s': section '%s' extends past the end of the file",
				s->label, s->names + sh->sh_name);
			warned = true;
		}
	}
	return 0;
}

/* With 0xff00 sections or more, section 0's sh_size holds the count. */
static int extended_count(const struct scan *s, unsigned long long *count)
{
	bool is64 = gelf_getclass(s->elf) == ELFCLASS64;
	size_t n = is64 ? 8 : 4;
	unsigned char b[8];

	if (pread(s->fd, b, n, s->base + (off_t)s->ehdr.e_shoff + (is64 ? 32 : 20)) != (ssize_t)n)
		return fail(EIO, "'%s': cannot read section 0", s->label);
	*count = 0;
	for (size_t i = 0; i < n; i++)
		*count = *count << 8 | b[s->ehdr.e_ident[EI_DATA] == ELFDATA2MSB ? i : n - 1 - i];
	return 0;
}

/* Read the section headers of s->elf into s->sect; a message on failure. */
static int scan_image(struct scan *s)
{
	unsigned long long shsize, count;
	int ret;

	if (!gelf_getehdr(s->elf, &s->ehdr))
		return fail(ENOEXEC, "'%s': %s", s->label, elf_errmsg(-1));
	if (s->ehdr.e_type == ET_CORE)
		return fail(ENOTSUP, "'%s': a core file, not supported", s->label);
	if (s->ehdr.e_shoff == 0) {
		/* BFD refuses an object file so stripped, and sees no section in a program */
		if (s->ehdr.e_type == ET_REL)
			return fail(ENOEXEC, "'%s': no section header table", s->label);
		return 0;
	}
	shsize = gelf_fsize(s->elf, ELF_T_SHDR, 1, EV_CURRENT);
	if (s->ehdr.e_shentsize != shsize)
		return fail(ENOEXEC, "'%s': bad section header size %u", s->label,
			    (unsigned)s->ehdr.e_shentsize);
	if (past_end(s->ehdr.e_shoff, shsize, s->file_size))
		return fail(ENOEXEC, "'%s': truncated section header table", s->label);
	count = s->ehdr.e_shnum;
	if (!count) {
		ret = extended_count(s, &count);
		if (ret < 0)
			return ret;
	}
	if (!count)
		return fail(ENOEXEC, "'%s': empty section header table", s->label);
	if (count > (s->file_size - s->ehdr.e_shoff) / shsize)
		return fail(ENOEXEC, "'%s': truncated section header table", s->label);
	if (elf_getshdrnum(s->elf, &s->shnum) < 0 || s->shnum != count)
		return fail(ENOEXEC, "'%s': cannot read the section headers: %s", s->label,
			    elf_errmsg(-1));
	if (elf_getshdrstrndx(s->elf, &s->shstrndx) < 0 || s->shstrndx == 0 ||
	    s->shstrndx >= s->shnum)
		return fail(ENOEXEC, "'%s': bad section name table index", s->label);
	ret = load_headers(s);
	if (ret < 0)
		return ret;
	s->state = kb_xcalloc(s->shnum, 1);
	s->made = kb_xcalloc(s->shnum, 1);
	s->relocs = kb_xcalloc(s->shnum, 1);
	s->sect = kb_xcalloc(s->shnum, sizeof(*s->sect));
	for (size_t i = 1; i < s->shnum; i++) {
		ret = visit(s, i);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* Scan the image elf holds: a file, or an archive member of size bytes. */
static int scan_open(struct scan *s, int fd, Elf *elf, const char *label,
		     unsigned long long size)
{
	off_t base = elf_getbase(elf);
	unsigned char id[EI_NIDENT];
	ssize_t n;
	int ret;

	memset(s, 0, sizeof(*s));
	s->label = label;
	s->elf = elf;
	s->file_size = size;
	s->fd = fd;
	s->base = base > 0 ? base : 0;
	n = pread(fd, id, sizeof(id), s->base);
	if (n < 0)
		return kb_error_errno(errno, "'%s'", label);
	ret = check_ident(label, id, (unsigned long long)n < size ? (size_t)n : (size_t)size,
			  size);
	if (ret < 0)
		return ret;
	if (elf_kind(elf) != ELF_K_ELF)
		return fail(ENOEXEC, "'%s': not an ELF file", label);
	return scan_image(s);
}

static void scan_sum(const struct scan *s, struct kb_size *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < s->nsect; i++) {
		const struct section *sec = &s->sect[i];

		if (!(sec->flags & SF_ALLOC))
			continue;
		if (sec->flags & (SF_CODE | SF_READONLY))
			out->text += sec->size;
		else if (sec->flags & SF_CONTENTS)
			out->data += sec->size;
		else
			out->bss += sec->size;
	}
}

int kb_size_read(const char *path, struct kb_size *out)
{
	struct scan s = { 0 };
	struct file f;
	int ret;

	ret = file_open(&f, path);
	if (ret < 0)
		return ret;
	if (f.thin || elf_kind(f.elf) == ELF_K_AR)
		ret = fail(EINVAL, "'%s': an archive, not an ELF file", path);
	else
		ret = scan_open(&s, f.fd, f.elf, path, f.size);
	if (!ret)
		scan_sum(&s, out);
	scan_release(&s);
	file_close(&f);
	return ret;
}

void kb_size_print_header(FILE *f)
{
	fputs("   text\t   data\t    bss\t    dec\t    hex\tfilename\n", f);
}

void kb_size_print_row(FILE *f, const struct kb_size *s, const char *filename)
{
	unsigned long long total = s->text + s->data + s->bss;

	fprintf(f, "%7llu\t%7llu\t%7llu\t%7llu\t%7llx\t%s\n",
		s->text, s->data, s->bss, total, total, filename);
}

static int digits(unsigned long long v)
{
	return snprintf(NULL, 0, "%llu", v);
}

/*
 * size -A: every section, its size and address, in columns fitted to this
 * file.  The name column fits the names alone, so a short one such as
 * ".text" lets the "section" title stick out; numbers take at least 4.
 */
static void print_sysv(FILE *out, const struct scan *s, const char *name, const char *archive)
{
	int namew = 0, sizew, addrw;
	unsigned long long total = 0, maxaddr = 0;

	for (size_t i = 0; i < s->nsect; i++) {
		const struct section *sec = &s->sect[i];
		int w = (int)strlen(sec->name);

		if (!sec->flags)
			continue;
		if (w > namew)
			namew = w;
		total += sec->size;
		if (sec->addr > maxaddr)
			maxaddr = sec->addr;
	}
	sizew = digits(total) > 4 ? digits(total) : 4;
	addrw = digits(maxaddr) > 4 ? digits(maxaddr) : 4;
	if (archive)
		fprintf(out, "%s   (ex %s):\n", name, archive);
	else
		fprintf(out, "%s  :\n", name);
	fprintf(out, "%-*s   %*s   %*s\n", namew, "section", sizew, "size", addrw, "addr");
	for (size_t i = 0; i < s->nsect; i++) {
		const struct section *sec = &s->sect[i];

		if (sec->flags)
			fprintf(out, "%-*s   %*llu   %*llu\n",
				namew, sec->name, sizew, sec->size, addrw, sec->addr);
	}
	fprintf(out, "%-*s   %*llu\n\n\n", namew, "Total", sizew, total);
}

static void print_image(struct kb_size_printer *p, const struct scan *s, const char *name,
			const char *archive)
{
	struct kb_size sz;
	char *row;

	if (p->sysv) {
		print_sysv(p->out, s, name, archive);
		return;
	}
	scan_sum(s, &sz);
	if (!p->header_done) {
		kb_size_print_header(p->out);
		p->header_done = true;
	}
	row = archive ? kb_xasprintf("%s (ex %s)", name, archive) : kb_xstrdup(name);
	kb_size_print_row(p->out, &sz, row);
	free(row);
	p->total.text += sz.text;
	p->total.data += sz.data;
	p->total.bss += sz.bss;
}

static int show_image(struct kb_size_printer *p, int fd, Elf *elf, const char *label,
		      unsigned long long size, const char *name, const char *archive)
{
	struct scan s;
	int ret = scan_open(&s, fd, elf, label, size);

	if (!ret)
		print_image(p, &s, name, archive);
	scan_release(&s);
	return ret;
}

static bool ar_special(const char *name)
{
	return !strcmp(name, "/") || !strcmp(name, "//") || !strcmp(name, "/SYM64/");
}

/* A regular archive: each member as its own row, "member (ex archive)". */
static int show_archive(struct kb_size_printer *p, struct file *f, const char *path)
{
	unsigned long long end = 8;	/* where the last member read ends */
	Elf_Cmd cmd = ELF_C_READ_MMAP;
	int ret = 0;
	Elf *m;

	/* libelf says "no more members" and "bad member header" alike: tell by the offset */
	while (cmd != ELF_C_NULL && (m = elf_begin(f->fd, cmd, f->elf)) != NULL) {
		Elf_Arhdr *h = elf_getarhdr(m);
		off_t base = elf_getbase(m);

		if (!h || base < 0) {
			ret = kb_error("'%s': %s", path, elf_errmsg(-1));
			elf_end(m);
			return ret;
		}
		end = (unsigned long long)base + (unsigned long long)h->ar_size;
		end += end & 1;
		/* size skips an archive in an archive without a word */
		if (!ar_special(h->ar_name) && elf_kind(m) != ELF_K_AR) {
			char *label = kb_xasprintf("%s(%s)", path, h->ar_name);

			if (show_image(p, f->fd, m, label, (unsigned long long)h->ar_size, h->ar_name,
				       path) < 0)
				ret = -1;
			free(label);
		}
		cmd = elf_next(m);
		elf_end(m);
	}
	if (end < f->size)
		ret = kb_error("'%s': bad archive member header at offset %llu", path, end);
	return ret;
}

/*
 * The name of a thin archive member, from its header or the long name
 * table; *nested gets the offset in "/name:offset", which names a member of
 * a regular archive that the thin one holds, or -1.
 */
static char *thin_member_name(const char *hdr, const char *longnames, size_t longlen,
			      long long *nested)
{
	size_t n;

	*nested = -1;
	if (hdr[0] == '/' && hdr[1] >= '0' && hdr[1] <= '9') {
		char *end;
		unsigned long off = strtoul(hdr + 1, &end, 10);

		if (*end == ':')
			*nested = strtoll(end + 1, NULL, 10);
		if (!longnames || off >= longlen)
			return NULL;
		for (n = off; n < longlen && longnames[n] != '\n'; n++)
			;
		if (n > off && longnames[n - 1] == '/')
			n--;
		return n > off ? strndup(longnames + off, n - off) : NULL;
	}
	for (n = 0; n < 16 && hdr[n] != '/' && hdr[n] != ' '; n++)
		;
	return n ? strndup(hdr, n) : NULL;
}

/* The member at offset off of the regular archive path, held in a thin one. */
static int show_nested(struct kb_size_printer *p, const char *path, long long off)
{
	struct file f;
	Elf_Arhdr *h;
	Elf *m = NULL;
	int ret;

	ret = file_open(&f, path);
	if (ret < 0)
		return ret;
	if (f.thin || elf_kind(f.elf) != ELF_K_AR) {
		ret = kb_error("'%s': not an archive, but a thin archive names a member of it",
			       path);
	} else if (off < 0 || elf_rand(f.elf, (size_t)off) != (size_t)off ||
		   !(m = elf_begin(f.fd, ELF_C_READ_MMAP, f.elf)) || !(h = elf_getarhdr(m))) {
		ret = kb_error("'%s': no member at offset %lld", path, off);
	} else {
		char *label = kb_xasprintf("%s(%s)", path, h->ar_name);

		ret = show_image(p, f.fd, m, label, (unsigned long long)h->ar_size, h->ar_name,
				 path);
		free(label);
	}
	if (m)
		elf_end(m);
	file_close(&f);
	return ret;
}

static int show_thin_member(struct kb_size_printer *p, const char *path, const char *mpath)
{
	struct file f;
	int ret = file_open(&f, mpath);

	if (ret < 0)
		return ret;
	if (f.thin || elf_kind(f.elf) == ELF_K_AR)
		ret = kb_error("'%s': member '%s' is an archive, not supported", path, mpath);
	else
		ret = show_image(p, f.fd, f.elf, mpath, f.size, mpath, path);
	file_close(&f);
	return ret;
}

/*
 * A thin archive ("!<thin>\n", as the kernel's built-in.a and vmlinux.a):
 * the members live in their own files, named relative to the archive.
 */
static int show_thin(struct kb_size_printer *p, const char *path)
{
	const char *slash = strrchr(path, '/'), *longnames = NULL;
	int dirlen = slash ? (int)(slash - path + 1) : 0;
	size_t len, pos = 8, longlen = 0;
	int ret = 0;
	char *buf;

	ret = kb_read_file(path, &buf, &len);
	if (ret < 0)
		return kb_error_errno(-ret, "'%s'", path);
	ret = 0;
	while (pos < len) {
		const char *hdr = buf + pos;
		unsigned long long size;
		char sizefield[11], *end, *name, *mpath;
		long long nested;

		if (len - pos < 60 || memcmp(hdr + 58, "`\n", 2)) {
			ret = kb_error("'%s': bad archive member header at offset %zu", path, pos);
			break;
		}
		memcpy(sizefield, hdr + 48, 10);
		sizefield[10] = '\0';
		size = strtoull(sizefield, &end, 10);
		if (end == sizefield || (*end && *end != ' ')) {
			ret = kb_error("'%s': bad archive member size at offset %zu", path, pos);
			break;
		}
		pos += 60;
		if (hdr[0] == '/' && (hdr[1] == ' ' || hdr[1] == '/' || !memcmp(hdr, "/SYM64/", 7))) {
			/* the index and the long name table are the only data held */
			if (size > len - pos) {
				ret = kb_error("'%s': truncated archive", path);
				break;
			}
			if (hdr[1] == '/') {
				longnames = buf + pos;
				longlen = size;
			}
			pos += size + (size & 1);
			continue;
		}
		name = thin_member_name(hdr, longnames, longlen, &nested);
		if (!name) {
			ret = kb_error("'%s': member at offset %zu: bad name", path, pos - 60);
			continue;
		}
		mpath = name[0] == '/' ? kb_xstrdup(name) :
			kb_xasprintf("%.*s%s", dirlen, path, name);
		if ((nested >= 0 ? show_nested(p, mpath, nested) :
				   show_thin_member(p, path, mpath)) < 0)
			ret = -1;
		free(mpath);
		free(name);
	}
	free(buf);
	return ret;
}

int kb_size_show(struct kb_size_printer *p, const char *path)
{
	struct file f;
	int ret = file_open(&f, path);

	if (ret < 0)
		return ret;
	if (f.thin)
		ret = show_thin(p, path);
	else if (elf_kind(f.elf) == ELF_K_AR)
		ret = show_archive(p, &f, path);
	else
		ret = show_image(p, f.fd, f.elf, path, f.size, path, NULL);
	file_close(&f);
	return ret;
}
