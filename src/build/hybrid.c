// SPDX-License-Identifier: GPL-2.0-or-later
/* Hybrid kernels: the spec of which objects a hybrid takes from variant B
 * (hybrid.h), read from the two builds' Kbuild command files. */
#include "config.h"

#include <errno.h>
#include <ftw.h>
#include <sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hybrid.h"
#include "util.h"

int kb_hybrid_match(const char *object, char *const *paths, size_t npaths)
{
	for (size_t i = 0; i < npaths; i++) {
		size_t n = strlen(paths[i]);

		if (!n || (paths[i][n - 1] == '/' ? !strncmp(object, paths[i], n)
						  : !strcmp(object, paths[i])))
			return 1;
	}
	return 0;
}

/* Where the command starts in the text of a Kbuild command file, whose
 * first line is "cmd_OBJ := CMD" ("savedcmd_" from Linux 6.2): CMD's
 * start within that line, OBJ in *obj and *obj_len; NULL when the first
 * line is no such line. */
static const char *command_start(const char *text, const char **obj, size_t *obj_len)
{
	size_t line = strcspn(text, "\n");
	const char *s = !strncmp(text, "cmd_", 4) ? text + 4
			: !strncmp(text, "savedcmd_", 9) ? text + 9 : NULL;
	const char *sep = s ? strstr(s, " := ") : NULL;

	if (!sep || sep + 4 > text + line)
		return NULL;
	*obj = s;
	*obj_len = (size_t)(sep - s);
	return sep + 4;
}

/* The command Kbuild recorded for the object of command file path (its
 * first line, "cmd_OBJ := CMD", with make's escapes of '$' and '#' undone),
 * the object's name in *obj; NULL when there is none. */
static char *recorded_command(const char *path, char **obj)
{
	char *text = NULL, *cmd, *o;
	const char *start, *name;
	size_t name_len;

	*obj = NULL;
	if (kb_read_file_max(path, &text, NULL, 1 << 22) < 0)
		return NULL;
	start = command_start(text, &name, &name_len);
	if (!start) {
		free(text);
		return NULL;
	}
	*obj = kb_xstrndup(name, name_len);
	cmd = o = kb_xstrndup(start, strcspn(start, "\n"));
	for (const char *p = cmd; *p;) {
		if (!strncmp(p, "$(pound)", 8)) {
			*o++ = '#';
			p += 8;
		} else if (p[0] == '$' && p[1] == '$') {
			*o++ = '$';
			p += 2;
		} else {
			*o++ = *p++;
		}
	}
	*o = 0;
	free(text);
	return cmd;
}

char *kb_object_command(const char *objdir, const char *object)
{
	const char *slash = strrchr(object, '/');
	char *path = slash ? kb_xasprintf("%s/%.*s.%s.cmd", objdir, (int)(slash - object + 1), object, slash + 1)
			   : kb_xasprintf("%s/.%s.cmd", objdir, object);
	char *obj = NULL, *cmd = recorded_command(path, &obj), *semi;

	free(path);
	free(obj);
	/* the compilation alone: Kbuild chains objtool and the like after it */
	if (cmd && (semi = strstr(cmd, "; ")))
		*semi = 0;
	if (cmd && !strstr(cmd, " -c ")) {
		free(cmd);
		cmd = NULL;
	}
	return cmd;
}

