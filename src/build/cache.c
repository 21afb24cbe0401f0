// SPDX-License-Identifier: GPL-2.0-or-later
/* The build cache listed and pruned (cache.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build.h"
#include "cache.h"
#include "util.h"

/* Ten minutes: what a run may take between making an entry and naming it
 * in its manifest (a build's configuring step, its link). */
#define KB_CACHE_IN_USE 600.0

const char *kb_cache_kind_name(enum kb_cache_kind k)
{
	static const char *const names[] = { "source", "objects", "kernel", "ccache", "mca prices",
					     "other" };

	return names[k];
}

/* ---- inodes seen: a hard-linked file's blocks count once ---- */

struct inode_set {
	unsigned long long *k;	/* dev << 40 ^ ino, 0 for a free slot */
	size_t n, cap;
};

static int inode_seen(struct inode_set *s, const struct stat *st)
{
	unsigned long long key = ((unsigned long long)st->st_dev << 40) ^ (unsigned long long)st->st_ino;
	size_t i;

	key += !key;
	if (2 * (s->n + 1) > s->cap) {
		struct inode_set g = { kb_xcalloc(s->cap ? 2 * s->cap : 1024, sizeof(*g.k)), 0,
				       s->cap ? 2 * s->cap : 1024 };

		for (size_t j = 0; j < s->cap; j++) {
			if (!s->k[j])
				continue;
			for (i = s->k[j] % g.cap; g.k[i]; i = (i + 1) % g.cap)
				;
			g.k[i] = s->k[j];
			g.n++;
		}
		free(s->k);
		*s = g;
	}
	for (i = key % s->cap; s->k[i]; i = (i + 1) % s->cap)
		if (s->k[i] == key)
			return 1;
	s->k[i] = key;
	s->n++;
	return 0;
}

/* Disk bytes under the directory fd (closed here), hard links once; the
 * directories named kbench-obj-* are left out where skip_objects. */
static unsigned long long tree_bytes(int fd, struct inode_set *seen, int skip_objects)
{
	unsigned long long sum = 0;
	DIR *d = fdopendir(fd);
	struct dirent *de;

	if (!d) {
		close(fd);
		return 0;
	}
	while ((de = readdir(d))) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			int sub;

			if (skip_objects && !strncmp(de->d_name, "kbench-obj-", 11))
				continue;
			sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			sum += (unsigned long long)st.st_blocks * 512;
			if (sub >= 0)
				sum += tree_bytes(sub, seen, skip_objects);
			continue;
		}
		if (st.st_nlink > 1 && inode_seen(seen, &st))
			continue;
		sum += (unsigned long long)st.st_blocks * 512;
	}
	closedir(d);
	return sum;
}

static unsigned long long path_bytes(const char *path, struct inode_set *seen, int skip_objects)
{
	struct stat st;
	int fd;

	if (lstat(path, &st) < 0)
		return 0;
	if (!S_ISDIR(st.st_mode))
		return st.st_nlink > 1 && inode_seen(seen, &st) ? 0 : (unsigned long long)st.st_blocks * 512;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return (unsigned long long)st.st_blocks * 512 + (fd >= 0 ? tree_bytes(fd, seen, skip_objects) : 0);
}

/* ---- the entries ---- */

static struct kb_cache_entry *add(struct kb_cache *c, enum kb_cache_kind kind, const char *rel)
{
	struct kb_cache_entry *e;
	struct stat st;

	c->e = kb_xrealloc(c->e, (c->n + 1) * sizeof(*c->e));
	e = &c->e[c->n++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->rel = kb_xstrdup(rel);
	e->path = kb_xasprintf("%s/%s", c->dir, rel);
	e->shared = kind == KB_CACHE_CCACHE || kind == KB_CACHE_MCA || kind == KB_CACHE_OTHER;
	if (lstat(e->path, &st) == 0)
		e->last_use = (double)st.st_mtim.tv_sec + st.st_mtim.tv_nsec / 1e9;
	return e;
}

/* "NAME.tmp.PID": made by a kbench now running (busy), or left by one killed */
static int tmp_entry(const char *name, int *alive)
{
	const char *t = strstr(name, ".tmp.");
	char *end;
	long pid;

	if (!t)
		return 0;
	pid = strtol(t + 5, &end, 10);
	*alive = !*end && pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
	return 1;
}

/* A kernel's label from its .config: the version line and the compiler */
static char *kernel_what(const char *dir)
{
	char *cfg = kb_xasprintf("%s/config", dir), *text = NULL, *out;
	char ver[64] = "?", cc[128] = "";
	const char *p;

	if (kb_read_file_max(cfg, &text, NULL, 1 << 22) == 0) {
		p = strstr(text, "# Linux/");
		if (p)
			sscanf(p, "# Linux/%*s %63s", ver);
		p = strstr(text, "CONFIG_CC_VERSION_TEXT=\"");
		if (p)
			sscanf(p + 24, "%127[^\"]", cc);
	}
	out = kb_xasprintf("linux %s%s%s", ver, *cc ? ", " : "", cc);
	free(text);
	free(cfg);
	return out;
}

static int objdir_locked(const char *objdir)
{
	char *lock = kb_xasprintf("%s.lock", objdir);
	int fd = open(lock, O_RDONLY | O_CLOEXEC), busy = 0;

	if (fd >= 0) {
		busy = flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK;
		close(fd);
	}
	free(lock);
	return busy;
}

static void add_objects_in(struct kb_cache *c, const char *rel_tree)
{
	char *tree = kb_xasprintf("%s/%s", c->dir, rel_tree);
	DIR *d = opendir(tree);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char *rel;
		struct kb_cache_entry *e;

		if (strncmp(de->d_name, "kbench-obj-", 11) || strstr(de->d_name, ".lock"))
			continue;
		rel = kb_xasprintf("%s/%s", rel_tree, de->d_name);
		e = add(c, KB_CACHE_OBJECTS, rel);
		e->what = kb_xstrdup("a build's objects");
		e->busy = objdir_locked(e->path);
		free(rel);
	}
	if (d)
		closedir(d);
	free(tree);
}

