// SPDX-License-Identifier: GPL-2.0-or-later
/* The backend table: every entry fit to register, a broken one refused, the
 * smallest backend accepted, and the choices a run makes from its
 * configuration (no QEMU needed: the cases here never probe the plugin). */
#include "config.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "backend.h"
#include "conf.h"
#include "run.h"
#include "scratch.h"
#include "util.h"

static char dir[PATH_MAX];

static int load(struct kb_conf *c, const char *text)
{
	return kb_test_conf_text(c, dir, text);
}

static void table_is_valid(void **state)
{
	const struct kb_backend *const *bs;
	const struct kb_backend *last_primary = NULL;
	size_t n;

	(void)state;
	bs = kb_backends(&n);
	assert_true(n >= 5);
	for (size_t i = 0; i < n; i++) {
		assert_null(kb_backend_check(bs[i]));
		assert_ptr_equal(kb_backend_find(bs[i]->name), bs[i]);
		assert_int_equal(kb_backend_index(bs[i]), i);
		if (bs[i]->role == KB_ROLE_PRIMARY)
			last_primary = bs[i];
	}
	/* the fallback, which accepts whatever the others decline, comes last */
	assert_ptr_equal(last_primary, &kb_backend_clock);
	assert_null(kb_backend_find("no-such-backend"));
	assert_true(kb_backend_deterministic("sim"));
	assert_false(kb_backend_deterministic("clock"));
	assert_false(kb_backend_deterministic(NULL));
}

/* The least a backend needs: what adding one costs. */
static int null_choose(const struct kb_backend_env *env, void **priv, char **why)
{
	(void)env;
	(void)priv;
	*why = kb_xstrdup("asked for");
	return 1;
}

static void null_metric(const char *field, enum kb_accel accel, const json_t *described,
			struct kb_metric_desc *d)
{
	(void)field;
	(void)described;
	(void)accel;
	d->source = KB_FIG_MEASURED;
}

static const struct kb_backend null_backend = {
	.name = "null", .api = KB_BACKEND_API, .role = KB_ROLE_PRIMARY, .source = KB_FIG_MEASURED,
	.help = "measures nothing", .choose = null_choose, .metric = null_metric,
};

static void registration(void **state)
{
	static const struct kb_option opts[] = {
		{ .name = "null_x", .section = KB_SEC_RUN, .type = KB_OPT_LONG, .off = 0 }, { NULL },
	};
	struct kb_backend b;

	(void)state;
	assert_null(kb_backend_check(&null_backend));
	b = null_backend;
	b.api = KB_BACKEND_API + 1;
	assert_string_equal(kb_backend_check(&b), "built for another backend API version");
	b = null_backend;
	b.choose = NULL;
	assert_non_null(kb_backend_check(&b));
	b = null_backend;
	b.role = KB_ROLE_OVERLAY;
	assert_string_equal(kb_backend_check(&b), "an overlay without per-boot hooks");
	b = null_backend;
	b.role = KB_ROLE_STAGE;
	assert_string_equal(kb_backend_check(&b), "a stage without its stage hook");
	b = null_backend;
	b.options = opts;
	assert_string_equal(kb_backend_check(&b), "options without an options struct (opts_size 0)");
	b.opts_size = sizeof(long);
	assert_null(kb_backend_check(&b));
	b = kb_backend_sim;
	b.boot_free = NULL;
	assert_string_equal(kb_backend_check(&b), "boot_new without boot_free (or the reverse)");
}

static void choices(void **state)
{
	struct kb_conf c;
	struct kb_backends_chosen bc;
	char *why = NULL;

	(void)state;
	assert_int_equal(load(&c, "[run]\nbackend = clock\nhost_counters = software\n[variant a]\n"), 0);
	assert_int_equal(kb_run_choose_backends(&c, KB_ACCEL_TCG, &bc, &why), 0);
	assert_null(why);
	assert_ptr_equal(bc.primary.b, &kb_backend_clock);
	assert_string_equal(bc.primary.why, "backend = clock in the configuration");
	assert_ptr_equal(bc.overlay.b, &kb_backend_host_sw);
	assert_string_equal(kb_backends_name(&bc), "host-sw");
	assert_int_equal(bc.n_stages, 1);
	assert_ptr_equal(bc.stages[0].b, &kb_backend_hyperfine);
	kb_backends_release(&bc);
	kb_conf_release(&c);

	assert_int_equal(load(&c, "[run]\nbackend = clock\nhost_counters = off\nboot_runs = 0\n[variant a]\n"), 0);
	assert_int_equal(kb_run_choose_backends(&c, KB_ACCEL_KVM, &bc, &why), 0);
	assert_ptr_equal(bc.primary.b, &kb_backend_clock);
	assert_null(bc.overlay.b);
	assert_string_equal(bc.overlay_why, "host_counters = off in the configuration");
	assert_string_equal(kb_backends_name(&bc), "clock");
	assert_int_equal(bc.n_stages, 0);
	kb_backends_release(&bc);
	kb_conf_release(&c);
}

static void refusals(void **state)
{
	struct kb_conf c;
	struct kb_backends_chosen bc;
	char *why = NULL;

	(void)state;
	assert_int_equal(load(&c, "[run]\nbackend = clock\nhost_counters = hardware\n[variant a]\n"), 0);
	assert_int_equal(kb_run_choose_backends(&c, KB_ACCEL_TCG, &bc, &why), -1);
	assert_non_null(strstr(why, "needs KVM"));
	free(why);
	kb_backends_release(&bc);
	kb_conf_release(&c);

	assert_int_equal(load(&c, "[run]\nbackend = sim\n[variant a]\n"), 0);
	assert_int_equal(kb_run_choose_backends(&c, KB_ACCEL_KVM, &bc, &why), -1);
	assert_string_equal(why, "it needs TCG (QEMU plugins do not run under kvm)");
	free(why);
	kb_backends_release(&bc);
	kb_conf_release(&c);
}

