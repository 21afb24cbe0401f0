// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel builds: unpack the source once, configure each variant (base config,
 * guest fragment, the variant's options), check that Kconfig kept every
 * option asked for, and build out of tree into a cache keyed by content.
 */
#include "config.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gsl/gsl_rng.h>
#include <linux/fs.h>
#include <sha2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build.h"
#include "progress.h"
#include "hybrid.h"
#include "order.h"
#include "util.h"

/* Bump when the way kernels are configured or built changes: old cache
 * entries then no longer match (2: the build's time, user, host and number
 * fixed, reproducible_env; 3: object directories in kbench's own trees,
 * where Kbuild names sources relative: ccache's base_dir no longer turns
 * the tree's absolute path into "../../src/HASH/..." inside the kernel's
 * __FILE__ strings, past -fmacro-prefix-map). */
#define KB_BUILD_RECIPE "kbench-build-3"

/* Bump when the way a hybrid is made changes: its keys have it (2: relinked
 * from a copy of A's objects, kb_hybrid_seed; the kernel is the same). */
#define KB_HYBRID_RECIPE "kbench-hybrid-2"

/* Bump when the padding objects or where they go change: every padded
 * replica's cache key has it (layout 0 has no padding and keeps its key). */
#define KB_LAYOUT_RECIPE "kbench-layout-1"

static const char *const kb_guest_options[] = {
	"PRINTK=y",			/* console messages, panics */
	"TTY=y",
	"SERIAL_8250=y",		/* ttyS0: the record channel */
	"SERIAL_8250_CONSOLE=y",
	"BLK_DEV_INITRD=y",		/* the runner arrives as an initramfs */
	"BINFMT_ELF=y",
	"PROC_FS=y",
	"SYSFS=y",
	"DEVTMPFS=y",
	"PERF_EVENTS=y",		/* guest counters where a vPMU exists */
	"FUTEX=y",
	"SHMEM=y",
	"TMPFS=y",
	NULL,
};

static void hex(const unsigned char *d, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

int kb_sha256_file(const char *path, char out[65])
{
	unsigned char buf[1 << 16], d[SHA256_DIGEST_LENGTH];
	SHA2_CTX ctx;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	SHA256Init(&ctx);
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			int err = errno;

			if (err == EINTR)
				continue;
			close(fd);
			return -err;
		}
		SHA256Update(&ctx, buf, (size_t)n);
	}
	close(fd);
	SHA256Final(d, &ctx);
	hex(d, sizeof(d), out);
	return 0;
}

/* Hash of a list of labelled strings; labels and lengths keep fields apart. */
void kb_sha256_fields(char out[65], const char *const *kv, size_t n)
{
	unsigned char d[SHA256_DIGEST_LENGTH];
	SHA2_CTX ctx;

	SHA256Init(&ctx);
	for (size_t i = 0; i < n; i++) {
		const char *s = kv[i] ? kv[i] : "(null)";
		char len[32];

		snprintf(len, sizeof(len), "%zu:", strlen(s));
		SHA256Update(&ctx, (const unsigned char *)len, strlen(len));
		SHA256Update(&ctx, (const unsigned char *)s, strlen(s));
	}
	SHA256Final(d, &ctx);
	hex(d, sizeof(d), out);
}

static int is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The source as a git work tree whose top is tree: 1 with *id "git:COMMIT",
 * or "git:COMMIT+dirty:HASH" (allow_dirty = yes; HASH over git diff HEAD
 * and each untracked file's name and contents); 0 when tree is no git work
 * tree's top (or git is not installed); -1 after a message (changes not
 * committed and allow_dirty = no, git failed).  Reads only: git status
 * --no-optional-locks, so not even the index is refreshed.  With 1, also
 * *content, what the work tree holds ("tree:TREE" of HEAD, and
 * "+dirty:HASH"), and *status_out, git status's lines (both malloc'd). */
static int git_source(const struct kb_conf *conf, const char *tree, char **id, char **content,
		      char **status_out)
{
	char *top_argv[] = { "git", "-C", (char *)tree, "rev-parse", "--show-toplevel", NULL };
	char *head_argv[] = { "git", "-C", (char *)tree, "rev-parse", "--verify", "HEAD", NULL };
	char *st_argv[] = { "git", "--no-optional-locks", "-C", (char *)tree, "status", "--porcelain",
			    NULL };
	char *diff_argv[] = { "git", "--no-optional-locks", "-C", (char *)tree, "diff", "HEAD",
			      "--binary", NULL };
	char *un_argv[] = { "git", "--no-optional-locks", "-C", (char *)tree, "ls-files", "--others",
			    "--exclude-standard", NULL };
	char *tree_argv[] = { "git", "-C", (char *)tree, "rev-parse", "--verify", "HEAD^{tree}", NULL };
	char *top = NULL, *head = NULL, *status = NULL, *diff = NULL, *untracked = NULL, *rt, *rp;
	char *thash = NULL;
	char *git = kb_path_lookup("git");
	int ret = 0;

	if (!git)
		return 0;
	top = kb_capture_line(top_argv, 0);
	rt = top ? realpath(top, NULL) : NULL;	/* NULLs: freed at out */
	rp = realpath(tree, NULL);
	if (!rt || !rp || strcmp(rt, rp))
		goto out;	/* not a work tree, or a subdirectory of one */
	head = kb_capture_line(head_argv, 0);
	if (!head || strspn(head, "0123456789abcdef") < 40) {
		ret = kb_error("kernel source '%s': a git work tree without a commit (git rev-parse HEAD: "
			       "%s)", tree, head ? head : "nothing");
		goto out;
	}
	thash = kb_capture_line(tree_argv, 0);
	if (!thash || strspn(thash, "0123456789abcdef") < 40) {
		ret = kb_error("kernel source '%s': git rev-parse HEAD^{tree} failed", tree);
		goto out;
	}
	if (kb_capture(st_argv, 600, 1 << 24, &status) != 0) {
		ret = kb_error("kernel source '%s': git status failed: %.200s", tree, status ? status : "");
		goto out;
	}
	if (!*status) {
		*id = kb_xasprintf("git:%s", head);
		*content = kb_xasprintf("tree:%s", thash);
		*status_out = status;
		status = NULL;
		ret = 1;
		goto out;
	}
	if (!conf->allow_dirty) {
		ret = kb_error("kernel source '%s': a git work tree with changes not committed (git status "
			       "--porcelain: %.*s%s): commit them, or set [kernel] allow_dirty = yes", tree,
			       (int)strcspn(status, "\n"), status, strchr(status, '\n') &&
			       strchr(status, '\n')[1] ? ", ..." : "");
		goto out;
	}
	if (kb_capture(diff_argv, 600, (size_t)1 << 30, &diff) != 0 ||
	    kb_capture(un_argv, 600, 1 << 24, &untracked) != 0) {
		ret = kb_error("kernel source '%s': git diff or ls-files failed", tree);
		goto out;
	}
	{
		char *list = NULL, *save = NULL, h[65];
		size_t len = 0;
		FILE *lf = open_memstream(&list, &len);

		if (!lf)
			abort();
		/* each untracked file: its name and its contents' hash */
		for (char *l = strtok_r(untracked, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			char *path = kb_xasprintf("%s/%s", tree, l), fh[65];

			if (kb_sha256_file(path, fh) < 0)
				snprintf(fh, sizeof(fh), "unreadable");
			fprintf(lf, "%s %s\n", fh, l);
			free(path);
		}
		fclose(lf);
		const char *fields[] = { head, diff, list };

		kb_sha256_fields(h, fields, KB_ARRAY_SIZE(fields));
		free(list);
		*id = kb_xasprintf("git:%s+dirty:%.16s", head, h);
		*content = kb_xasprintf("tree:%s+dirty:%s", thash, h);
		*status_out = status;
		status = NULL;
		kb_info("kernel source '%s': commit %.12s with changes not committed (allow_dirty = yes: "
			"keyed by their hash %.16s)", tree, head, h);
		ret = 1;
	}
out:
	free(thash);
	free(git);
	free(top);
	free(rt);
	free(rp);
	free(head);
	free(status);
	free(diff);
	free(untracked);
	return ret;
}

/* Unpack a tarball into dir with libarchive, refusing paths that escape it. */
static int unpack(const char *tarball, const char *dir)
{
	struct archive *a = archive_read_new(), *w = archive_write_disk_new();
	struct archive_entry *e;
	int ret = 0, r;

	archive_read_support_filter_all(a);
	archive_read_support_format_all(a);
	archive_write_disk_set_options(w, ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_PERM |
				       ARCHIVE_EXTRACT_SECURE_NODOTDOT |
				       ARCHIVE_EXTRACT_SECURE_SYMLINKS);
	if (archive_read_open_filename(a, tarball, 1 << 16) != ARCHIVE_OK) {
		ret = kb_error("'%s': %s", tarball, archive_error_string(a));
		goto out;
	}
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(e), *hl = archive_entry_hardlink(e);
		char *p;

		/* Entries are placed under dir: none may be absolute or climb out. */
		if (!name || name[0] == '/' || (hl && hl[0] == '/')) {
			ret = kb_error("'%s': absolute path '%s' in archive", tarball, name ? name : "");
			goto out;
		}
		p = kb_xasprintf("%s/%s", dir, name);

		archive_entry_set_pathname(e, p);
		free(p);
		if (hl) {
			p = kb_xasprintf("%s/%s", dir, hl);
			archive_entry_set_hardlink(e, p);
			free(p);
		}
		if (archive_write_header(w, e) != ARCHIVE_OK) {
			ret = kb_error("'%s': %s", tarball, archive_error_string(w));
			goto out;
		}
		if (archive_entry_size(e) > 0) {
			const void *buf;
			size_t len;
			la_int64_t off;

			while ((r = archive_read_data_block(a, &buf, &len, &off)) == ARCHIVE_OK)
				if (archive_write_data_block(w, buf, len, off) != ARCHIVE_OK) {
					ret = kb_error("'%s': %s", tarball, archive_error_string(w));
					goto out;
				}
			if (r != ARCHIVE_EOF) {
				ret = kb_error("'%s': %s", tarball, archive_error_string(a));
				goto out;
			}
		}
		if (archive_write_finish_entry(w) != ARCHIVE_OK) {
			ret = kb_error("'%s': %s", tarball, archive_error_string(w));
			goto out;
		}
	}
	if (r != ARCHIVE_EOF)
		ret = kb_error("'%s': %s", tarball, archive_error_string(a));
out:
	archive_read_free(a);
	archive_write_free(w);
	return ret;
}

/* Copy the file from to the new file to with mode: a reflink where the
 * file system makes one, else copy_file_range (no fsync: the caller syncs
 * the file system once). */
static int copy_one(const char *from, const char *to, mode_t mode, off_t size)
{
	int in = open(from, O_RDONLY | O_CLOEXEC), out, ret = 0;

	if (in < 0)
		return kb_error_errno(errno, "cannot read '%s'", from);
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (out < 0) {
		ret = kb_error_errno(errno, "cannot create '%s'", to);
		close(in);
		return ret;
	}
	if (ioctl(out, FICLONE, in) < 0) {
		while (size > 0) {
			ssize_t n = copy_file_range(in, NULL, out, NULL, (size_t)size, 0);

			if (n <= 0) {
				char buf[1 << 16];

				/* no copy_file_range here: read and write */
				n = read(in, buf, sizeof(buf));
				if (n > 0 && write(out, buf, (size_t)n) != n)
					n = -1;
				if (n <= 0) {
					ret = kb_error_errno(n < 0 ? errno : EIO, "cannot copy '%s' to '%s'",
							     from, to);
					break;
				}
			}
			size -= n;
		}
	}
	if (close(out) < 0 && !ret)
		ret = kb_error_errno(errno, "cannot write '%s'", to);
	close(in);
	return ret;
}

