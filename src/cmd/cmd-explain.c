// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench explain VARIANTS.CONF A B: which code makes B's kernel smaller or
 * larger, faster or slower than A's.  Hybrid kernels (hybrid.h) take the
 * objects of one part of the tree from B and everything else from A; the
 * part's contribution is the hybrid's figure minus A's, beside the whole
 * (A with every object from B, "the B end") and what the parts leave over
 * (the interaction).  The hybrids are variants of an ordinary run
 * directory: built, booted, cached and resumed as kbench run does, and
 * explain.md, explain.html and explain.json are written from its model
 * through explain.h. */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build.h"
#include "commands.h"
#include "conf.h"
#include "executor.h"
#include "explain.h"
#include "hybrid.h"
#include "order.h"
#include "run.h"
#include "util.h"

/* An explain by code or by flag: the command line, then what the builds of
 * A and B tell. */
struct explain_ctx {
	const char *path, *a, *b;			/* VARIANTS.CONF, A, B */
	const char *cases, *under, *only, *flags, *executor;
	int resume, by_flag;
	char *orig;					/* VARIANTS.CONF's text */
	struct kb_kernel ka, kb;			/* the builds of A and B */
	char **objs;					/* the objects they compile differently, sorted */
	size_t nobj, covered;				/* ... and how many the parts hold */
	char **nodes;					/* the parts (by flag: the paths) */
	size_t n;
	char **fnames;					/* the names of --flags */
	size_t nf;
	/* by order (B is A built with an order): the order, each name's
	 * object in A's build (NULL: none), and each part's order file */
	const char *vb_order;				/* B's order, or NULL: by code or flag */
	struct kb_order_file order;
	char **where;
	char **part_orders;
	size_t order_names;				/* the order's names some object defines */
};

/* ---- the configuration of the explain run ---- */

static void add_line(char **text, size_t *len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add_line(char **text, size_t *len, const char *fmt, ...)
{
	va_list ap;
	char *s;
	size_t n;

	va_start(ap, fmt);
	s = kb_xvasprintf(fmt, ap);
	va_end(ap);
	n = strlen(s);
	*text = kb_xrealloc(*text, *len + n + 1);
	memcpy(*text + *len, s, n + 1);
	*len += n;
	free(s);
}

/* The section a header line opens ("kernel", "run", "variant NAME"), trimmed. */
static char *section_of(const char *line)
{
	const char *s = line + strspn(line, " \t"), *e;
	char *sec, *p;

	if (*s != '[' || !(e = strchr(s, ']')))
		return NULL;
	sec = kb_xstrndup(s + 1, (size_t)(e - s - 1));
	/* "variant   NAME" as "variant NAME" */
	p = sec + strspn(sec, " \t");
	memmove(sec, p, strlen(p) + 1);
	for (p = sec + strlen(sec); p > sec && (p[-1] == ' ' || p[-1] == '\t'); p--)
		p[-1] = 0;
	if (!strncmp(sec, "variant", 7) && (sec[7] == ' ' || sec[7] == '\t')) {
		p = sec + 7 + strspn(sec + 7, " \t");
		memmove(sec + 8, p, strlen(p) + 1);
		sec[7] = ' ';
	}
	return sec;
}

/* Whether line is a "key = value" line of key (not indented). */
static int line_key_is(const char *line, const char *key)
{
	size_t n = strlen(key);
	const char *s = line + strspn(line, " \t");

	return s == line && !strncmp(s, key, n) && (s[n] == ' ' || s[n] == '\t' || s[n] == '=');
}

/* Name of a hybrid variant for a node: B, '.', the path with '/' (and '+',
 * which paths may hold and variant names may not) as '-'. */
static char *node_variant(const char *b, const char *node)
{
	char *n = kb_xasprintf("%s.%s", b, *node ? node : "all");
	size_t len = strlen(n);

	if (len && n[len - 1] == '/')
		n[--len] = 0;
	for (char *p = n; *p; p++)
		if (*p == '/' || *p == '+')
			*p = '-';
	if (len > 64)
		n[64] = 0;
	return n;
}

/* The original's [kernel] and [run] (baseline A; workloads cases when
 * given) and variants A and B as they are, onto text. */
static void copy_base(char **text, size_t *len, const char *orig, const char *a, const char *b,
		      const char *cases)
{
	char *copy = kb_xstrdup(orig), *save = NULL, *sec = NULL;
	char *va = kb_xasprintf("variant %s", a), *vb = kb_xasprintf("variant %s", b);
	int keep = 1, had_run = 0, in_run = 0, skipping = 0;

	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *s = section_of(l);

		if (s) {
			free(sec);
			sec = s;
			keep = !strcmp(sec, "kernel") || !strcmp(sec, "run") || !strcmp(sec, va) ||
			       !strcmp(sec, vb);
			in_run = !strcmp(sec, "run");
			skipping = 0;
			if (keep)
				add_line(text, len, "%s\n", l);
			if (in_run) {
				had_run = 1;
				add_line(text, len, "baseline = %s\n", a);
				if (cases)
					add_line(text, len, "workloads = %s\n", cases);
			}
			continue;
		}
		if (!keep)
			continue;
		if (in_run) {
			/* a continuation line belongs to the key before it */
			if (skipping && (l[0] == ' ' || l[0] == '\t'))
				continue;
			skipping = line_key_is(l, "baseline") || (cases && line_key_is(l, "workloads"));
			if (skipping)
				continue;
		}
		add_line(text, len, "%s\n", l);
	}
	if (!had_run) {
		add_line(text, len, "[run]\nbaseline = %s\n", a);
		if (cases)
			add_line(text, len, "workloads = %s\n", cases);
	}
	free(copy);
	free(sec);
	free(va);
	free(vb);
}

