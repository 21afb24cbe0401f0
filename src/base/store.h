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
/* Open an existing run directory (resume, report): its manifest is loaded.
 * -1 after a message that says what to do (a directory with no manifest
 * was never a run, or stopped before it started). */
int kb_store_open(struct kb_store *s, const char *dir);
/* Before appending to a run again (resume): a torn last line of each of
 * the append-only files[0..n) (kb_backend_run_files: a crash can tear the
 * last line of each) is cut, with a warning, so that the next record starts
 * a line of its own.  0, or -1 after a message. */
int kb_store_repair(const struct kb_store *s, const char *const *files, size_t n);
/* Hold the results directory: one kbench run at a time writes to (and
 * measures on) it.  Returns a file descriptor to keep open, or -1 after a
 * message naming the holder.  The run's forked builds and boots hold it
 * too; where the run was killed and they have yet to die, it waits up to
 * KB_STORE_LOCK_WAIT s. */
int kb_store_lock(const char *output_dir);
/* How long kb_store_lock waits, in seconds, for the children of a killed
 * run (the pid in the lock is gone or dying) to let go of it. */
#define KB_STORE_LOCK_WAIT 10
/* Rewrite file (atomically) without the lines whose integer "key" is one
 * of drop[0..n): the partial samples of a boot that will be run again. */
int kb_store_drop_lines(const struct kb_store *s, const char *file, const char *key,
			const long *drop, size_t n);
void kb_store_release(struct kb_store *s);
/* How many writes to a run directory (manifest, appended lines) failed in
 * this process, each said as it happened; *first (if first) the first
 * one's path.  A run with any is not complete: a resume writes them. */
long kb_store_write_errors(const char **first);
int kb_store_save_manifest(struct kb_store *s);
/* Append obj as one line to file (relative to the run directory), then
 * fsync: a finished sample survives any later crash. */
int kb_store_append(const struct kb_store *s, const char *file, json_t *obj);
/* malloc'd "<dir>/<fmt...>" */
char *kb_store_path(const struct kb_store *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Where a run directory keeps the files of a variant's layout replica,
 * relative to it: variants/NAME for layout 0, variants/NAME/layout-R for
 * the others (malloc'd). */
char *kb_store_variant_dir(const char *variant, int layout);

/* Bounds on what a run directory may hold: one line of a .jsonl file, and
 * manifest.json (a crafted run directory cannot make kbench allocate more). */
#define KB_STORE_MAX_LINE (1 << 20)
#define KB_STORE_MAX_MANIFEST (16 << 20)

/* fn gets each complete line of path, NUL-terminated without its newline;
 * a negative return stops the reading and is returned. */
typedef int (*kb_store_line_fn)(void *ctx, char *line, size_t len);
/* Each line of a JSON-lines file, read in pieces: memory for one line,
 * whatever the file's size.  A line longer than KB_STORE_MAX_LINE, one
 * holding a NUL byte and a torn last line are not passed, but counted in
 * *bad.  0; -ENOENT (no message) when there is no such file; or -errno
 * after a message (a FIFO, a device or a socket is refused, never read). */
int kb_store_each_line(const char *path, kb_store_line_fn fn, void *ctx, long *bad);
/* A JSON-lines file as an array of its objects; lines that are not one
 * (torn, invalid, refused by kb_store_each_line) are counted in *bad. */
json_t *kb_store_read_lines(const char *path, int *bad);

/* An unsigned 64-bit figure (a seed) in JSON: a number up to 2^63 - 1,
 * which jansson holds; above, its decimal digits as a string.  Read back:
 * either form; 0 with *v set, or -1 for anything else (missing included). */
json_t *kb_json_u64(unsigned long long v);
int kb_json_u64_value(const json_t *j, unsigned long long *v);

#endif
