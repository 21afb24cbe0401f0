// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench run / kbench build: the pipeline of DESIGN.md, stage by stage. */
#include "config.h"

#include <errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "boottime.h"
#include "build.h"
#include "commands.h"
#include "conf.h"
#include "image.h"
#include "pmuhost.h"
#include "probe.h"
#include "record.h"
#include "report.h"
#include "sim.h"
#include "size.h"
#include "store.h"
#include "util.h"
#include "vm.h"


struct variant_state {
	const struct kb_variant *v;
	struct kb_kernel k;
	int built;
	int boots_done;
};

static char *find_runner(void)
{
	return kb_find_companion("KBENCH_RUNNER", "../workloads/kbench-runner",
				 PKGLIBEXECDIR "/kbench-runner");
}

/* One line saying how a variant differs: its options, flags, boot arguments. */
static char *flags_summary(const struct kb_variant *v)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f;

	if (v->bzimage)
		return kb_xasprintf("prebuilt %s", v->bzimage);
	f = open_memstream(&s, &len);
	if (!f)
		abort();
	for (size_t i = 0; i < v->n_kopts; i++)
		fprintf(f, "%sCONFIG_%s=%s", ftell(f) ? " " : "", v->kopts[i].name, v->kopts[i].value);
	if (v->kcflags)
		fprintf(f, "%sKCFLAGS=%s", ftell(f) ? " " : "", v->kcflags);
	if (v->cmdline)
		fprintf(f, "%sboot: %s", ftell(f) ? " " : "", v->cmdline);
	fclose(f);
	return s;
}

static json_t *variant_json(const struct kb_variant *v)
{
	json_t *j = json_object(), *cfg = json_array();
	char *flags = flags_summary(v);

	json_object_set_new(j, "name", json_string(v->name));
	if (v->description)
		json_object_set_new(j, "description", json_string(v->description));
	for (size_t i = 0; i < v->n_kopts; i++)
		json_array_append_new(cfg, json_sprintf("CONFIG_%s=%s", v->kopts[i].name, v->kopts[i].value));
	json_object_set_new(j, "config", cfg);
	json_object_set_new(j, "kcflags", v->kcflags ? json_string(v->kcflags) : json_null());
	json_object_set_new(j, "cc", v->cc ? json_string(v->cc) : json_null());
	json_object_set_new(j, "cmdline", v->cmdline ? json_string(v->cmdline) : json_null());
	json_object_set_new(j, "flags", json_string(flags));
	json_object_set_new(j, "status", json_string("pending"));
	free(flags);
	return j;
}

/* Build every variant; failures are recorded and the others go on. */
static int build_all(const struct kb_conf *conf, struct variant_state *vs, struct kb_store *store,
		     const char *logdir)
{
	struct kb_source src;
	json_t *jv = store ? json_object_get(store->manifest, "variants") : NULL;
	int failed = 0;

	if (kb_source_prepare(conf, &src) < 0)
		return -1;
	if (store) {
		json_object_set_new(store->manifest, "kernel",
				    json_pack("{s:s,s:s,s:s,s:s,s:s}", "source", conf->source,
					      "id", src.id, "version", src.version, "arch", conf->arch,
					      "base", conf->base));
		kb_store_save_manifest(store);
	}
	for (size_t i = 0; i < conf->n_variants; i++) {
		struct variant_state *s = &vs[i];
		json_t *j = jv ? json_array_get(jv, i) : NULL;
		char *vdir = kb_xasprintf("%s/%s", logdir, s->v->name);
		char *log = kb_xasprintf("%s/build.log", vdir);
		struct kb_size sz;

		if (kb_interrupted) {
			free(vdir);
			free(log);
			break;
		}
		if (kb_mkdir_p(vdir, 0755) < 0) {
			free(vdir);
			free(log);
			kb_source_release(&src);
			return -1;
		}
		kb_info("variant %zu/%zu '%s': configuring", i + 1, conf->n_variants, s->v->name);
		if (kb_build_variant(conf, &src, s->v, log, &s->k) < 0) {
			failed++;
			if (j) {
				json_object_set_new(j, "status", json_string("build-failed"));
				json_object_set_new(j, "reason", json_string(s->k.failure));
				json_object_set_new(j, "log", json_sprintf("variants/%s/build.log", s->v->name));
			}
		} else {
			s->built = 1;
			kb_info("variant '%s': %s in %.1f s (%s)", s->v->name,
				s->k.cached ? "cached" : "built", s->k.seconds, s->k.dir ? s->k.dir : s->k.bzimage);
		}
		if (s->built && j) {
			/* The run directory keeps its own copies: results outlive the cache. */
			char *dst = kb_xasprintf("%s/vmlinux", vdir);
			int r = kb_copy_file(s->k.vmlinux, dst);

			free(dst);
			if (r == 0 && s->k.dotconfig) {
				dst = kb_xasprintf("%s/config", vdir);
				r = kb_copy_file(s->k.dotconfig, dst);
				free(dst);
			}
			if (r == 0 && s->k.system_map) {
				dst = kb_xasprintf("%s/System.map", vdir);
				r = kb_copy_file(s->k.system_map, dst);
				free(dst);
			}
			if (r < 0) {
				s->built = 0;
				failed++;
			}
			json_object_set_new(j, "status", json_string(s->built ? "built" : "copy-failed"));
			json_object_set_new(j, "key", json_string(s->k.key));
			json_object_set_new(j, "cached", json_boolean(s->k.cached));
			json_object_set_new(j, "build_seconds", json_real(s->k.seconds));
			json_object_set_new(j, "compiler", s->k.compiler ? json_string(s->k.compiler) : json_null());
			json_object_set_new(j, "vmlinux", json_sprintf("variants/%s/vmlinux", s->v->name));
		}
		if (s->built && kb_size_read(s->k.vmlinux, &sz) == 0) {
			json_t *js = json_pack("{s:I,s:I,s:I,s:I}", "text", (json_int_t)sz.text,
					       "data", (json_int_t)sz.data, "bss", (json_int_t)sz.bss,
					       "dec", (json_int_t)(sz.text + sz.data + sz.bss));
			if (j)
				json_object_set_new(j, "size", js);
			else
				json_decref(js);
		}
		if (store)
			kb_store_save_manifest(store);
		free(vdir);
		free(log);
	}
	kb_source_release(&src);
	return failed;
}