static void scan_sources(struct kb_cache *c)
{
	char *src = kb_xasprintf("%s/src", c->dir);
	DIR *d = opendir(src);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char *rel, *tree, *ver, *origin_path, *origin = NULL, *rel_tree;
		struct kb_cache_entry *e;
		int alive;

		if (de->d_name[0] == '.')
			continue;
		rel = kb_xasprintf("src/%s", de->d_name);
		if (tmp_entry(de->d_name, &alive)) {
			e = add(c, alive ? KB_CACHE_SOURCE : KB_CACHE_OTHER, rel);
			e->what = kb_xstrdup(alive ? "being made now" : "left by a kbench that was stopped");
			e->busy = alive;
			e->shared = 0;
			free(rel);
			continue;
		}
		e = add(c, KB_CACHE_SOURCE, rel);
		tree = kb_find_tree(e->path);
		ver = tree ? kb_tree_version(tree) : NULL;
		origin_path = kb_xasprintf("%s/origin", e->path);
		if (kb_read_file_max(origin_path, &origin, NULL, 1 << 16) == 0)
			origin[strcspn(origin, "\n")] = 0;
		e->what = !strncmp(de->d_name, "git-", 4)
			? kb_xasprintf("linux %s, a copy of the git work tree %s", ver ? ver : "?",
				       origin && *origin ? origin : "(its path not recorded)")
			: kb_xasprintf("linux %s, a source tarball unpacked", ver ? ver : "?");
		if (tree) {
			rel_tree = kb_xstrdup(tree + strlen(c->dir) + 1);
			add_objects_in(c, rel_tree);
			free(rel_tree);
		}
		free(origin_path);
		free(origin);
		free(tree);
		free(ver);
		free(rel);
	}
	if (d)
		closedir(d);
	free(src);
}

/* every child of the top directory sub as an entry of kind */
static void scan_children(struct kb_cache *c, const char *sub, enum kb_cache_kind kind)
{
	char *top = kb_xasprintf("%s/%s", c->dir, sub);
	DIR *d = opendir(top);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char *rel;
		struct kb_cache_entry *e;
		int alive;

		if (de->d_name[0] == '.' || strstr(de->d_name, ".lock"))
			continue;
		rel = kb_xasprintf("%s/%s", sub, de->d_name);
		e = add(c, kind, rel);
		if (tmp_entry(de->d_name, &alive)) {
			e->what = kb_xstrdup(alive ? "being made now" : "left by a kbench that was stopped");
			e->busy = alive;
			e->shared = 0;
		} else if (kind == KB_CACHE_KERNEL) {
			e->what = kernel_what(e->path);
		} else if (kind == KB_CACHE_OBJECTS) {
			e->what = kb_xstrdup("a build's objects (a source tree kbench does not own)");
			e->busy = objdir_locked(e->path);
		} else {
			e->what = kb_xasprintf("llvm-mca's block prices (%s)", de->d_name);
		}
		free(rel);
	}
	if (d)
		closedir(d);
	free(top);
}

