// SPDX-License-Identifier: GPL-2.0-or-later
/* Ordered kernels (order.h): the order file, the rule that places its
 * functions, and the hook in kbench's copy of the kernel's linker script. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "names.h"
#include "order.h"
#include "pool.h"
#include "util.h"

/* The text after key in line up to the next ", " or the end, malloc'd. */
static char *field(const char *line, const char *key)
{
	const char *s = strstr(line, key), *e;

	if (!s)
		return NULL;
	s += strlen(key);
	e = strstr(s, ", ");
	return kb_xstrndup(s, e ? (size_t)(e - s) : strcspn(s, "\n"));
}

int kb_order_made(const char *path, char **method, char **variant, char **cases)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	*method = *variant = *cases = NULL;
	if (!f)
		return kb_error_errno(errno, "cannot open the order '%s'", path);
	/* the comments at the top, up to the first name */
	while (getline(&line, &cap, f) > 0 && (line[0] == '#' || line[strspn(line, " \t\r\n")] == 0)) {
		if (!strncmp(line, "# kbench order: ", 16) && !*method)
			*method = field(line, "method ");
		else if (!strncmp(line, "# profile: ", 11) && !*variant) {
			*variant = field(line, "variant ");
			*cases = field(line, "cases ");
		}
	}
	fclose(f);
	free(line);
	return 0;
}


/* TEXT_MAIN of an ordered build: ".text" and every function's own section
 * (".text.NAME", -ffunction-sections), but not the cold, hot and unknown
 * parts (".text.unlikely", ".text.unlikely.NAME", ".text.unknown..."):
 * the rules after TEXT_MAIN place those as in the unordered build (hot
 * ones come before it: its rule takes them first).  GNU ld's patterns
 * (fnmatch) have no "all but", so the names that differ from "unlikely"
 * and "unknown" at each letter are spelled out; "[!.]" keeps a function
 * whose name starts with one of them (unlikely_x) in the main text.  The
 * kernel's own TEXT_MAIN for dead-code elimination, ".text
 * .text.[0-9a-zA-Z_]*", takes the cold parts of every object into the
 * main text: an ordered kernel would then differ from the unordered one
 * in more than its order. */
static const char text_main[] =
	".text .text.[0-9a-tv-zA-Z_]* .text.u .text.u[!n]* .text.un .text.un[!kl]* "
	".text.unl .text.unl[!i]* .text.unli .text.unli[!k]* .text.unlik .text.unlik[!e]* "
	".text.unlike .text.unlike[!l]* .text.unlikel .text.unlikel[!y]* .text.unlikely[!.]* "
	".text.unk .text.unk[!n]* .text.unkn .text.unkn[!o]* .text.unkno .text.unkno[!w]* "
	".text.unknow .text.unknow[!n]* .text.unknown[!.]*";

char *kb_order_header(const struct kb_order_file *o)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	/* not the order's path: a file name may hold the two characters that
	 * end a C comment */
	fprintf(f, "/* %s: written by kbench for an order of %zu functions; the hook that\n"
		" * includes it is in include/asm-generic/vmlinux.lds.h */\n"
		"#undef TEXT_MAIN\n"
		"#define TEXT_MAIN %s\n"
		"#define KBENCH_ORDERED_TEXT \\\n", KB_ORDER_RECIPE, o->n, text_main);
	for (size_t i = 0; i < o->n; i++) {
		const char *w = o->names[i];
		size_t l = strlen(w);

		const char *sys = NULL;

		/* a syscall's entry of no arguments is an alias of its body
		 * (SYSCALL_DEFINE0: __ia32_sys_X = __do_sys_X), whose section
		 * it is; the entry of one with arguments has its own */
		if (!strncmp(w, "__ia32_sys_", 11) || !strncmp(w, "__x64_sys_", 10) ||
		    !strncmp(w, "__x32_sys_", 10))
			sys = strstr(w, "_sys_") + 5;
		if (l > 5 && !strcmp(w + l - 5, ".cold"))
			fprintf(f, "\t*(.text.unlikely.%.*s) \\\n", (int)(l - 5), w);
		else if (sys)
			fprintf(f, "\t*(.text.%s .text.__do_sys_%s) \\\n", w, sys);
		else
			fprintf(f, "\t*(.text.%s) \\\n", w);
	}
	fprintf(f, "\t/* end of the order */\n");
	fclose(f);
	return text;
}

