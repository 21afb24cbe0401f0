// SPDX-License-Identifier: GPL-2.0-or-later
/* The results store: append-only sample files and atomically rewritten
 * summaries, so a killed run loses nothing that was finished. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store.h"
#include "util.h"

/* The run's subdirectories, and a manifest that names the run. */
static int populate(struct kb_store *s)
{
	static const char *const sub[] = { "variants", "boots" };

	for (size_t i = 0; i < KB_ARRAY_SIZE(sub); i++) {
		char *p = kb_store_path(s, "%s", sub[i]);
		int r = kb_mkdir_p(p, 0755);

		free(p);
		if (r < 0)
			return r;
	}
	return 0;
}

int kb_store_create(struct kb_store *s, const char *output_dir)
{
	char stamp[32], *tmp;
	time_t now = time(NULL);
	struct tm tm;

	memset(s, 0, sizeof(*s));
	if (kb_mkdir_p(output_dir, 0755) < 0)
		return -1;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	/* The run directory appears whole, manifest and all (made under a
	 * hidden name, then renamed): a run killed at once leaves no
	 * directory that resume and report cannot read. */
	tmp = kb_xasprintf("%s/.new-%s.XXXXXX", output_dir, stamp);
	if (!mkdtemp(tmp)) {
		int err = errno;

		free(tmp);
		return kb_error_errno(err, "cannot create a run directory in '%s'", output_dir);
	}
	s->dir = tmp;
	s->manifest = json_object();
	if (populate(s) < 0)
		goto fail;
	/* Two runs in the same second get -2, -3...: rename is the arbiter
	 * (it fails onto a run directory, which is never empty). */
	for (int i = 1; i < 1000; i++) {
		char *id = i == 1 ? kb_xstrdup(stamp) : kb_xasprintf("%s-%d", stamp, i);
		char *dir = kb_xasprintf("%s/%s", output_dir, id);

		json_object_set_new(s->manifest, "run_id", json_string(id));
		json_object_set_new(s->manifest, "state", json_string("starting"));
		if (kb_store_save_manifest(s) < 0) {
			free(id);
			free(dir);
			goto fail;
		}
		if (rename(tmp, dir) == 0) {
			s->id = id;
			s->dir = dir;
			free(tmp);
			return 0;
		}
		free(id);
		free(dir);
		if (errno != EEXIST && errno != ENOTEMPTY) {
			kb_error_errno(errno, "cannot create a run directory in '%s'", output_dir);
			goto fail;
		}
	}
	kb_error("cannot create a run directory in '%s': 999 runs started in one second", output_dir);
fail:
	kb_remove_tree(tmp);
	json_decref(s->manifest);
	s->manifest = NULL;
	free(tmp);
	s->dir = NULL;
	return -1;
}

/* Cut a torn last line (a write cut short by a crash or a full disk) so
 * that the next append starts a line of its own.  0, or -errno. */
static int cut_torn_line(const struct kb_store *s, const char *file)
{
	char *path = kb_store_path(s, "%s", file), c;
	struct stat st;
	off_t keep;
	int fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK), r = 0;

	if (fd < 0) {
		r = errno == ENOENT ? 0 : kb_error_errno(errno, "cannot open '%s'", path);
		goto out;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		r = kb_error("'%s': not a regular file", path);
		goto out;
	}
	if (st.st_size == 0 || (pread(fd, &c, 1, st.st_size - 1) == 1 && c == '\n'))
		goto out;
	for (keep = st.st_size - 1; keep > 0; keep--)
		if (pread(fd, &c, 1, keep - 1) == 1 && c == '\n')
			break;
	if (ftruncate(fd, keep) < 0 || fsync(fd) < 0) {
		r = kb_error_errno(errno, "cannot cut the torn last line of '%s'", path);
		goto out;
	}
	kb_warn("'%s': its last line was torn (%lld bytes of an interrupted write): cut", path,
		(long long)(st.st_size - keep));
out:
	if (fd >= 0)
		close(fd);
	free(path);
	return r;
}