/* ---- copies of one git work tree sharing their unchanged files ---- */

/* What a copy records of each file it took from the lab's tree (its
 * "files", one line each: the lab's file's device, inode, change time and
 * size, the copy's inode, then a tab and the path, NUL-ended): a later copy
 * of the same tree hard-links the file from this one where the lab's file
 * has not changed since (its ctime moves on any write, so equal stat means
 * equal contents) and this copy's file is still the one it made (kbench
 * replaces a file it rewrites, layout_install's Makefiles, with a new one). */
struct copy_file {
	char *path;
	unsigned long long dev, ino, csec, cnsec, size, copy_ino;
};

struct copy_index {
	char *dir;		/* the previous copy (cache/src/git-KEY), or NULL */
	char *text;
	struct copy_file *f;	/* sorted by path */
	size_t n;
};

static int copy_file_cmp(const void *a, const void *b)
{
	return strcmp(((const struct copy_file *)a)->path, ((const struct copy_file *)b)->path);
}

/* The newest copy of the tree whose top is real (its "origin"), with its
 * files read; none (dir NULL) where there is none or its list is unreadable. */
static void copy_index_load(const struct kb_conf *conf, const char *real, struct copy_index *ix)
{
	char *srcdir = kb_xasprintf("%s/src", conf->cache);
	DIR *d = opendir(srcdir);
	struct dirent *de;
	double newest = -1;
	size_t len;

	memset(ix, 0, sizeof(*ix));
	while (d && (de = readdir(d))) {
		char *dir, *origin = NULL, *o;
		struct stat st;

		if (strncmp(de->d_name, "git-", 4) || strchr(de->d_name, '.'))
			continue;
		dir = kb_xasprintf("%s/%s", srcdir, de->d_name);
		o = kb_xasprintf("%s/origin", dir);
		if (kb_read_file_max(o, &origin, NULL, 1 << 16) == 0 && (origin[strcspn(origin, "\n")] = 0, !strcmp(origin, real)) &&
		    stat(dir, &st) == 0 && st.st_mtim.tv_sec + st.st_mtim.tv_nsec / 1e9 > newest) {
			newest = st.st_mtim.tv_sec + st.st_mtim.tv_nsec / 1e9;
			free(ix->dir);
			ix->dir = dir;
			dir = NULL;
		}
		free(origin);
		free(o);
		free(dir);
	}
	if (d)
		closedir(d);
	free(srcdir);
	if (!ix->dir)
		return;
	{
		char *files = kb_xasprintf("%s/files", ix->dir);

		if (kb_read_file_max(files, &ix->text, &len, (size_t)1 << 30) < 0) {
			free(files);
			free(ix->dir);
			ix->dir = NULL;
			return;
		}
		free(files);
	}
	for (char *p = ix->text; p < ix->text + len; p += strlen(p) + 1) {
		struct copy_file cf;
		char *tab = strchr(p, '\t');

		if (!tab || sscanf(p, "%llu %llu %llu %llu %llu %llu", &cf.dev, &cf.ino, &cf.csec, &cf.cnsec,
				   &cf.size, &cf.copy_ino) != 6)
			continue;
		cf.path = tab + 1;
		if (ix->n % 4096 == 0)
			ix->f = kb_xrealloc(ix->f, (ix->n + 4096) * sizeof(*ix->f));
		ix->f[ix->n++] = cf;
	}
	qsort(ix->f, ix->n, sizeof(*ix->f), copy_file_cmp);
}

static void copy_index_release(struct copy_index *ix)
{
	free(ix->dir);
	free(ix->text);
	free(ix->f);
	memset(ix, 0, sizeof(*ix));
}

/* Hard-link path from the previous copy into to where the lab's file (st)
 * has not changed since that copy took it: 1 linked, 0 not (copy it). */
static int copy_index_link(const struct copy_index *ix, const char *path, const struct stat *st,
			   const char *to)
{
	struct copy_file key = { .path = (char *)path }, *f;
	struct stat pst;
	char *from;
	int ok;

	if (!ix->dir)
		return 0;
	f = bsearch(&key, ix->f, ix->n, sizeof(*ix->f), copy_file_cmp);
	if (!f || f->dev != (unsigned long long)st->st_dev || f->ino != (unsigned long long)st->st_ino ||
	    f->csec != (unsigned long long)st->st_ctim.tv_sec ||
	    f->cnsec != (unsigned long long)st->st_ctim.tv_nsec || f->size != (unsigned long long)st->st_size)
		return 0;
	from = kb_xasprintf("%s/tree/%s", ix->dir, path);
	ok = lstat(from, &pst) == 0 && S_ISREG(pst.st_mode) && (unsigned long long)pst.st_ino == f->copy_ino &&
	     pst.st_size == st->st_size && link(from, to) == 0;
	free(from);
	return ok;
}

/* One line of the new copy's "files" for path (the lab's file st, the
 * copy's file to). */
static void copy_index_add(FILE *f, const char *path, const struct stat *st, const char *to)
{
	struct stat cst;

	if (!f || lstat(to, &cst) < 0)
		return;
	fprintf(f, "%llu %llu %llu %llu %llu %llu\t%s%c", (unsigned long long)st->st_dev,
		(unsigned long long)st->st_ino, (unsigned long long)st->st_ctim.tv_sec,
		(unsigned long long)st->st_ctim.tv_nsec, (unsigned long long)st->st_size,
		(unsigned long long)cst.st_ino, path, 0);
}

/* A copy found by its content for a work tree it was not made from (the
 * same commit in another clone of the lab's repository) becomes that
 * tree's newest copy: its origin names the tree, so that the tree's next
 * copy starts from it (copy_index_load, seed_from_previous).  Its files
 * list names the other tree's files, which this tree's do not match
 * (device, inode, ctime): the next copy copies them and links none. */
static void copy_adopt(const char *dir, const char *tree)
{
	char *real = realpath(tree, NULL), *o, *cur = NULL;

	if (!real)
		return;
	o = kb_xasprintf("%s/origin", dir);
	if (kb_read_file_max(o, &cur, NULL, 1 << 16) == 0)
		cur[strcspn(cur, "\n")] = 0;
	if (!cur || strcmp(cur, real)) {
		char *line = kb_xasprintf("%s\n", real);

		/* no origin written: the next copy is one made from nothing */
		(void)kb_write_file_atomic(o, line, strlen(line));
		free(line);
	}
	free(cur);
	free(o);
	free(real);
}

/* kbench's copy of a git work tree (the files git ls-files names, tracked
 * and untracked but not ignored, as the work tree holds them), made once
 * under cache/src/ and named by content: the build reads it, never the
 * lab's tree, and the object directories go in it.  The lab's tree must
 * not change while it is copied (git status after is as before).  The
 * copy's top in *copy; 0, or -1 after a message. */
static int git_export(const struct kb_conf *conf, const char *tree, const char *content,
		      const char *status, char **copy, int dry)
{
	char *ls_argv[] = { "git", "--no-optional-locks", "-C", (char *)tree, "ls-files", "-z",
			    "--cached", "--others", "--exclude-standard", NULL };
	char *st_argv[] = { "git", "--no-optional-locks", "-C", (char *)tree, "status", "--porcelain",
			    NULL };
	char key[65], *dir, *tmp = NULL, *list = NULL, *after = NULL, *lastdir = NULL, *real = NULL;
	const char *fields[] = { "kbench-export-1", content };
	size_t len = 0, files = 0, linked = 0;
	struct copy_index prev = { 0 };
	FILE *index = NULL;
	double t0 = kb_now();
	int ret = -1;

	kb_sha256_fields(key, fields, KB_ARRAY_SIZE(fields));
	dir = kb_xasprintf("%s/src/git-%.16s", conf->cache, key);
	*copy = kb_xasprintf("%s/tree", dir);
	if (is_dir(dir)) {	/* copied before: found by its content */
		if (!dry) {
			kb_touch(dir);
			copy_adopt(dir, tree);
		}
		free(dir);
		return 0;
	}
	if (dry) {		/* not copied yet: nothing of it cached */
		free(*copy);
		*copy = NULL;
		free(dir);
		return 0;
	}
	tmp = kb_xasprintf("%s.tmp.%ld", dir, (long)getpid());
	kb_info("kernel source '%s': copying its files into %s (once for this content)", tree, dir);
	if (kb_capture(ls_argv, 600, (size_t)1 << 28, &list) != 0) {
		kb_error("kernel source '%s': git ls-files failed", tree);
		goto out;
	}
	/* what the previous copy of this tree holds unchanged is linked, not
	 * copied again: the copies share those files (kbench never writes in
	 * one, it replaces a file it rewrites) */
	real = realpath(tree, NULL);
	if (real)
		copy_index_load(conf, real, &prev);
	if (kb_mkdir_p(tmp, 0755) < 0)
		goto out;
	{
		char *ip = kb_xasprintf("%s/files", tmp);

		index = fopen(ip, "we");
		free(ip);
	}
	for (const char *p = list; *p; p += len + 1) {
		char *from, *to, *slash;
		struct stat st;

		len = strlen(p);
		if (strstr(p, "../") || p[0] == '/')
			continue;
		from = kb_xasprintf("%s/%s", tree, p);
		to = kb_xasprintf("%s/tree/%s", tmp, p);
		slash = strrchr(to, '/');
		*slash = 0;
		if ((!lastdir || strcmp(lastdir, to)) && kb_mkdir_p(to, 0755) < 0) {
			free(from);
			free(to);
			goto out;
		}
		free(lastdir);
		lastdir = kb_xstrdup(to);
		*slash = '/';
		if (lstat(from, &st) < 0) {
			/* a tracked file deleted in the work tree: not in the copy */
		} else if (S_ISREG(st.st_mode)) {
			if (copy_index_link(&prev, p, &st, to)) {
				linked++;
			} else if (copy_one(from, to, st.st_mode & 0111 ? 0755 : 0644, st.st_size) < 0) {
				free(from);
				free(to);
				goto out;
			}
			copy_index_add(index, p, &st, to);
			files++;
		} else if (S_ISLNK(st.st_mode)) {
			char target[4096];
			ssize_t n = readlink(from, target, sizeof(target) - 1);

			if (n < 0 || (target[n] = 0, symlink(target, to) < 0)) {
				kb_error_errno(errno, "cannot copy the symbolic link '%s'", from);
				free(from);
				free(to);
				goto out;
			}
			files++;
		}	/* a submodule's directory: not copied */
		free(from);
		free(to);
	}
	if (kb_capture(st_argv, 600, 1 << 24, &after) != 0 || strcmp(after, status)) {
		kb_error("kernel source '%s': the work tree changed while kbench copied it (git status "
			 "--porcelain differs); run again when it is still", tree);
		goto out;
	}
	if (index) {
		int bad = fclose(index) != 0;
		char *o = kb_xasprintf("%s/origin", tmp), *line = kb_xasprintf("%s\n", real ? real : tree);

		index = NULL;
		if (bad || kb_write_file_atomic(o, line, strlen(line)) < 0) {
			char *ip = kb_xasprintf("%s/files", tmp);

			unlink(ip);	/* no list: the next copy shares nothing with this one */
			free(ip);
		}
		free(o);
		free(line);
	}
	/* what the copy holds, and the copy it shares files with: a build of
	 * it starts its object directory from that copy's (seed_from_previous) */
	{
		char *cp = kb_xasprintf("%s/content", tmp), *line = kb_xasprintf("%s\n", content);

		if (kb_write_file_atomic(cp, line, strlen(line)) == 0 && prev.dir) {
			char *pp = kb_xasprintf("%s/previous", tmp), *pl = kb_xasprintf("%s\n", prev.dir);

			if (kb_write_file_atomic(pp, pl, strlen(pl)) < 0)
				unlink(pp);	/* none: its builds start from nothing */
			free(pp);
			free(pl);
		}
		free(cp);
		free(line);
	}
	kb_sync_fs(tmp);
	if (rename(tmp, dir) < 0 && !is_dir(dir)) {
		kb_error_errno(errno, "cannot rename '%s' to '%s'", tmp, dir);
		goto out;
	}
	if (prev.dir)
		kb_info("kernel source '%s': %zu files in %.1f s, %zu of them unchanged since its copy %s "
			"and shared with it (hard links), %zu copied", tree, files, kb_now() - t0, linked,
			prev.dir, files - linked);
	else
		kb_info("kernel source '%s': %zu files copied in %.1f s", tree, files, kb_now() - t0);
	ret = 0;
out:
	if (is_dir(tmp))
		kb_remove_tree(tmp);
	free(tmp);
	free(dir);
	free(list);
	free(after);
	free(lastdir);
	free(real);
	if (index)
		fclose(index);
	copy_index_release(&prev);
	if (ret < 0) {
		free(*copy);
		*copy = NULL;
	}
	return ret;
}