/* The first lines of an explain run's configuration: what made it, what
 * the parts cover (of total), and tags (NULL: none). */
static void explain_head(char **text, size_t *len, const struct explain_ctx *x, size_t total, const char *tags)
{
	add_line(text, len, "# kbench explain %s %s: this configuration is generated\n", x->a, x->b);
	add_line(text, len, "%s%zu %zu\n", kb_explain_coverage_tag, total, x->covered);
	if (tags)
		add_line(text, len, "%s", tags);
}

/* The configuration text of the explain run by code: the base, then the B
 * end and one hybrid per node. */
static char *explain_text(const struct explain_ctx *x)
{
	const char *a = x->a, *b = x->b;
	char *text = NULL;
	size_t len = 0;

	explain_head(&text, &len, x, x->nobj, NULL);
	copy_base(&text, &len, x->orig, a, b, x->cases);
	for (size_t i = 0; i <= x->n; i++) {
		const char *node = i == x->n ? "" : x->nodes[i];
		char *name = node_variant(b, node);

		add_line(&text, &len, "\n[variant %s]\n", name);
		if (*node)
			add_line(&text, &len, "description = %s with %s compiled as in %s\nhybrid = %s %s %s\n",
				 a, node, b, a, b, node);
		else
			add_line(&text, &len, "description = %s with every object compiled as in %s (the "
				 "%s end)\nhybrid = %s %s .\n", a, b, b, a, b);
		free(name);
	}
	return text;
}

static char **nodes_of(char *const *objs, size_t nobj, const char *under, size_t *n);

static int by_path(const void *p, const void *q)
{
	return strcmp(*(char *const *)p, *(char *const *)q);
}

/* Variant b's section of orig, without its description and order lines
 * (continuations included), onto text. */
static void copy_variant_keys(char **text, size_t *len, const char *orig, const char *b)
{
	char *copy = kb_xstrdup(orig), *save = NULL, *vb = kb_xasprintf("variant %s", b);
	int in = 0, skipping = 0;

	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *s = section_of(l);

		if (s) {
			in = !strcmp(s, vb);
			free(s);
			skipping = 0;
			continue;
		}
		if (!in)
			continue;
		if (skipping && (l[0] == ' ' || l[0] == '\t'))
			continue;
		skipping = line_key_is(l, "order") || line_key_is(l, "description");
		if (!skipping)
			add_line(text, len, "%s\n", l);
	}
	free(copy);
	free(vb);
}

/* The configuration text of the explain run by order: the base (A and B,
 * B the whole), then per part B's build with the part's own order: the
 * functions of B's order that objects under the part define, in its
 * order (the tags tell kbench explain's model which variant is which). */
static char *explain_order_text(const struct explain_ctx *x)
{
	const char *a = x->a, *b = x->b;
	char *text = NULL, *tags = NULL;
	size_t len = 0, tlen = 0;

	add_line(&tags, &tlen, "%s%s %s\n", kb_explain_order_tag, a, b);
	for (size_t i = 0; i < x->n; i++) {
		char *name = node_variant(b, x->nodes[i]);

		add_line(&tags, &tlen, "%s%s %s\n", kb_explain_order_part_tag, name, x->nodes[i]);
		free(name);
	}
	explain_head(&text, &len, x, x->order_names, tags);
	free(tags);
	copy_base(&text, &len, x->orig, a, b, x->cases);
	for (size_t i = 0; i < x->n; i++) {
		char *name = node_variant(b, x->nodes[i]);

		add_line(&text, &len, "\n[variant %s]\n", name);
		add_line(&text, &len, "description = %s with the functions of %s's order under %s first, "
			 "in that order (the rest where %s has them)\n", a, b, x->nodes[i], a);
		copy_variant_keys(&text, &len, x->orig, b);
		add_line(&text, &len, "order = %s\n", x->part_orders[i]);
		free(name);
	}
	return text;
}

/* Whether variant b is variant a built with an order: b has one, a none,
 * and the two have the same configuration, flags, compiler and command
 * line. */
static int ordered_pair(const struct kb_variant *va, const struct kb_variant *vb)
{
	const char *const sa[] = { va->kcflags, va->cc, va->ld, va->cmdline };
	const char *const sb[] = { vb->kcflags, vb->cc, vb->ld, vb->cmdline };

	if (!vb->order || va->order || va->n_kopts != vb->n_kopts)
		return 0;
	for (size_t i = 0; i < KB_ARRAY_SIZE(sa); i++)
		if ((sa[i] || sb[i]) && (!sa[i] || !sb[i] || strcmp(sa[i], sb[i])))
			return 0;
	for (size_t i = 0; i < va->n_kopts; i++)
		if (strcmp(va->kopts[i].name, vb->kopts[i].name) || strcmp(va->kopts[i].value, vb->kopts[i].value))
			return 0;
	return 1;
}