/* ---- one boot ---- */

struct boot {
	const struct kb_conf *conf;
	struct kb_store *store;
	const char *variant;
	long seq, vboot;
	const char *accel, *backend;
	int hello, done;
	long samples, garbled, rejected, guest_errors;
	char panic[256];
	char first_bad[128];
	char pmu[128];		/* the guest's counters: "guest", or "none: why" */
	struct kb_sim_boot *sim;	/* the sim backend's plugin output, or NULL */
	struct kb_pmuhost *host;	/* counters on the vCPU thread, or NULL */
};

static int workload_planned(const struct kb_conf *conf, const char *wl)
{
	size_t n = strlen(wl);

	for (const char *p = conf->workloads; p && *p; ) {
		size_t l = strcspn(p, ",");

		if (l == n && !strncmp(p, wl, n))
			return 1;
		p += l + (p[l] == ',');
	}
	return 0;
}

static void reject(struct boot *b, const char *why)
{
	if (!b->first_bad[0])
		snprintf(b->first_bad, sizeof(b->first_bad), "%s", why);
	b->rejected++;
}

/* The fields every sample has; any other field must be an unsigned number
 * (a counter, or a workload parameter such as the sweep's k) and is kept
 * under its own name in "fields". */
static const char *const sample_keys[] = { "wl", "rep", "iter", "ns" };

static int is_sample_key(const char *key)
{
	for (size_t i = 0; i < KB_ARRAY_SIZE(sample_keys); i++)
		if (!strcmp(key, sample_keys[i]))
			return 1;
	return 0;
}

static void on_sample(struct boot *b, const struct kb_record *r)
{
	unsigned long long rep, iter, ns, k;
	const char *wl = kb_record_get(r, "wl"), *sim_why = NULL, *backend = b->backend;
	json_t *j, *fields;
	char *cas;

	if (!wl || !workload_planned(b->conf, wl))
		return reject(b, "sample for a workload not in the plan");
	if (kb_record_get_u64(r, "rep", &rep) || kb_record_get_u64(r, "iter", &iter) ||
	    kb_record_get_u64(r, "ns", &ns))
		return reject(b, "sample without valid rep/iter/ns");
	if (rep < 1 || rep > (unsigned long long)b->conf->samples || iter == 0 || ns == 0)
		return reject(b, "sample with out-of-range rep/iter/ns");
	fields = json_object();
	for (size_t i = 0; i < r->n; i++) {
		unsigned long long v;

		if (is_sample_key(r->f[i].key))
			continue;
		if (kb_record_get_u64(r, r->f[i].key, &v)) {
			json_decref(fields);
			return reject(b, "sample with a non-numeric field");
		}
		json_object_set_new(fields, r->f[i].key, json_integer((json_int_t)v));
	}
	/* A case is what the report compares: the workload, and its parameter. */
	cas = kb_record_get_u64(r, "k", &k) == 0 ? kb_xasprintf("%s/k=%llu", wl, k) : kb_xstrdup(wl);
	if (b->host && kb_pmuhost_take(b->host, wl, rep, strchr(cas, '=') ? &k : NULL, fields))
		backend = kb_pmuhost_name(b->host->mode);
	if (b->sim && kb_sim_boot_sample(b->sim, wl, cas, (long)rep, fields, &sim_why) < 0) {
		json_decref(fields);
		free(cas);
		return reject(b, sim_why);
	}
	j = json_pack("{s:s,s:I,s:I,s:s,s:s,s:I,s:I,s:I,s:f,s:s,s:s,s:o}",
		      "variant", b->variant, "boot", (json_int_t)b->seq, "vboot", (json_int_t)b->vboot,
		      "workload", wl, "case", cas, "rep", (json_int_t)rep,
		      "iterations", (json_int_t)iter, "ns", (json_int_t)ns,
		      "ns_per_op", (double)ns / (double)iter, "backend", backend,
		      "accel", b->accel, "fields", fields);
	if (kb_store_append(b->store, "samples.jsonl", j) == 0)
		b->samples++;
	json_decref(j);
	free(cas);
}