static int is_tree(const char *dir)
{
	char *mk = kb_xasprintf("%s/Makefile", dir), *kc = kb_xasprintf("%s/Kconfig", dir);
	int ok = is_file(mk) && is_file(kc);

	free(mk);
	free(kc);
	return ok;
}

char *kb_find_tree(const char *dir)
{
	char *found = NULL;
	struct dirent *de;
	DIR *d;

	if (is_tree(dir))
		return kb_xstrdup(dir);
	d = opendir(dir);
	if (!d)
		return NULL;
	while (!found && (de = readdir(d))) {
		char *sub;

		if (de->d_name[0] == '.')
			continue;
		sub = kb_xasprintf("%s/%s", dir, de->d_name);
		if (is_tree(sub))
			found = sub;
		else
			free(sub);
	}
	closedir(d);
	return found;
}

char *kb_tree_version(const char *tree)
{
	char *mk = kb_xasprintf("%s/Makefile", tree), *buf, *line, *save = NULL;
	long v[3] = { -1, -1, -1 };
	static const char *const keys[] = { "VERSION", "PATCHLEVEL", "SUBLEVEL" };
	int r = kb_read_file(mk, &buf, NULL);

	free(mk);
	if (r < 0)
		return NULL;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		for (int i = 0; i < 3; i++) {
			size_t n = strlen(keys[i]);

			if (!strncmp(line, keys[i], n) && strchr(" =", line[n]) && v[i] < 0)
				v[i] = strtol(strchr(line, '=') + 1, NULL, 10);
		}
	free(buf);
	if (v[0] < 0 || v[1] < 0)
		return NULL;
	return kb_xasprintf("%ld.%ld.%ld", v[0], v[1], v[2] < 0 ? 0 : v[2]);
}

/* ---- layout replicas ---- */

/*
 * A replica moves code by padding, not by flags: under -Os gcc ignores
 * -falign-functions, and shuffling the link order changes the initcall
 * order and can break the boot.  kbench adds one small object to init/
 * (linked right after the head objects) and one to mm/ (the last directory
 * of the core kernel before fs/ and the rest), each a block of NOPs in .text
 * that is never executed.  Moving everything by one global amount that is a
 * multiple of the cache's set span would change nothing; two points move
 * the core kernel and the rest by different amounts, so relative positions
 * change.  Each object's size is given on make's command line and reaches
 * only that object's flags (AFLAGS_<object>): no other object's command
 * line, nor its ccache hash, changes, and a replica costs two tiny objects
 * and the link.  Without KBENCH_LAYOUT=y on make's command line the lines
 * are inert: layout 0 is the build without them.
 */
static const char layout_asm[] =
	"/* SPDX-License-Identifier: GPL-2.0-or-later */\n"
	"/* " KB_LAYOUT_RECIPE ": added by kbench to its copy of the source.  KB_PAD bytes\n"
	" * of NOPs in .text, never executed: the code linked after them moves. */\n"
	"\t.section .text, \"ax\"\n"
	"\t.type KB_PAD_SYM, @object\n"
	"KB_PAD_SYM:\n"
	"\t.skip KB_PAD, 0x90\n"
	"\t.size KB_PAD_SYM, . - KB_PAD_SYM\n";

#define LAYOUT_MK_BEGIN "# kbench layout padding ("
#define LAYOUT_MK_END "# end of kbench layout padding\n"

static const struct {
	const char *dir;	/* its Makefile lists the object last */
	const char *var;	/* make variable with its size */
} layout_points[KB_LAYOUT_PADS] = {
	{ "init", "KBENCH_PAD_1" },
	{ "mm", "KBENCH_PAD_2" },
};

static unsigned long fnv1a(const char *s, unsigned long h)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619UL;
	return h & 0xffffffffUL;
}

void kb_layout_draw(struct kb_layout *l, unsigned long long seed, const char *variant, int layout)
{
	char *text;
	gsl_rng *rng;

	memset(l, 0, sizeof(*l));
	l->layout = layout;
	if (layout == 0)
		return;
	/* 32 bits: the manifest's integers stay exact in any JSON reader */
	text = kb_xasprintf("%llu:%s:%d", seed, variant, layout);
	l->seed = fnv1a(text, 2166136261UL);
	free(text);
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, l->seed);
	/*
	 * 16 to 4080 bytes in 16-byte steps.  A multiple of 16 keeps the
	 * alignment gcc asks for in .text (functions, loops and jumps at
	 * most 16), so each function's bytes and size stay the same and only
	 * addresses change (the few entry stubs the kernel aligns to a cache
	 * line may absorb part of it for the code after them).  Below 4 KiB,
	 * the set span of a 32K:8:64 L1i (sets x line) and a page, and never
	 * 0: the first point always moves the core kernel to other sets and
	 * page offsets than layout 0, the second moves the rest by another
	 * amount.
	 */
	for (int i = 0; i < KB_LAYOUT_PADS; i++)
		l->pad[i] = 16 * (long)(1 + gsl_rng_uniform_int(rng, 255));
	gsl_rng_free(rng);
}

/* Add (or bring up to date) the padding objects in kbench's own copy of
 * the source. */
static int layout_install(const struct kb_source *src)
{
	int ret = 0;

	for (int i = 0; i < KB_LAYOUT_PADS && ret >= 0; i++) {
		char *mk = kb_xasprintf("%s/%s/Makefile", src->tree, layout_points[i].dir);
		char *as = kb_xasprintf("%s/%s/kb_layout_pad.S", src->tree, layout_points[i].dir);
		char *text = NULL, *b, *e, *want;

		if (kb_read_file(mk, &text, NULL) < 0) {
			ret = kb_error("'%s': cannot read it to add kbench's layout padding", mk);
			goto next;
		}
		/* an older version's block goes */
		b = strstr(text, LAYOUT_MK_BEGIN);
		e = b ? strstr(b, LAYOUT_MK_END) : NULL;
		if (b && e)
			memmove(b, e + strlen(LAYOUT_MK_END), strlen(e + strlen(LAYOUT_MK_END)) + 1);
		want = kb_xasprintf("%s%s" LAYOUT_MK_BEGIN KB_LAYOUT_RECIPE ", added by kbench; inert "
				    "without KBENCH_LAYOUT=y)\n"
				    "obj-$(KBENCH_LAYOUT) += kb_layout_pad.o\n"
				    "AFLAGS_kb_layout_pad.o := -DKB_PAD=$(%s) -DKB_PAD_SYM=" KB_LAYOUT_PAD_SYM "%d\n"
				    LAYOUT_MK_END, text, *text && text[strlen(text) - 1] != '\n' ? "\n" : "",
				    layout_points[i].var, i + 1);
		ret = kb_write_file_if_changed(as, layout_asm);
		if (ret >= 0)
			ret = kb_write_file_if_changed(mk, want);
		free(want);
next:
		free(text);
		free(mk);
		free(as);
	}
	return ret < 0 ? -1 : 0;
}

/* kb_source_prepare, or with dry kb_source_find: nothing unpacked, copied
 * or padded. */
static int source_prepare(const struct kb_conf *conf, struct kb_source *src, int dry)
{
	char hash[65], *dir = NULL, *tmp = NULL, *content = NULL, *status = NULL;
	int ret = -1, r;

	memset(src, 0, sizeof(*src));
	if (is_dir(conf->source)) {
		struct stat st;
		char *mk = kb_xasprintf("%s/Makefile", conf->source);

		src->tree = kb_find_tree(conf->source);
		if (!src->tree || stat(mk, &st) < 0) {
			free(mk);
			return kb_error("'%s': not a kernel source tree (no Makefile and Kconfig)",
					conf->source);
		}
		free(mk);
		/* A git work tree by its commit (and its changes), built from
		 * kbench's copy of it; another tree, that changes in place, by
		 * path and Makefile time, built where it is. */
		r = git_source(conf, src->tree, &src->id, &content, &status);
		if (r < 0)
			goto out;
		if (!r) {
			src->id = kb_xasprintf("tree:%s:%lld", src->tree, (long long)st.st_mtime);
			goto version;
		}
		src->given = src->tree;
		src->tree = NULL;
		src->content = kb_xstrdup(content);
		if (git_export(conf, src->given, content, status, &src->tree, dry) < 0)
			goto out;
		src->owned = 1;
		if (!src->tree) {
			ret = 0;
			goto out;
		}
		goto version;
	}
	r = kb_sha256_file(conf->source, hash);
	if (r < 0) {
		char *pkg = r == -ENOENT ? kb_debian_source_package(conf->source) : NULL;

		if (pkg) {
			r = kb_error("kernel source '%s' not found: apt-get install %s", conf->source, pkg);
			free(pkg);
			return r;
		}
		return kb_error_errno(-r, "kernel source '%s'", conf->source);
	}
	src->id = kb_xasprintf("sha256:%s", hash);
	dir = kb_xasprintf("%s/src/%.16s", conf->cache, hash);
	src->owned = 1;
	if (!is_dir(dir) && dry) {
		ret = 0;
		goto out;
	}
	if (!is_dir(dir)) {
		char *parent = kb_xasprintf("%s/src", conf->cache);

		r = kb_mkdir_p(parent, 0755);
		free(parent);
		if (r < 0)
			goto out;
		tmp = kb_xasprintf("%s.tmp.%ld", dir, (long)getpid());
		kb_info("unpacking '%s' into %s", conf->source, dir);
		if (kb_mkdir_p(tmp, 0755) < 0)
			goto out;
		if (unpack(conf->source, tmp) < 0)
			goto out;
		/* where another kbench unpacked it first, its tree is the one
		 * used, and this one's (1.6 GiB for 6.12) goes at out */
		if (rename(tmp, dir) < 0 && !is_dir(dir)) {
			kb_error_errno(errno, "cannot rename '%s' to '%s'", tmp, dir);
			goto out;
		}
	}
	kb_touch(dir);
	src->tree = kb_find_tree(dir);
	if (!src->tree) {
		kb_error("'%s' holds no kernel source tree", conf->source);
		goto out;
	}
	src->owned = 1;
version:
	src->version = kb_tree_version(src->tree);
	if (!src->version) {
		kb_error("'%s/Makefile': no kernel VERSION/PATCHLEVEL", src->tree);
		goto out;
	}
	if (conf->layouts > 1 && !dry) {
		if (!src->owned) {
			kb_error("'layouts': %ld, but the source '%s' is a tree kbench does not own; "
				 "layout replicas need a tarball or a git work tree (kbench builds "
				 "those from its own copy)", conf->layouts, conf->source);
			goto out;
		}
		if (layout_install(src) < 0)
			goto out;
	}
	for (size_t i = 0; i < conf->n_variants && !dry && src->owned; i++)
		if (conf->variants[i].order) {
			if (kb_order_install(src->tree) < 0)
				goto out;
			break;
		}
	ret = 0;
out:
	if (tmp && is_dir(tmp))
		kb_remove_tree(tmp);
	free(dir);
	free(tmp);
	free(content);
	free(status);
	if (ret < 0)
		kb_source_release(src);
	return ret;
}

