// SPDX-License-Identifier: GPL-2.0-or-later
/* The results store: append-only sample files and atomically rewritten
 * summaries, so a killed run loses nothing that was finished. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store.h"
#include "util.h"

int kb_store_create(struct kb_store *s, const char *output_dir)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	memset(s, 0, sizeof(*s));
	if (kb_mkdir_p(output_dir, 0755) < 0)
		return -1;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	/* Two runs in the same second get -2, -3...: mkdir is the arbiter. */
	for (int i = 1; i < 1000; i++) {
		char *id = i == 1 ? kb_xstrdup(stamp) : kb_xasprintf("%s-%d", stamp, i);
		char *dir = kb_xasprintf("%s/%s", output_dir, id);

		if (mkdir(dir, 0755) == 0) {
			s->id = id;
			s->dir = dir;
			break;
		}
		free(id);
		free(dir);
		if (errno != EEXIST)
			return kb_error_errno(errno, "cannot create run directory in '%s'", output_dir);
	}
	if (!s->dir)
		return kb_error("cannot create a run directory in '%s'", output_dir);
	char *p = kb_store_path(s, "variants");
	int r = kb_mkdir_p(p, 0755);

	free(p);
	p = kb_store_path(s, "boots");
	if (r == 0)
		r = kb_mkdir_p(p, 0755);
	free(p);
	s->manifest = json_object();
	return r;
}

int kb_store_open(struct kb_store *s, const char *dir)
{
	json_error_t jerr;
	char *path;

	memset(s, 0, sizeof(*s));
	s->dir = kb_xstrdup(dir);
	path = kb_store_path(s, "manifest.json");
	s->manifest = json_load_file(path, 0, &jerr);
	if (!json_is_object(s->manifest)) {
		kb_error("%s:%d: %s", path, jerr.line, s->manifest ? "not a JSON object" : jerr.text);
		free(path);
		kb_store_release(s);
		return -1;
	}
	free(path);
	s->id = kb_xstrdup(json_string_value(json_object_get(s->manifest, "run_id")) ?: "");
	return 0;
}

int kb_store_lock(const char *output_dir)
{
	char *path = kb_xasprintf("%s/.kbench.lock", output_dir), buf[32];
	int fd;

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
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

		buf[n > 0 ? n : 0] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		kb_error("results directory '%s' is in use by another kbench run%s%s%s "
			 "(concurrent runs would disturb each other's measurements)", output_dir,
			 *buf ? " (pid " : "", buf, *buf ? ")" : "");
		close(fd);
		free(path);
		return -1;
	}
	if (ftruncate(fd, 0) == 0) {
		int n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());

		if (pwrite(fd, buf, (size_t)n, 0) != n)
			kb_warn("cannot write '%s'", path);
	}
	free(path);
	return fd;
}

int kb_store_drop_lines(const struct kb_store *s, const char *file, const char *key,
			const long *drop, size_t n)
{
	char *path = kb_store_path(s, "%s", file), *buf, *out, *save = NULL;
	size_t len, olen = 0;
	int r;

	if (kb_read_file(path, &buf, &len) < 0) {
		free(path);
		return 0;	/* nothing written yet */
	}
	out = kb_xmalloc(len + 1);
	for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		json_t *o = json_loads(l, 0, NULL);
		long v = (long)json_integer_value(json_object_get(o, key));
		int keep = o != NULL;	/* a torn line is dropped too */

		for (size_t i = 0; keep && i < n; i++)
			if (drop[i] == v)
				keep = 0;
		json_decref(o);
		if (!keep)
			continue;
		olen += (size_t)sprintf(out + olen, "%s\n", l);
	}
	r = kb_write_file_atomic(path, out, olen);
	free(out);
	free(buf);
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
	if (vasprintf(&rel, fmt, ap) < 0)
		abort();
	va_end(ap);
	p = kb_xasprintf("%s/%s", s->dir, rel);
	free(rel);
	return p;
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
	r = kb_write_file_atomic(path, text, len + 1);
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
	free(line);
	free(path);
	return r;
}

json_t *kb_store_read_lines(const char *path, int *bad)
{
	json_t *arr = json_array();
	char *buf, *save = NULL;

	*bad = 0;
	if (kb_read_file(path, &buf, NULL) < 0)
		return arr;
	for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		json_t *o = json_loads(l, 0, NULL);

		if (!json_is_object(o)) {
			json_decref(o);
			(*bad)++;
			continue;
		}
		json_array_append_new(arr, o);
	}
	free(buf);
	return arr;
}