/* nftw has no closure: the walk's state. */
static struct walk {
	const char *a_dir, *b_dir;
	size_t b_len;
	char *const *paths;
	size_t npaths;
	const char *cflags;	/* flags mode: every compilation under the paths */
	struct kb_hybrid_counts *c;
	struct chosen {
		char *obj, *cmd;	/* the object, and the command it gets */
	} *v;
	size_t n, cap;
} W;

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	const char *base = path + ftw->base, *rel = path + W.b_len + 1;
	size_t blen = strlen(base);
	char *obj = NULL, *aobj = NULL, *bcmd, *acmd, *apath;

	(void)st;
	if (type == FTW_D && ftw->level == 1 && (!strcmp(base, "scripts") || !strcmp(base, "tools")))
		return FTW_SKIP_SUBTREE;	/* host programs */
	if (type != FTW_F || base[0] != '.' || blen < 7 || strcmp(base + blen - 6, ".o.cmd"))
		return FTW_CONTINUE;
	bcmd = recorded_command(path, &obj);
	if (!bcmd || strlen(obj) < 3 || strcmp(obj + strlen(obj) - 2, ".o") || strstr(obj, "..")) {
		free(bcmd);
		free(obj);
		return FTW_CONTINUE;
	}
	apath = kb_xasprintf("%s/%s", W.a_dir, rel);
	acmd = recorded_command(apath, &aobj);
	free(apath);
	if (acmd && !strcmp(obj, aobj)) {
		int differ = strcmp(acmd, bcmd) != 0;
		char *c = W.cflags ? strstr(bcmd, " -c ") : NULL;

		W.c->objects++;
		W.c->differ += differ;
		/* flags mode: every compilation under the paths; else those that differ */
		if ((W.cflags ? c != NULL : differ) && kb_hybrid_match(obj, W.paths, W.npaths)) {
			if (W.cflags) {
				/* right after the compiler's -c: a command may go on after
				 * the compilation ("; objtool ...") */
				char *with = kb_xasprintf("%.*s -c %s %s", (int)(c - bcmd), bcmd, W.cflags,
							  c + 4);

				free(bcmd);
				bcmd = with;
			}
			W.c->chosen++;
			if (W.n == W.cap) {
				W.cap = W.cap ? 2 * W.cap : 256;
				W.v = kb_xrealloc(W.v, W.cap * sizeof(*W.v));
			}
			W.v[W.n].obj = obj;
			W.v[W.n++].cmd = bcmd;
			obj = bcmd = NULL;
		}
	}
	free(acmd);
	free(aobj);
	free(bcmd);
	free(obj);
	return FTW_CONTINUE;
}

char *kb_hybrid_config_diff(const char *a, const char *b, int *err)
{
	char *ta = NULL, *tb = NULL, *found = NULL;
	char *sa = NULL, *sb = NULL;

	*err = 0;
	if (kb_read_file(a, &ta, NULL) < 0 || kb_read_file(b, &tb, NULL) < 0) {
		*err = 1;
		goto out;
	}
	/* line by line: the same options in the same order, as Kconfig writes them */
	for (char *la = strtok_r(ta, "\n", &sa), *lb = strtok_r(tb, "\n", &sb); la || lb;
	     la = strtok_r(NULL, "\n", &sa), lb = strtok_r(NULL, "\n", &sb)) {
		static const char opt[] = "CONFIG_CC_OPTIMIZE_FOR_";
		const char *na, *nb;

		if (la && lb && !strcmp(la, lb))
			continue;
		na = la ? la + strspn(la, "# ") : "";
		nb = lb ? lb + strspn(lb, "# ") : "";
		if (!strncmp(na, opt, strlen(opt)) && !strncmp(nb, opt, strlen(opt)))
			continue;
		found = kb_xstrndup(na, strcspn(na, "= "));
		if (!*found) {
			free(found);
			found = kb_xstrndup(nb, strcspn(nb, "= "));
		}
		break;
	}
out:
	free(ta);
	free(tb);
	return found;
}

static int by_object(const void *x, const void *y)
{
	return strcmp(((const struct chosen *)x)->obj, ((const struct chosen *)y)->obj);
}

/* The walk of b's object directory against a's over paths: W filled. */
static int walk(const char *variant, const struct kb_kernel *a, const struct kb_kernel *b,
		char *const *paths, size_t npaths, const char *cflags, struct kb_hybrid_counts *c)
{
	memset(c, 0, sizeof(*c));
	memset(&W, 0, sizeof(W));
	if (!a->objdir || !b->objdir)
		return kb_error("variant '%s': a prebuilt kernel has no objects to mix", variant);
	W.a_dir = a->objdir;
	W.b_dir = b->objdir;
	W.b_len = strlen(b->objdir);
	W.paths = paths;
	W.npaths = npaths;
	W.cflags = cflags;
	W.c = c;
	if (nftw(b->objdir, visit, 32, FTW_PHYS | FTW_ACTIONRETVAL) < 0)
		return kb_error_errno(errno, "variant '%s': cannot read the object directory '%s'",
				      variant, b->objdir);
	if (!c->objects)
		return kb_error("variant '%s': no Kbuild command files in '%s' and '%s': cannot tell "
				"how each object was compiled", variant, a->objdir, b->objdir);
	/* sorted, so that a spec's name is its content's and objects list in order */
	qsort(W.v, W.n, sizeof(*W.v), by_object);
	return 0;
}