/* Each part's order, written under dir: the lines of B's order that say
 * how it was made (so that the run tells trained cases from held-out
 * ones), then the names whose object is under the part, in B's order.
 * 0, or -1 after a message. */
static int write_part_orders(struct explain_ctx *x, const char *dir)
{
	char *orig = NULL, *save = NULL;

	if (kb_mkdir_p(dir, 0755) < 0 || kb_read_file(x->order.path, &orig, NULL) < 0)
		return kb_error("cannot write the parts' orders in '%s'", dir);
	x->part_orders = kb_xcalloc(x->n + 1, sizeof(*x->part_orders));
	for (size_t i = 0; i < x->n; i++) {
		char *text = NULL, *name = node_variant(x->b, x->nodes[i]), *copy = kb_xstrdup(orig);
		size_t len = 0;
		int r;

		for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
			if (!strncmp(l, "# kbench order:", 15) || !strncmp(l, "# profile:", 10))
				add_line(&text, &len, "%s\n", l);
		free(copy);
		/* the order's name, not its path: the part's kernel is keyed by
		 * this text, and the same order elsewhere makes the same kernel */
		add_line(&text, &len, "# kbench explain: the functions of %s that objects under %s define, "
			 "in its order\n", strrchr(x->order.path, '/') ? strrchr(x->order.path, '/') + 1
								 : x->order.path, x->nodes[i]);
		for (size_t k = 0; k < x->order.n; k++)
			if (x->where[k] && kb_hybrid_match(x->where[k], &x->nodes[i], 1))
				add_line(&text, &len, "%s\n", x->order.names[k]);
		x->part_orders[i] = kb_xasprintf("%s/%s.order", dir, name);
		r = kb_write_file_atomic(x->part_orders[i], text, len);
		free(text);
		free(name);
		if (r < 0) {
			free(orig);
			return -1;
		}
	}
	free(orig);
	return 0;
}

/* By order: the order's names, where A's objects define them, and the
 * parts (--under's children or the top-level directories holding such
 * objects, or --only's), each with its names.  0; -1 after a message;
 * KB_EXIT_USAGE where a part of --only holds none. */
static int order_parts(struct explain_ctx *x, const char *u, const char *outdir)
{
	size_t names = 0;
	char *dir;
	int bad = 0, r;

	if (kb_order_file_read(x->vb_order, &x->order) < 0 || kb_order_where(&x->order, x->ka.objdir, &x->where) < 0)
		return -1;
	/* the objects defining the order's names, sorted and once, as the
	 * nodes of a hybrid explain are made from */
	for (size_t k = 0; k < x->order.n; k++) {
		size_t j;

		if (!x->where[k])
			continue;
		names++;
		for (j = 0; j < x->nobj && strcmp(x->objs[j], x->where[k]); j++)
			;
		if (j < x->nobj)
			continue;
		x->objs = kb_xrealloc(x->objs, (x->nobj + 1) * sizeof(*x->objs));
		x->objs[x->nobj++] = kb_xstrdup(x->where[k]);
	}
	qsort(x->objs, x->nobj, sizeof(*x->objs), by_path);
	kb_info("'%s': %zu of its %zu functions are defined in the main text of %zu objects of '%s'",
		x->order.path, names, x->order.n, x->nobj, x->a);
	if (!names)
		return kb_error("'%s': no function of it is in the main text of an object of '%s': "
				"nothing to explain", x->order.path, x->a);
	if (!x->only) {
		x->nodes = nodes_of(x->objs, x->nobj, u ? u : "", &x->n);
		if (!x->n) {
			kb_error("--under '%s': no object there defines a function of the order", x->under);
			return KB_EXIT_USAGE;
		}
	}
	x->covered = 0;
	for (size_t i = 0; i < x->n; i++) {
		size_t k = 0;

		for (size_t j = 0; j < x->order.n; j++)
			k += x->where[j] && kb_hybrid_match(x->where[j], &x->nodes[i], 1);
		kb_info("part %s: %zu of the order's functions", x->nodes[i], k);
		x->covered += k;
		if (x->only && !k)
			bad = kb_error("--only '%s': no object there defines a function of '%s' (in the "
				       "build of '%s')", x->nodes[i], x->order.path, x->a);
	}
	if (bad)
		return KB_EXIT_USAGE;
	x->order_names = names;
	dir = kb_xasprintf("%s/.explain-%s-%s-orders", outdir, x->a, x->b);
	r = write_part_orders(x, dir);
	free(dir);
	return r;
}

/* The hybrid that is B over the paths (the whole of the by-flag study). */
static char *flag_whole_variant(const char *b, char *const *paths, size_t n)
{
	return n == 1 ? node_variant(b, paths[0]) : kb_xasprintf("%s.parts", b);
}

/* The configuration text of the explain run by flag: the base, B over the
 * paths, then per flag A with it set as in B ("A.FLAG.B", hybrid A A) and
 * B over the paths with it set as in A ("B.FLAG.A"); flag_write reads the
 * flags back from these variants. */