/* the hook's own name (kbench-order-1 made it), not the recipe's: the
 * recipe changes with the rule's text, the hook stays */
#define HOOK_NAME "kbench-order-1"
#define HOOK_BEGIN "/* " HOOK_NAME ": added by kbench"
#define HOOK_END "/* end of " HOOK_NAME " */\n"
static const char hook[] =
	HOOK_BEGIN "; inert where the object tree has no\n"
	" * include/generated/kbench-order.h (only an ordered build's has) */\n"
	"#if defined(__has_include)\n"
	"#if __has_include(<generated/kbench-order.h>)\n"
	"#include <generated/kbench-order.h>\n"
	"#endif\n"
	"#endif\n"
	"#ifndef KBENCH_ORDERED_TEXT\n"
	"#define KBENCH_ORDERED_TEXT\n"
	"#endif\n"
	HOOK_END;
static const char main_rule[] = "*(TEXT_MAIN .text.fixup)";
static const char ordered_rule[] = "KBENCH_ORDERED_TEXT *(TEXT_MAIN .text.fixup)";

int kb_order_install(const char *tree)
{
	char *path = kb_xasprintf("%s/include/asm-generic/vmlinux.lds.h", tree);
	char *text = NULL, *want = NULL, *def, *b, *e, *rule;
	int ret = -1;

	if (kb_read_file(path, &text, NULL) < 0) {
		kb_error("'%s': cannot read it to add kbench's function order", path);
		goto out;
	}
	/* an older version's hook goes */
	b = strstr(text, HOOK_BEGIN);
	e = b ? strstr(b, HOOK_END) : NULL;
	if (b && e)
		memmove(b, e + strlen(HOOK_END), strlen(e + strlen(HOOK_END)) + 1);
	def = strstr(text, "#define TEXT_TEXT");
	rule = def ? strstr(def, ordered_rule) : NULL;
	if (!rule)
		rule = def ? strstr(def, main_rule) : NULL;
	if (!def || !rule || (def != text && def[-1] != '\n')) {
		kb_error("'%s': no TEXT_TEXT with the rule '%s': kbench cannot place functions in "
			 "this kernel's text", path, main_rule);
		goto out;
	}
	if (!strncmp(rule, ordered_rule, strlen(ordered_rule)))
		want = kb_xasprintf("%.*s%s%s", (int)(def - text), text, hook, def);
	else
		want = kb_xasprintf("%.*s%s%.*s%s%s", (int)(def - text), text, hook, (int)(rule - def),
				    def, ordered_rule, rule + strlen(main_rule));
	ret = kb_write_file_if_changed(path, want) < 0 ? -1 : 0;
out:
	free(path);
	free(text);
	free(want);
	return ret;
}

int kb_order_check(const struct kb_order_file *o, const char *system_map, size_t *found,
		   size_t *rising)
{
	struct kb_names idx = { 0 };
	struct kb_pool pool = { 0 };
	unsigned long long *addr = kb_xcalloc(o->n + 1, sizeof(*addr)), last = 0;
	char *line = NULL;
	size_t cap = 0, nfound = 0;
	FILE *f = fopen(system_map, "r");

	*found = *rising = 0;
	if (!f) {
		free(addr);
		return kb_error_errno(errno, "cannot open '%s'", system_map);
	}
	for (size_t i = 0; i < o->n; i++)
		kb_names_add(&idx, &pool, o->names[i]);
	while (getline(&line, &cap, f) > 0) {
		unsigned long long a;
		char type, name[512];
		size_t i;

		if (sscanf(line, "%llx %c %511s", &a, &type, name) != 3 || (type != 't' && type != 'T'))
			continue;
		i = kb_names_find(&idx, name);
		if (i < idx.n && !addr[i])
			addr[i] = a;
	}
	fclose(f);
	free(line);
	for (size_t i = 0; i < o->n; i++) {
		if (!addr[i])
			continue;
		if (nfound++ && addr[i] > last)
			(*rising)++;
		last = addr[i];
	}
	*found = nfound;
	free(addr);
	kb_names_release(&idx);
	kb_pool_release(&pool);
	return 0;
}