int kb_source_prepare(const struct kb_conf *conf, struct kb_source *src)
{
	return source_prepare(conf, src, 0);
}

int kb_source_find(const struct kb_conf *conf, struct kb_source *src)
{
	return source_prepare(conf, src, 1);
}

void kb_source_release(struct kb_source *src)
{
	free(src->tree);
	free(src->id);
	free(src->content);
	free(src->version);
	free(src->given);
	memset(src, 0, sizeof(*src));
}

void kb_kernel_release(struct kb_kernel *k)
{
	free(k->dir);
	free(k->bzimage);
	free(k->vmlinux);
	free(k->system_map);
	free(k->dotconfig);
	free(k->compiler);
	free(k->objdir);
	memset(k, 0, sizeof(*k));
}

/* ---- ccache ---- */

/* The ccache to compile through, or NULL: [kernel] ccache and whether it is
 * installed ($KBENCH_CCACHE, else the one configure found). */
static const char *ccache_path(const struct kb_conf *conf)
{
	const char *e = getenv("KBENCH_CCACHE"), *p = e && *e ? e : CCACHE_PROG;

	if (!strcmp(conf->ccache, "off") || !*p || access(p, X_OK) < 0)
		return NULL;
	return p;
}

/* Kbuild writes the build's time, user, host and a build count into the
 * kernel (init/version.o, the banner); fixed here, so that the same inputs
 * give the same kernel, byte for byte: two builds of one variant, and a
 * hybrid with every object from B and B itself, boot the same image. */
static void reproducible_env(void)
{
	setenv("KBUILD_BUILD_TIMESTAMP", "Thu Jan  1 00:00:00 UTC 1970", 1);
	setenv("KBUILD_BUILD_USER", "kbench", 1);
	setenv("KBUILD_BUILD_HOST", "kbench", 1);
	setenv("KBUILD_BUILD_VERSION", "1", 1);
}

/* ccache's own environment: its cache under kbench's, and paths under the
 * build cache hashed relative to each object directory, which all lie at
 * the same depth, so that variants share objects.  Depend mode: Kbuild has
 * gcc write each object's dependencies (-Wp,-MMD), and ccache keys an
 * object by them and the files they name instead of running the
 * preprocessor first, which cost a miss 20 to 30% more than gcc alone
 * (measured on 6.12's kernel/fork.c, mm/slub.c, fs/namei.c, lib/vsprintf.c
 * and kernel/sched/core.c: 1.0 to 1.4 s by gcc, 1.4 to 1.8 s through
 * ccache, 1.1 to 1.5 s in depend mode); a hit is as quick as a direct
 * one. */
static void ccache_env(const struct kb_conf *conf)
{
	char *dir = kb_xasprintf("%s/ccache", conf->cache);

	setenv("CCACHE_DIR", dir, 1);
	kb_touch(dir);
	setenv("CCACHE_BASEDIR", conf->cache, 1);
	setenv("CCACHE_NOHASHDIR", "true", 1);
	setenv("CCACHE_DEPEND", "true", 1);
	free(dir);
}

/* The shared jobserver's pipe (kb_build_jobserver), or -1. */
static int jobserver[2] = { -1, -1 };

int kb_build_jobserver(long jobs, long builds)
{
	long tokens = jobs > builds ? jobs - builds : 0;
	char *flags;

	if (pipe(jobserver) < 0)
		return kb_error_errno(errno, "cannot make a pipe for the make jobserver");
	for (long i = 0; i < tokens; i++)
		if (write(jobserver[1], "+", 1) != 1) {
			kb_build_jobserver_end();
			return kb_error_errno(errno, "cannot fill the make jobserver");
		}
	/* GNU make's client side: the two inherited descriptors */
	flags = kb_xasprintf(" -j --jobserver-auth=%d,%d", jobserver[0], jobserver[1]);
	setenv("MAKEFLAGS", flags, 1);
	free(flags);
	return 0;
}

void kb_build_jobserver_end(void)
{
	if (jobserver[0] < 0)
		return;
	close(jobserver[0]);
	close(jobserver[1]);
	jobserver[0] = jobserver[1] = -1;
	unsetenv("MAKEFLAGS");
}

/* make's -j: none under the shared jobserver, else [kernel] jobs. */
static int make_jobs(const struct kb_conf *conf)
{
	return jobserver[0] >= 0 ? 0 : (int)conf->jobs;
}

/* How a build shares the cores, for its progress line. */
static const char *jobs_words(const struct kb_conf *conf)
{
	static char buf[80];

	if (jobserver[0] >= 0)
		snprintf(buf, sizeof(buf), "a share of -j%ld with the builds beside it", conf->jobs);
	else
		snprintf(buf, sizeof(buf), "-j%ld", conf->jobs);
	return buf;
}

/* Hits (direct and preprocessed) and misses of one build, from the stats
 * log ccache kept for it alone (CCACHE_STATSLOG: one counter name a line,
 * each compilation after a "# file" line), so that builds at the same time
 * each count their own. */
static void ccache_log_counts(const char *log, long *hits, long *misses)
{
	char *text = NULL, *save = NULL;

	*hits = *misses = 0;
	if (kb_read_file(log, &text, NULL) < 0)
		return;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (!strcmp(l, "direct_cache_hit") || !strcmp(l, "preprocessed_cache_hit"))
			++*hits;
		else if (!strcmp(l, "cache_miss"))
			++*misses;
	}
	free(text);
}

/* make's CC for v (malloc'd), or NULL where make is given none; with
 * kbuild_default, "gcc" then (Kbuild's own, without CROSS_COMPILE).
 * Through ccache the compiler is the same one (the cache key and the
 * .config do not change); only its results are reused. */
static char *cc_of(const struct kb_conf *conf, const struct kb_variant *v, int kbuild_default)
{
	char *cc = NULL;

	if (ccache_path(conf))
		cc = kb_xasprintf("%s%s%s %s", v->cc_wrap ? v->cc_wrap : "", v->cc_wrap ? " " : "",
				  ccache_path(conf), v->cc ? v->cc : "gcc");
	else if (v->cc || v->cc_wrap || kbuild_default)
		cc = kb_xasprintf("%s%s%s", v->cc_wrap ? v->cc_wrap : "", v->cc_wrap ? " " : "",
				  v->cc ? v->cc : "gcc");
	return cc;
}

/* argv for make: no shell, each flag one entry. */
struct argv {
	char *v[16];
	int n;
};

static void make_argv(struct argv *a, const struct kb_conf *conf, const struct kb_source *src,
		      const struct kb_variant *v, const struct kb_layout *l, const char *objdir,
		      const char *target, int jobs)
{
	char *cc;

	a->n = 0;
	a->v[a->n++] = kb_xstrdup(MAKE_PROG);
	a->v[a->n++] = kb_xasprintf("-C%s", src->tree);
	a->v[a->n++] = kb_xasprintf("O=%s", objdir);
	a->v[a->n++] = kb_xasprintf("ARCH=%s", conf->arch);
	cc = cc_of(conf, v, 0);
	if (cc)
		a->v[a->n++] = kb_xasprintf("CC=%s", cc);
	free(cc);
	if (v->kcflags)
		a->v[a->n++] = kb_xasprintf("KCFLAGS=%s", v->kcflags);
	if (v->ld)
		a->v[a->n++] = kb_xasprintf("LD=%s", v->ld);
	if (jobs > 0)
		a->v[a->n++] = kb_xasprintf("-j%d", jobs);
	if (l && l->layout > 0) {
		a->v[a->n++] = kb_xstrdup("KBENCH_LAYOUT=y");
		for (int i = 0; i < KB_LAYOUT_PADS; i++)
			a->v[a->n++] = kb_xasprintf("%s=%ld", layout_points[i].var, l->pad[i]);
	}
	a->v[a->n++] = kb_xstrdup(target);
	a->v[a->n] = NULL;
}

static void argv_free(struct argv *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	a->n = 0;
}

/* The build in this process whose progress is shown (kb_build_watch_here). */
static struct kb_build_watch *watching;

void kb_build_watch_here(struct kb_build_watch *w)
{
	watching = w;
}

static void watch_tick(void *arg)
{
	struct kb_build_watch *w = arg;

	while (kb_build_watch_scan(w))
		kb_build_watch_show(w, 1, 0);
	kb_build_watch_show(w, 1, 0);	/* each second: the clock moves */
}

static int run_make(const struct kb_conf *conf, const struct kb_source *src,
		    const struct kb_variant *v, const struct kb_layout *l, const char *objdir,
		    const char *target, int jobs, const char *log)
{
	struct argv a;
	FILE *f = fopen(log, "a");
	int r;

	make_argv(&a, conf, src, v, l, objdir, target, jobs);
	if (f) {
		fputs("$", f);
		for (int i = 0; i < a.n; i++)
			fprintf(f, " %s", a.v[i]);
		fputc('\n', f);
		fclose(f);
	}
	r = kb_run_argv_watch(a.v, NULL, log, (double)conf->build_timeout,
			      watching ? watch_tick : NULL, watching);
	argv_free(&a);
	return r;
}

/* Value of CONFIG_name in a .config text, copied into buf: "y", "m", a
 * number or string, "n" when "is not set"; NULL when absent. */
static const char *config_value(const char *text, const char *name, char *buf, size_t size)
{
	size_t n = strlen(name);

	for (const char *l = text; *l; ) {
		size_t len = strcspn(l, "\n");

		if (!strncmp(l, "CONFIG_", 7) && !strncmp(l + 7, name, n) && l[7 + n] == '=') {
			snprintf(buf, size, "%.*s", (int)(len - 8 - n), l + 8 + n);
			return buf;
		}
		if (!strncmp(l, "# CONFIG_", 9) && !strncmp(l + 9, name, n) &&
		    !strncmp(l + 9 + n, " is not set", 11))
			return "n";
		l += len + (l[len] == '\n');
	}
	return NULL;
}

const char *kb_config_allocator(const char *dotconfig)
{
	static const char *const names[] = { "SLUB_TINY", "SLUB", "SLOB", "SLAB" };
	const char *found = NULL;
	char *text, buf[8];

	if (!dotconfig || kb_read_file(dotconfig, &text, NULL) < 0)
		return NULL;
	/* SLUB_TINY first: it is SLUB=y too */
	for (size_t i = 0; i < KB_ARRAY_SIZE(names) && !found; i++) {
		const char *v = config_value(text, names[i], buf, sizeof(buf));

		if (v && !strcmp(v, "y"))
			found = names[i];
	}
	free(text);
	return found;
}

/* Kconfig drops what it cannot satisfy without a word: every option asked
 * for must be in the final .config as asked. */