int kb_store_open(struct kb_store *s, const char *dir)
{
	char *path, *text = NULL;
	json_error_t jerr;
	size_t len;
	int r;

	memset(s, 0, sizeof(*s));
	s->dir = kb_xstrdup(dir);
	path = kb_store_path(s, "manifest.json");
	r = kb_read_file_max(path, &text, &len, KB_STORE_MAX_MANIFEST);
	if (r == -ENOENT) {
		kb_error("'%s': no manifest.json: not a kbench run directory, or one stopped before it "
			 "started; start a new run with kbench run VARIANTS.CONF", dir);
		goto fail;
	}
	if (r < 0) {
		kb_error("'%s': %s", path, kb_file_strerror(r));
		goto fail;
	}
	s->manifest = json_loadb(text, len, 0, &jerr);
	if (!json_is_object(s->manifest)) {
		kb_error("%s:%d: %s", path, jerr.line, s->manifest ? "not a JSON object" : jerr.text);
		goto fail;
	}
	free(path);
	free(text);
	s->id = kb_xstrdup(json_string_value(json_object_get(s->manifest, "run_id")) ?: "");
	return 0;
fail:
	free(path);
	free(text);
	kb_store_release(s);
	return -1;
}

int kb_store_repair(const struct kb_store *s, const char *const *files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (cut_torn_line(s, files[i]) < 0)
			return -1;
	return 0;
}

/* The kbench run that wrote pid into the lock is gone or going (killed,
 * a zombie, exiting): the lock's holder can only be a child of it that has
 * yet to die.  False where pid is not known or names a live process. */
static int holder_dying(long pid)
{
	char path[64], line[256];
	unsigned long long pend;
	unsigned flags;
	int dying = 0;
	char state;
	FILE *f;

	if (pid <= 0 || pid == getpid())
		return 0;
	if (kill((pid_t)pid, 0) < 0)
		return errno == ESRCH;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT;
	/* state and flags follow the command name, which may hold blanks */
	if (fgets(line, sizeof(line), f) && strrchr(line, ')') &&
	    sscanf(strrchr(line, ')') + 1, " %c %*d %*d %*d %*d %*d %u", &state, &flags) == 2)
		dying = state == 'Z' || state == 'X' || (flags & 0x4);	/* PF_EXITING */
	fclose(f);
	snprintf(path, sizeof(path), "/proc/%ld/status", pid);
	f = fopen(path, "re");
	while (f && !dying && fgets(line, sizeof(line), f))
		if ((sscanf(line, "SigPnd: %llx", &pend) == 1 || sscanf(line, "ShdPnd: %llx", &pend) == 1) &&
		    (pend & (1ULL << (SIGKILL - 1))))
			dying = 1;	/* killed, not yet gone */
	if (f)
		fclose(f);
	return dying;
}

/* The pid a kbench run wrote into the lock (its text in buf), or 0; 0 too
 * where the run is on another host (a results directory shared over the
 * network): this host cannot tell whether it lives. */
static long lock_pid(int fd, char *buf, size_t size)
{
	char text[320], host[256] = "", *end, *nl;
	ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
	long pid;

	text[n > 0 ? n : 0] = '\0';
	nl = text + strcspn(text, "\n");
	snprintf(buf, size, "%.*s", (int)(nl - text), text);
	pid = strtol(buf, &end, 10);
	if (*nl && nl[1] && gethostname(host, sizeof(host) - 1) == 0 &&
	    strncmp(nl + 1, host, strcspn(nl + 1, "\n")))
		return 0;
	return *buf && !*end && pid > 0 ? pid : 0;
}