static void walk_free(void)
{
	for (size_t i = 0; i < W.n; i++) {
		free(W.v[i].obj);
		free(W.v[i].cmd);
	}
	free(W.v);
	memset(&W, 0, sizeof(W));
}

int kb_hybrid_objects(const char *what, const struct kb_kernel *a, const struct kb_kernel *b,
		      char ***objs, size_t *n, struct kb_hybrid_counts *c)
{
	static char *const all[] = { "" };

	*objs = NULL;
	*n = 0;
	if (walk(what, a, b, all, 1, NULL, c) < 0) {
		walk_free();
		return -1;
	}
	*objs = kb_xcalloc(W.n ? W.n : 1, sizeof(**objs));
	for (size_t i = 0; i < W.n; i++) {
		(*objs)[i] = W.v[i].obj;
		W.v[i].obj = NULL;
	}
	*n = W.n;
	walk_free();
	return 0;
}

int kb_hybrid_spec(const char *cache, const char *variant, const struct kb_kernel *a,
		   const struct kb_kernel *b, char *const *paths, size_t npaths, const char *cflags,
		   char **specdir, struct kb_hybrid_counts *c)
{
	unsigned char d[SHA256_DIGEST_LENGTH];
	char hexd[2 * SHA256_DIGEST_LENGTH + 1], *tmp = NULL;
	SHA2_CTX ctx;
	int ret = -1;

	*specdir = NULL;
	if (walk(variant, a, b, paths, npaths, cflags, c) < 0)
		goto out;
	SHA256Init(&ctx);
	SHA256Update(&ctx, (const unsigned char *)a->key, strlen(a->key));
	SHA256Update(&ctx, (const unsigned char *)b->key, strlen(b->key));
	for (size_t i = 0; i < W.n; i++) {
		SHA256Update(&ctx, (const unsigned char *)W.v[i].obj, strlen(W.v[i].obj) + 1);
		SHA256Update(&ctx, (const unsigned char *)W.v[i].cmd, strlen(W.v[i].cmd) + 1);
	}
	SHA256Final(d, &ctx);
	for (size_t i = 0; i < sizeof(d); i++)
		snprintf(hexd + 2 * i, 3, "%02x", d[i]);
	*specdir = kb_xasprintf("%s/hybrid/%.16s", cache, hexd);
	if (access(*specdir, F_OK) == 0) {
		ret = 0;
		goto out;
	}
	/* written aside, then renamed into place: a spec is whole or absent */
	tmp = kb_xasprintf("%s.tmp.%ld", *specdir, (long)getpid());
	for (size_t i = 0; i < W.n; i++) {
		char *f = kb_xasprintf("%s/%s", tmp, W.v[i].obj), *slash = strrchr(f, '/');

		*slash = 0;
		if (kb_mkdir_p(f, 0755) < 0) {
			free(f);
			goto out;
		}
		*slash = '/';
		if (kb_write_file_atomic(f, W.v[i].cmd, strlen(W.v[i].cmd)) < 0) {
			free(f);
			goto out;
		}
		free(f);
	}
	if (kb_mkdir_p(tmp, 0755) < 0)
		goto out;
	if (rename(tmp, *specdir) < 0 && access(*specdir, F_OK) < 0) {
		kb_error_errno(errno, "cannot rename '%s' to '%s'", tmp, *specdir);
		goto out;
	}
	ret = 0;
out:
	if (tmp && access(tmp, F_OK) == 0)
		kb_remove_tree(tmp);
	free(tmp);
	walk_free();
	if (ret < 0) {
		free(*specdir);
		*specdir = NULL;
	}
	return ret;
}