static void on_line(void *ctx, const char *line, size_t len)
{
	struct boot *b = ctx;
	struct kb_record r;
	const char *why = NULL;
	int ret = kb_record_parse(line, len, &r, &why);

	if (ret == KB_RECORD_NONE) {
		if (!b->panic[0])
			kb_vm_panic_text(line, len, b->panic, sizeof(b->panic));
		return;
	}
	if (ret < 0) {
		b->garbled++;
		return;
	}
	if (!strcmp(r.kind, "hello")) {
		const char *pmu_why = kb_record_get(&r, "pmu_why");

		b->hello = 1;
		snprintf(b->pmu, sizeof(b->pmu), "%s%s%s", kb_record_get(&r, "pmu") ?: "?",
			 pmu_why ? ": " : "", pmu_why ? pmu_why : "");
	} else if (!strcmp(r.kind, "sample"))
		on_sample(b, &r);
	else if (!strcmp(r.kind, "mark") && b->host)
		kb_pmuhost_mark(b->host, &r);
	else if (!strcmp(r.kind, "done"))
		b->done = 1;
	else if (!strcmp(r.kind, "error")) {
		b->guest_errors++;
		kb_warn("variant '%s' boot %ld: guest error: workload '%s' %s (errno %s)", b->variant,
			b->vboot, kb_record_get(&r, "wl") ?: "-", kb_record_get(&r, "reason") ?: "?",
			kb_record_get(&r, "errno") ?: "-");
	}
}

static void on_start(void *ctx, pid_t pid, int serial_in)
{
	struct boot *b = ctx;

	kb_pmuhost_start(b->host, pid, serial_in);
}