static void scan_top(struct kb_cache *c)
{
	DIR *d = opendir(c->dir);
	struct dirent *de;

	scan_sources(c);
	scan_children(c, "obj", KB_CACHE_OBJECTS);
	scan_children(c, "kernels", KB_CACHE_KERNEL);
	scan_children(c, "mca", KB_CACHE_MCA);
	while (d && (de = readdir(d))) {
		static const char *const done[] = { ".", "..", "src", "obj", "kernels", "mca" };
		/* the other directories kbench keeps at the top; ccache first */
		static const struct { const char *name, *what; } own[] = {
			{ "ccache", "compiled objects, shared by every build" },
			{ "logs", "each variant's last build log" },
			{ "objects", "objects a build compiles (progress's N of M)" },
			{ "accel", "why KVM was not used, per boot of the host" },
			{ "hybrid", "hybrids' specs: each object's build and command" },
		};
		struct kb_cache_entry *e;
		size_t i;

		for (i = 0; i < KB_ARRAY_SIZE(done) && strcmp(de->d_name, done[i]); i++)
			;
		if (i < KB_ARRAY_SIZE(done))
			continue;
		for (i = 0; i < KB_ARRAY_SIZE(own) && strcmp(de->d_name, own[i].name); i++)
			;
		e = add(c, i == 0 ? KB_CACHE_CCACHE : KB_CACHE_OTHER, de->d_name);
		e->what = kb_xstrdup(i < KB_ARRAY_SIZE(own) ? own[i].what : "not kbench's");
	}
	if (d)
		closedir(d);
}

/* ---- what the runs refer to ---- */

static void mark(struct kb_cache *c, char *seen, const char *path_or_key, int key)
{
	for (size_t i = 0; i < c->n; i++) {
		struct kb_cache_entry *e = &c->e[i];
		size_t n = strlen(e->path);

		if (key ? e->kind == KB_CACHE_KERNEL && !strcmp(e->rel + 8, path_or_key)
			: !strncmp(path_or_key, e->path, n) && (!path_or_key[n] || path_or_key[n] == '/') &&
			  (e->kind == KB_CACHE_SOURCE || e->kind == KB_CACHE_OBJECTS))
			seen[i] = 1;
	}
}

static void refer(struct kb_cache *c, char *seen, json_t *v)
{
	const char *key = json_string_value(json_object_get(v, "key"));
	const char *objdir = json_string_value(json_object_get(v, "objdir"));

	if (key)
		mark(c, seen, key, 1);
	if (objdir)
		mark(c, seen, objdir, 0);
}

static void read_run(struct kb_cache *c, const char *run)
{
	char *m = kb_xasprintf("%s/manifest.json", run), *seen = kb_xcalloc(c->n + 1, 1);
	json_t *j = json_load_file(m, 0, NULL), *v, *r;
	const char *id;
	size_t i, k;

	if (j) {
		c->n_runs++;
		id = json_string_value(json_object_get(json_object_get(j, "kernel"), "id"));
		if (id && !strncmp(id, "sha256:", 7)) {
			char *src = kb_xasprintf("%s/src/%.16s", c->dir, id + 7);

			mark(c, seen, src, 0);
			free(src);
		}
		json_array_foreach(json_object_get(j, "variants"), i, v) {
			refer(c, seen, v);
			json_array_foreach(json_object_get(v, "replicas"), k, r)
				refer(c, seen, r);
		}
		for (i = 0; i < c->n; i++)
			c->e[i].runs += seen[i];
		json_decref(j);
	}
	free(seen);
	free(m);
}

static void read_runs(struct kb_cache *c, const char *output)
{
	DIR *d = opendir(output);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char *run;

		if (de->d_name[0] == '.')
			continue;
		run = kb_xasprintf("%s/%s", output, de->d_name);
		read_run(c, run);
		free(run);
	}
	if (d)
		closedir(d);
}

static int by_last_use(const void *a, const void *b)
{
	const struct kb_cache_entry *x = a, *y = b;

	if (x->kind != y->kind)
		return (int)x->kind - (int)y->kind;
	return (x->last_use > y->last_use) - (x->last_use < y->last_use);
}

int kb_cache_scan(struct kb_cache *c, const char *dir, const char *const *outputs, size_t n_outputs)
{
	struct inode_set seen = { 0 };
	struct stat st;

	memset(c, 0, sizeof(*c));
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return kb_error_errno(errno ? errno : ENOTDIR, "the build cache '%s'", dir);
	c->dir = kb_xstrdup(dir);
	scan_top(c);
	/* oldest first: a file shared by hard link counts in the first copy
	 * that had it, each later copy by what it added */
	qsort(c->e, c->n, sizeof(*c->e), by_last_use);
	for (size_t i = 0; i < c->n; i++)
		c->e[i].bytes = path_bytes(c->e[i].path, &seen, c->e[i].kind == KB_CACHE_SOURCE);
	free(seen.k);
	for (size_t i = 0; i < n_outputs; i++)
		read_runs(c, outputs[i]);
	return 0;
}

void kb_cache_release(struct kb_cache *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->e[i].path);
		free(c->e[i].rel);
		free(c->e[i].what);
	}
	free(c->e);
	free(c->dir);
	memset(c, 0, sizeof(*c));
}

int kb_cache_prunable(const struct kb_cache_entry *e, double older_than, int keep_runs, double now)
{
	if (e->busy || now - e->last_use < KB_CACHE_IN_USE)
		return 0;
	if (older_than < 0)
		return !e->shared && e->runs == 0;
	if (now - e->last_use < older_than * 86400)
		return 0;
	return !(keep_runs && e->runs);
}