static int check_options(const char *dotconfig, const char *variant, const char *what,
			 const char *const *names, const char *const *values, size_t n)
{
	char *text, buf[256];
	int bad = 0;

	if (kb_read_file(dotconfig, &text, NULL) < 0)
		return kb_error("cannot read '%s'", dotconfig);
	for (size_t i = 0; i < n; i++) {
		const char *got = config_value(text, names[i], buf, sizeof(buf));

		if (got ? !strcmp(got, values[i]) : !strcmp(values[i], "n"))
			continue;
		kb_error("variant '%s': %s CONFIG_%s=%s, but the final .config has %s%s%s%s "
			 "(Kconfig dropped it: unmet dependency or choice?)",
			 variant, what, names[i], values[i], got ? "CONFIG_" : "no CONFIG_",
			 names[i], got ? "=" : "", got ? got : "");
		bad = 1;
	}
	free(text);
	return bad ? -1 : 0;
}

static int append_config(const char *dotconfig, const struct kb_conf *conf,
			 const struct kb_variant *v)
{
	char *frag = NULL;
	FILE *f = fopen(dotconfig, "a");

	if (!f)
		return kb_error_errno(errno, "cannot append to '%s'", dotconfig);
	fputs("\n# kbench guest fragment\n", f);
	for (const char *const *o = kb_guest_options; *o; o++)
		fprintf(f, "CONFIG_%s\n", *o);
	if (conf->fragment) {
		if (kb_read_file(conf->fragment, &frag, NULL) < 0) {
			fclose(f);
			return kb_error_errno(errno, "cannot read fragment '%s'", conf->fragment);
		}
		fprintf(f, "# %s\n%s\n", conf->fragment, frag);
		free(frag);
	}
	fprintf(f, "# variant %s\n", v->name);
	for (size_t i = 0; i < v->n_kopts; i++) {
		if (!strcmp(v->kopts[i].value, "n"))
			fprintf(f, "# CONFIG_%s is not set\n", v->kopts[i].name);
		else
			fprintf(f, "CONFIG_%s=%s\n", v->kopts[i].name, v->kopts[i].value);
	}
	return fclose(f) ? kb_error_errno(errno, "cannot write '%s'", dotconfig) : 0;
}

static int check_all(const char *dotconfig, const struct kb_variant *v)
{
	const char *gn[32], *gv[32];
	char split[32][64];
	size_t n = 0;
	const char **vn = kb_xcalloc(v->n_kopts, sizeof(*vn));
	const char **vv = kb_xcalloc(v->n_kopts, sizeof(*vv));
	int r;

	for (const char *const *o = kb_guest_options; *o && n < 32; o++, n++) {
		snprintf(split[n], sizeof(split[n]), "%s", *o);
		*strchr(split[n], '=') = '\0';
		gn[n] = split[n];
		gv[n] = strchr(*o, '=') + 1;
	}
	for (size_t i = 0; i < v->n_kopts; i++) {
		vn[i] = v->kopts[i].name;
		vv[i] = v->kopts[i].value;
	}
	r = check_options(dotconfig, v->name, "the guest fragment needs", gn, gv, n);
	if (check_options(dotconfig, v->name, "asked for", vn, vv, v->n_kopts) < 0)
		r = -1;
	free(vn);
	free(vv);
	return r;
}

static char *compiler_version(const struct kb_variant *v)
{
	char *cc = kb_xstrdup(v->cc ? v->cc : "gcc"), *argv[8], *save = NULL, *line;
	int n = 0;

	/* CC may carry flags ("ccache gcc", "gcc -m32"): split on blanks. */
	for (char *t = strtok_r(cc, " \t", &save); t && n < 6; t = strtok_r(NULL, " \t", &save))
		argv[n++] = t;
	argv[n++] = "--version";
	argv[n] = NULL;
	line = kb_capture_line(argv, 0);
	free(cc);
	return line;
}

static int lock_dir(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return kb_error_errno(errno, "cannot open lock '%s'", path);
	if (flock(fd, LOCK_EX) < 0) {
		int err = errno;

		close(fd);
		return kb_error_errno(err, "cannot lock '%s'", path);
	}
	return fd;
}

static int fill_outputs(struct kb_kernel *k)
{
	k->bzimage = kb_xasprintf("%s/bzImage", k->dir);
	k->vmlinux = kb_xasprintf("%s/vmlinux", k->dir);
	k->system_map = kb_xasprintf("%s/System.map", k->dir);
	k->dotconfig = kb_xasprintf("%s/config", k->dir);
	return is_file(k->bzimage) && is_file(k->vmlinux) && is_file(k->system_map) &&
	       is_file(k->dotconfig);
}

/* ---- hybrids ---- */

/* The compiler wrapper of a hybrid of spec, "KBENCH hybrid-cc SPEC --"
 * (malloc'd), or NULL after a message: both paths become part of CC,
 * which make expands and a shell runs. */
static char *hybrid_cc(const struct kb_variant *v, const char *spec)
{
	char *exe = kb_self_path() ? kb_xstrdup(kb_self_path()) : NULL, *wrap;
	const char *bad = exe ? exe : "/proc/self/exe";
	const char *why = exe ? kb_make_inert_path(exe) : "cannot be resolved";

	if (!why) {
		bad = spec;
		why = kb_make_inert_path(spec);
	}
	if (why) {
		kb_error("variant '%s': '%s': %s: cannot be part of the compiler of a hybrid",
			 v->name, bad, why);
		free(exe);
		return NULL;
	}
	wrap = kb_xasprintf("%s hybrid-cc %s --", exe, spec);
	free(exe);
	return wrap;
}

/* [variant] hybrid: A and B built (or from the cache), the spec of B's
 * objects under the paths, then A's build with CC through kbench hybrid-cc
 * (hybrid.h). */
static int build_hybrid(const struct kb_conf *conf, const struct kb_source *src,
			const struct kb_variant *v, const struct kb_layout *l, const char *log_path,
			struct kb_kernel *out)
{
	const struct kb_variant *a = &conf->variants[v->hy_a], *b = &conf->variants[v->hy_b];
	struct kb_kernel ka, kb;
	struct kb_hybrid_counts c;
	struct kb_variant hv;
	char *spec = NULL, *exe = NULL, *diff = NULL;
	int ret = -1, err;
	FILE *f;

	memset(out, 0, sizeof(*out));
	memset(&kb, 0, sizeof(kb));
	struct kb_variant av = *a, bv = *b;

	av.need_objects = bv.need_objects = 1;
	if (kb_build_variant(conf, src, &av, NULL, log_path, &ka) < 0) {
		kb_error("variant '%s': its variant A, '%s', did not build", v->name, a->name);
		out->failure = "variant A did not build";
		goto out;
	}
	if (kb_build_variant(conf, src, &bv, NULL, log_path, &kb) < 0) {
		kb_error("variant '%s': its variant B, '%s', did not build", v->name, b->name);
		out->failure = "variant B did not build";
		goto out;
	}
	diff = kb_hybrid_config_diff(ka.dotconfig, kb.dotconfig, &err);
	if (err || diff) {
		if (err)
			kb_error("variant '%s': cannot read the .config of '%s' or '%s'", v->name,
				 a->name, b->name);
		else
			kb_error("variant '%s': the .configs of '%s' and '%s' differ in %s, not only in "
				 "the optimization level: objects compiled for one do not fit the "
				 "other", v->name, a->name, b->name, diff);
		out->failure = "A and B have other .configs";
		goto out;
	}
	if (kb_hybrid_spec(conf->cache, v->name, &ka, &kb, v->hy_paths, v->n_hy_paths, v->hy_cflags, &spec,
			   &c) < 0) {
		out->failure = "no spec of the hybrid";
		goto out;
	}
	if (!(exe = hybrid_cc(v, spec))) {
		out->failure = "kbench's path is not make-inert";
		goto out;
	}
	f = fopen(log_path, "a");
	if (f) {
		if (v->hy_cflags)
			fprintf(f, "kbench: hybrid of '%s' and '%s': %zu objects compiled under the paths "
				"as in '%s' with '%s' (spec %s)\n", a->name, b->name, c.chosen, b->name,
				v->hy_cflags, spec);
		else
			fprintf(f, "kbench: hybrid of '%s' and '%s': %zu objects, %zu compiled differently, "
				"%zu of them under the paths, compiled as in '%s' (spec %s)\n", a->name,
				b->name, c.objects, c.differ, c.chosen, b->name, spec);
		fclose(f);
	}
	hv = *a;
	hv.name = v->name;
	hv.hy_spec = spec;
	hv.cc_wrap = exe;
	exe = NULL;
	hv.hy_a_objdir = ka.objdir;
	hv.hy_b_objdir = kb.objdir;
	hv.hy_fresh = v->hy_cflags != NULL;
	ret = kb_build_variant(conf, src, &hv, l, log_path, out);
	free((char *)hv.cc_wrap);
	out->hy_objects = c.objects;
	out->hy_differ = c.differ;
	out->hy_chosen = c.chosen;
	if (ret == 0) {
		char *d2 = kb_hybrid_config_diff(ka.dotconfig, out->dotconfig, &err);

		if (err || d2) {
			kb_error("variant '%s': its .config is not '%s''s (%s)", v->name, a->name,
				 d2 ? d2 : "unreadable");
			out->failure = "the hybrid's .config is not A's";
			ret = -1;
		}
		free(d2);
	}
out:
	kb_kernel_release(&ka);
	kb_kernel_release(&kb);
	free(spec);
	free(exe);
	free(diff);
	return ret;
}

/* A prebuilt kernel (bzimage, vmlinux): its outputs and key. */
static int prebuilt(const struct kb_variant *v, struct kb_kernel *out)
{
	out->bzimage = kb_xstrdup(v->bzimage);
	out->vmlinux = kb_xstrdup(v->vmlinux);
	if (!is_file(out->bzimage) || !is_file(out->vmlinux)) {
		out->failure = "prebuilt kernel not found";
		kb_error("variant '%s': prebuilt '%s' or '%s' not found", v->name, v->bzimage,
			 v->vmlinux);
		return -1;
	}
	if (kb_sha256_file(out->bzimage, out->key) < 0) {
		kb_error("variant '%s': cannot read '%s'", v->name, v->bzimage);
		return -1;
	}
	out->cached = 1;
	return 0;
}

/* The compiler field of v's keys: its cc, and its linker where it names
 * one (the keys of a variant without ld are as before it had the key). */
static char *cc_key(const struct kb_variant *v)
{
	if (!v->ld)
		return v->cc ? kb_xstrdup(v->cc) : NULL;
	return kb_xasprintf("%s LD=%s", v->cc ? v->cc : "", v->ld);
}

/* The key of everything that decides v's .config (the base, kbench's guest
 * options, the fragment, the variant's options, its compiler), in inkey:
 * it names the object directory.  0, or -1 after a message. */
static int config_key(const struct kb_conf *conf, const struct kb_source *src,
		      const struct kb_variant *v, const char *compiler, char inkey[65])
{
	size_t len = 0, cap = 64;
	char *guest = kb_xcalloc(1, 1024), *kopts, *frag = NULL, *basetext = NULL;

	for (const char *const *o = kb_guest_options; *o; o++)
		len += (size_t)snprintf(guest + len, 1024 - len, "%s\n", *o);
	kopts = kb_xcalloc(1, cap);
	len = 0;
	for (size_t i = 0; i < v->n_kopts; i++) {
		char *kv = kb_xasprintf("%s=%s\n", v->kopts[i].name, v->kopts[i].value);

		cap += strlen(kv);
		kopts = kb_xrealloc(kopts, cap);
		len += (size_t)sprintf(kopts + len, "%s", kv);
		free(kv);
	}
	if ((conf->fragment && kb_read_file(conf->fragment, &frag, NULL) < 0) ||
	    (kb_conf_base_is_file(conf) && kb_read_file(conf->base, &basetext, NULL) < 0)) {
		kb_error_errno(errno, "cannot read '%s'",
			       conf->fragment && !frag ? conf->fragment : conf->base);
		free(guest);
		free(kopts);
		free(frag);
		return -1;
	}
	/* a base file is keyed by what it holds, not by its name */
	/* by the files, not the commit: a commit of the same tree builds in
	 * the same object directory, where make finds the objects made */
	char *cc = cc_key(v);
	const char *fields[] = { KB_BUILD_RECIPE, src->content ? src->content : src->id, conf->arch,
				 basetext ? basetext : conf->base, guest,
				 frag ? frag : "", kopts, cc, v->kcflags, compiler, v->hy_spec,
				 KB_HYBRID_RECIPE };

	/* a hybrid has its own (its objects are not A's) */
	kb_sha256_fields(inkey, fields, KB_ARRAY_SIZE(fields) - 2 * !v->hy_spec);
	free(cc);
	free(guest);
	free(kopts);
	free(frag);
	free(basetext);
	return 0;
}

