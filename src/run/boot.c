// SPDX-License-Identifier: GPL-2.0-or-later
/* The measuring boots (boot.h): one QEMU boot with the run's backends
 * attached, and the loop over the plan. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "boot.h"
#include "counters.h"
#include "hostload.h"
#include "record.h"
#include "rundir.h"
#include "util.h"
#include "vm.h"

/* The run's per-boot backends, overlay first: it reads counters around the
 * regions the primary measures, and its figures name the sample. */
#define MAX_ACTIVE 2

struct active {
	const struct kb_backend_run *run;
	void *bs;
};

/* A sample held until QEMU has exited, for a backend whose figures wait for
 * the whole boot (boot_settle: the sim backend prices its blocks then, in
 * one batch); stored in the order the guest sent it. */
struct held {
	struct kb_rundir_sample s;	/* its strings: the boot's, or below */
	char *wl, *cas;
};

struct boot {
	const struct kb_boots *env;
	const char *variant;
	int layout;		/* the variant's layout replica */
	long seq, vboot;
	struct active act[MAX_ACTIVE];
	size_t n_act;
	int hello, done;
	long samples, garbled, rejected, guest_errors;
	char panic[256];
	char first_bad[128];
	char pmu[128];		/* the guest's counters: "guest", or "none: why" */
	long tsc_khz;		/* the guest was told its TSC's rate, or 0 */
	int hold;		/* a backend settles at the end: samples wait */
	struct held *held;
	size_t n_held;
};

/* A per-boot backend of the run measures time. */
static int times(const struct kb_backends_chosen *c)
{
	return (c->primary.b->flags & KB_BACKEND_TIMES) ||
	       (c->overlay.b && (c->overlay.b->flags & KB_BACKEND_TIMES));
}

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
 * the runner sends (a guest counter, or a workload parameter such as the
 * sweep's k) and is kept under its own name in "fields". */
static const char *const sample_keys[] = { "wl", "rep", "iter", "ns" };
static const char *const guest_extra[] = { "k", "mux_k", "mux_u" };

static int in_list(const char *key, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(key, list[i]))
			return 1;
	return 0;
}

/* A field name the runner sends: a parameter, or <counter>_k / <counter>_u
 * of the guest's counters (counters.c).  Any other name would become a
 * metric the guest made up, perhaps one posing as a host's (host_*) or a
 * backend's figure. */
static int guest_field(const char *key)
{
	size_t n = strlen(key);

	if (in_list(key, guest_extra, KB_ARRAY_SIZE(guest_extra)))
		return 1;
	if (n < 3 || key[n - 2] != '_' || (key[n - 1] != 'k' && key[n - 1] != 'u'))
		return 0;
	for (size_t i = 0; i < kb_perf_n_hw_events; i++)
		if (strlen(kb_perf_hw_events[i].key) == n - 2 &&
		    !strncmp(key, kb_perf_hw_events[i].key, n - 2))
			return 1;
	return 0;
}

/* The backends' figures for a sample; the name of the first that added
 * any, else the primary's; NULL after reject(). */
static const char *backend_fields(struct boot *b, const struct kb_backend_sample *bs, json_t *fields)
{
	const char *name = b->env->backends->primary.b->name, *why = NULL;
	int named = 0;

	for (size_t i = 0; i < b->n_act; i++) {
		const struct kb_backend *be = b->act[i].run->b;
		int r;

		if (!be->on_sample)
			continue;
		r = be->on_sample(b->act[i].bs, bs, fields, &why);
		if (r < 0) {
			reject(b, why ? why : "sample refused by the backend");
			return NULL;
		}
		if (r > 0 && !named++)
			name = be->name;
	}
	return name;
}

