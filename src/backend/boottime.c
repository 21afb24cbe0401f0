// SPDX-License-Identifier: GPL-2.0-or-later
/* Whole-boot timing with hyperfine: it times `kbench boot-check`
 * (cmd-boot-check.c), one QEMU boot that succeeds only when the guest runner
 * says done. */
#include "config.h"

#include <errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boottime.h"
#include "hostload.h"
#include "rundir.h"
#include "util.h"

#ifndef HYPERFINE_PROG
#define HYPERFINE_PROG "hyperfine"
#endif

/* ---- hyperfine ---- */

static const char *hyperfine_path(void)
{
	const char *e = getenv("KBENCH_HYPERFINE");

	return e && *e ? e : HYPERFINE_PROG;
}

/* One argument as hyperfine -N splits its command (POSIX shell words). */
static void quote(FILE *f, const char *s)
{
	kb_shell_quote(f, s);
	fputc(' ', f);
}

static char *self_exe(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	/* kbench rebuilt or upgraded while it runs: its own image, by this
	 * process's link, which exec follows while the process lives (it does:
	 * it waits for hyperfine) */
	if (access(buf, X_OK) != 0)
		return kb_xasprintf("/proc/%ld/exe", (long)getpid());
	return kb_xstrdup(buf);
}

int kb_boottime_parse(const char *json_path, double **times, size_t *n, size_t *failed,
		      const char **why)
{
	json_error_t jerr;
	json_t *root = json_load_file(json_path, 0, &jerr), *res, *t, *codes;
	size_t i;

	*times = NULL;
	*n = *failed = 0;
	if (!root) {
		*why = "not JSON (or missing)";
		return -1;
	}
	res = json_array_get(json_object_get(root, "results"), 0);
	t = json_object_get(res, "times");
	codes = json_object_get(res, "exit_codes");
	if (!json_is_array(t) || (codes && !json_is_array(codes)) ||
	    (codes && json_array_size(codes) != json_array_size(t))) {
		*why = "no results[0].times, or exit_codes that do not match it";
		json_decref(root);
		return -1;
	}
	*times = kb_xmalloc((json_array_size(t) + 1) * sizeof(**times));
	for (i = 0; i < json_array_size(t); i++) {
		json_t *x = json_array_get(t, i), *c = json_array_get(codes, i);
		double v = json_is_number(x) ? json_number_value(x) : -1;

		if (!(v > 0 && v < 1e6)) {
			*why = "a time that is not a positive number of seconds";
			free(*times);
			*times = NULL;
			*n = *failed = 0;
			json_decref(root);
			return -1;
		}
		/* hyperfine writes null for a run ended by a signal */
		if (codes && !(json_is_integer(c) && json_integer_value(c) == 0)) {
			(*failed)++;
			continue;
		}
		(*times)[(*n)++] = v;
	}
	json_decref(root);
	return 0;
}

json_t *kb_boottime_done(const struct kb_store *store)
{
	char *path = kb_store_path(store, KB_RD_TIMING);
	int bad;
	json_t *lines = kb_store_read_lines(path, &bad), *done = json_object(), *l;
	size_t i;

	json_array_foreach(lines, i, l)
		if (json_is_string(json_object_get(l, KB_RD_VARIANT)))
			json_object_set_new(done, json_string_value(json_object_get(l, KB_RD_VARIANT)),
					    json_true());
	json_decref(lines);
	free(path);
	return done;
}

/* One variant's part of the stage: its command, what its boots gave. */
struct timed {
	const struct kb_boottime_job *job;
	char *cmd, *json, *log, *qlog, *one;	/* one: a single boot's export */
	double *times;				/* every timed boot, failed ones too */
	int *code;				/* its exit code, -1: none (a signal) */
	long *seq;				/* its place in the stage's order */
	size_t n;
	const char *why;			/* the timing failed: why, else NULL */
	double seconds, other;			/* hyperfine's wall time; other's CPU share, summed */
	long nother;
};

