/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_STORE_H
#define KB_STORE_H

#include <jansson.h>

/* A run directory: results/<run-id>/ with manifest.json (rewritten
 * atomically), samples.jsonl and boots.jsonl (appended, one fsync'd line per
 * record), variants/<name>/ and boots/. */
struct kb_store {
	char *dir;
	char *id;
	json_t *manifest;	/* owned; written by kb_store_save_manifest */
};

int kb_store_create(struct kb_store *s, const char *output_dir);
/* Open an existing run directory (for --resume): its manifest is loaded. */
int kb_store_open(struct kb_store *s, const char *dir);
/* Hold the results directory: one kbench run at a time writes to (and
 * measures on) it.  Returns a file descriptor to keep open, or -1 after a
 * message naming the holder. */
int kb_store_lock(const char *output_dir);
/* Rewrite file (atomically) without the lines whose integer "key" is one
 * of drop[0..n): the partial samples of a boot that will be run again. */
int kb_store_drop_lines(const struct kb_store *s, const char *file, const char *key,
			const long *drop, size_t n);
void kb_store_release(struct kb_store *s);
int kb_store_save_manifest(struct kb_store *s);
/* Append obj as one line to file (relative to the run directory), then
 * fsync: a finished sample survives any later crash. */
int kb_store_append(const struct kb_store *s, const char *file, json_t *obj);
/* malloc'd "<dir>/<fmt...>" */
char *kb_store_path(const struct kb_store *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Read a JSON-lines file: each valid object is appended to the returned
 * array; a torn or invalid line is skipped and counted in *bad. */
json_t *kb_store_read_lines(const char *path, int *bad);

#endif