static void on_sample(struct boot *b, const struct kb_record *r)
{
	const struct kb_conf *conf = b->env->conf;
	unsigned long long rep, iter, ns, k;
	const char *wl = kb_record_get(r, "wl"), *backend;
	struct kb_backend_sample bs;
	struct kb_rundir_sample s;
	json_t *fields;
	char *cas;

	if (!wl || !workload_planned(conf, wl))
		return reject(b, "sample for a workload not in the plan");
	if (kb_record_get_u64(r, "rep", &rep) || kb_record_get_u64(r, "iter", &iter) ||
	    kb_record_get_u64(r, "ns", &ns))
		return reject(b, "sample without valid rep/iter/ns");
	if (rep < 1 || rep > (unsigned long long)conf->samples || iter == 0 || ns == 0)
		return reject(b, ns == 0 ? "sample of 0 ns (the guest's clock did not advance over the "
				  "region)" : "sample with out-of-range rep/iter/ns");
	fields = json_object();
	for (size_t i = 0; i < r->n; i++) {
		unsigned long long v;

		if (in_list(r->f[i].key, sample_keys, KB_ARRAY_SIZE(sample_keys)))
			continue;
		if (!guest_field(r->f[i].key)) {
			json_decref(fields);
			return reject(b, "sample with a field the runner never sends");
		}
		if (kb_record_get_u64(r, r->f[i].key, &v)) {
			json_decref(fields);
			return reject(b, "sample with a non-numeric field");
		}
		json_object_set_new(fields, r->f[i].key, json_integer((json_int_t)v));
	}
	/* A case is what the report compares: the workload, and its parameter. */
	cas = kb_record_get_u64(r, "k", &k) == 0 ? kb_xasprintf("%s/k=%llu", wl, k) : kb_xstrdup(wl);
	bs = (struct kb_backend_sample){ wl, cas, rep, strchr(cas, '=') ? &k : NULL };
	backend = backend_fields(b, &bs, fields);
	if (!backend) {
		json_decref(fields);
		free(cas);
		return;
	}
	s = (struct kb_rundir_sample){
		.variant = b->variant, .layout = b->layout, .boot = b->seq, .vboot = b->vboot,
		.workload = wl, .cas = cas, .rep = (long long)rep, .iterations = (long long)iter,
		.ns = (long long)ns, .ns_per_op = (double)ns / (double)iter, .backend = backend,
		.accel = b->env->accel, .fields = fields,
	};
	if (b->hold) {
		struct held *h;

		b->held = kb_xrealloc(b->held, (b->n_held + 1) * sizeof(*b->held));
		h = &b->held[b->n_held++];
		h->wl = kb_xstrdup(wl);
		h->cas = cas;
		h->s = s;
		h->s.workload = h->wl;
		h->s.cas = h->cas;
		return;
	}
	if (kb_rundir_sample_append(b->env->store, &s) == 0)
		b->samples++;
	free(cas);
}

/* The boot's end: the backends settle their figures, then the samples held
 * are stored (store: 0, as after an interrupt, drops them: --resume runs
 * the boot again). */
static void settle(struct boot *b, int store)
{
	for (size_t i = 0; store && i < b->n_act; i++)
		if (b->act[i].run->b->boot_settle)
			b->act[i].run->b->boot_settle(b->act[i].bs);
	for (size_t i = 0; i < b->n_held; i++) {
		struct held *h = &b->held[i];

		if (store && kb_rundir_sample_append(b->env->store, &h->s) == 0)
			b->samples++;
		else if (!store)
			json_decref(h->s.fields);
		free(h->wl);
		free(h->cas);
	}
	free(b->held);
	b->held = NULL;
	b->n_held = 0;
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
	if (!strcmp(r.kind, "sample")) {
		on_sample(b, &r);
		return;
	}
	if (!strcmp(r.kind, "hello")) {
		const char *pmu_why = kb_record_get(&r, "pmu_why");

		b->hello = 1;
		snprintf(b->pmu, sizeof(b->pmu), "%s%s%s", kb_record_get(&r, "pmu") ?: "?",
			 pmu_why ? ": " : "", pmu_why ? pmu_why : "");
	} else if (!strcmp(r.kind, "done")) {
		b->done = 1;
	} else if (!strcmp(r.kind, "error")) {
		b->guest_errors++;
		kb_warn("variant '%s' boot %ld: guest error: workload '%s' %s (errno %s)", b->variant,
			b->vboot, kb_record_get(&r, "wl") ?: "-", kb_record_get(&r, "reason") ?: "?",
			kb_record_get(&r, "errno") ?: "-");
	}
	for (size_t i = 0; i < b->n_act; i++)
		if (b->act[i].run->b->on_record)
			b->act[i].run->b->on_record(b->act[i].bs, &r);
}

static void on_start(void *ctx, pid_t pid, int serial_in)
{
	struct boot *b = ctx;

	for (size_t i = 0; i < b->n_act; i++)
		if (b->act[i].run->b->boot_started)
			b->act[i].run->b->boot_started(b->act[i].bs, pid, serial_in);
}

/* The backends of this boot: their state, QEMU arguments (into argv, at
 * most KB_VM_MAX_EXTRA) and guest arguments (appended to args). */