static char *explain_flag_text(const struct explain_ctx *x, const struct kb_flag *flags, size_t nf)
{
	const char *a = x->a, *b = x->b;
	char *text = NULL, *whole = flag_whole_variant(b, x->nodes, x->n);
	char *pl = kb_explain_paths_line(x->nodes, x->n);
	size_t len = 0;

	add_line(&text, &len, "# kbench explain --by-flag %s %s: this configuration is generated\n", a, b);
	copy_base(&text, &len, x->orig, a, b, x->cases);
	add_line(&text, &len, "\n[variant %s]\ndescription = %s with %s compiled as in %s\n"
		 "hybrid = %s %s %s\n", whole, a, pl, b, a, b, pl);
	for (size_t f = 0; f < nf; f++) {
		add_line(&text, &len, "\n[variant %s.%s.%s]\ndescription = %s with %s (as in %s) over %s\n"
			 "hybrid = %s %s %s\nhybrid_cflags = %s\n", a, flags[f].name, b, a,
			 flags[f].b, b, pl, a, a, pl, flags[f].b);
		add_line(&text, &len, "\n[variant %s.%s.%s]\ndescription = %s with %s (as in %s) over %s\n"
			 "hybrid = %s %s %s\nhybrid_cflags = %s\n", b, flags[f].name, a, whole,
			 flags[f].a, a, pl, a, b, pl, flags[f].a);
	}
	free(whole);
	free(pl);
	return text;
}

/* The parts of the tree under `under` holding objects that A and B compile
 * differently: each child directory ("kernel/") or object ("init/main.o")
 * once, sorted. */
static char **nodes_of(char *const *objs, size_t nobj, const char *under, size_t *n)
{
	char **nodes = NULL;
	size_t ul = strlen(under);

	*n = 0;
	for (size_t i = 0; i < nobj; i++) {
		const char *rest, *slash;
		char *node;

		if (strncmp(objs[i], under, ul))
			continue;
		rest = objs[i] + ul;
		slash = strchr(rest, '/');
		node = slash ? kb_xstrndup(objs[i], (size_t)(slash - objs[i]) + 1) : kb_xstrdup(objs[i]);
		if (*n && !strcmp(nodes[*n - 1], node)) {
			free(node);	/* objs is sorted: a node's objects are together */
			continue;
		}
		nodes = kb_xrealloc(nodes, (*n + 1) * sizeof(*nodes));
		nodes[(*n)++] = node;
	}
	return nodes;
}

/* explain.md, explain.html and explain.json of an explain run directory;
 * the path of explain.md on stdout. */
static int explain_write(const char *dir)
{
	int r = kb_explain_write(dir);

	if (r == 0)
		printf("%s/explain.md\n", dir);
	return r;
}

/* ---- the command ---- */