/* `kbench boot-check ...` for job, one hyperfine -N command (malloc'd). */
static char *boot_command(const struct kb_boottime_params *conf, const struct kb_boottime_job *job,
			  enum kb_accel accel, const char *image, const char *log, const char *qlog)
{
	char *exe = self_exe(), *cmd = NULL, *append, *timeout, *memory;
	size_t cmdlen = 0;
	FILE *f;

	append = kb_xasprintf("console=ttyS0 panic=-1 nokaslr quiet %s%skb_workloads=none",
			      job->cmdline ? job->cmdline : "", job->cmdline ? " " : "");
	timeout = kb_xasprintf("%ld", conf->timeout);
	memory = kb_xasprintf("%ld", conf->memory);
	f = open_memstream(&cmd, &cmdlen);
	if (!f || !exe)
		abort();
	quote(f, exe);
	fputs("boot-check ", f);
	const char *args[][2] = {
		{ "--accel", kb_accel_name(accel) }, { "--memory", memory }, { "--timeout", timeout },
		{ "--arch", conf->arch ? conf->arch : "i386" },
		{ "--kernel", job->bzimage }, { "--initrd", image }, { "--append", append },
		{ "--log", log }, { "--qemu-log", qlog },
	};
	for (size_t i = 0; i < KB_ARRAY_SIZE(args); i++) {
		fputs(args[i][0], f);
		fputc(' ', f);
		quote(f, args[i][1]);
	}
	fclose(f);
	free(exe);
	free(append);
	free(timeout);
	free(memory);
	return cmd;
}

/* One timed boot of t (after warmup untimed ones) by hyperfine, its time
 * and exit code appended to t's.  0, or -1 with t->why set: hyperfine
 * itself failed (127: it is not installed). */
static int time_one(const struct kb_boottime_params *conf, struct timed *t, long warmup, long seq,
		    int *missing)
{
	char w[32];
	char *argv[] = { (char *)hyperfine_path(), "-N", "--style", "basic", "--ignore-failure",
			 "--warmup", w, "--runs", "1", "--command-name", (char *)t->job->variant,
			 "--export-json", t->one, t->cmd, NULL };
	struct kb_hostload load;
	double *times = NULL, t0 = kb_now(), other;
	size_t n = 0, failed = 0;
	int r;

	snprintf(w, sizeof(w), "%ld", warmup);
	unlink(t->one);
	kb_hostload_begin(&load);
	/* every boot may take its timeout, and hyperfine a little more */
	r = kb_run_argv_deadline(argv, NULL, t->log, (double)(1 + warmup) * ((double)conf->timeout + 10) + 60);
	other = kb_hostload_other(&load);
	t->seconds += kb_now() - t0;
	if (kb_interrupted)
		return -1;
	if (r == 127) {
		t->why = "hyperfine could not be run (apt-get install hyperfine)";
		*missing = 1;
	} else if (r != 0) {
		t->why = "hyperfine failed";
	} else if (kb_boottime_parse(t->one, &times, &n, &failed, &t->why) == 0 && n + failed != 1) {
		t->why = "hyperfine's export holds no single run";
	}
	if (t->why) {
		free(times);
		return -1;
	}
	if (other >= 0) {
		t->other += other;
		t->nother++;
	}
	if (n) {
		t->times[t->n] = times[0];
		t->code[t->n] = 0;
	} else {
		/* a boot that failed: its time as hyperfine's export gives it */
		json_t *root = json_load_file(t->one, 0, NULL);
		json_t *res = json_array_get(json_object_get(root, "results"), 0);
		json_t *c = json_array_get(json_object_get(res, "exit_codes"), 0);

		t->times[t->n] = json_number_value(json_array_get(json_object_get(res, "times"), 0));
		t->code[t->n] = json_is_integer(c) ? (int)json_integer_value(c) : -1;
		json_decref(root);
	}
	t->seq[t->n++] = seq;
	free(times);
	unlink(t->one);
	return 0;
}