static void attach(struct boot *b, const struct kb_run_variant *rv, const char **argv, FILE *args,
		   int *wants_start)
{
	const struct kb_backends_chosen *c = b->env->backends;
	const struct kb_backend_run *runs[MAX_ACTIVE] = { &c->overlay, &c->primary };
	struct kb_backend_boot info = { b->env->store, b->variant, b->seq, b->vboot, rv->k.system_map,
					rv->layout.layout, rv->k.objdir, rv->v->order != NULL };
	size_t na = 0;

	for (size_t i = 0; i < MAX_ACTIVE; i++) {
		const struct kb_backend *be = runs[i]->b;
		struct active *a = &b->act[b->n_act];

		if (!be)
			continue;
		if (be->guest_args)
			fprintf(args, " %s", be->guest_args);
		if (!be->boot_new)
			continue;
		a->run = runs[i];
		a->bs = be->boot_new(runs[i]->priv, &info);
		b->n_act++;
		b->hold |= be->boot_settle != NULL;
		*wants_start |= be->boot_started != NULL;
		for (const char *const *p = be->boot_argv ? be->boot_argv(a->bs) : NULL; p && *p; p++)
			if (na < KB_VM_MAX_EXTRA)
				argv[na++] = *p;
	}
	argv[na] = NULL;
}

static char *guest_cmdline(const struct kb_conf *conf, const struct kb_variant *v, const char *extra)
{
	return kb_xasprintf("console=ttyS0 panic=-1 nokaslr quiet %s%skb_workloads=%s kb_samples=%ld "
			    "kb_scale=%g kb_sweep=%s%s", v->cmdline ? v->cmdline : "",
			    v->cmdline ? " " : "", conf->workloads, conf->samples, conf->scale,
			    conf->sweep, extra);
}