/* ---- attribution by flag: the optimizer settings of two compilations ---- */

struct setting {
	char *name, *opt;
};

static struct setting *setting_find(struct setting *s, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s[i].name, name))
			return &s[i];
	return NULL;
}

/* name's setting is opt; a "-fX=VALUE" wins over the "-fX"/"-fno-X" of the
 * same name (gcc lists both for the -falign family). */
static void setting_put(struct setting **s, size_t *n, const char *name, char *opt, int strong)
{
	struct setting *x = setting_find(*s, *n, name);

	if (x) {
		if (strong) {
			free(x->opt);
			x->opt = opt;
		} else {
			free(opt);
		}
		return;
	}
	*s = kb_xrealloc(*s, (*n + 1) * sizeof(**s));
	(*s)[*n].name = kb_xstrdup(name);
	(*s)[(*n)++].opt = opt;
}

/* gcc -Q --help=optimizers / --help=params output into settings. */
static void settings_parse(char *text, struct setting **s, size_t *n)
{
	char *save = NULL;

	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *opt = l + strspn(l, " \t"), *end = opt + strcspn(opt, " \t"), *val;
		size_t vlen;

		if (!*end)
			continue;
		*end = 0;
		val = end + 1 + strspn(end + 1, " \t");
		vlen = kb_rtrim(val);
		if (!strncmp(opt, "--param=", 8)) {
			char *name = opt + 8, *eq = strchr(name, '='), *g;

			if (eq)
				*eq = 0;
			if (!vlen || strchr(val, ' '))
				continue;
			g = kb_xasprintf("param-%s", name);
			setting_put(s, n, g, kb_xasprintf("--param=%s=%s", name, val), 1);
			free(g);
		} else if (!strncmp(opt, "-f", 2) && strncmp(opt, "-fno-", 5)) {
			size_t ol = strlen(opt);

			if (opt[ol - 1] == '=') {
				opt[ol - 1] = 0;
				if (vlen && !strchr(val, ' ') && val[0] != '[')
					setting_put(s, n, opt + 2, kb_xasprintf("%s=%s", opt, val), 1);
			} else if (!strcmp(val, "[enabled]") || !strcmp(val, "[disabled]")) {
				setting_put(s, n, opt + 2, val[1] == 'e' ? kb_xstrdup(opt)
						: kb_xasprintf("-fno-%s", opt + 2), 0);
			}
		}
	}
}

/* What gcc makes of the options of object's compilation in objdir. */
static int settings_of(const char *objdir, const char *object, struct setting **s, size_t *n)
{
	const char *slash = strrchr(object, '/');
	char *path = slash ? kb_xasprintf("%s/%.*s.%s.cmd", objdir, (int)(slash - object + 1), object,
					  slash + 1)
			   : kb_xasprintf("%s/.%s.cmd", objdir, object);
	char *obj = NULL, *cmd = recorded_command(path, &obj), *c, *prefix;
	static const char *const helps[] = { "--help=optimizers", "--help=params" };
	int ret = -1;

	*s = NULL;
	*n = 0;
	c = cmd ? strstr(cmd, " -c ") : NULL;
	if (!c) {
		kb_error("'%s': no compilation recorded there", path);
		goto out;
	}
	/* ccache would only be in the way of gcc's own answer */
	prefix = cmd + strspn(cmd, " ");
	{
		size_t w = strcspn(prefix, " ");

		if ((w == 6 || (w > 6 && prefix[w - 7] == '/')) && !strncmp(prefix + w - 6, "ccache", 6))
			prefix += w + strspn(prefix + w, " ");
	}
	for (size_t h = 0; h < KB_ARRAY_SIZE(helps); h++) {
		char *line = kb_xasprintf("%.*s -Q %s", (int)(c - prefix), prefix, helps[h]), *out = NULL;
		char *argv[] = { "/bin/sh", "-c", line, NULL };
		int r = kb_capture(argv, 60, 1 << 20, &out);

		if (r != 0)
			kb_error("'%s' (from '%s') exited with %d: %.200s", line, path, r, out);
		else
			settings_parse(out, s, n);
		free(line);
		free(out);
		if (r != 0)
			goto out;
	}
	ret = 0;
out:
	free(path);
	free(obj);
	free(cmd);
	return ret;
}

