// SPDX-License-Identifier: GPL-2.0-or-later
/* Whole-boot timing with hyperfine: it times `kbench boot-check`
 * (cmd-boot-check.c), one QEMU boot that succeeds only when the guest runner
 * says done. */
#include "config.h"

#include <errno.h>
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

int kb_boottime_variant(const struct kb_boottime_params *conf, struct kb_store *store, const char *variant,
			const char *bzimage, const char *cmdline, enum kb_accel accel,
			const char *image, long first_id)
{
	char *json = kb_store_path(store, "boots/hyperfine-%s.json", variant);
	char *log = kb_store_path(store, "boots/hyperfine-%s.log", variant);
	char *qlog = kb_store_path(store, "boots/hyperfine-%s.qemu.log", variant);
	char *exe = self_exe(), *cmd = NULL, *append, *runs, *warmup, *timeout, *memory;
	const char *why = NULL, *status = "ok";
	size_t cmdlen = 0, n = 0, failed = 0;
	double *times = NULL, t0 = kb_now(), other;
	struct kb_hostload load;
	FILE *f;
	json_t *j;
	int r, ret = 0;

	append = kb_xasprintf("console=ttyS0 panic=-1 nokaslr quiet %s%skb_workloads=none",
			      cmdline ? cmdline : "", cmdline ? " " : "");
	runs = kb_xasprintf("%ld", conf->runs);
	warmup = kb_xasprintf("%ld", conf->warmup);
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
		{ "--kernel", bzimage }, { "--initrd", image }, { "--append", append },
		{ "--log", log }, { "--qemu-log", qlog },
	};
	for (size_t i = 0; i < KB_ARRAY_SIZE(args); i++) {
		fputs(args[i][0], f);
		fputc(' ', f);
		quote(f, args[i][1]);
	}
	fclose(f);
	unlink(json);
	{
		char *argv[] = { (char *)hyperfine_path(), "-N", "--style", "basic", "--ignore-failure",
				 "--warmup", warmup, "--runs", runs, "--command-name", (char *)variant,
				 "--export-json", json, cmd, NULL };

		kb_info("boot timing: variant '%s': hyperfine, %ld warm-up and %ld timed boots",
			variant, conf->warmup, conf->runs);
		kb_hostload_begin(&load);
		/* every boot may take its timeout, and hyperfine a little more */
		r = kb_run_argv_deadline(argv, NULL, log, (double)(conf->runs + conf->warmup) *
					 ((double)conf->timeout + 10) + 60);
	}
	other = kb_hostload_other(&load);
	if (kb_interrupted) {
		ret = -1;	/* no timing.jsonl line: --resume times it again */
		goto out;
	}
	if (r == 127) {
		why = "hyperfine could not be run (apt-get install hyperfine)";
		status = "failed";
	} else if (r != 0) {
		why = "hyperfine failed";
		status = "failed";
	} else if (kb_boottime_parse(json, &times, &n, &failed, &why) < 0) {
		status = "failed";
	} else if (!n) {
		why = "no boot completed";
		status = "failed";
	} else if (failed) {
		status = "partial";
	}
	for (size_t i = 0; i < n; i++) {
		json_int_t ns = (json_int_t)(times[i] * 1e9 + 0.5);

		/* a whole boot: a sample of workload "boot", no layout */
		struct kb_rundir_sample s = {
			.variant = variant, .layout = -1, .boot = first_id + (long)i,
			.vboot = (long long)i + 1, .workload = "boot", .cas = "boot", .rep = 1,
			.iterations = 1, .ns = ns, .ns_per_op = (double)ns,
			.backend = KB_BOOTTIME_BACKEND, .accel = accel,
		};

		if (kb_rundir_sample_append(store, &s) < 0)
			ret = -1;
	}
	j = json_pack("{s:s,s:s,s:I,s:I,s:I,s:I,s:f,s:s,s:s,s:s}", "variant", variant,
		      "status", status, "runs", (json_int_t)conf->runs,
		      "warmup", (json_int_t)conf->warmup, "ok", (json_int_t)n,
		      "failed", (json_int_t)failed, "seconds", kb_now() - t0, "accel", kb_accel_name(accel),
		      "json", json + strlen(store->dir) + 1, "log", log + strlen(store->dir) + 1);
	if (why)
		json_object_set_new(j, "reason", json_string(why));
	if (other >= 0)
		json_object_set_new(j, "host_other_cpu", json_real(other));
	if (kb_store_append(store, KB_RD_TIMING, j) < 0)
		ret = -1;
	json_decref(j);
	if (strcmp(status, "ok")) {
		if (n)
			kb_warn("boot timing: variant '%s': %zu of %ld boots failed; see %s", variant,
				failed, conf->runs, log);
		else
			kb_warn("boot timing: variant '%s': %s; see %s", variant, why, log);
		kb_print_tail(stderr, log, 6, "kbench:   | ");
		ret = -1;
	} else {
		double sum = 0;

		for (size_t i = 0; i < n; i++)
			sum += times[i];
		kb_info("boot timing: variant '%s': %zu boots, mean %.3f s", variant, n, sum / (double)n);
	}
out:
	free(times);
	free(json);
	free(log);
	free(qlog);
	free(exe);
	free(cmd);
	free(append);
	free(runs);
	free(warmup);
	free(timeout);
	free(memory);
	return ret;
}