static int boot_once(const struct kb_conf *conf, struct kb_store *store, struct variant_state *s,
		     long seq, long total, const char *accel, const char *image,
		     const struct kb_sim_run *sim, enum kb_pmuhost_mode hostc)
{
	struct kb_pmuhost host;
	struct boot b = { .conf = conf, .store = store, .variant = s->v->name, .seq = seq,
			  .vboot = s->boots_done + 1, .accel = accel, .backend = "clock" };
	char *serial = kb_store_path(store, "boots/%s-%ld.serial", s->v->name, b.vboot);
	char *qlog = kb_store_path(store, "boots/%s-%ld.qemu.log", s->v->name, b.vboot);
	char *append = kb_xasprintf("console=ttyS0 panic=-1 nokaslr quiet %s%skb_workloads=%s "
				    "kb_samples=%ld kb_scale=%g kb_sweep=%s%s", s->v->cmdline ? s->v->cmdline : "",
				    s->v->cmdline ? " " : "", conf->workloads, conf->samples,
				    conf->scale, conf->sweep, hostc != KB_PMUHOST_OFF ? " kb_sync=1" : "");
	struct kb_vm_opts o = {
		.qemu = kb_qemu_path(), .accel = accel, .kernel = s->k.bzimage, .initrd = image,
		.append = append, .memory_mb = conf->memory, .timeout = (double)conf->timeout,
		.serial_log = serial, .qemu_log = qlog, .max_bytes = (size_t)conf->serial_limit,
		.on_line = on_line, .ctx = &b,
	};
	struct kb_vm_result res;
	const char *status;
	char *reason;
	json_t *j;
	int r;

	s->boots_done++;
	if (hostc != KB_PMUHOST_OFF) {
		kb_pmuhost_init(&host, hostc);
		b.host = &host;
		o.on_start = on_start;
	}
	if (sim) {
		char *out = kb_store_path(store, "boots/%s-%ld.sim", s->v->name, b.vboot);

		b.sim = kb_sim_boot_new(sim, out, s->k.system_map, store, s->v->name, seq, b.vboot);
		b.backend = "sim";
		o.extra_argv = kb_sim_boot_argv(b.sim);
		free(out);
	}
	r = kb_vm_boot(&o, &res);
	if (kb_interrupted) {
		/* Not a finished boot: no boots.jsonl line, so --resume runs it
		 * again (and drops the samples it had sent). */
		kb_warn("variant '%s' boot %ld interrupted", s->v->name, b.vboot);
		r = -1;
		goto out;
	}
	if (r < 0) {
		status = "qemu-failed";
		reason = kb_xasprintf("QEMU could not be started; see %s", qlog);
	} else {
		status = kb_vm_outcome(&res, &o, b.hello, b.done, b.panic, &reason);
	}
	j = json_pack("{s:s,s:I,s:I,s:s,s:s,s:f,s:I,s:I,s:I,s:I,s:I,s:s,s:s}",
		      "variant", s->v->name, "boot", (json_int_t)seq, "vboot", (json_int_t)b.vboot,
		      "status", status, "reason", reason, "seconds", res.seconds,
		      "samples", (json_int_t)b.samples, "garbled", (json_int_t)b.garbled,
		      "rejected", (json_int_t)b.rejected, "guest_errors", (json_int_t)b.guest_errors,
		      "serial_bytes", (json_int_t)res.bytes, "accel", accel,
		      "serial", serial + strlen(store->dir) + 1);
	if (b.first_bad[0])
		json_object_set_new(j, "first_rejected", json_string(b.first_bad));
	if (b.pmu[0])
		json_object_set_new(j, "pmu", json_string(b.pmu));
	if (b.host) {
		char *hs = kb_pmuhost_summary(b.host);

		json_object_set_new(j, "host_counters", json_string(hs));
		if (b.host->broken && b.host->regions == 0)
			kb_warn("variant '%s' boot %ld: host counters: %s", s->v->name, b.vboot, hs);
		free(hs);
	}
	if (b.sim)
		json_object_set_new(j, "sim_problems", json_integer(kb_sim_boot_finish(b.sim)));
	kb_store_append(store, "boots.jsonl", j);
	json_decref(j);
	kb_info("boot %ld/%ld: variant '%s' (%ld/%ld): %s, %ld samples, %.1f s", seq, total,
		s->v->name, b.vboot, conf->boots, status, b.samples, res.seconds);
	if (b.garbled || b.rejected)
		kb_warn("variant '%s' boot %ld: %ld garbled and %ld rejected guest records skipped",
			s->v->name, b.vboot, b.garbled, b.rejected);
	if (strcmp(status, "ok")) {
		kb_warn("variant '%s' boot %ld: %s; serial log %s", s->v->name, b.vboot, reason, serial);
		kb_print_tail(stderr, serial, 8, "kbench:   | ");
	}
	r = strcmp(status, "ok") ? -1 : 0;
	free(reason);
out:
	if (b.host)
		kb_pmuhost_release(b.host);
	kb_sim_boot_free(b.sim);
	free(serial);
	free(qlog);
	free(append);
	return r;
}

/* The boot id of whole-boot timing run 1 of variant vi: run i is this + i - 1,
 * past every measuring boot (total of them). */
static long first_timed_id(const struct kb_conf *conf, long total, size_t vi)
{
	return total + (long)vi * conf->boot_runs + 1;
}

/* Whole-boot timing (hyperfine), after the measuring boots: the variants in
 * a seeded shuffled order, each timed in one go.  Returns the number of
 * variants whose timing failed. */