static void settings_free(struct setting *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(s[i].name);
		free(s[i].opt);
	}
	free(s);
}

int kb_hybrid_flag_diff(const struct kb_kernel *a, const struct kb_kernel *b, const char *object,
			struct kb_flag **flags, size_t *n)
{
	struct setting *sa = NULL, *sb = NULL;
	size_t na = 0, nb = 0;
	int ret = -1;

	*flags = NULL;
	*n = 0;
	if (!a->objdir || !b->objdir) {
		kb_error("a prebuilt kernel has no compilations to compare");
		return -1;
	}
	if (settings_of(a->objdir, object, &sa, &na) < 0 || settings_of(b->objdir, object, &sb, &nb) < 0)
		goto out;
	for (size_t i = 0; i < na; i++) {
		struct setting *y = setting_find(sb, nb, sa[i].name);

		if (!y || !strcmp(sa[i].opt, y->opt))
			continue;
		*flags = kb_xrealloc(*flags, (*n + 1) * sizeof(**flags));
		(*flags)[*n].name = kb_xstrdup(sa[i].name);
		(*flags)[*n].a = kb_xstrdup(sa[i].opt);
		(*flags)[(*n)++].b = kb_xstrdup(y->opt);
	}
	ret = 0;
out:
	settings_free(sa, na);
	settings_free(sb, nb);
	return ret;
}

void kb_hybrid_flags_free(struct kb_flag *flags, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(flags[i].name);
		free(flags[i].a);
		free(flags[i].b);
	}
	free(flags);
}

/* ---- a hybrid relinked from A's objects ---- */

/* The seed's walk (nftw has no closure). */
static struct seed_walk {
	const char *cc_a, *cc_h;
	size_t len_a, rewritten;
	int err;
} S;

/* A command file of the copy: a first line "cmd_X := CC_A ..." (or
 * "savedcmd_X := ") becomes "cmd_X := CC_H ...", the command the hybrid's
 * make will compare it with. */
static int seed_visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	const char *base = path + ftw->base;
	size_t blen = strlen(base);
	char *text = NULL, *out;
	const char *start, *name;
	size_t name_len;

	(void)st;
	if (type != FTW_F || base[0] != '.' || blen < 5 || strcmp(base + blen - 4, ".cmd"))
		return FTW_CONTINUE;
	if (kb_read_file_max(path, &text, NULL, 1 << 24) < 0) {
		S.err = kb_error("cannot read '%s'", path);
		return FTW_STOP;
	}
	start = command_start(text, &name, &name_len);
	if (start && !strncmp(start, S.cc_a, S.len_a) && start[S.len_a] == ' ') {
		out = kb_xasprintf("%.*s%s%s", (int)(start - text), text, S.cc_h, start + S.len_a);
		if (kb_write_file_replace(path, out, strlen(out)) < 0)
			S.err = -1;
		S.rewritten++;
		free(out);
	}
	free(text);
	return S.err ? FTW_STOP : FTW_CONTINUE;
}

/* The objects a spec holds (its files, relative): each B's object copied
 * over A's, or (fresh) A's removed, so that make compiles it anew. */
static struct seed_objs {
	const char *objdir, *b_objdir;
	size_t spec_len, n;
	int fresh, err;
} O;

static int seed_obj_visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	const char *rel = path + O.spec_len + 1;
	char *dst;

	(void)st;
	(void)ftw;
	if (type != FTW_F)
		return FTW_CONTINUE;
	dst = kb_xasprintf("%s/%s", O.objdir, rel);
	if (O.fresh) {
		if (unlink(dst) < 0 && errno != ENOENT)
			O.err = kb_error_errno(errno, "cannot remove '%s'", dst);
	} else {
		char *src = kb_xasprintf("%s/%s", O.b_objdir, rel), *buf = NULL;
		size_t len;

		/* written now: newer than the archives that hold A's */
		if (kb_read_file(src, &buf, &len) < 0)
			O.err = kb_error("cannot read '%s' (variant B's object)", src);
		else if (kb_write_file_replace(dst, buf, len) < 0)
			O.err = -1;
		free(buf);
		free(src);
	}
	O.n++;
	free(dst);
	return O.err ? FTW_STOP : FTW_CONTINUE;
}