int kb_boots_one(const struct kb_boots *env, const struct kb_run_variant *rv, long seq,
		     long vboot, long total)
{
	const struct kb_conf *conf = env->conf;
	struct kb_store *store = env->store;
	struct boot b = { .env = env, .variant = rv->v->name, .layout = rv->layout.layout,
			  .seq = seq, .vboot = vboot };
	char lay[32] = "";
	char *serial = kb_store_path(store, "boots/%s-%ld.serial", rv->v->name, b.vboot);
	char *qlog = kb_store_path(store, "boots/%s-%ld.qemu.log", rv->v->name, b.vboot);
	const char *argv[KB_VM_MAX_EXTRA + 1];
	char *gargs = NULL, *append, *reason;
	size_t glen = 0;
	FILE *gf = open_memstream(&gargs, &glen);
	int wants_start = 0, r, problems = 0;
	struct kb_vm_result res;
	struct kb_hostload load;
	const char *status;
	double other;
	json_t *j;

	if (!gf)
		abort();
	attach(&b, rv, argv, gf, &wants_start);
	/* a guest that times its regions under TCG: its TSC's rate (the
	 * host's) given, not calibrated against the emulated PIT, which fails
	 * on a busy host and leaves the guest a clock that stalls (vm.h) */
	if (env->accel == KB_ACCEL_TCG && times(env->backends) && (b.tsc_khz = kb_vm_host_tsc_khz()) > 0)
		fprintf(gf, " tsc_early_khz=%ld tsc=reliable", b.tsc_khz);
	fclose(gf);
	append = guest_cmdline(conf, rv->v, gargs);
	struct kb_vm_opts o = {
		.qemu = kb_qemu_path(conf->arch), .accel = env->accel, .kernel = rv->k.bzimage,
		.initrd = env->image, .append = append, .memory_mb = conf->memory,
		.timeout = (double)conf->timeout, .serial_log = serial, .qemu_log = qlog,
		.max_bytes = (size_t)conf->serial_limit, .on_line = on_line, .ctx = &b,
		.on_start = wants_start ? on_start : NULL, .extra_argv = argv,
	};
	kb_hostload_begin(&load);
	r = kb_vm_boot(&o, &res);
	other = kb_hostload_other(&load);
	if (kb_interrupted) {
		/* Not a finished boot: no boots.jsonl line, so --resume runs it
		 * again (and drops the samples it had sent). */
		kb_warn("variant '%s' boot %ld interrupted", rv->v->name, b.vboot);
		settle(&b, 0);
		r = -1;
		goto out;
	}
	settle(&b, 1);
	if (r < 0) {
		status = "qemu-failed";
		reason = kb_xasprintf("QEMU could not be started; see %s", qlog);
	} else {
		status = kb_vm_outcome(&res, &o, b.hello, b.done, b.panic, &reason);
	}
	j = json_pack("{s:s,s:i,s:I,s:I,s:s,s:s,s:f,s:I,s:I,s:I,s:I,s:I,s:s,s:s}",
		      KB_RD_VARIANT, rv->v->name, KB_RD_LAYOUT, b.layout, KB_RD_BOOT, (json_int_t)seq,
		      KB_RD_VBOOT, (json_int_t)b.vboot,
		      KB_RD_STATUS, status, KB_RD_REASON, reason, KB_RD_SECONDS, res.seconds,
		      KB_RD_SAMPLES_N, (json_int_t)b.samples, KB_RD_GARBLED, (json_int_t)b.garbled,
		      KB_RD_REJECTED, (json_int_t)b.rejected, KB_RD_GUEST_ERRORS, (json_int_t)b.guest_errors,
		      KB_RD_SERIAL_BYTES, (json_int_t)res.bytes, KB_RD_ACCEL, kb_accel_name(env->accel),
		      KB_RD_SERIAL, serial + strlen(store->dir) + 1);
	if (b.first_bad[0])
		json_object_set_new(j, KB_RD_FIRST_REJECTED, json_string(b.first_bad));
	if (b.pmu[0])
		json_object_set_new(j, KB_RD_PMU, json_string(b.pmu));
	if (b.tsc_khz)
		json_object_set_new(j, KB_RD_GUEST_TSC_KHZ, json_integer(b.tsc_khz));
	/* was the machine otherwise idle: what a timed boot's figures need
	 * (with boots at once, the others count as other processes) */
	if (other >= 0)
		json_object_set_new(j, KB_RD_HOST_OTHER_CPU, json_real(other));
	/* a Slurm job's boot: where it ran, and as which job */
	if (getenv("SLURMD_NODENAME"))
		json_object_set_new(j, KB_RD_NODE, json_string(getenv("SLURMD_NODENAME")));
	if (getenv("SLURM_ARRAY_JOB_ID") && getenv("SLURM_ARRAY_TASK_ID"))
		json_object_set_new(j, KB_RD_SLURM_JOB, json_sprintf("%s_%s", getenv("SLURM_ARRAY_JOB_ID"),
								 getenv("SLURM_ARRAY_TASK_ID")));
	for (size_t i = 0; i < b.n_act; i++)
		if (b.act[i].run->b->boot_end)
			problems += b.act[i].run->b->boot_end(b.act[i].bs, j);
	kb_store_append(store, KB_RD_BOOTS, j);
	json_decref(j);
	if (b.layout)
		snprintf(lay, sizeof(lay), " layout %d", b.layout);
	kb_info("boot %ld/%ld: variant '%s'%s (%ld/%ld): %s, %ld samples, %.1f s", seq, total,
		rv->v->name, lay, b.vboot, conf->boots * (conf->layouts > 1 ? conf->layouts : 1),
		status, b.samples, res.seconds);
	if (b.garbled || b.rejected)
		kb_warn("variant '%s' boot %ld: %ld garbled and %ld rejected guest records skipped%s%s%s",
			rv->v->name, b.vboot, b.garbled, b.rejected, b.first_bad[0] ? " (the first "
			"rejected: " : "", b.first_bad, b.first_bad[0] ? ")" : "");
	if (strcmp(status, "ok")) {
		kb_warn("variant '%s' boot %ld: %s; serial log %s", rv->v->name, b.vboot, reason, serial);
		kb_print_tail(stderr, serial, 8, "kbench:   | ");
	}
	r = strcmp(status, "ok") ? -1 : 0;
	free(reason);
out:
	for (size_t i = 0; i < b.n_act; i++)
		b.act[i].run->b->boot_free(b.act[i].bs);
	free(serial);
	free(qlog);
	free(append);
	free(gargs);
	return r;
}

/* Whether the run's boots may run at once: no per-boot backend of it
 * measures time (deterministic counts do not depend on the machine's load). */
int kb_boots_concurrent(const struct kb_backends_chosen *c)
{
	return !times(c);
}

/* The boots running at once, each in a process of its own (its QEMU, its
 * backends' state); they append whole lines to the run's files. */
struct worker {
	pid_t pid;
	long seq;
};

/* Wait for one worker; its slot is freed.  Returns its boot's outcome
 * (0 ok, -1 failed or interrupted), or -2 when none was running. */