/* The cache key of v's kernel from its final .config (cfgtext), and pads,
 * a layout replica's padding ("" for layout 0), in key. */
static void kernel_key(const struct kb_conf *conf, const struct kb_source *src,
		       const struct kb_variant *v, const char *cfgtext, const char *compiler,
		       const char *pads, const char *order_sha, char key[65])
{
	char *order = order_sha ? kb_xasprintf(" order %s %s", order_sha, KB_ORDER_RECIPE) : NULL;
	char *extra = v->hy_spec ? kb_xasprintf("%s hybrid %s %s%s", pads, v->hy_spec, KB_HYBRID_RECIPE,
						order ? order : "")
		      : order ? kb_xasprintf("%s%s", pads, order) : NULL;
	char *cc = cc_key(v);
	const char *fields[] = { KB_BUILD_RECIPE, src->id, conf->arch, cfgtext,
				 cc, v->kcflags, compiler, extra ? extra : pads };

	/* layout 0 keeps the key of a build without the feature */
	kb_sha256_fields(key, fields, KB_ARRAY_SIZE(fields) - !(pads[0] || extra));
	free(cc);
	free(extra);
	free(order);
}

/* A lab's own .config as the base ([kernel] base = FILE): which of its
 * options the final .config has otherwise (kbench's guest fragment, the
 * [kernel] fragment, the variant's options, then olddefconfig), each a
 * line in the build log and the first few in a message.  The number
 * changed, or -1 when a file cannot be read. */
static long base_changes(const char *base, const char *dotconfig, const char *variant,
			 const char *log_path)
{
	char *btext = NULL, *ftext = NULL, name[256], want[256], buf[256], *list = NULL;
	size_t listlen = 0;
	long n = 0, total = 0;
	FILE *log, *lf;

	if (kb_read_file(base, &btext, NULL) < 0 || kb_read_file(dotconfig, &ftext, NULL) < 0) {
		free(btext);
		return -1;
	}
	log = fopen(log_path, "a");
	lf = open_memstream(&list, &listlen);
	if (!lf)
		abort();
	for (const char *l = btext; *l; ) {
		size_t len = strcspn(l, "\n");
		const char *got;
		int k = 0;

		if (sscanf(l, "CONFIG_%255[A-Za-z0-9_]=%n", name, &k) == 1 && k > 0 && (size_t)k <= len)
			snprintf(want, sizeof(want), "%.*s", (int)(len - (size_t)k), l + k);
		else if (sscanf(l, "# CONFIG_%255[A-Za-z0-9_] is not se%1[t]", name, buf) == 2)
			snprintf(want, sizeof(want), "n");
		else
			name[0] = '\0';
		l += len + (l[len] == '\n');
		if (!name[0])
			continue;
		total++;
		got = config_value(ftext, name, buf, sizeof(buf));
		if (got ? !strcmp(got, want) : !strcmp(want, "n"))
			continue;
		if (log)
			fprintf(log, "kbench: base config: CONFIG_%s=%s in '%s', %s%s in the final .config\n",
				name, want, base, got ? "=" : "absent", got ? got : "");
		if (n < 8)
			fprintf(lf, "%sCONFIG_%s %s -> %s", n ? ", " : "", name, want, got ? got : "absent");
		n++;
	}
	fclose(lf);
	if (log)
		fclose(log);
	kb_info("variant '%s': %ld of the %ld options of base '%s' are otherwise in the final .config "
		"(kbench's guest fragment, the fragment, the variant's options, olddefconfig)%s%s%s",
		variant, n, total, base, n ? ": " : "", n ? list : "",
		n > 8 ? ", ... (all in the build log)" : "");
	free(list);
	free(btext);
	free(ftext);
	return n;
}

/* v's .config in objdir: the base, then the guest's and the variant's
 * options, then olddefconfig, unless stamp says it was made; then the
 * check that Kconfig kept every option asked for.  0, or -1 after a
 * message (out->failure says which step). */
static int configure(const struct kb_conf *conf, const struct kb_source *src,
		     const struct kb_variant *v, const char *objdir, const char *dotconfig,
		     const char *stamp, const char *log_path, struct kb_kernel *out)
{
	if (!is_file(stamp) || !is_file(dotconfig)) {
		unlink(stamp);
		if (kb_conf_base_is_file(conf)) {	/* a lab's .config, as it is */
			if (kb_copy_file(conf->base, dotconfig) < 0) {
				out->failure = "base configuration failed";
				return -1;
			}
		} else if (run_make(conf, src, v, NULL, objdir, conf->base, 0, log_path) != 0) {
			out->failure = "base configuration failed";
			kb_error("variant '%s': 'make %s' failed; log: %s", v->name, conf->base, log_path);
			kb_print_tail(stderr, log_path, 20, "kbench:   | ");
			return -1;
		}
		if (append_config(dotconfig, conf, v) < 0)
			return -1;
		if (run_make(conf, src, v, NULL, objdir, "olddefconfig", 0, log_path) != 0) {
			out->failure = "olddefconfig failed";
			kb_error("variant '%s': 'make olddefconfig' failed; log: %s", v->name, log_path);
			kb_print_tail(stderr, log_path, 20, "kbench:   | ");
			return -1;
		}
	}
	/* said on every build, configured now or before */
	if (kb_conf_base_is_file(conf) && base_changes(conf->base, dotconfig, v->name, log_path) < 0) {
		out->failure = "base configuration failed";
		return kb_error("variant '%s': cannot compare '%s' with '%s'", v->name, conf->base,
				dotconfig);
	}
	if (check_all(dotconfig, v) < 0) {
		out->failure = "Kconfig dropped options asked for";
		unlink(stamp);	/* configure again next time, the options may change */
		return -1;
	}
	return kb_write_file_atomic(stamp, "ok\n", 3);
}

/* Whether objdir holds a build of v to take objects from: its vmlinux,
 * linked from them. */
static int objdir_built(const char *objdir)
{
	char *p = kb_xasprintf("%s/vmlinux", objdir);
	int r = is_file(p);

	free(p);
	return r;
}

/* A hybrid's object directory, started from A's (kb_hybrid_seed), unless
 * it was before or holds a build of its own; for_make (the kernel is not
 * in the cache: make is to run), also where it was seeded for another
 * compiler (kbench at another path).  Under the locks of A's and B's
 * directories, so that no build there changes what is copied. */
static int seed_hybrid(const struct kb_conf *conf, const struct kb_variant *v, const char *objdir,
		       const char *log_path, int for_make)
{
	char *seeded = kb_xasprintf("%s/.kbench-seed", objdir);
	char *seeding = kb_xasprintf("%s/.kbench-seeding", objdir);
	char *la = NULL, *lb = NULL, *cc_a = NULL, *cc_h = NULL;
	struct kb_variant av = *v;
	int fa = -1, fb = -1, ret = 0;

	/* seeded, for this compiler; or, until make is to run (the kernel may
	 * be in the cache), for any */
	cc_h = cc_of(conf, v, 1);
	if (is_file(seeded) ? !for_make || kb_hybrid_seeded_for(objdir, cc_h)
			    : !is_file(seeding) && objdir_built(objdir))
		goto out;
	la = kb_xasprintf("%s.lock", v->hy_a_objdir);
	lb = kb_xasprintf("%s.lock", v->hy_b_objdir);
	/* in the order of their names: a hybrid of B and A beside one of A
	 * and B never holds one while it waits for the other */
	if (strcmp(la, lb) > 0) {
		char *t = la;

		la = lb;
		lb = t;
	}
	fa = lock_dir(la);
	if (fa < 0 || (strcmp(la, lb) && (fb = lock_dir(lb)) < 0)) {
		ret = -1;
		goto out;
	}
	av.cc_wrap = NULL;
	cc_a = cc_of(conf, &av, 1);
	ret = kb_hybrid_seed(v->name, objdir, v->hy_a_objdir, v->hy_b_objdir, v->hy_spec, v->hy_fresh,
			     cc_a, cc_h, log_path);
out:
	if (fb >= 0)
		close(fb);
	if (fa >= 0)
		close(fa);
	free(la);
	free(lb);
	free(cc_a);
	free(cc_h);
	free(seeded);
	free(seeding);
	return ret;
}

/* The first line of the file at path (malloc'd), or NULL. */
static char *first_line(const char *path)
{
	char *text = NULL;

	if (kb_read_file_max(path, &text, NULL, 1 << 16) < 0)
		return NULL;
	text[strcspn(text, "\n")] = '\0';
	if (!*text) {
		free(text);
		return NULL;
	}
	return text;
}

/* A git work tree's copy whose object directory holds no build: started
 * from the object directory of the previous copy of the same tree (its
 * "previous" file, git_export's), for the same configuration, when that
 * one holds a build.  The copy's unchanged files are hard links to that
 * copy's, with their times, and its changed files new ones, and cp -a
 * keeps the objects' times: make compiles what changed and what depends
 * on it, no more.  Under the lock of the directory copied, so that no
 * build there changes it meanwhile.  0 (started from it or not), -1 after
 * a message. */
static int seed_from_previous(const struct kb_conf *conf, const struct kb_source *src,
			      const struct kb_variant *v, const char *compiler, const char *objdir,
			      const char *log_path)
{
	char *top, *prevdir = NULL, *prevcontent = NULL, *prevobj = NULL, *lock = NULL, *from = NULL;
	char *path, inkey[65];
	struct kb_source ps;
	int fd = -1, ret = 0;

	if (!src->given || !src->tree || v->hy_a_objdir || v->hy_spec || objdir_built(objdir))
		return 0;
	top = kb_xstrndup(src->tree, (size_t)(strrchr(src->tree, '/') - src->tree));
	path = kb_xasprintf("%s/previous", top);
	prevdir = first_line(path);
	free(path);
	if (prevdir) {
		path = kb_xasprintf("%s/content", prevdir);
		prevcontent = first_line(path);
		free(path);
	}
	if (!prevcontent)
		goto out;
	ps = *src;
	ps.content = prevcontent;
	if (config_key(conf, &ps, v, compiler, inkey) < 0) {
		ret = -1;
		goto out;
	}
	prevobj = kb_xasprintf("%s/tree/kbench-obj-%.16s", prevdir, inkey);
	if (!objdir_built(prevobj))
		goto out;
	lock = kb_xasprintf("%s.lock", prevobj);
	fd = lock_dir(lock);
	if (fd < 0) {
		ret = -1;
		goto out;
	}
	from = kb_xasprintf("%s/.", prevobj);
	{
		char *argv[] = { "cp", "-a", "--reflink=auto", from, (char *)objdir, NULL };

		if (kb_run_argv(argv, NULL, log_path) != 0) {
			/* what it copied goes: a half-copied directory would
			 * hold objects make takes for made */
			kb_warn("variant '%s': the object directory of the previous copy (%s) could not be "
				"copied (its log: %s); built from nothing", v->name, prevobj, log_path);
			if (kb_remove_tree(objdir) < 0 || kb_mkdir_p(objdir, 0755) < 0)
				ret = -1;
			goto out;
		}
	}
	kb_info("variant '%s': its object directory started from the previous copy's (%s): make "
		"compiles what changed", v->name, prevobj);
out:
	if (fd >= 0)
		close(fd);
	free(top);
	free(prevdir);
	free(prevcontent);
	free(prevobj);
	free(lock);
	free(from);
	return ret;
}