/* ---- the objects that define an order's functions ---- */

/* kb_order_objects' state, which defines_ordered fills. */
static struct objects_walk {
	struct kb_names idx;	/* the order's names */
	unsigned char *seen;	/* per name: some object defines it */
	char **where;		/* per name: the first such object by name, or NULL (not asked) */
	const char *rel;	/* the object read */
	char **v;
	size_t n, cap;
	int err;
} OW;

int kb_elf_object(const char *path, Elf **e, int *fd, size_t *shstrndx)
{
	GElf_Ehdr eh;

	*e = NULL;
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return kb_error_errno(errno, "cannot open '%s'", path);
	*e = elf_begin(*fd, ELF_C_READ, NULL);
	if (*e && elf_kind(*e) == ELF_K_ELF && gelf_getehdr(*e, &eh) && eh.e_type == ET_REL &&
	    elf_getshdrstrndx(*e, shstrndx) == 0)
		return 1;
	kb_elf_object_close(*e, *fd);
	*e = NULL;
	*fd = -1;
	return 0;
}

void kb_elf_object_close(Elf *e, int fd)
{
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
}

void kb_elf_symbols(Elf *e, void (*fn)(void *ctx, Elf *e, const GElf_Sym *sym, const char *name), void *ctx)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *name;

			if (!gelf_getsym(d, (int)i, &sym))
				continue;
			name = elf_strptr(e, sh.sh_link, sym.st_name);
			fn(ctx, e, &sym, name ? name : "");
		}
	}
}

/* defines_ordered's callback: a function of the order's in a section
 * -ffunction-sections would split (.text, .text.*) */
struct defining {
	size_t shstrndx;
	int any;
};

static void ordered_symbol(void *ctx, Elf *e, const GElf_Sym *sym, const char *name)
{
	struct defining *df = ctx;
	GElf_Shdr ts;
	const char *sec;
	size_t k;

	if (GELF_ST_TYPE(sym->st_info) != STT_FUNC || sym->st_shndx == SHN_UNDEF ||
	    sym->st_shndx >= SHN_LORESERVE || (k = kb_names_find(&OW.idx, name)) >= OW.idx.n)
		return;
	if (!gelf_getshdr(elf_getscn(e, sym->st_shndx), &ts) || !(sec = elf_strptr(e, df->shstrndx, ts.sh_name)) ||
	    strncmp(sec, ".text", 5) || (sec[5] && sec[5] != '.'))
		return;
	OW.seen[k] = 1;
	df->any = 1;
	if (OW.where && (!OW.where[k] || strcmp(OW.rel, OW.where[k]) < 0)) {
		free(OW.where[k]);
		OW.where[k] = kb_xstrdup(OW.rel);
	}
}

/* Whether the relocatable ELF object at path defines one of the order's
 * functions in a section -ffunction-sections would split; 0 for a file
 * that is no ELF object. */
static int defines_ordered(const char *path)
{
	struct defining df = { 0, 0 };
	Elf *e;
	int fd, r = kb_elf_object(path, &e, &fd, &df.shstrndx);

	if (r < 0)
		OW.err = -1;
	if (r <= 0)
		return 0;
	kb_elf_symbols(e, ordered_symbol, &df);
	kb_elf_object_close(e, fd);
	return df.any;
}

/* kb_objdir_objects' walk: nftw has no closure. */
static struct objdir_walk {
	size_t top_len;
	const char *const *skipped;
	size_t nskipped;
	int (*fn)(void *ctx, const char *path, const char *rel);
	void *ctx;
	int err;
} WALK;

static int objdir_visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	const char *rel = path + WALK.top_len + 1, *base = path + ftw->base;
	size_t blen = strlen(base);

	(void)st;
	if (ftw->level == 0)
		return FTW_CONTINUE;
	if (type == FTW_D) {
		for (size_t i = 0; i < WALK.nskipped; i++)
			if (!strcmp(rel, WALK.skipped[i]))
				return FTW_SKIP_SUBTREE;
		return FTW_CONTINUE;
	}
	/* objects only: not vmlinux.o, nor the hidden ones the link makes */
	if (type != FTW_F || base[0] == '.' || blen < 3 || strcmp(base + blen - 2, ".o") ||
	    (ftw->level == 1 && !strcmp(base, "vmlinux.o")))
		return FTW_CONTINUE;
	if (WALK.fn(WALK.ctx, path, rel) < 0)
		WALK.err = -1;
	return WALK.err ? FTW_STOP : FTW_CONTINUE;
}

