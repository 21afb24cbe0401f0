/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_UTIL_H
#define KB_UTIL_H

#include <signal.h>
#include <stdarg.h>
#include <sys/types.h>
#include <stddef.h>
#include <stdio.h>

/* Exit codes of the kbench command. */
enum {
	KB_EXIT_OK = 0,
	KB_EXIT_FAILED = 1,		/* some variants or boots failed */
	KB_EXIT_USAGE = 2,		/* usage or configuration error */
	KB_EXIT_NOT_SUPPORTED = 3,	/* cannot be measured on this host */
	KB_EXIT_VERDICT = 4,		/* --fail-on: a verdict it names (that alone) */
};

#define KB_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Print "kbench: <message>" on stderr; return -1 (git's error()). */
int kb_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Same, with ": strerror(errno)" appended; returns -errno. */
int kb_error_errno(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void kb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One line on stderr as it is (a "file:line: ..." message), control
 * characters shown as '?' like every message of kbench's. */
void kb_eprint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void kb_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A line of progress on a terminal, rewritten in place ("kbench: " text,
 * cleared to the end of the line) until the next message, which clears it
 * first; NULL clears it. */
void kb_status(const char *text);

/* Allocate or die: out of memory is not a condition kbench recovers from. */
void *kb_xmalloc(size_t n);
void *kb_xcalloc(size_t n, size_t m);
void *kb_xrealloc(void *p, size_t n);
char *kb_xstrdup(const char *s);
char *kb_xstrndup(const char *s, size_t n);
/* vasprintf that cannot fail (out of memory: a message and abort). */
char *kb_xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
char *kb_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* s cut in place before its trailing spaces, tabs and carriage returns;
 * its new length. */
size_t kb_rtrim(char *s);

/* mkdir -p; 0 or -errno with a message */
int kb_mkdir_p(const char *path, int mode);
/* Open a regular file for reading (close-on-exec), never waiting on a FIFO
 * or a device: the descriptor, or -errno (-EINVAL for anything that is not
 * a regular file, -EISDIR for a directory); its stat in *st when not NULL. */
struct stat;
int kb_open_regular(const char *path, struct stat *st);
/* Read a whole regular file; caller frees *buf (NUL-terminated; *len bytes).
 * 0 or -errno (no message): -EINVAL for a FIFO, device or socket, -EFBIG
 * past max bytes. */
int kb_read_file_max(const char *path, char **buf, size_t *len, size_t max);
int kb_read_file(const char *path, char **buf, size_t *len);
/* The words for kb_open_regular's and kb_read_file_max's errors. */
const char *kb_file_strerror(int err);
/* Write a whole file atomically (temporary file, fsync, rename). */
int kb_write_file_atomic(const char *path, const void *buf, size_t len);
/* The same without the fsync, for many files written at once: the caller
 * syncs their file system once (kb_sync_fs) before it relies on them. */
int kb_write_file_replace(const char *path, const void *buf, size_t len);
/* path with exactly the string want as its contents: left alone where it
 * has them (its time too: make sees no change; 0), else written as
 * kb_write_file_atomic does (1), or -1 after a message. */
int kb_write_file_if_changed(const char *path, const char *want);
/* syncfs(2) on the file system holding path. */
void kb_sync_fs(const char *path);
/* Copy a file (atomically at the destination). */
int kb_copy_file(const char *src, const char *dst);
/* Last n lines of a file on stream f, each prefixed with prefix; control
 * characters (a guest's escape sequences) shown as '?'. */
void kb_print_tail(FILE *f, const char *path, int n, const char *prefix);
/* s with every byte but printable ASCII as '?', at most size - 1 of them,
 * in out (returned): a string from a file never moves a terminal's cursor. */
const char *kb_term_inert(char *out, size_t size, const char *s);
/* Every child kbench starts has a deadline: a hung tool cannot hang kbench. */
#define KB_CHILD_DEADLINE 600.0		/* seconds, for kb_run_argv */
#define KB_PROBE_DEADLINE 15.0		/* seconds, for kb_capture_line */
/* Run argv (no shell, its own process group), stdout+stderr to log_path
 * (appended) or inherited if NULL, in directory dir if not NULL, killed
 * after timeout seconds.  Returns its exit status (128 + signal), or
 * -ETIMEDOUT or -errno after a message. */
int kb_run_argv_deadline(char *const argv[], const char *dir, const char *log_path, double timeout);
/* The same, calling tick(arg) about once a second while it waits (a
 * build's progress, read from its log). */
int kb_run_argv_watch(char *const argv[], const char *dir, const char *log_path, double timeout,
		      void (*tick)(void *), void *arg);
/* s as one POSIX shell word: single-quoted, a quote inside as '\'' (what
 * a job script or hyperfine's command line needs of a path). */
void kb_shell_quote(FILE *f, const char *s);
/* Wait for one of n children kbench runs side by side (boots, builds),
 * whose pids are the first member of n structures stride bytes apart; a
 * signal to kbench alone (SIGTERM) is passed on to all of them, once.  The
 * index of the one that ended, its wait status in *status; n when none was
 * running or waitpid failed. */
size_t kb_wait_one(const void *first, size_t n, size_t stride, int *status);
/* Same, with KB_CHILD_DEADLINE. */
int kb_run_argv(char *const argv[], const char *dir, const char *log_path);
/* rm -rf -- path (what a failed or finished step leaves); its exit status. */
int kb_remove_tree(const char *path);
/* First line of what argv prints on stdout and stderr (e.g. "gcc
 * --version"), within KB_PROBE_DEADLINE; malloc'd, or NULL if it printed
 * nothing, did not finish in time or, unless any_status, exited non-zero. */
char *kb_capture_line(char *const argv[], int any_status);
/* Run argv (no shell, its own process group, stdin /dev/null) and keep what
 * it prints on stdout and stderr, at most max bytes, in *out (malloc'd,
 * NUL-terminated, even on failure); it is killed when timeout seconds pass.
 * Its exit status (128 + a signal's number), or -1 when it could not run or
 * ran out of time. */
int kb_capture(char *const argv[], double timeout, size_t max, char **out);
/* Interruption: SIGINT, SIGTERM and SIGHUP set kb_interrupted and kill the
 * process group of the child registered with kb_child_started (QEMU, make),
 * so the caller can stop cleanly between steps. */
extern volatile sig_atomic_t kb_interrupted;
void kb_install_signal_handlers(void);
void kb_child_started(pid_t pgid);
void kb_child_ended(void);

/* A file kbench ships (the guest runner, the plugin): $env if set, else
 * build_rel relative to the kbench binary's directory when it is there (a
 * build tree), else the installed path.  malloc'd, absolute. */
char *kb_find_companion(const char *env, const char *build_rel, const char *installed);
/* This program's own path (realpath of /proc/self/exe), resolved at the
 * first call and kept (main calls it first): a kbench rebuilt while a run
 * goes on is still found at its path, where /proc/self/exe would name the
 * deleted file; NULL where it cannot be resolved. */
const char *kb_self_path(void);

/* The build cache where the configuration names none: $KBENCH_CACHE, else
 * $XDG_CACHE_HOME/kbench, else ~/.cache/kbench; malloc'd. */
char *kb_default_cache_dir(void);

/* The Debian package that installs path, where path is one of Debian's
 * kernel source tarballs (/usr/src/linux-source-X.Y.tar.xz):
 * "linux-source-X.Y" (malloc'd); else NULL. */
char *kb_debian_source_package(const char *path);

/* An executable named name in $PATH (or name itself where it has a '/'),
 * malloc'd; NULL where there is none.  For programs a package may bring
 * after configure ran. */
char *kb_path_lookup(const char *name);

/* Whether s is well-formed UTF-8 (no overlong forms, no surrogates, at
 * most U+10FFFF): 1, or 0 with the offset of the first bad byte in *at. */
int kb_utf8_valid(const char *s, size_t *at);

/* The directory for temporary files: $TMPDIR, else /tmp. */
const char *kb_tmpdir(void);
/* A new empty temporary file "<tmpdir>/kbench-<what>.XXXXXX": its file
 * descriptor (close-on-exec), the path in *path (malloc'd); -errno with
 * *path NULL and a message when it cannot be made. */
int kb_mkstemp(const char *what, char **path);

/* Monotonic time in seconds. */
double kb_now(void);

/* Set path's modification time to now, where it can (a build cache entry's
 * last use, cache.h); no message. */
void kb_touch(const char *path);

/* NULL when path reaches make and its shell recipes inert (no '$', quote,
 * space...), else why not (static storage). */
const char *kb_make_inert_path(const char *path);

#endif