static long time_boots(const struct kb_conf *conf, struct kb_store *store,
		       const struct variant_state *vs, long total, const char *accel,
		       const char *image, int resume)
{
	json_t *done = kb_boottime_done(store);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t *order = kb_xcalloc(conf->n_variants + 1, sizeof(*order)), n = 0, ndrop = 0;
	long *drop = kb_xcalloc((size_t)conf->boot_runs * conf->n_variants + 1, sizeof(*drop));
	long bad = 0;

	for (size_t i = 0; i < conf->n_variants; i++) {
		if (!vs[i].built || json_object_get(done, vs[i].v->name))
			continue;
		order[n++] = i;
		for (long r = 0; r < conf->boot_runs; r++)
			drop[ndrop++] = first_timed_id(conf, total, i) + r;
	}
	/* a timing cut short left no timing.jsonl line: its samples go */
	if (resume && ndrop && kb_store_drop_lines(store, "samples.jsonl", "boot", drop, ndrop) < 0) {
		bad = (long)n;
		n = 0;
	}
	gsl_rng_set(rng, (unsigned long)(conf->seed + 1));
	gsl_ran_shuffle(rng, order, n, sizeof(*order));
	for (size_t k = 0; k < n && !kb_interrupted; k++) {
		const struct variant_state *s = &vs[order[k]];

		kb_info("progress: boot timing: variant %zu/%zu '%s'", k + 1, n, s->v->name);
		if (kb_boottime_variant(conf, store, s->v->name, s->k.bzimage, s->v->cmdline, accel,
					image, first_timed_id(conf, total, order[k])) < 0 &&
		    !kb_interrupted)
			bad++;
	}
	gsl_rng_free(rng);
	json_decref(done);
	free(order);
	free(drop);
	return bad;
}

static const char *choose_accel(const struct kb_conf *conf, char **why)
{
	if (conf->backend == KB_BACKEND_SIM && conf->accel == KB_ACCEL_AUTO) {
		*why = kb_xstrdup("backend = sim: QEMU plugins run under TCG");
		return "tcg";
	}
	switch (conf->accel) {
	case KB_ACCEL_TCG:
		*why = kb_xstrdup("accel = tcg in the configuration");
		return "tcg";
	case KB_ACCEL_KVM:
		if (kb_probe_accel(kb_qemu_path(), "kvm", 5, why))
			return "kvm";
		return NULL;
	default:
		break;
	}
	if (kb_probe_accel(kb_qemu_path(), "kvm", 5, why))
		return "kvm";
	{
		char *k = *why;

		*why = kb_xasprintf("KVM not usable: %s; using TCG", k);
		free(k);
	}
	return "tcg";
}

static int load_conf(const char *path, struct kb_conf *conf)
{
	if (kb_conf_load(conf, path) < 0) {
		kb_conf_release(conf);
		return -1;
	}
	return 0;
}

static int usage_run(const char *cmd, int ret)
{
	fprintf(ret ? stderr : stdout,
		"usage: kbench %s [--help-config] VARIANTS.CONF\n%s", cmd,
		strcmp(cmd, "run") ? "" : "       kbench run --resume RUN_DIR\n");
	return ret;
}

/* 0 to go on, else 100 + exit code (help) or the exit code of a usage error */
static int parse_args(int argc, char **argv, const char **path, int *resume)
{
	*path = NULL;
	*resume = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return usage_run(argv[0], KB_EXIT_OK) + 100;
		if (!strcmp(argv[i], "--help-config")) {
			kb_conf_help(stdout);
			return 100;
		}
		if (!strcmp(argv[i], "--resume") && !strcmp(argv[0], "run")) {
			*resume = 1;
			continue;
		}
		if (argv[i][0] == '-' || *path)
			return usage_run(argv[0], KB_EXIT_USAGE);
		*path = argv[i];
	}
	if (!*path)
		return usage_run(argv[0], KB_EXIT_USAGE);
	return 0;
}

int kb_cmd_build(int argc, char **argv)
{
	struct kb_conf conf;
	struct variant_state *vs;
	const char *path;
	char *logdir;
	int resume, r = parse_args(argc, argv, &path, &resume), failed;

	if (r)
		return r >= 100 ? r - 100 : r;
	if (load_conf(path, &conf) < 0)
		return KB_EXIT_USAGE;
	vs = kb_xcalloc(conf.n_variants, sizeof(*vs));
	for (size_t i = 0; i < conf.n_variants; i++)
		vs[i].v = &conf.variants[i];
	logdir = kb_xasprintf("%s/logs", conf.cache);
	failed = build_all(&conf, vs, NULL, logdir);
	if (failed >= 0) {
		printf("%-16s %-8s %10s  %s\n", "variant", "status", "text", "bzImage");
		for (size_t i = 0; i < conf.n_variants; i++) {
			struct kb_size sz = { 0 };

			if (vs[i].built)
				kb_size_read(vs[i].k.vmlinux, &sz);
			printf("%-16s %-8s %10llu  %s\n", vs[i].v->name,
			       vs[i].built ? (vs[i].k.cached ? "cached" : "built") : "FAILED",
			       sz.text, vs[i].built ? vs[i].k.bzimage : "-");
		}
	}
	for (size_t i = 0; i < conf.n_variants; i++)
		kb_kernel_release(&vs[i].k);
	free(vs);
	free(logdir);
	kb_conf_release(&conf);
	return failed == 0 ? KB_EXIT_OK : KB_EXIT_FAILED;
}