int kb_objdir_objects(const char *objdir, const char *const *skipped, size_t nskipped,
		      int (*fn)(void *ctx, const char *path, const char *rel), void *ctx)
{
	int err;

	WALK = (struct objdir_walk){ strlen(objdir), skipped, nskipped, fn, ctx, 0 };
	if (nftw(objdir, objdir_visit, 32, FTW_PHYS | FTW_ACTIONRETVAL) < 0 && !WALK.err)
		WALK.err = kb_error_errno(errno, "cannot walk the object directory '%s'", objdir);
	err = WALK.err;
	memset(&WALK, 0, sizeof(WALK));
	return err;
}

/* kb_order_objects' callback: an object that defines one of the order's
 * functions is kept. */
static int keep_defining(void *ctx, const char *path, const char *rel)
{
	(void)ctx;
	OW.rel = rel;
	if (defines_ordered(path)) {
		if (OW.n == OW.cap) {
			OW.cap = OW.cap ? 2 * OW.cap : 64;
			OW.v = kb_xrealloc(OW.v, OW.cap * sizeof(*OW.v));
		}
		OW.v[OW.n++] = kb_xstrdup(rel);
	}
	return OW.err;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* kb_order_objects, and with where (not NULL) each name's object. */
static int objects_walk(const struct kb_order_file *o, const char *objdir, char ***objs, size_t *n,
			size_t *defined, char ***where)
{
	/* what no vmlinux links: the host programs, the boot and real-mode
	 * code, the vDSO */
	static const char *const skipped[] = { "scripts", "tools", "usr", "arch/x86/boot",
					       "arch/x86/realmode", "arch/x86/entry/vdso" };
	struct kb_pool pool = { 0 };
	int ret = -1;

	*objs = NULL;
	*n = *defined = 0;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return kb_error("libelf: %s", elf_errmsg(-1));
	memset(&OW, 0, sizeof(OW));
	for (size_t i = 0; i < o->n; i++)
		kb_names_add(&OW.idx, &pool, o->names[i]);
	OW.seen = kb_xcalloc(OW.idx.n + 1, 1);
	if (where)
		OW.where = kb_xcalloc(OW.idx.n + 1, sizeof(*OW.where));
	if (kb_objdir_objects(objdir, skipped, KB_ARRAY_SIZE(skipped), keep_defining, NULL) < 0 && !OW.err)
		OW.err = -1;
	if (OW.err) {
		kb_order_objects_free(OW.v, OW.n);
		kb_order_objects_free(OW.where, where ? OW.idx.n : 0);
		goto out;
	}
	qsort(OW.v, OW.n, sizeof(*OW.v), by_name);
	for (size_t i = 0; i < OW.idx.n; i++)
		*defined += OW.seen[i];
	*objs = OW.v;
	*n = OW.n;
	if (where) {	/* by the order's names (its indexes: no name twice) */
		*where = kb_xcalloc(o->n + 1, sizeof(**where));
		for (size_t i = 0; i < o->n; i++) {
			size_t k = kb_names_find(&OW.idx, o->names[i]);

			(*where)[i] = OW.where[k];
		}
		free(OW.where);
	}
	ret = 0;
out:
	free(OW.seen);
	kb_names_release(&OW.idx);
	kb_pool_release(&pool);
	memset(&OW, 0, sizeof(OW));
	return ret;
}

int kb_order_objects(const struct kb_order_file *o, const char *objdir, char ***objs, size_t *n,
		     size_t *defined)
{
	return objects_walk(o, objdir, objs, n, defined, NULL);
}

int kb_order_where(const struct kb_order_file *o, const char *objdir, char ***where)
{
	char **objs;
	size_t n, defined;
	int r = objects_walk(o, objdir, &objs, &n, &defined, where);

	if (r == 0)
		kb_order_objects_free(objs, n);
	return r;
}

void kb_order_objects_free(char **objs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(objs[i]);
	free(objs);
}