/* t's boots as hyperfine would have exported them, had it timed them in one
 * go (boots/hyperfine-VARIANT.json): the times, the exit codes, their mean,
 * and where each boot came in the stage's order. */
static void write_export(const struct timed *t)
{
	json_t *times = json_array(), *codes = json_array(), *seq = json_array();
	double sum = 0, lo = 0, hi = 0;
	json_t *root;

	for (size_t i = 0; i < t->n; i++) {
		json_array_append_new(times, json_real(t->times[i]));
		json_array_append_new(codes, t->code[i] >= 0 ? json_integer(t->code[i]) : json_null());
		json_array_append_new(seq, json_integer(t->seq[i]));
		sum += t->times[i];
		lo = i && lo < t->times[i] ? lo : t->times[i];
		hi = i && hi > t->times[i] ? hi : t->times[i];
	}
	root = json_pack("{s:[{s:s,s:f,s:f,s:f,s:o,s:o,s:{s:o}}]}", "results", "command", t->job->variant,
			 "mean", t->n ? sum / (double)t->n : 0.0, "min", lo, "max", hi, "times", times,
			 "exit_codes", codes, "kbench", KB_RD_SEQUENCE, seq);
	if (!root || json_dump_file(root, t->json, JSON_INDENT(2)) < 0)
		kb_warn("boot timing: cannot write '%s'", t->json);
	json_decref(root);
}

/* t's outcome: its samples (each good boot one, in its own block of ids),
 * its export and its timing.jsonl line.  0, or -1 when it failed. */
static int record(const struct kb_boottime_params *conf, struct kb_store *store, struct timed *t,
		  enum kb_accel accel)
{
	const char *status = "ok", *why = t->why, *variant = t->job->variant;
	json_t *j, *seq = json_array();
	size_t ok = 0, failed = 0;
	double sum = 0;
	int ret = 0;

	for (size_t i = 0; i < t->n; i++) {
		json_int_t ns = (json_int_t)(t->times[i] * 1e9 + 0.5);
		/* a whole boot: a sample of workload "boot", no layout */
		struct kb_rundir_sample s = {
			.variant = variant, .layout = -1, .boot = t->job->first_id + (long)ok,
			.vboot = (long long)ok + 1, .workload = "boot", .cas = "boot", .rep = 1,
			.iterations = 1, .ns = ns, .ns_per_op = (double)ns,
			.backend = KB_BOOTTIME_BACKEND, .accel = accel,
		};

		json_array_append_new(seq, json_integer(t->seq[i]));
		if (t->code[i] != 0) {
			failed++;
			continue;
		}
		if (kb_rundir_sample_append(store, &s) < 0)
			ret = -1;
		ok++;
		sum += t->times[i];
	}
	if (t->n)
		write_export(t);
	if (!why && !ok)
		why = "no boot completed";
	if (why)
		status = ok ? "partial" : "failed";
	else if (failed)
		status = "partial";
	j = json_pack("{s:s,s:s,s:I,s:I,s:I,s:I,s:f,s:s,s:s,s:s,s:o}", KB_RD_VARIANT, variant,
		      KB_RD_STATUS, status, KB_RD_RUNS, (json_int_t)conf->runs,
		      KB_RD_WARMUP, (json_int_t)conf->warmup, KB_RD_OK, (json_int_t)ok,
		      KB_RD_FAILED, (json_int_t)failed, KB_RD_SECONDS, t->seconds,
		      KB_RD_ACCEL, kb_accel_name(accel), KB_RD_JSON, t->json + strlen(store->dir) + 1,
		      KB_RD_LOG, t->log + strlen(store->dir) + 1, KB_RD_SEQUENCE, seq);
	if (why)
		json_object_set_new(j, KB_RD_REASON, json_string(why));
	if (t->nother)
		json_object_set_new(j, KB_RD_HOST_OTHER_CPU, json_real(t->other / (double)t->nother));
	if (kb_store_append(store, KB_RD_TIMING, j) < 0)
		ret = -1;
	json_decref(j);
	if (strcmp(status, "ok")) {
		if (ok)
			kb_warn("boot timing: variant '%s': %zu of %ld boots failed; see %s", variant,
				(size_t)conf->runs - ok, conf->runs, t->log);
		else
			kb_warn("boot timing: variant '%s': %s; see %s", variant, why, t->log);
		kb_print_tail(stderr, t->log, 6, "kbench:   | ");
		return -1;
	}
	kb_info("boot timing: variant '%s': %zu boots, mean %.3f s", variant, ok, sum / (double)ok);
	return ret;
}