/* A backend's keys are variants.conf keys like any other: stored in its
 * own options, checked with file:line, in the help. */
static void backend_options(void **state)
{
	const struct kb_conf_option *all;
	struct kb_backends_chosen bc;
	struct kb_conf c;
	char *why = NULL, *text;
	json_t *j;
	size_t n;

	(void)state;
	assert_int_equal(load(&c, "[run]\nbackend = clock\nboot_runs = 3\nsim_l1i = 16K:4:32\n"
				  "[variant a]\n"), 0);
	assert_int_equal(kb_run_choose_backends(&c, KB_ACCEL_TCG, &bc, &why), 0);
	assert_int_equal(bc.n_stages, 1);
	j = bc.stages[0].b->describe(bc.stages[0].priv);
	text = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(text, "{\"boot_runs\":3,\"boot_warmup\":1}");
	free(text);
	json_decref(j);
	kb_backends_release(&bc);
	all = kb_conf_options(&n);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(all[i].o->name, "sim_l1i")) {
			const char *base = kb_conf_backend_opts(&c, all[i].owner);

			assert_ptr_equal(all[i].owner, &kb_backend_sim);
			assert_string_equal(*(char *const *)(base + all[i].o->off), "16K:4:32");
			n = 0;
		}
	assert_int_equal(n, 0);	/* found */
	kb_conf_release(&c);
	assert_int_equal(load(&c, "[run]\nsim_l1i = 32K:8:60\n[variant a]\n"), -1);
	kb_conf_release(&c);
	assert_int_equal(load(&c, "[run]\nbackend = hyperfine\n[variant a]\n"), -1);
	kb_conf_release(&c);
	assert_int_equal(load(&c, "[run]\nbackend = nonesuch\n[variant a]\n"), -1);
	kb_conf_release(&c);
}

/* The files a resume repairs come from the table: sim's and hyperfine's
 * after the two every run has, as store.c's own list had them. */
static void run_files(void **state)
{
	const char *files[KB_BACKEND_MAX_FILES];
	size_t n = kb_backend_run_files(files);

	(void)state;
	assert_int_equal(n, 4);
	assert_string_equal(files[0], "samples.jsonl");
	assert_string_equal(files[1], "boots.jsonl");
	assert_string_equal(files[2], "sim.jsonl");
	assert_string_equal(files[3], "timing.jsonl");
}

static void metrics(void **state)
{
	struct kb_metric_desc d;

	(void)state;
	kb_backend_metric("sim", "model_cycles", KB_ACCEL_TCG, NULL, &d);
	assert_int_equal(d.source, KB_FIG_MODELED);
	assert_true(d.cycle_model);
	assert_null(d.model);
	{	/* mca_cycles names the CPU of its machine model, as the run recorded it */
		json_t *sim = json_pack("{s:{s:s,s:s}}", "mca", "label", "LLVM sandybridge", "label_alt",
				      "LLVM znver3");

		kb_backend_metric("sim", "mca_cycles", KB_ACCEL_TCG, sim, &d);
		assert_int_equal(d.source, KB_FIG_MODELED);
		assert_true(d.cycle_model);
		assert_string_equal(d.model, "LLVM sandybridge");
		kb_backend_metric("sim", "mca_cycles_alt", KB_ACCEL_TCG, sim, &d);
		assert_string_equal(d.model, "LLVM znver3");
		assert_false(d.layout_free);
		json_decref(sim);
	}
	kb_backend_metric("sim", "ins_k", KB_ACCEL_TCG, NULL, &d);
	assert_int_equal(d.source, KB_FIG_SIMULATED);
	kb_backend_metric("sim", NULL, KB_ACCEL_TCG, NULL, &d);
	assert_int_equal(d.source, KB_FIG_MODELED);
	kb_backend_metric("hyperfine", NULL, KB_ACCEL_TCG, NULL, &d);
	assert_string_equal(d.label, "whole boot time");
	assert_string_equal(d.unit, "ns");
	assert_non_null(strstr(d.note, "emulated time under TCG"));
	kb_backend_metric("clock", NULL, KB_ACCEL_KVM, NULL, &d);
	assert_int_equal(d.source, KB_FIG_MEASURED);
	assert_string_equal(d.note, "wall time in the guest");
	kb_backend_metric("host-sw", "host_tclk_k", KB_ACCEL_TCG, NULL, &d);
	assert_non_null(strstr(d.note, "vCPU thread"));
	kb_backend_metric("pmu-host", "cyc_k", KB_ACCEL_KVM, NULL, &d);
	assert_non_null(strstr(d.note, "in the guest"));
	kb_backend_metric("no-such-backend", NULL, KB_ACCEL_TCG, NULL, &d);	/* a run directory from elsewhere */
	assert_int_equal(d.source, KB_FIG_MEASURED);
	assert_string_equal(kb_figure_kind_name(KB_FIG_SIMULATED), "simulated");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_is_valid),
		cmocka_unit_test(registration),
		cmocka_unit_test(choices),
		cmocka_unit_test(refusals),
		cmocka_unit_test(backend_options),
		cmocka_unit_test(metrics),
		cmocka_unit_test(run_files),
	};
	int r;

	setenv("KBENCH_CACHE", "/tmp/kbench-test-cache", 1);
	if (kb_test_scratch(dir, sizeof(dir), "test-backend") < 0)
		return 1;
	r = cmocka_run_group_tests(tests, NULL, NULL);
	kb_test_scratch_remove(dir);
	return r;
}