int kb_store_lock(const char *output_dir)
{
	char *path = kb_xasprintf("%s/.kbench.lock", output_dir), buf[32];
	double deadline = kb_now() + KB_STORE_LOCK_WAIT;
	int fd, said = 0;
	long pid;

	if (kb_mkdir_p(output_dir, 0755) < 0) {
		free(path);
		return -1;
	}
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		kb_error_errno(errno, "cannot open lock '%s'", path);
		free(path);
		return -1;
	}
	/* A killed run's lock goes with the last of its builds and boots
	 * (forked, they hold it too: none may still write to the run when
	 * another takes it), which die with it: wait for those, not for a run
	 * that lives. */
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		pid = lock_pid(fd, buf, sizeof(buf));
		if (holder_dying(pid) && kb_now() < deadline && !kb_interrupted) {
			if (!said++)
				kb_info("waiting for the children of the killed run (pid %ld) to exit", pid);
			usleep(100 * 1000);
			continue;
		}
		if (said)
			kb_error("results directory '%s' is still held by the children of the killed "
				 "run (pid %ld) after %d s: end them, then try again", output_dir, pid,
				 KB_STORE_LOCK_WAIT);
		else
			kb_error("results directory '%s' is in use by another kbench run%s%s%s "
				 "(concurrent runs would disturb each other's measurements)", output_dir,
				 *buf ? " (pid " : "", buf, *buf ? ")" : "");
		close(fd);
		free(path);
		return -1;
	}
	if (ftruncate(fd, 0) == 0) {
		char host[256] = "", *text;
		int n;

		/* the host on a line of its own: a kbench from before reads the pid only */
		gethostname(host, sizeof(host) - 1);
		text = kb_xasprintf("%ld\n%s\n", (long)getpid(), host);
		n = (int)strlen(text);
		if (pwrite(fd, text, (size_t)n, 0) != n)
			kb_warn("cannot write '%s'", path);
		free(text);
	}
	free(path);
	return fd;
}

struct dropper {
	const char *key;
	const long *drop;
	size_t n;
	FILE *out;
};

static int keep_line(void *ctx, char *line, size_t len)
{
	struct dropper *d = ctx;
	json_t *o = json_loadb(line, len, 0, NULL);
	long v = (long)json_integer_value(json_object_get(o, d->key));
	int keep = json_is_object(o);	/* an unreadable line goes too */

	for (size_t i = 0; keep && i < d->n; i++)
		if (d->drop[i] == v)
			keep = 0;
	json_decref(o);
	if (keep) {
		fwrite(line, 1, len, d->out);
		fputc('\n', d->out);
	}
	return 0;
}

int kb_store_drop_lines(const struct kb_store *s, const char *file, const char *key,
			const long *drop, size_t n)
{
	char *path = kb_store_path(s, "%s", file), *text = NULL;
	struct dropper d = { key, drop, n, NULL };
	size_t len = 0;
	long bad;
	int r;

	d.out = open_memstream(&text, &len);
	if (!d.out)
		abort();
	r = kb_store_each_line(path, keep_line, &d, &bad);
	fclose(d.out);
	if (r == 0)
		r = kb_write_file_atomic(path, text, len);
	else if (r == -ENOENT)
		r = 0;	/* nothing written yet */
	free(text);
	free(path);
	return r;
}

void kb_store_release(struct kb_store *s)
{
	free(s->dir);
	free(s->id);
	json_decref(s->manifest);
	memset(s, 0, sizeof(*s));
}

char *kb_store_path(const struct kb_store *s, const char *fmt, ...)
{
	va_list ap;
	char *rel, *p;

	va_start(ap, fmt);
	rel = kb_xvasprintf(fmt, ap);
	va_end(ap);
	p = kb_xasprintf("%s/%s", s->dir, rel);
	free(rel);
	return p;
}

/* Writes to a run directory that failed in this process (ENOSPC, EIO...),
 * and the first one's file: a run with any is not complete. */
static long write_errors;
static char *first_write_error;

static int write_failed(const char *path, int r)
{
	if (r < 0 && write_errors++ == 0)
		first_write_error = kb_xstrdup(path);
	return r;
}

long kb_store_write_errors(const char **first)
{
	if (first)
		*first = first_write_error;
	return write_errors;
}

char *kb_store_variant_dir(const char *variant, int layout)
{
	if (layout == 0)
		return kb_xasprintf("variants/%s", variant);
	return kb_xasprintf("variants/%s/layout-%d", variant, layout);
}