/* The boot plan: rounds of all built variants, each round in a seeded
 * shuffled order, so drift on the host spreads over every variant.  The same
 * seed gives the same plan: --resume relies on it.  plan[seq - 1] is the
 * index of the variant booted as boot seq. */
static size_t *make_plan(const struct kb_conf *conf, const struct variant_state *vs,
			 unsigned long long seed, long *total)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t nbuilt = 0, *plan;
	long n = 0;

	for (size_t i = 0; i < conf->n_variants; i++)
		nbuilt += vs[i].built;
	plan = kb_xcalloc((size_t)conf->boots * nbuilt + 1, sizeof(*plan));
	gsl_rng_set(rng, (unsigned long)seed);
	for (long round = 0; round < conf->boots; round++) {
		size_t *r = plan + n, k = 0;

		for (size_t i = 0; i < conf->n_variants; i++)
			if (vs[i].built)
				r[k++] = i;
		gsl_ran_shuffle(rng, r, k, sizeof(*r));
		n += (long)k;
	}
	gsl_rng_free(rng);
	*total = n;
	return plan;
}

/* Boots already finished in this run directory (any status). */
static unsigned char *finished_boots(const struct kb_store *store, long total)
{
	unsigned char *done = kb_xcalloc((size_t)total + 1, 1);
	char *path = kb_store_path(store, "boots.jsonl");
	json_t *lines, *b;
	size_t i;
	int bad;

	lines = kb_store_read_lines(path, &bad);
	json_array_foreach(lines, i, b) {
		long seq = (long)json_integer_value(json_object_get(b, "boot"));

		if (seq >= 1 && seq <= total)
			done[seq] = 1;
	}
	json_decref(lines);
	free(path);
	return done;
}

static void init_manifest(struct kb_store *store, const struct kb_conf *conf, const char *conftext)
{
	json_t *jv = json_array();

	json_object_set_new(store->manifest, "kbench", json_string(PACKAGE_VERSION));
	json_object_set_new(store->manifest, "run_id", json_string(store->id));
	json_object_set_new(store->manifest, "state", json_string("running"));
	json_object_set_new(store->manifest, "config", json_string(conf->path));
	json_object_set_new(store->manifest, "config_dir", json_string(conf->dir));
	json_object_set_new(store->manifest, "config_text", json_string(conftext));
	json_object_set_new(store->manifest, "seed", json_integer((json_int_t)conf->seed));
	json_object_set_new(store->manifest, "baseline", json_string(conf->baseline));
	json_object_set_new(store->manifest, "run",
			    json_pack("{s:i,s:s,s:i,s:f,s:i,s:i,s:i,s:i}", "boots", (int)conf->boots,
				      "workloads", conf->workloads, "samples", (int)conf->samples,
				      "scale", conf->scale, "timeout", (int)conf->timeout,
				      "memory_mb", (int)conf->memory, "boot_runs", (int)conf->boot_runs,
				      "boot_warmup", (int)conf->boot_warmup));
	json_object_set_new(store->manifest, "host", kb_probe_host(0));
	for (size_t i = 0; i < conf->n_variants; i++)
		json_array_append_new(jv, variant_json(&conf->variants[i]));
	json_object_set_new(store->manifest, "variants", jv);
}

/* A new run: configuration, run directory, the manifest first (whatever
 * happens later, the run says what it was) and a copy of the configuration
 * for --resume. */
static int start_run(const char *path, struct kb_conf *conf, struct kb_store *store, int *lockfd)
{
	char *conftext = NULL, *copy;
	int r;

	if (load_conf(path, conf) < 0)
		return KB_EXIT_USAGE;
	*lockfd = kb_store_lock(conf->output);
	if (*lockfd < 0 || kb_store_create(store, conf->output) < 0) {
		kb_conf_release(conf);
		return KB_EXIT_FAILED;
	}
	if (!conf->seed)
		conf->seed = ((unsigned long long)time(NULL) << 16) ^ (unsigned long long)getpid();
	kb_read_file(path, &conftext, NULL);
	copy = kb_store_path(store, "variants.conf");
	r = kb_write_file_atomic(copy, conftext ? conftext : "", conftext ? strlen(conftext) : 0);
	init_manifest(store, conf, conftext ? conftext : "");
	free(copy);
	free(conftext);
	if (r < 0 || kb_store_save_manifest(store) < 0)
		return KB_EXIT_FAILED;
	return 0;
}

/* --resume: the run directory's own copy of the configuration, resolved as
 * the original was, and the seed of the original plan. */