/* The build out->dir names is in the cache: out's outputs filled, its log
 * appended to the run's (the run keeps the log of the build it used). */
static int from_cache(struct kb_kernel *out, const char *log_path)
{
	char *cached_log, *text = NULL;
	FILE *f;

	if (!fill_outputs(out))
		return 0;
	cached_log = kb_xasprintf("%s/build.log", out->dir);
	f = fopen(log_path, "a");
	if (f) {
		fprintf(f, "kbench: cached build %s; its log follows\n", out->dir);
		if (kb_read_file(cached_log, &text, NULL) == 0)
			fputs(text, f);
		/* its step lines are that build's, not this one's (progress.c) */
		fprintf(f, "%s%s\n", text && *text && text[strlen(text) - 1] != '\n' ? "\n" : "",
			"kbench: end of the cached build's log");
		fclose(f);
	}
	free(text);
	free(cached_log);
	out->cached = 1;
	kb_touch(out->dir);
	return 1;
}

/* Where the cache keeps how many objects ("  CC " lines) a whole build of
 * this source and .config compiles, for the next one's "N of M": no
 * Makefile says it before make has run.  The flags, the compiler's
 * version aside (in the .config), do not change which files compile. */
static char *objects_path(const struct kb_conf *conf, const struct kb_source *src,
			  const char *cfgtext)
{
	const char *fields[] = { "kbench-objects-1", src->id, conf->arch, cfgtext };
	char key[65];

	kb_sha256_fields(key, fields, KB_ARRAY_SIZE(fields));
	return kb_xasprintf("%s/objects/%.16s", conf->cache, key);
}

/* "  CC " lines of log past byte from. */
static long count_objects(const char *log, long from)
{
	char *text = NULL;
	size_t len = 0;
	long n = 0;

	if (kb_read_file(log, &text, &len) < 0)
		return -1;
	for (char *p = (size_t)from <= len ? text + from : text + len; (p = strstr(p, "\n  CC ")); p++)
		n++;
	free(text);
	return n;
}

/* make bzImage in objdir, ccache's counts of it in out (and the log).
 * 0, or -1 after a message. */
static int make_bzimage(const struct kb_conf *conf, const struct kb_source *src,
			const struct kb_variant *v, const struct kb_layout *l, const char *objdir,
			const char *log_path, const char *cfgtext, struct kb_kernel *out)
{
	char *statslog = NULL, *init = kb_xasprintf("%s/init", objdir);
	char *count = objects_path(conf, src, cfgtext), *text = NULL;
	/* a whole build: nothing compiled in objdir yet */
	int whole = !is_dir(init), r;
	long total = -1, from = -1;
	struct stat st;

	free(init);
	if (kb_read_file(count, &text, NULL) == 0)
		total = strtol(text, NULL, 10);
	free(text);
	/* an estimate from an earlier whole build would be wrong for a partial one */
	kb_build_step(log_path, KB_STEP_COMPILING, l ? l->layout : 0, whole ? total : -1, 0, 0);
	if (stat(log_path, &st) == 0)
		from = (long)st.st_size - 1;	/* from its last newline */

	if (ccache_path(conf)) {
		statslog = kb_xasprintf("%s/.kbench-ccache-stats", objdir);
		unlink(statslog);
		setenv("CCACHE_STATSLOG", statslog, 1);
	}
	r = run_make(conf, src, v, l, objdir, "bzImage", make_jobs(conf), log_path);
	if (statslog) {
		FILE *f = fopen(log_path, "a");

		unsetenv("CCACHE_STATSLOG");
		ccache_log_counts(statslog, &out->ccache_hits, &out->ccache_misses);
		if (f) {
			fprintf(f, "kbench: ccache: %ld of %ld compilations from the cache\n",
				out->ccache_hits, out->ccache_hits + out->ccache_misses);
			fclose(f);
		}
		free(statslog);
	}
	if (r == 0 && whole && from >= 0) {
		long n = count_objects(log_path, from);
		char *dir = kb_xasprintf("%s/objects", conf->cache), *num = kb_xasprintf("%ld\n", n);

		if (n > 0 && n != total && kb_mkdir_p(dir, 0755) == 0)
			kb_write_file_atomic(count, num, strlen(num));
		free(dir);
		free(num);
	}
	free(count);
	if (r != 0) {
		out->failure = "kernel build failed";
		kb_error("variant '%s': kernel build failed (make exit %d); last lines of %s:",
			 v->name, r, log_path);
		kb_print_tail(stderr, log_path, 20, "kbench:   | ");
		return -1;
	}
	return 0;
}

/* Copy the outputs from objdir into the content-keyed directory out->dir
 * through tmp, then rename it in place: a cache entry is complete or
 * absent.  0, or -1 after a message (tmp is left for the caller to
 * remove). */
static int store_outputs(const struct kb_variant *v, const char *objdir, const char *tmp,
			 const char *log_path, struct kb_kernel *out)
{
	static const char *const files[][2] = {
		{ "arch/x86/boot/bzImage", "bzImage" }, { "vmlinux", "vmlinux" },
		{ "System.map", "System.map" }, { ".config", "config" },
	};
	char *d;

	if (kb_mkdir_p(tmp, 0755) < 0)
		return -1;
	for (size_t i = 0; i < KB_ARRAY_SIZE(files); i++) {
		char *s = kb_xasprintf("%s/%s", objdir, files[i][0]);
		int r;

		d = kb_xasprintf("%s/%s", tmp, files[i][1]);
		r = kb_copy_file(s, d);
		free(s);
		free(d);
		if (r < 0)
			return -1;
	}
	d = kb_xasprintf("%s/build.log", tmp);
	kb_copy_file(log_path, d);
	free(d);
	if (rename(tmp, out->dir) < 0 && !is_dir(out->dir)) {
		kb_error_errno(errno, "cannot rename '%s' to '%s'", tmp, out->dir);
		return -1;
	}
	free(out->bzimage);
	free(out->vmlinux);
	free(out->system_map);
	free(out->dotconfig);
	if (!fill_outputs(out)) {
		kb_error("variant '%s': cache entry '%s' is incomplete", v->name, out->dir);
		return -1;
	}
	return 0;
}

/* An ordered variant v (order = FILE): its unordered build (the same
 * variant without the order, its objects kept), then the objects that
 * define the order's functions (kb_order_objects) in the spec of a hybrid
 * of that build with itself, those objects compiled with
 * -ffunction-sections (hybrid.h: the object directory a copy of the
 * unordered build's, those objects compiled anew, then a link), which
 * build_variant builds with the order's rule.  Every other object is the
 * unordered build's: a new order costs the compilation of its objects
 * (ccache has those it compiled before) and a link, not a build. */
static int build_ordered(const struct kb_conf *conf, const struct kb_source *src,
			 const struct kb_variant *v, const struct kb_layout *l, const char *log_path,
			 struct kb_kernel *out)
{
	struct kb_order_file order = { 0 };
	struct kb_variant pv = *v, hv;
	struct kb_kernel kp;
	struct kb_hybrid_counts c;
	char **objs = NULL, *spec = NULL;
	size_t nobjs = 0, defined = 0;
	int ret = -1;
	FILE *f;

	memset(out, 0, sizeof(*out));
	memset(&kp, 0, sizeof(kp));
	out->ccache_hits = out->ccache_misses = -1;
	if (kb_order_file_read(v->order, &order) < 0) {
		out->failure = "the order cannot be read";
		return kb_error("variant '%s': order '%s' not usable", v->name, v->order);
	}
	pv.order = NULL;
	pv.need_objects = 1;
	if (kb_build_variant(conf, src, &pv, NULL, log_path, &kp) < 0) {
		kb_error("variant '%s': its unordered build did not build", v->name);
		out->failure = "the unordered build failed";
		goto out;
	}
	if (kb_order_objects(&order, kp.objdir, &objs, &nobjs, &defined) < 0) {
		out->failure = "the unordered build's objects cannot be read";
		goto out;
	}
	if (!nobjs) {
		kb_error("variant '%s': order '%s': none of its %zu functions is defined in the main "
			 "text of an object of the kernel (%s): nothing to place", v->name, v->order,
			 order.n, kp.objdir);
		out->failure = "the order names no function of the kernel";
		goto out;
	}
	if (kb_hybrid_spec(conf->cache, v->name, &kp, &kp, objs, nobjs, KB_ORDER_CFLAGS, &spec,
			   &c) < 0) {
		out->failure = "no spec of the ordered build";
		goto out;
	}
	f = fopen(log_path, "a");
	if (f) {
		fprintf(f, "kbench: order %s: %zu of its %zu functions defined in %zu objects, %zu of "
			"them compiled with %s (spec %s), every other object the unordered build's\n",
			order.path, defined, order.n, nobjs, c.chosen, KB_ORDER_CFLAGS, spec);
		fclose(f);
	}
	hv = pv;
	hv.order = v->order;
	hv.need_objects = v->need_objects;
	hv.hy_spec = spec;
	if (!(hv.cc_wrap = hybrid_cc(v, spec))) {
		out->failure = "kbench's path is not make-inert";
		goto out;
	}
	hv.hy_a_objdir = hv.hy_b_objdir = kp.objdir;
	hv.hy_fresh = 1;
	ret = kb_build_variant(conf, src, &hv, l, log_path, out);
	free((char *)hv.cc_wrap);
out:
	kb_order_objects_free(objs, nobjs);
	kb_order_file_release(&order);
	kb_kernel_release(&kp);
	free(spec);
	return ret;
}

/* Where an ordered build put the functions its order names (System.map
 * of objdir), in the build log and a message.  0, or -1 after a message. */
static int order_said(const struct kb_variant *v, const struct kb_order_file *o, const char *objdir,
		      const char *log_path)
{
	char *map = kb_xasprintf("%s/System.map", objdir);
	size_t found, rising;
	FILE *f;
	int r = kb_order_check(o, map, &found, &rising);

	free(map);
	if (r < 0)
		return -1;
	kb_info("variant '%s': order '%s': %zu of its %zu functions are in the kernel's text, %zu of "
		"the %zu pairs of one and the next at rising addresses (the others sit in sections "
		"the order cannot move, such as .entry.text and .noinstr.text)", v->name, o->path,
		found, o->n, rising, found ? found - 1 : 0);
	f = fopen(log_path, "a");
	if (f) {
		fprintf(f, "kbench: order %s: %zu of %zu functions found, %zu of %zu pairs rising\n",
			o->path, found, o->n, rising, found ? found - 1 : 0);
		fclose(f);
	}
	return 0;
}

/* kb_build_variant, or with config_only its configuration alone: the
 * final .config in the object directory, the key, and whether the cache
 * has that kernel (out->cached), nothing compiled */