int kb_store_save_manifest(struct kb_store *s)
{
	char *text = json_dumps(s->manifest, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	char *path = kb_store_path(s, "manifest.json");
	size_t len;
	int r;

	if (!text)
		abort();
	len = strlen(text);
	text = kb_xrealloc(text, len + 2);
	text[len] = '\n';
	r = write_failed(path, kb_write_file_atomic(path, text, len + 1));
	free(text);
	free(path);
	return r;
}

int kb_store_append(const struct kb_store *s, const char *file, json_t *obj)
{
	char *line = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER);
	char *path = kb_store_path(s, "%s", file);
	size_t len;
	int fd, r = 0;

	if (!line)
		abort();
	len = strlen(line);
	line = kb_xrealloc(line, len + 2);
	line[len++] = '\n';
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		r = kb_error_errno(errno, "cannot open '%s'", path);
	} else {
		/* One write of a whole line: a crash leaves at most a torn last
		 * line, which readers skip. */
		if (write(fd, line, len) != (ssize_t)len || fsync(fd) < 0)
			r = kb_error_errno(errno ? errno : EIO, "cannot append to '%s'", path);
		close(fd);
	}
	write_failed(path, r);
	free(line);
	free(path);
	return r;
}

int kb_store_each_line(const char *path, kb_store_line_fn fn, void *ctx, long *bad)
{
	size_t cap = 1 << 16, have = 0;
	char *buf;
	int fd = kb_open_regular(path, NULL), skipping = 0, r = 0;

	*bad = 0;
	if (fd == -ENOENT)
		return fd;
	if (fd < 0)
		return kb_error("cannot read '%s': %s", path, kb_file_strerror(fd));
	buf = kb_xmalloc(cap + 1);
	for (;;) {
		ssize_t n = read(fd, buf + have, cap - have);
		size_t start = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = kb_error_errno(errno, "cannot read '%s'", path);
			break;
		}
		if (n == 0) {
			*bad += have > 0 || skipping;	/* a torn last line */
			break;
		}
		have += (size_t)n;
		for (char *nl; (nl = memchr(buf + start, '\n', have - start)); start = (size_t)(nl - buf) + 1) {
			size_t len = (size_t)(nl - (buf + start));

			if (skipping || memchr(buf + start, '\0', len)) {
				++*bad;	/* the end of an overlong line, or one with a NUL byte */
				skipping = 0;
				continue;
			}
			*nl = '\0';
			r = fn(ctx, buf + start, len);
			if (r < 0)
				goto out;
		}
		memmove(buf, buf + start, have - start);
		have -= start;
		if (have == cap) {
			if (cap >= KB_STORE_MAX_LINE) {
				skipping = 1;	/* drop it up to its newline */
				have = 0;
			} else {
				cap *= 2;
				buf = kb_xrealloc(buf, cap + 1);
			}
		}
	}
out:
	close(fd);
	free(buf);
	return r;
}

struct lines {
	json_t *arr;
	long bad;
};

static int add_line(void *ctx, char *line, size_t len)
{
	struct lines *l = ctx;
	json_t *o = json_loadb(line, len, 0, NULL);

	if (json_is_object(o))
		json_array_append_new(l->arr, o);
	else {
		json_decref(o);
		l->bad++;
	}
	return 0;
}

json_t *kb_store_read_lines(const char *path, int *bad)
{
	struct lines l = { json_array(), 0 };
	long torn = 0;
	int r = kb_store_each_line(path, add_line, &l, &torn);

	*bad = (int)(l.bad + torn + (r < 0 && r != -ENOENT));
	return l.arr;
}

json_t *kb_json_u64(unsigned long long v)
{
	char digits[24];

	if (v <= (unsigned long long)INT64_MAX)
		return json_integer((json_int_t)v);
	snprintf(digits, sizeof(digits), "%llu", v);
	return json_string(digits);
}

int kb_json_u64_value(const json_t *j, unsigned long long *v)
{
	const char *s = json_string_value(j);
	char *end;

	if (json_is_integer(j) && json_integer_value(j) >= 0) {
		*v = (unsigned long long)json_integer_value(j);
		return 0;
	}
	if (!s || !*s || s[strspn(s, "0123456789")])
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno ? -1 : 0;
}