static int reap(struct worker *w, size_t *n)
{
	int status;
	size_t i = kb_wait_one(w, *n, sizeof(*w), &status);

	if (i == *n)
		return -2;
	w[i] = w[--*n];
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

long kb_boots_run(const struct kb_boots *env, const struct kb_plan *plan, struct kb_run_variant *vs,
		  double t0, long *ran)
{
	size_t jobs = env->jobs > 1 && kb_boots_concurrent(env->backends) ? (size_t)env->jobs : 1;
	struct worker *w = kb_xcalloc(jobs, sizeof(*w));
	/* a variant's boots are numbered across its replicas: (variant, vboot)
	 * names one boot, and its files */
	long *vboots = kb_xcalloc(env->conf->n_variants + 1, sizeof(*vboots));
	long per = env->conf->boots * (env->conf->layouts > 1 ? env->conf->layouts : 1);
	double tboots = kb_now();
	long bad = 0, todo = (long)plan->n_todo;
	size_t running = 0;

	*ran = 0;
	if (jobs > 1)
		kb_info("boots: up to %zu at once (the %s backend's counts do not depend on the "
			"machine's load)", jobs, env->backends->primary.b->name);
	for (long seq = 1; seq <= plan->total && !kb_interrupted; seq++) {
		size_t vi = plan->variant[seq - 1];
		struct kb_run_variant *rv = &vs[vi];
		double el = kb_now() - tboots;
		long vboot = ++vboots[rv->vi];
		char lay[32] = "";
		pid_t pid, parent;
		long finished;

		rv->boots_done++;
		if (plan->done[seq])
			continue;
		if (rv->layout.layout)
			snprintf(lay, sizeof(lay), " layout %d", rv->layout.layout);
		/* the estimate from the boots finished so far (with boots at
		 * once, those started are not all finished) */
		finished = *ran - (long)running;
		if (finished > 0)
			kb_info("progress: measuring: boot %ld/%ld, variant %zu/%zu '%s'%s boot %ld/%ld; "
				"%.0f s elapsed, about %.0f s left", seq, plan->total, rv->vi + 1,
				env->conf->n_variants, rv->v->name, lay, vboot, per, kb_now() - t0,
				el / (double)finished * (double)(todo - finished));
		else if (*ran)
			kb_info("progress: measuring: boot %ld/%ld, variant %zu/%zu '%s'%s boot %ld/%ld; "
				"%.0f s elapsed, none finished yet", seq, plan->total, rv->vi + 1,
				env->conf->n_variants, rv->v->name, lay, vboot, per, kb_now() - t0);
		++*ran;
		if (jobs == 1) {
			if (kb_boots_one(env, rv, seq, vboot, plan->total) < 0 && !kb_interrupted)
				bad++;
			continue;
		}
		if (running == jobs && reap(w, &running) < 0 && !kb_interrupted)
			bad++;
		if (kb_interrupted)
			break;
		fflush(NULL);
		parent = getpid();
		pid = fork();
		if (pid == 0) {
			/* a killed kbench takes its boots along, and their QEMU with them */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)
				_exit(KB_EXIT_FAILED);
			_exit(kb_boots_one(env, rv, seq, vboot, plan->total) < 0 ? KB_EXIT_FAILED : KB_EXIT_OK);
		}
		if (pid < 0) {
			kb_error_errno(errno, "cannot fork for boot %ld", seq);
			bad++;
			continue;
		}
		w[running++] = (struct worker){ pid, seq };
	}
	for (int r; (r = reap(w, &running)) != -2; )
		bad += r < 0 && !kb_interrupted;
	free(w);
	free(vboots);
	return bad;
}

int kb_boots_drop_partial(const struct kb_boots *env, const struct kb_plan *plan)
{
	const struct kb_backends_chosen *c = env->backends;
	const struct kb_backend_run *runs[MAX_ACTIVE] = { &c->overlay, &c->primary };

	if (kb_store_drop_lines(env->store, KB_RD_SAMPLES, KB_RD_BOOT, plan->todo, plan->n_todo) < 0)
		return -1;
	for (size_t i = 0; i < MAX_ACTIVE; i++)
		if (runs[i]->b && runs[i]->b->boot_file &&
		    kb_store_drop_lines(env->store, runs[i]->b->boot_file, KB_RD_BOOT, plan->todo,
					plan->n_todo) < 0)
			return -1;
	return 0;
}