static int build_variant(const struct kb_conf *conf, const struct kb_source *src,
			 const struct kb_variant *v, const struct kb_layout *l,
			 const char *log_path, struct kb_kernel *out, int config_only)
{
	char inkey[65], pads[64] = "", *objdir = NULL, *dotconfig = NULL, *stamp = NULL, *lock = NULL;
	char *cfgtext = NULL, *tmp = NULL, order_sha[65] = "", *ohdr = NULL;
	struct kb_order_file order = { 0 };
	struct kb_variant ov;
	double t0 = kb_now();
	int ret = -1, lockfd = -1;

	if (v->hybrid)
		return build_hybrid(conf, src, v, l, log_path, out);
	memset(out, 0, sizeof(*out));
	out->ccache_hits = out->ccache_misses = -1;
	if (v->order) {
		/* the order's contents in the kernel's key; its object directory
		 * is that of the hybrid build_ordered makes */
		if (!src->owned) {
			out->failure = "order needs kbench's own copy of the source";
			return kb_error("variant '%s': order: the source '%s' is a tree kbench does not "
					"own; an ordered kernel needs a tarball or a git work tree (kbench "
					"builds those from its own copy, where it adds the order's hook)",
					v->name, conf->source);
		}
		if (config_only) {
			/* the unordered build's configuration: the same .config */
			ov = *v;
			ov.order = NULL;
			v = &ov;
		} else if (!v->hy_spec) {
			return build_ordered(conf, src, v, l, log_path, out);
		} else if (kb_order_file_read(v->order, &order) < 0 ||
			   kb_sha256_file(v->order, order_sha) < 0) {
			out->failure = "the order cannot be read";
			kb_order_file_release(&order);
			return kb_error("variant '%s': order '%s' not usable", v->name, v->order);
		}
	}
	/* only kbench says whether the padding is in (make reads the environment) */
	unsetenv("KBENCH_LAYOUT");
	for (int i = 0; i < KB_LAYOUT_PADS; i++)
		unsetenv(layout_points[i].var);
	if (l && l->layout > 0) {
		if (v->bzimage) {
			out->failure = "a prebuilt kernel has no layouts";
			kb_error("variant '%s': prebuilt: no layout %d", v->name, l->layout);
			return -1;
		}
		snprintf(pads, sizeof(pads), "%s pads %ld,%ld", KB_LAYOUT_RECIPE, l->pad[0], l->pad[1]);
	}
	if (!strcmp(conf->ccache, "on") && !ccache_path(conf)) {
		out->failure = "ccache not found";
		kb_error("variant '%s': ccache = on, but there is no ccache (apt-get install ccache)",
			 v->name);
		return -1;
	}
	reproducible_env();
	if (ccache_path(conf))
		ccache_env(conf);
	if (v->bzimage) {
		ret = prebuilt(v, out);
		goto out;
	}
	out->compiler = compiler_version(v);
	if (!out->compiler) {
		out->failure = "compiler does not run";
		kb_error("variant '%s': cannot run compiler '%s'", v->name, v->cc ? v->cc : "gcc");
		goto out;
	}
	if (config_key(conf, src, v, out->compiler, inkey) < 0)
		goto out;
	/* in kbench's own tree, right under its top, Kbuild's srctree is ".."
	 * and every path a compilation names is relative: the same file
	 * compiled from another copy is the same to ccache */
	objdir = src->owned ? kb_xasprintf("%s/kbench-obj-%.16s", src->tree, inkey)
			    : kb_xasprintf("%s/obj/%.16s", conf->cache, inkey);
	out->objdir = kb_xstrdup(objdir);
	if (kb_mkdir_p(objdir, 0755) < 0)
		goto out;
	lock = kb_xasprintf("%s.lock", objdir);
	/* the step begins with waiting for the lock: its time is the user's */
	kb_build_step(log_path, KB_STEP_CONFIGURING, l ? l->layout : 0, -1, 0, 0);
	lockfd = lock_dir(lock);
	kb_touch(objdir);
	if (lockfd < 0)
		goto out;
	if (v->hy_a_objdir && seed_hybrid(conf, v, objdir, log_path, 0) < 0) {
		out->failure = "the hybrid's objects could not be set up";
		goto out;
	}
	dotconfig = kb_xasprintf("%s/.config", objdir);
	stamp = kb_xasprintf("%s/.kbench-config", objdir);
	if (configure(conf, src, v, objdir, dotconfig, stamp, log_path, out) < 0)
		goto out;
	if (kb_read_file(dotconfig, &cfgtext, NULL) < 0) {
		kb_error("cannot read '%s'", dotconfig);
		goto out;
	}
	kernel_key(conf, src, v, cfgtext, out->compiler, pads, order.n ? order_sha : NULL, out->key);
	out->dir = kb_xasprintf("%s/kernels/%s", conf->cache, out->key);
	if (config_only) {
		struct kb_kernel in_cache = { .dir = out->dir };

		/* an ordered kernel's key needs its unordered build's objects:
		 * whether the cache has it is not known here */
		out->cached = v == &ov ? -1 : fill_outputs(&in_cache);
		free(in_cache.bzimage);
		free(in_cache.vmlinux);
		free(in_cache.system_map);
		free(in_cache.dotconfig);
		out->dotconfig = kb_xstrdup(dotconfig);
		ret = 0;
		goto out;
	}
	if (!objdir_built(objdir) && v->need_objects)
		kb_info("variant '%s': its kernel is in the cache, its objects are not (%s): built "
			"again for the hybrids made of it", v->name, objdir);
	else if (from_cache(out, log_path)) {
		ret = 0;
		goto out;
	}
	/* a new copy of a git work tree: from the previous copy's objects */
	if (seed_from_previous(conf, src, v, out->compiler, objdir, log_path) < 0) {
		out->failure = "the object directory could not be started from the previous copy's";
		goto out;
	}
	/* a copy seeded by kbench at another path: seeded again, or make
	 * would compile every object anew for the other compiler's name */
	if (v->hy_a_objdir && seed_hybrid(conf, v, objdir, log_path, 1) < 0) {
		out->failure = "the hybrid's objects could not be set up";
		goto out;
	}
	/* the rule of an ordered build, or none (another variant with the
	 * same flags shares the object directory), for make to read */
	{
		char *hpath = kb_xasprintf("%s/include/generated/kbench-order.h", objdir);
		char *lds = kb_xasprintf("%s/arch/x86/kernel/vmlinux.lds", objdir);
		int r = 0;	/* 1: the rule changed */

		if (order.n) {
			ohdr = kb_order_header(&order);
			r = kb_write_file_if_changed(hpath, ohdr);
			if (r < 0)
				out->failure = "the order's rule could not be written";
		} else if (unlink(hpath) == 0) {
			r = 1;
		} else if (errno != ENOENT) {
			r = kb_error_errno(errno, "cannot remove '%s'", hpath);
		}
		/* where the rule changed, the linker script is made again: one
		 * made without it (the unordered build's, in a copy of its
		 * objects) does not name it among what it depends on */
		if (r > 0 && unlink(lds) < 0 && errno != ENOENT)
			r = kb_error_errno(errno, "cannot remove '%s'", lds);
		free(hpath);
		free(lds);
		if (r < 0)
			goto out;
	}
	if (pads[0])
		kb_info("building variant '%s' layout %d (%s, padding %ld and %ld bytes, %s%s); "
			"log: %s", v->name, l->layout, src->version, l->pad[0], l->pad[1],
			jobs_words(conf), ccache_path(conf) ? ", ccache" : "", log_path);
	else
		kb_info("building variant '%s' (%s, %s%s); log: %s", v->name, src->version,
			jobs_words(conf), ccache_path(conf) ? ", ccache" : "", log_path);
	if (make_bzimage(conf, src, v, l, objdir, log_path, cfgtext, out) < 0)
		goto out;
	if (order.n && order_said(v, &order, objdir, log_path) < 0)
		goto out;
	tmp = kb_xasprintf("%s.tmp.%ld", out->dir, (long)getpid());
	if (store_outputs(v, objdir, tmp, log_path, out) < 0)
		goto out;
	ret = 0;
out:
	/* the one duration of a build: the wall time the user waits for this
	 * kernel, from the call to here (the object directory's lock, the
	 * configuration, make with its share of the jobs, the copy into the
	 * cache); make's own time alone would hide the waits */
	out->seconds = kb_now() - t0;
	if (objdir)
		kb_build_step(log_path, ret == 0 ? KB_STEP_DONE : KB_STEP_FAILED, l ? l->layout : 0,
			      -1, out->seconds, out->cached);
	if (lockfd >= 0)
		close(lockfd);
	if (tmp && is_dir(tmp))
		kb_remove_tree(tmp);
	free(tmp);
	free(objdir);
	free(dotconfig);
	free(stamp);
	free(lock);
	free(cfgtext);
	free(ohdr);
	kb_order_file_release(&order);
	if (ret < 0) {
		const char *failure = out->failure ? out->failure : "build step failed";

		kb_kernel_release(out);
		out->failure = failure;
	}
	return ret;
}

int kb_build_variant(const struct kb_conf *conf, const struct kb_source *src,
		     const struct kb_variant *v, const struct kb_layout *l, const char *log_path,
		     struct kb_kernel *out)
{
	return build_variant(conf, src, v, l, log_path, out, 0);
}

int kb_build_configure(const struct kb_conf *conf, const struct kb_source *src,
		       const struct kb_variant *v, const char *log_path, struct kb_kernel *out)
{
	if (v->hybrid || v->bzimage) {
		memset(out, 0, sizeof(*out));
		out->failure = v->hybrid ? "a hybrid: configured with the variants it is made of"
					 : "prebuilt: no configuration of kbench's";
		return -1;
	}
	return build_variant(conf, src, v, NULL, log_path, out, 1);
}

int kb_build_lookup(const struct kb_conf *conf, const struct kb_source *src,
		    const struct kb_variant *v, const struct kb_layout *l, struct kb_kernel *out,
		    const char **why)
{
	char inkey[65], pads[64] = "", *objdir = NULL, *dotconfig = NULL, *stamp = NULL;
	char *cfgtext = NULL;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	*why = NULL;
	if (v->hybrid || v->bzimage || v->order) {
		*why = v->hybrid ? "a hybrid: its key needs its variants' objects"
		       : v->order ? "ordered: its key needs its unordered build's objects" : "prebuilt";
		return -1;
	}
	if (l && l->layout > 0)
		snprintf(pads, sizeof(pads), "%s pads %ld,%ld", KB_LAYOUT_RECIPE, l->pad[0], l->pad[1]);
	out->compiler = compiler_version(v);
	if (!out->compiler) {
		*why = "its compiler does not run";
		return 0;
	}
	if (!src->tree) {
		*why = "the source is not unpacked or copied into the cache yet";
		return 0;
	}
	if (config_key(conf, src, v, out->compiler, inkey) < 0) {
		*why = "its configuration's files cannot be read";
		return -1;
	}
	/* where kb_build_variant configures it, and the key it then computes */
	objdir = src->owned ? kb_xasprintf("%s/kbench-obj-%.16s", src->tree, inkey)
			    : kb_xasprintf("%s/obj/%.16s", conf->cache, inkey);
	dotconfig = kb_xasprintf("%s/.config", objdir);
	stamp = kb_xasprintf("%s/.kbench-config", objdir);
	if (!is_file(stamp) || kb_read_file(dotconfig, &cfgtext, NULL) < 0) {
		*why = "never configured with this source, configuration and compiler";
		goto out;
	}
	kernel_key(conf, src, v, cfgtext, out->compiler, pads, NULL, out->key);
	out->dir = kb_xasprintf("%s/kernels/%s", conf->cache, out->key);
	if (fill_outputs(out)) {
		out->cached = 1;
		ret = 1;
	} else {
		*why = "configured before, but no kernel of its key is in the cache";
	}
out:
	free(objdir);
	free(dotconfig);
	free(stamp);
	free(cfgtext);
	return ret;
}