long kb_boottime_rounds(const struct kb_boottime_params *conf, struct kb_store *store,
			const struct kb_boottime_job *jobs, size_t n, enum kb_accel accel,
			const char *image, unsigned long long seed)
{
	struct timed *t = kb_xcalloc(n + 1, sizeof(*t));
	size_t *order = kb_xcalloc(n + 1, sizeof(*order));
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	long bad = 0, seq = 0;
	int missing = 0;

	for (size_t i = 0; i < n; i++) {
		t[i].job = &jobs[i];
		t[i].json = kb_store_path(store, "boots/hyperfine-%s.json", jobs[i].variant);
		t[i].one = kb_store_path(store, "boots/hyperfine-%s.boot.json", jobs[i].variant);
		t[i].log = kb_store_path(store, "boots/hyperfine-%s.log", jobs[i].variant);
		t[i].qlog = kb_store_path(store, "boots/hyperfine-%s.qemu.log", jobs[i].variant);
		t[i].cmd = boot_command(conf, &jobs[i], accel, image, t[i].log, t[i].qlog);
		t[i].times = kb_xcalloc((size_t)conf->runs + 1, sizeof(*t[i].times));
		t[i].code = kb_xcalloc((size_t)conf->runs + 1, sizeof(*t[i].code));
		t[i].seq = kb_xcalloc((size_t)conf->runs + 1, sizeof(*t[i].seq));
		unlink(t[i].json);
		order[i] = i;
	}
	if (n)
		kb_info("boot timing: %zu variants, %ld rounds of one boot each in a seeded order, "
			"%ld warm-up boots each first", n, conf->runs, conf->warmup);
	gsl_rng_set(rng, (unsigned long)(seed + 1));
	/* round r boots each variant once, in an order of its own: a change in
	 * the host's load between rounds falls on every variant alike */
	for (long r = 0; r < conf->runs && !kb_interrupted && !missing; r++) {
		gsl_ran_shuffle(rng, order, n, sizeof(*order));
		kb_info("progress: boot timing: round %ld/%ld", r + 1, conf->runs);
		for (size_t k = 0; k < n && !kb_interrupted && !missing; k++) {
			struct timed *x = &t[order[k]];

			if (x->why)
				continue;	/* hyperfine failed it: it would again */
			seq++;
			time_one(conf, x, r ? 0 : conf->warmup, seq, &missing);
		}
	}
	/* interrupted: no timing.jsonl line, so that --resume times them all again */
	for (size_t i = 0; i < n && !kb_interrupted; i++) {
		if (missing && !t[i].why)
			t[i].why = "hyperfine could not be run (apt-get install hyperfine)";
		bad += record(conf, store, &t[i], accel) < 0;
	}
	for (size_t i = 0; i < n; i++) {
		free(t[i].cmd);
		free(t[i].json);
		free(t[i].one);
		free(t[i].log);
		free(t[i].qlog);
		free(t[i].times);
		free(t[i].code);
		free(t[i].seq);
	}
	gsl_rng_free(rng);
	free(order);
	free(t);
	return bad;
}