int kb_hybrid_seed(const char *hybrid, const char *objdir, const char *a_objdir, const char *b_objdir,
		   const char *spec, int fresh, const char *cc_a, const char *cc_h, const char *log_path)
{
	char *marker = kb_xasprintf("%s/.kbench-seed", objdir), *from = kb_xasprintf("%s/.", a_objdir);
	char *seeding = kb_xasprintf("%s/.kbench-seeding", objdir);
	char *cp_argv[] = { "cp", "-a", from, (char *)objdir, NULL };
	/* A's .kbench-config stays: the copy's .config is A's, configured and
	 * checked, so the hybrid's make is not configured again (tinyconfig and
	 * olddefconfig are 26 s of a 44 s hybrid on 6.12, make's syncconfig
	 * still runs, and the hybrid's .config is compared with A's after) */
	static const char *const not_copied[] = { ".kbench-ccache-stats", ".kbench-seed" };
	char note[256], *body = NULL;
	int ret = -1;
	FILE *f;

	/* .kbench-seeding: a copy begun and not finished, whatever is there */
	if (kb_remove_tree(objdir) != 0 || kb_mkdir_p(objdir, 0755) < 0 ||
	    kb_write_file_atomic(seeding, "", 0) < 0 || kb_run_argv(cp_argv, NULL, log_path) != 0) {
		kb_error("cannot copy the object directory '%s' into '%s'; log: %s", a_objdir, objdir,
			 log_path);
		goto out;
	}
	for (size_t i = 0; i < KB_ARRAY_SIZE(not_copied); i++) {
		char *p = kb_xasprintf("%s/%s", objdir, not_copied[i]);

		unlink(p);
		free(p);
	}
	memset(&S, 0, sizeof(S));
	S.cc_a = cc_a;
	S.cc_h = cc_h;
	S.len_a = strlen(cc_a);
	if (nftw(objdir, seed_visit, 32, FTW_PHYS) < 0 && !S.err)
		S.err = kb_error_errno(errno, "cannot walk '%s'", objdir);
	if (S.err)
		goto out;
	memset(&O, 0, sizeof(O));
	O.objdir = objdir;
	O.b_objdir = b_objdir;
	O.spec_len = strlen(spec);
	O.fresh = fresh;
	if (nftw(spec, seed_obj_visit, 32, FTW_PHYS) < 0 && !O.err)
		O.err = kb_error_errno(errno, "cannot walk '%s'", spec);
	if (O.err)
		goto out;
	kb_sync_fs(objdir);
	snprintf(note, sizeof(note), "a copy of A's objects, %zu command files naming the hybrid's "
		 "compiler, %zu objects %s\n", S.rewritten, O.n,
		 fresh ? "removed (compiled anew)" : "B's");
	/* the marker names the compiler the command files now name: a copy
	 * seeded for another (kbench at another path: another clone) is
	 * seeded again, else make would compile every object anew */
	body = kb_xasprintf("%scompiler: %s\n", note, cc_h);
	if (kb_write_file_atomic(marker, body, strlen(body)) < 0)
		goto out;
	unlink(seeding);
	f = fopen(log_path, "a");
	if (f) {
		fprintf(f, "kbench: hybrid '%s' starts from %s", hybrid, note);
		fclose(f);
	}
	ret = 0;
out:
	free(body);
	free(seeding);
	free(marker);
	free(from);
	return ret;
}

int kb_hybrid_seeded_for(const char *objdir, const char *cc_h)
{
	char *marker = kb_xasprintf("%s/.kbench-seed", objdir), *text = NULL;
	char *want = kb_xasprintf("\ncompiler: %s\n", cc_h);
	int r = kb_read_file(marker, &text, NULL) == 0 && strstr(text, want) != NULL;

	free(marker);
	free(want);
	free(text);
	return r;
}