static void strs_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* A path of the kernel tree given on the command line: "dir" as "dir/". */
static char *tree_path(const char *s)
{
	size_t n = strlen(s);

	if (!n || s[0] == '/' || strstr(s, "..") || strstr(s, "//") || !strcmp(s, ".") ||
	    !strncmp(s, "./", 2) || strstr(s, "/./") || (n >= 2 && !strcmp(s + n - 2, "/.")) ||
	    s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-+")])
		return NULL;
	if ((n > 2 && !strcmp(s + n - 2, ".o")) || s[n - 1] == '/')
		return kb_xstrdup(s);
	return kb_xasprintf("%s/", s);
}

/* The elements of option opt's comma-separated value (malloc'd, *n of
 * them): 0, or -1 after a message naming opt (an empty list or element). */
static int option_list(const char *opt, const char *value, char ***out, size_t *n)
{
	const char *s = value;

	*out = NULL;
	*n = 0;
	if (!*value)
		return kb_error("%s: empty list", opt);
	for (;;) {
		size_t len = strcspn(s, ",");

		if (!len) {
			strs_free(*out, *n);
			*out = NULL;
			*n = 0;
			return kb_error("%s '%s': empty element", opt, value);
		}
		*out = kb_xrealloc(*out, (*n + 1) * sizeof(**out));
		(*out)[(*n)++] = kb_xstrndup(s, len);
		if (!s[len])
			return 0;
		s += len + 1;
	}
}

/* The paths of --only as tree paths, each once; as the parts of an
 * attribution (by code) none inside another, since their sum would count
 * its objects twice, and each hybrid's variant name its own.  0, or -1
 * after a message. */
static int only_paths(const char *only, const char *a, const char *b, int parts, char ***out,
		      size_t *n)
{
	char **w = NULL, **names = NULL;
	size_t nw = 0;
	int ret = -1;

	*out = NULL;
	*n = 0;
	if (option_list("--only", only, &w, &nw) < 0)
		return -1;
	*out = kb_xcalloc(nw, sizeof(**out));
	for (size_t i = 0; i < nw; i++) {
		char *p = tree_path(w[i]);

		if (!p) {
			kb_error("--only '%s': a directory or object of the kernel tree, relative, "
				 "without '.', '..' or '//'", w[i]);
			goto out;
		}
		(*out)[(*n)++] = p;
		for (size_t j = 0; j < i; j++) {
			if (!strcmp((*out)[j], p)) {
				kb_error("--only '%s': given twice", p);
				goto out;
			}
		}
	}
	if (!parts) {
		ret = 0;
		goto out;
	}
	for (size_t i = 0; i < *n; i++) {
		for (size_t j = 0; j < *n; j++) {
			if (i != j && kb_hybrid_match((*out)[i], &(*out)[j], 1)) {
				kb_error("--only '%s': inside '%s', another part (the parts must not "
					 "overlap: their sum would count its objects twice)", (*out)[i],
					 (*out)[j]);
				goto out;
			}
		}
	}
	/* A, B, the B end, then the parts' hybrids */
	names = kb_xcalloc(*n + 3, sizeof(*names));
	names[0] = kb_xstrdup(a);
	names[1] = kb_xstrdup(b);
	names[2] = node_variant(b, "");
	for (size_t i = 0; i < *n; i++) {
		names[i + 3] = node_variant(b, (*out)[i]);
		for (size_t j = 0; j < i + 3; j++) {
			if (!strcmp(names[j], names[i + 3])) {
				kb_error("--only '%s': its hybrid would be variant '%s', as %s%s%s is",
					 (*out)[i], names[j], j == 0 ? "A" : j == 1 ? "B" : j == 2 ?
					 "the B end" : "the hybrid of '", j > 2 ? (*out)[j - 3] : "",
					 j > 2 ? "'" : "");
				goto out;
			}
		}
	}
	ret = 0;
out:
	strs_free(w, nw);
	strs_free(names, names ? *n + 3 : 0);
	if (ret < 0) {
		strs_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	return ret;
}

/* The settings of --flags, each once, by their names (as --by-flag lists
 * them).  0, or -1 after a message. */
static int flag_names(const char *flags, char ***out, size_t *n)
{
	if (option_list("--flags", flags, out, n) < 0)
		return -1;
	for (size_t i = 0; i < *n; i++) {
		const char *w = (*out)[i];
		const char *why = w[0] == '-' ? "a setting's name as --by-flag lists it "
						"('align-functions', not '-falign-functions')" : NULL;

		for (size_t j = 0; j < i && !why; j++)
			if (!strcmp((*out)[j], w))
				why = "given twice";
		if (why) {
			kb_error("--flags '%s': %s", w, why);
			strs_free(*out, *n);
			*out = NULL;
			*n = 0;
			return -1;
		}
	}
	return 0;
}

/* Whether path p of option opt is in the kernel source tree: the directory
 * itself, an object's directory (an object is known only to a build: some
 * are compiled from generated sources), or with dir_only p itself as a
 * directory.  0, or -1 after a message. */
static int in_tree(const char *tree, const char *opt, const char *p, int dir_only)
{
	size_t len = strlen(p), n = len;
	struct stat st;
	char *d;
	int there;

	if (!dir_only && p[len - 1] != '/')
		for (n = len; n && p[n - 1] != '/'; n--)
			;
	d = kb_xasprintf("%s/%.*s", tree, (int)n, p);
	there = stat(d, &st) == 0 && S_ISDIR(st.st_mode);
	free(d);
	if (there)
		return 0;
	if (n == len)
		return kb_error("%s '%s': not a directory of the kernel tree (%s)", opt, p, tree);
	return kb_error("%s '%s': no directory '%.*s' in the kernel tree (%s)", opt, p, (int)n, p,
			tree);
}

/* A part of --only that holds no object A and B compile differently: why,
 * from what the build of A has there.  -1 after the message. */
static int part_empty(const struct kb_kernel *ka, const char *a, const char *b, const char *part)
{
	char *path = kb_xasprintf("%s/%s", ka->objdir, part);
	struct stat st;
	int built = stat(path, &st) == 0;

	free(path);
	if (!built)
		return kb_error("--only '%s': matches no object of the build of '%s'", part, a);
	return kb_error("--only '%s': no object there is compiled differently by '%s' and '%s' "
			"(its hybrid would be '%s')", part, a, b, a);
}

/* The flags of an explain by flag: the optimizer settings in which A's and
 * B's compilations of one object under the paths differ (kernel/fork.o
 * where it is there, else the first), those of --flags when given.  0, or
 * -1 after a message. */
static int choose_flags(const struct explain_ctx *x, struct kb_flag **out, size_t *nout)
{
	char *const *only = x->fnames;
	size_t nonly = x->nf;
	const char *ref = NULL;
	struct kb_flag *fl = NULL;
	size_t nfl = 0;

	*out = NULL;
	*nout = 0;
	for (size_t i = 0; i < x->nobj; i++)
		if (kb_hybrid_match(x->objs[i], x->nodes, x->n) &&
		    (!ref || !strcmp(x->objs[i], "kernel/fork.o")))
			ref = x->objs[i];
	if (!ref)
		return kb_error("no object under the parts is compiled differently");
	if (kb_hybrid_flag_diff(&x->ka, &x->kb, ref, &fl, &nfl) < 0)
		return -1;
	kb_info("%s: %zu optimizer settings differ", ref, nfl);
	for (size_t i = 0; i < nfl; i++)
		kb_info("  %s: %s in A, %s in B", fl[i].name, fl[i].a, fl[i].b);
	if (nonly) {
		struct kb_flag *kept = NULL;
		size_t nk = 0;

		for (size_t o = 0; o < nonly; o++) {
			const char *w = only[o];
			size_t i;

			for (i = 0; i < nfl && strcmp(fl[i].name, w); i++)
				;
			if (i == nfl) {
				const char **names = kb_xcalloc(nfl + 1, sizeof(*names));
				const char *near;

				for (i = 0; i < nfl; i++)
					names[i] = fl[i].name;
				near = kb_command_closest(w, names, nfl);
				kb_error("--flags: '%s' is not a setting in which A and B differ%s%s%s (%s has "
					 "%zu: see the list above)", w, near ? " (did you mean '" : "",
					 near ? near : "", near ? "'?)" : "", ref, nfl);
				free(names);
				kb_hybrid_flags_free(kept, nk);
				kb_hybrid_flags_free(fl, nfl);
				return -1;
			}
			kept = kb_xrealloc(kept, (nk + 1) * sizeof(*kept));
			kept[nk].name = kb_xstrdup(fl[i].name);
			kept[nk].a = kb_xstrdup(fl[i].a);
			kept[nk++].b = kb_xstrdup(fl[i].b);
		}
		kb_hybrid_flags_free(fl, nfl);
		fl = kept;
		nfl = nk;
	}
	if (!nfl) {
		kb_hybrid_flags_free(fl, nfl);
		return kb_error("%s: A and B differ in no optimizer setting gcc lists: nothing to "
				"attribute by flag (the difference is the level's own heuristics)", ref);
	}
	*out = fl;
	*nout = nfl;
	return 0;
}

static int start(struct explain_ctx *x)
{
	const char *path = x->path, *a = x->a, *b = x->b, *under = x->under, *only = x->only;
	const char *executor = x->executor;
	struct kb_conf conf;
	struct kb_source src = { 0 };
	struct kb_hybrid_counts cnt;
	const struct kb_variant *va, *vb;
	char *text = NULL, *gen = NULL, *log = NULL, *run_dir = NULL, *u = NULL;
	int ret = KB_EXIT_USAGE, have_src = 0, bad = 0;

	if (kb_conf_load(&conf, path) < 0 || kb_conf_check_paths(&conf) < 0)
		goto out;
	va = kb_conf_variant(&conf, a);
	vb = kb_conf_variant(&conf, b);
	if (!va || !vb) {
		const char **names = kb_xcalloc(conf.n_variants + 1, sizeof(*names));

		for (size_t i = 0; i < conf.n_variants; i++)
			names[i] = conf.variants[i].name;
		kb_command_unknown(&kb_command_explain, "variant", !va ? a : b, names, conf.n_variants);
		free(names);
		goto out;
	}
	if (va == vb) {
		kb_error("'%s': A and B are the same variant", path);
		goto out;
	}
	if (va->hybrid || vb->hybrid || va->bzimage || vb->bzimage) {
		kb_error("'%s': A and B must be built from source as configured (not hybrids, not "
			 "prebuilt)", path);
		goto out;
	}
	/* an ordered B is explained by the parts of its order: A must be B
	 * without it */
	if (va->order || vb->order) {
		if (!ordered_pair(va, vb)) {
			kb_error("'%s': an ordered variant is explained against itself without its order: "
				 "'%s' must have no order and '%s''s config, kcflags, cc and cmdline",
				 path, a, b);
			goto out;
		}
		if (x->by_flag) {
			kb_error("'%s': --by-flag: '%s' and '%s' differ in their order, not in flags", path, a, b);
			goto out;
		}
		x->vb_order = vb->order;
	}
	/* every option checked before anything is built, as far as the source
	 * can tell; what only the builds of A and B know, before the hybrids */
	if (x->cases && kb_conf_check_workloads("--cases", x->cases) < 0)
		goto out;
	if (under && !*under) {
		kb_error("--under: empty path");
		goto out;
	}
	if (under && !(u = tree_path(under))) {
		kb_error("--under '%s': a directory of the kernel tree, relative, without '.', '..' "
			 "or '//'", under);
		goto out;
	}
	if (only && only_paths(only, a, b, !x->by_flag, &x->nodes, &x->n) < 0)
		goto out;
	if (x->flags && flag_names(x->flags, &x->fnames, &x->nf) < 0)
		goto out;
	ret = KB_EXIT_FAILED;
	if (kb_source_prepare(&conf, &src) < 0)
		goto out;
	have_src = 1;
	bad = u && in_tree(src.tree, "--under", u, 1) < 0;
	for (size_t i = 0; i < x->n && !bad; i++)
		bad = in_tree(src.tree, "--only", x->nodes[i], 0) < 0;
	if (bad) {
		ret = KB_EXIT_USAGE;
		goto out;
	}
	if (kb_mkdir_p(conf.output, 0755) < 0)
		goto out;
	log = kb_xasprintf("%s/explain-%s-%s.log", conf.output, a, b);
	if (x->vb_order) {
		/* by order: which of A's objects define the order's functions */
		struct kb_variant av = *va;
		int r;

		av.need_objects = 1;
		kb_info("building (or finding in the cache) '%s' to read its objects; log: %s", a, log);
		if (kb_build_variant(&conf, &src, &av, NULL, log, &x->ka) < 0)
			goto out;
		r = order_parts(x, u, conf.output);
		if (r != 0) {
			ret = r == KB_EXIT_USAGE ? KB_EXIT_USAGE : KB_EXIT_FAILED;
			goto out;
		}
		if (kb_read_file(path, &x->orig, NULL) < 0) {
			kb_error_errno(errno, "cannot read '%s'", path);
			goto out;
		}
		text = explain_order_text(x);
		kb_info("%zu ordered kernels, each with the order's functions of one part, and '%s' "
			"(the whole order), as variants of one run", x->n, b);
		goto generate;
	}
	kb_info("building (or finding in the cache) '%s' and '%s' to see which objects differ; "
		"log: %s", a, b, log);
	{
		/* their objects are compared: built again where only the
		 * kernels are in the cache */
		struct kb_variant av = *va, bv = *vb;

		av.need_objects = bv.need_objects = 1;
		if (kb_build_variant(&conf, &src, &av, NULL, log, &x->ka) < 0 ||
		    kb_build_variant(&conf, &src, &bv, NULL, log, &x->kb) < 0)
			goto out;
	}
	if (kb_hybrid_objects(b, &x->ka, &x->kb, &x->objs, &x->nobj, &cnt) < 0)
		goto out;
	kb_info("%zu objects in both kernels, %zu compiled differently", cnt.objects, cnt.differ);
	if (!x->nobj) {
		kb_error("'%s' and '%s' compile every object the same way: nothing to explain", a, b);
		goto out;
	}
	/* the parts of --only are in nodes already */
	if (!only && x->by_flag) {
		x->nodes = kb_xcalloc(1, sizeof(*x->nodes));
		x->nodes[x->n++] = kb_xstrdup("");
	} else if (!only) {
		x->nodes = nodes_of(x->objs, x->nobj, u ? u : "", &x->n);
		if (!x->n) {
			kb_error("--under '%s': no object there is compiled differently", under);
			ret = KB_EXIT_USAGE;
			goto out;
		}
	}
	for (size_t i = 0; i < x->n; i++) {
		size_t k = 0;

		for (size_t j = 0; j < x->nobj; j++)
			k += kb_hybrid_match(x->objs[j], &x->nodes[i], 1);
		kb_info("part %s: %zu objects compiled differently", x->nodes[i], k);
		if (only && !k)
			bad = part_empty(&x->ka, a, b, x->nodes[i]);
	}
	if (bad) {
		ret = KB_EXIT_USAGE;
		goto out;
	}
	for (size_t j = 0; j < x->nobj; j++)
		x->covered += kb_hybrid_match(x->objs[j], x->nodes, x->n);
	if (x->covered < x->nobj)
		kb_info("the parts hold %zu of the %zu objects compiled differently; the rest is in "
			"the whole, not in any part", x->covered, x->nobj);
	if (kb_read_file(path, &x->orig, NULL) < 0) {
		kb_error_errno(errno, "cannot read '%s'", path);
		goto out;
	}
	if (x->by_flag) {
		struct kb_flag *fl = NULL;
		size_t nfl = 0;

		if (choose_flags(x, &fl, &nfl) < 0) {
			ret = x->flags ? KB_EXIT_USAGE : KB_EXIT_FAILED;
			goto out;
		}
		text = explain_flag_text(x, fl, nfl);
		kb_info("%zu flags, each set as in '%s' in '%s' and as in '%s' in '%s': %zu variants",
			nfl, b, a, a, b, 2 * nfl + 1);
		kb_hybrid_flags_free(fl, nfl);
	} else {
		text = explain_text(x);
	}
	kb_info("%zu hybrid kernels and the B end, as variants of one run", x->n);
generate:
	gen = kb_xasprintf("%s/.explain-%s-%s-%ld.conf", conf.output, a, b, (long)getpid());
	if (kb_write_file_atomic(gen, text, strlen(text)) < 0)
		goto out;
	ret = kb_run_main(gen, conf.dir, 0, executor, &run_dir);
	unlink(gen);
	if (run_dir && !kb_interrupted && explain_write(run_dir) < 0 && ret == KB_EXIT_OK)
		ret = KB_EXIT_FAILED;
	if (run_dir && kb_interrupted)
		kb_info("resume with: kbench explain --resume %s", run_dir);
out:
	for (size_t i = 0; i < x->nobj; i++)
		free(x->objs[i]);
	free(x->objs);
	if (x->part_orders)
		strs_free(x->part_orders, x->n);
	strs_free(x->nodes, x->n);
	strs_free(x->fnames, x->nf);
	if (x->where)
		kb_order_objects_free(x->where, x->order.n);
	kb_order_file_release(&x->order);
	kb_kernel_release(&x->ka);
	kb_kernel_release(&x->kb);
	if (have_src)
		kb_source_release(&src);
	kb_conf_release(&conf);
	free(x->orig);
	free(text);
	free(gen);
	free(log);
	free(run_dir);
	free(u);
	return ret;
}

static int option(void *ctx, int key, const char *value)
{
	struct explain_ctx *a = ctx;

	switch (key) {
	case KB_LONG('c'): a->cases = value; break;
	case KB_LONG('u'): a->under = value; break;
	case KB_LONG('o'): a->only = value; break;
	case KB_LONG('r'): a->resume = 1; break;
	case KB_LONG('f'): a->by_flag = 1; break;
	case KB_LONG('F'): a->flags = value; break;
	case KB_LONG('e'):
		if (!kb_executor_find(value))
			return kb_command_usage_error(&kb_command_explain, "--executor '%s': %s", value,
						      kb_executor_names());
		a->executor = value;
		break;
	}
	return KB_GO_ON;
}

static int cmd_explain(int argc, char **argv)
{
	const struct kb_command *c = &kb_command_explain;
	struct explain_ctx a = { 0 };
	int r = kb_command_parse(c, &argc, &argv, option, &a);

	if (r != KB_GO_ON)
		return r;
	if (a.resume) {
		char *state = NULL, *mpath;
		json_t *mf;

		if (a.cases || a.under || a.only || a.by_flag || a.flags)
			return kb_command_usage_error(c, "--resume takes no option but --executor");
		if (argc != 1)
			return kb_command_usage_error(c, "--resume: one run directory, RUN_DIR");
		mpath = kb_xasprintf("%s/manifest.json", argv[0]);
		mf = json_load_file(mpath, 0, NULL);
		free(mpath);
		if (mf && json_string_value(json_object_get(mf, "state")))
			state = kb_xstrdup(json_string_value(json_object_get(mf, "state")));
		json_decref(mf);
		r = state && !strcmp(state, "complete") ? KB_EXIT_OK
			: kb_run_main(argv[0], NULL, 1, a.executor, NULL);
		free(state);
		if (kb_interrupted)
			return r;
		return explain_write(argv[0]) < 0 && r == KB_EXIT_OK ? KB_EXIT_FAILED : r;
	}
	if (argc != 3)
		return kb_command_usage_error(c, "three operands, VARIANTS.CONF, A and B");
	if (a.under && a.only)
		return kb_command_usage_error(c, "--under or --only, not both");
	if (a.flags && !a.by_flag)
		return kb_command_usage_error(c, "--flags goes with --by-flag");
	if (a.by_flag && a.under)
		return kb_command_usage_error(c, "--by-flag does not take --under");
	a.path = argv[0];
	a.a = argv[1];
	a.b = argv[2];
	return start(&a);
}

static const struct kb_command_option options[] = {
	{ "cases", KB_LONG('c'), "LIST", "the run's workloads (default: the configuration's)" },
	{ "under", KB_LONG('u'), "DIR", "the parts: DIR's children (default: the top-level directories)" },
	{ "only", KB_LONG('o'), "PATHS", "the parts: these directories or objects, comma-separated,\n"
	  "none inside another" },
	{ "by-flag", KB_LONG('f'), NULL, "attribute by optimizer setting instead of by part" },
	{ "flags", KB_LONG('F'), "NAMES", "only these settings (names as --by-flag lists them)" },
	{ "resume", KB_LONG('r'), NULL, "finish an explain run that was stopped, then write its files" },
	{ "executor", KB_LONG('e'), "E", "local or slurm, as kbench run" },
	{ 0 },
};

const struct kb_command kb_command_explain = {
	.name = "explain",
	.summary = "which parts of the kernel make variant B smaller or larger, faster or slower than A",
	.usage = "usage: kbench explain [--cases LIST] [--under DIR | --only PATH,...]\n"
		 "                      [--executor local|slurm] VARIANTS.CONF A B\n"
		 "       kbench explain --by-flag [--flags NAME,...] [--only PATH,...]\n"
		 "                      [--cases LIST] [--executor local|slurm] VARIANTS.CONF A B\n"
		 "       kbench explain [--executor local|slurm] --resume RUN_DIR\n\n"
		 "Build hybrid kernels, A with the objects of one part of the tree compiled\n"
		 "as in B, boot them with A, B and the B end (A with every object as in B) in\n"
		 "one run, and write explain.md, explain.html and explain.json into the run\n"
		 "directory: each part's change in text size and, per case, in kernel\n"
		 "instructions, L1i misses and modeled cycles per operation, their sum, the\n"
		 "whole and the interaction.  A and B's .configs may differ only in the\n"
		 "optimization level.\n\n"
		 "Where B is ordered (order = FILE) and A is B without its order (the same\n"
		 "config, kcflags, cc and cmdline), the parts are those of the order: per\n"
		 "part, A built with the functions of the order that A's objects under the\n"
		 "part define, in the order's order (written beside the run's output, each\n"
		 "with the order's comments), against A; the whole is B.\n\n"
		 "With --by-flag: the optimizer settings (gcc -Q --help=optimizers and\n"
		 "--help=params, asked with the options of one object's two compilations)\n"
		 "in which A and B differ; per setting, A with it as in B (one at a time)\n"
		 "and B with it as in A (leave one out), over the whole kernel or the\n"
		 "parts of --only; what no setting explains is said as such.\n\n"
		 "The options are checked before anything is built (exit status 2, naming\n"
		 "the option): an empty list or element, a name or path given twice, parts\n"
		 "that overlap, an unknown workload, a path not in the kernel tree; and,\n"
		 "once A and B are built, before any hybrid is, a part of --only that holds\n"
		 "no object they compile differently.\n",
	.options = options,
	.fn = cmd_explain,
};