static int resume_run(const char *dir, struct kb_conf *conf, struct kb_store *store, int *lockfd)
{
	char *copy, *parent;
	const char *cdir;

	if (kb_store_open(store, dir) < 0)
		return KB_EXIT_USAGE;
	parent = kb_xstrdup(dir);
	*lockfd = kb_store_lock(dirname(parent));
	free(parent);
	if (*lockfd < 0)
		return KB_EXIT_FAILED;
	if (!strcmp(json_string_value(json_object_get(store->manifest, "state")) ?: "", "complete")) {
		kb_error("'%s': the run is complete; nothing to resume", dir);
		return KB_EXIT_USAGE;
	}
	copy = kb_store_path(store, "variants.conf");
	cdir = json_string_value(json_object_get(store->manifest, "config_dir"));
	if (kb_conf_load_dir(conf, copy, cdir) < 0) {
		free(copy);
		kb_conf_release(conf);
		return KB_EXIT_USAGE;
	}
	free(copy);
	conf->seed = (unsigned long long)json_integer_value(json_object_get(store->manifest, "seed"));
	json_object_set_new(store->manifest, "state", json_string("running"));
	return 0;
}

int kb_cmd_run(int argc, char **argv)
{
	struct kb_conf conf;
	struct kb_store store;
	struct variant_state *vs = NULL;
	const char *path, *accel, *was, *backend;
	char *why = NULL, *runner = NULL, *image = NULL, *logdir = NULL, *bwhy = NULL, *hwhy = NULL;
	enum kb_pmuhost_mode hostc = KB_PMUHOST_OFF;
	struct kb_sim_run simrun = { 0 };
	unsigned char *done = NULL;
	long total = 0, bad_boots = 0, bad_timing = 0, ran = 0, todo = 0, *partial = NULL;
	size_t nbuilt = 0, npartial = 0, *plan = NULL;
	int resume, lockfd = -1, failed = 0, ret = KB_EXIT_FAILED;
	int r = parse_args(argc, argv, &path, &resume);
	double t0 = kb_now(), tboots;

	if (r)
		return r >= 100 ? r - 100 : r;
	memset(&store, 0, sizeof(store));
	r = resume ? resume_run(path, &conf, &store, &lockfd) : start_run(path, &conf, &store, &lockfd);
	if (r) {
		if (lockfd >= 0)
			close(lockfd);
		kb_store_release(&store);
		return r;
	}
	kb_install_signal_handlers();
	kb_info("%s run directory %s", resume ? "resuming" : "new", store.dir);

	vs = kb_xcalloc(conf.n_variants, sizeof(*vs));
	for (size_t i = 0; i < conf.n_variants; i++)
		vs[i].v = &conf.variants[i];
	logdir = kb_store_path(&store, "variants");
	failed = build_all(&conf, vs, &store, logdir);
	if (failed < 0 || kb_interrupted)
		goto report;	/* the manifest and report say what was tried */
	for (size_t i = 0; i < conf.n_variants; i++)
		nbuilt += vs[i].built;
	if (!nbuilt) {
		kb_error("no variant built: nothing to boot");
		goto report;
	}

	runner = find_runner();
	image = kb_store_path(&store, "initramfs.cpio");
	if (kb_image_write(image, runner) < 0)
		goto report;

	accel = choose_accel(&conf, &why);
	was = json_string_value(json_object_get(json_object_get(store.manifest, "accel"), "chosen"));
	if (resume && was && (!accel || strcmp(was, accel))) {
		kb_error("'%s' was measured under %s, but this host now gives %s (%s): "
			 "samples would not be comparable", store.dir, was, accel ? accel : "none", why);
		ret = KB_EXIT_NOT_SUPPORTED;
		goto report;
	}
	json_object_set_new(store.manifest, "accel", json_pack("{s:s?,s:s}", "chosen", accel,
							       "why", why ? why : ""));
	kb_store_save_manifest(&store);
	if (!accel) {
		kb_error("accel = kvm, but %s", why);
		ret = KB_EXIT_NOT_SUPPORTED;
		goto report;
	}
	kb_info("accelerator %s: %s", accel, why);
	backend = kb_sim_choose(&conf, accel, &simrun, &bwhy);
	if (!backend) {
		json_object_set_new(store.manifest, "backend", json_string("none"));
		json_object_set_new(store.manifest, "backend_why", json_string(bwhy));
		kb_store_save_manifest(&store);
		kb_error("backend = sim, but %s", bwhy);
		ret = KB_EXIT_NOT_SUPPORTED;
		goto report;
	}
	kb_info("backend %s: %s", backend, bwhy);
	{
		int herr;
		const char *hb = kb_pmuhost_choose(&conf, accel, backend, &hostc, &hwhy, &herr);

		json_object_set_new(store.manifest, "host_counters",
				    json_pack("{s:s?,s:s}", "mode", hb, "why", hwhy));
		if (herr < 0) {
			kb_store_save_manifest(&store);
			kb_error("%s", hwhy);
			ret = KB_EXIT_NOT_SUPPORTED;
			goto report;
		}
		kb_info("host counters %s: %s", hb ? hb : "off", hwhy);
		if (hb)
			backend = hb;	/* the run's figures: the guest's clock and the host's counters */
	}
	was = json_string_value(json_object_get(store.manifest, "backend"));
	if (resume && was && strcmp(was, backend)) {
		kb_error("'%s' was measured with backend %s, but this host now gives %s (%s): "
			 "samples would not be comparable", store.dir, was, backend, bwhy);
		ret = KB_EXIT_NOT_SUPPORTED;
		goto report;
	}
	json_object_set_new(store.manifest, "backend", json_string(backend));
	json_object_set_new(store.manifest, "backend_why", json_string(bwhy));
	if (!strcmp(backend, "sim"))
		json_object_set_new(store.manifest, "sim", kb_sim_run_json(&simrun));
	kb_store_save_manifest(&store);

	plan = make_plan(&conf, vs, conf.seed, &total);
	done = finished_boots(&store, total);
	/* Samples of a boot that never finished are dropped: it runs again. */
	partial = kb_xcalloc((size_t)total + 1, sizeof(*partial));
	for (long seq = 1; seq <= total; seq++)
		if (!done[seq])
			partial[npartial++] = seq;
	todo = (long)npartial;
	if (resume && kb_store_drop_lines(&store, "samples.jsonl", "boot", partial, npartial) < 0)
		goto report;
	if (resume && simrun.plugin &&
	    kb_store_drop_lines(&store, "sim.jsonl", "boot", partial, npartial) < 0)
		goto report;
	if (resume)
		kb_info("%ld of %ld boots finished before; %ld to go", total - todo, total, todo);
	tboots = kb_now();
	for (long seq = 1; seq <= total && !kb_interrupted; seq++) {
		struct variant_state *v = &vs[plan[seq - 1]];
		double el = kb_now() - tboots;

		if (done[seq]) {
			v->boots_done++;
			continue;
		}
		if (ran)
			kb_info("progress: measuring: boot %ld/%ld, variant %zu/%zu '%s' boot %d/%ld; "
				"%.0f s elapsed, about %.0f s left", seq, total, plan[seq - 1] + 1,
				conf.n_variants, v->v->name, v->boots_done + 1, conf.boots, kb_now() - t0,
				el / (double)ran * (double)(todo - ran));
		r = boot_once(&conf, &store, v, seq, total, accel, image,
			      simrun.plugin ? &simrun : NULL, hostc);
		if (r < 0 && !kb_interrupted)
			bad_boots++;
		ran++;
	}
	if (conf.boot_runs > 0 && !kb_interrupted)
		bad_timing = time_boots(&conf, &store, vs, total, accel, image, resume);
	ret = failed || bad_boots || bad_timing ? KB_EXIT_FAILED : KB_EXIT_OK;
report:
	if (kb_interrupted) {
		json_object_set_new(store.manifest, "state", json_string("interrupted"));
		ret = 128 + (int)kb_interrupted;
	} else {
		json_object_set_new(store.manifest, "state", json_string("complete"));
	}
	json_object_set_new(store.manifest, "seconds", json_real(kb_now() - t0));
	kb_store_save_manifest(&store);
	if (kb_report_write(store.dir) < 0)
		ret = KB_EXIT_FAILED;
	else
		printf("%s/report.md\n", store.dir);
	if (kb_interrupted)
		kb_info("interrupted: finished samples are kept; resume with: kbench run --resume %s",
			store.dir);
	else
		kb_info("%ld boots, %ld failed; %zu of %zu variants built; %.0f s", ran, bad_boots,
			nbuilt, conf.n_variants, kb_now() - t0);
	for (size_t i = 0; vs && i < conf.n_variants; i++)
		kb_kernel_release(&vs[i].k);
	free(vs);
	free(plan);
	free(done);
	free(partial);
	free(why);
	free(bwhy);
	free(hwhy);
	kb_sim_run_release(&simrun);
	free(runner);
	free(image);
	free(logdir);
	kb_store_release(&store);
	kb_conf_release(&conf);
	if (lockfd >= 0)
		close(lockfd);
	return ret;
}
