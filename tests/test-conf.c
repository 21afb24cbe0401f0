// SPDX-License-Identifier: GPL-2.0-or-later
/* variants.conf: good files load as written, bad ones are refused. */
#include "config.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "build.h"
#include "conf.h"
#include "manifest.h"
#include "run.h"
#include "scratch.h"
#include "store.h"
#include "util.h"

static char dir[PATH_MAX];

static const char *write_conf(const char *name, const char *text)
{
	static char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* Load text; return kb_conf_load's result and keep conf for inspection. */
static int load(struct kb_conf *c, const char *text)
{
	return kb_conf_load(c, write_conf("v.conf", text));
}

static void defaults_and_values(void **state)
{
	struct kb_conf c;

	(void)state;
	setenv("KBENCH_CACHE", "/tmp/kbench-test-cache", 1);
	assert_int_equal(load(&c,
		"# comment\n"
		"[run]\naccel = tcg\nboots = 4\nworkloads = pipe\nscale = 0.25\n"
		"[variant O2]\nconfig = CC_OPTIMIZE_FOR_PERFORMANCE=y\n"
		"[variant Os]\ndescription = for size\n"
		"config = CONFIG_CC_OPTIMIZE_FOR_SIZE=y\nconfig = LOG_BUF_SHIFT=14 DEFAULT_HOSTNAME=\"kb\"\n"
		"kcflags = -fno-inline-functions-called-once -falign-functions=1\n"), 0);
	assert_string_equal(c.source, "/usr/src/linux-source-6.12.tar.xz");
	assert_string_equal(c.arch, "i386");
	assert_string_equal(c.base, "tinyconfig");
	assert_int_equal(c.accel, KB_ACCEL_TCG);
	assert_int_equal(c.boots, 4);
	assert_int_equal(c.samples, 5);
	assert_string_equal(c.workloads, "pipe");
	assert_true(c.scale == 0.25);
	assert_string_equal(c.cache, "/tmp/kbench-test-cache");
	assert_true(c.jobs >= 1);
	assert_int_equal(c.n_variants, 2);
	assert_string_equal(c.baseline, "O2");	/* the first variant */
	assert_string_equal(c.variants[0].name, "O2");
	assert_int_equal(c.variants[0].n_kopts, 1);
	assert_string_equal(c.variants[0].kopts[0].name, "CC_OPTIMIZE_FOR_PERFORMANCE");
	assert_int_equal(c.variants[1].n_kopts, 3);
	assert_string_equal(c.variants[1].kopts[0].name, "CC_OPTIMIZE_FOR_SIZE");
	assert_string_equal(c.variants[1].kopts[2].value, "\"kb\"");
	assert_string_equal(c.variants[1].kcflags,
			    "-fno-inline-functions-called-once -falign-functions=1");
	assert_string_equal(c.variants[1].description, "for size");
	/* relative output resolves against the file's directory */
	char *want = realpath(dir, NULL);
	char expect[PATH_MAX + 16];

	snprintf(expect, sizeof(expect), "%s/results", want);
	assert_string_equal(c.output, expect);
	free(want);
	kb_conf_release(&c);
}

static void workloads_all_and_order(void **state)
{
	struct kb_conf c;

	(void)state;
	assert_int_equal(load(&c, "[run]\nworkloads = pipe, getppid\n[variant a]\n"), 0);
	assert_string_equal(c.workloads, "getppid,pipe");	/* table order */
	kb_conf_release(&c);
	/* the default, all, is every workload of the table in table order */
	static const char *const all[] = {
#define KB_WORKLOAD(name, kind, iters, help) #name,
#include "../workloads/workloads.def"
#undef KB_WORKLOAD
	};
	char want[1024] = "";

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%s", i ? "," : "", all[i]);
	assert_int_equal(load(&c, "[variant a]\n"), 0);
	assert_string_equal(c.workloads, want);
	assert_int_equal(c.n_variants, 1);
	assert_int_equal(c.variants[0].n_kopts, 0);
	kb_conf_release(&c);
}

static void prebuilt_pair(void **state)
{
	struct kb_conf c;

	(void)state;
	assert_int_equal(load(&c, "[variant pre]\nbzimage = k/bzImage\nvmlinux = /abs/vmlinux\n"), 0);
	assert_non_null(strstr(c.variants[0].bzimage, "/k/bzImage"));
	assert_true(c.variants[0].bzimage[0] == '/');
	assert_string_equal(c.variants[0].vmlinux, "/abs/vmlinux");
	kb_conf_release(&c);
}

static void bad_files_refused(void **state)
{
	static const char *const bad[] = {
		"[variant a]\nkcflag = -Os\n",			/* unknown key */
		"[run]\nboots = 0\n[variant a]\n",		/* out of range */
		"[run]\nboots = many\n[variant a]\n",		/* not a number */
		"[run]\naccel = xen\n[variant a]\n",		/* not allowed */
		"[run]\nscale = -1\n[variant a]\n",
		"[run]\nworkloads = getpid\n[variant a]\n",	/* unknown workload */
		"[run]\nworkloads = pipe,pipe\n[variant a]\n",	/* twice */
		"[variant a]\n[variant a]\n",			/* duplicate variant */
		"[variant ../etc]\n",				/* not a directory name */
		"[variant .hidden]\n",
		"[variant]\n",					/* no name */
		"[variants a]\n",				/* unknown section */
		"[run]\n[run]\n[variant a]\n",			/* section twice */
		"[run]\nboots = 2\nboots = 3\n[variant a]\n",	/* key twice */
		"[variant a]\nconfig = FOO\n",			/* not NAME=VALUE */
		"[variant a]\nconfig = foo-bar=y\n",		/* not a symbol */
		"[variant a]\nconfig = FOO=maybe\n",		/* bad value */
		"[variant a]\nconfig = FOO=y FOO=n\n",		/* twice */
		"[variant a]\nbzimage = /x\n",			/* without vmlinux */
		"[variant a]\nbzimage = /x\nvmlinux = /y\nkcflags = -Os\n",
		"[run]\nbaseline = b\n[variant a]\n",		/* not a variant */
		"[run]\nboots = 2\n",				/* no variants */
		"[kernel]\nsource =\n[variant a]\n",		/* missing value */
		"this is not ini\n[variant a]\n",		/* syntax */
		"[run\n[variant a]\n",
		"[variant a]\nkcflags = -O2 $(shell touch /tmp/x)\n",	/* make expansion */
		"[variant a]\nkcflags = -O2 `id`\n",		/* shell */
		"[variant a]\ncc = gcc;id\n",
		"[variant a]\nconfig = DEFAULT_HOSTNAME=\"a$(id)\"\n",
	};
	struct kb_conf c;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = load(&c, bad[i]);

		if (r != -1)
			fail_msg("accepted bad config #%zu: %s", i, bad[i]);
		kb_conf_release(&c);
	}
}

static void missing_file(void **state)
{
	struct kb_conf c;

	(void)state;
	assert_true(kb_conf_load(&c, "/nonexistent/variants.conf") < 0);
	kb_conf_release(&c);
}

/* [run] layouts: each variant's replicas in order, layout 0 unpadded, the
 * others padded at both points by 16..4080 bytes in steps of 16, the same
 * draw for the same seed, variant and layout and another for others; the
 * configuration's seed only when it gives one. */
static void layout_replicas(void **state)
{
	struct kb_layout a, b, c0;
	struct kb_run_variant *vs;
	struct kb_conf c;
	int differ = 0;

	(void)state;
	assert_int_equal(load(&c, "[run]\nlayouts = 3\n[variant O2]\n[variant Os]\n"), 0);
	assert_int_equal(c.layouts, 3);
	assert_int_equal(kb_run_n(&c), 6);
	assert_true(kb_run_layout_seed(&c) == 0);
	vs = kb_run_variants_new(&c);
	for (size_t u = 0; u < 6; u++) {
		assert_int_equal(vs[u].vi, u / 3);
		assert_int_equal(vs[u].layout.layout, (int)(u % 3));
		assert_ptr_equal(vs[u].v, &c.variants[u / 3]);
		for (int i = 0; i < KB_LAYOUT_PADS; i++) {
			long p = vs[u].layout.pad[i];

			if (u % 3 == 0) {
				assert_int_equal(p, 0);
				continue;
			}
			assert_true(p >= 16 && p <= 4080 && p % 16 == 0);
		}
		assert_true((vs[u].layout.seed == 0) == (u % 3 == 0));
	}
	kb_run_variants_free(&c, vs);
	kb_conf_release(&c);

	kb_layout_draw(&a, 7, "O2", 1);
	kb_layout_draw(&b, 7, "O2", 1);
	assert_memory_equal(&a, &b, sizeof(a));
	kb_layout_draw(&c0, 7, "O2", 0);
	assert_int_equal(c0.pad[0] + c0.pad[1], 0);
	/* over a hundred draws, other seeds and layouts give other padding */
	for (int s = 0; s < 100; s++) {
		kb_layout_draw(&b, (unsigned long long)s, "O2", 1 + s % 5);
		differ += b.pad[0] != a.pad[0] || b.pad[1] != a.pad[1];
	}
	assert_true(differ >= 95);

	assert_int_equal(load(&c, "[run]\nseed = 99\nlayouts = 2\n[variant O2]\n"), 0);
	assert_true(kb_run_layout_seed(&c) == 99);
	kb_conf_release(&c);
	/* out of range, or a prebuilt variant: refused */
	assert_int_equal(load(&c, "[run]\nlayouts = 0\n[variant O2]\n"), -1);
	kb_conf_release(&c);
	assert_int_equal(load(&c, "[run]\nlayouts = 65\n[variant O2]\n"), -1);
	kb_conf_release(&c);
	assert_int_equal(load(&c, "[run]\nlayouts = 2\n[variant p]\nbzimage = /b\nvmlinux = /v\n"), -1);
	kb_conf_release(&c);
}

/* [claim]: the claim, and each prediction as A vs B with its cases. */
static void claim_section(void **state)
{
	struct kb_conf c;

	(void)state;
	assert_int_equal(load(&c,
		"[claim]\ntext = -Os is smaller and faster\nsource = LWN\ndate = 2004-01-21\n"
		"smaller = Os vs O2\nfaster = Os vs O2 on getppid, icache/k=4 icache\n"
		"faster = Os vs O2\nlayout_sensitive = O2-a vs O2 on all\n"
		"[run]\nworkloads = getppid, icache\nsweep = 0,4\n"
		"[variant O2]\n[variant Os]\n[variant O2-a]\nkcflags = -falign-functions=64\n"), 0);
	assert_string_equal(c.claim.text, "-Os is smaller and faster");
	assert_string_equal(c.claim.source, "LWN");
	assert_string_equal(c.claim.date, "2004-01-21");
	assert_int_equal(c.claim.line, 1);
	assert_int_equal(c.claim.n_preds, 4);
	assert_int_equal(c.claim.preds[0].kind, KB_PRED_SMALLER);
	assert_string_equal(c.claim.preds[0].a, "Os");
	assert_string_equal(c.claim.preds[0].b, "O2");
	assert_string_equal(c.claim.preds[0].cases, "all");
	assert_int_equal(c.claim.preds[1].kind, KB_PRED_FASTER);
	assert_string_equal(c.claim.preds[1].cases, "getppid,icache/k=4,icache");
	assert_int_equal(c.claim.preds[1].line, 6);
	assert_string_equal(c.claim.preds[2].cases, "all");
	assert_int_equal(c.claim.preds[3].kind, KB_PRED_LAYOUT);
	kb_conf_release(&c);

	/* each is refused, naming the line */
	static const char *const bad[] = {
		"[claim]\ntext = t\nsmaller = Oz vs O2\n[variant O2]\n",		/* unknown variant */
		"[claim]\ntext = t\nsmaller = O2 vs O2\n[variant O2]\n",		/* against itself */
		"[claim]\ntext = t\nsmaller = O2 vs Os on getppid\n[variant O2]\n[variant Os]\n",
		"[claim]\ntext = t\nfaster = O2 than Os\n[variant O2]\n[variant Os]\n",
		"[claim]\ntext = t\nfaster = Os vs O2 on\n[variant O2]\n[variant Os]\n",
		"[claim]\ntext = t\nfaster = Os vs O2 on pipe\n[run]\nworkloads = getppid\n"
		"[variant O2]\n[variant Os]\n",					/* not in the run */
		"[claim]\ntext = t\nfaster = Os vs O2 on icache/k=5\n[variant O2]\n[variant Os]\n",
		"[claim]\nsmaller = Os vs O2\n[variant O2]\n[variant Os]\n",	/* no text */
		"[claim]\ntext = t\n[variant O2]\n",				/* no prediction */
		"[claim]\ntext = t\ndate = 2004-13\nsmaller = Os vs O2\n[variant O2]\n[variant Os]\n",
		"[claim]\ntext = t\ntext = u\nsmaller = Os vs O2\n[variant O2]\n[variant Os]\n",
		"[claim]\ntext = t\nsmaler = Os vs O2\n[variant O2]\n[variant Os]\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(load(&c, bad[i]), -1);
		kb_conf_release(&c);
	}
}

/* The claims the repository ships (claims/) load as written. */
static void claim_files(void **state)
{
	static const char *const files[] = { "2004-unit-at-a-time", "2004-os-faster", "2011-os-icache",
					     "2020-function-alignment", "clang-oz", "2025-x86_64-os",
					     "2024-autofdo-order" };
	const char *src = getenv("TEST_SRCDIR");
	struct kb_conf c;
	char path[PATH_MAX];

	(void)state;
	if (!src)
		skip();
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/../claims/%s.conf", src, files[i]);
		assert_int_equal(kb_conf_load(&c, path), 0);
		assert_non_null(c.claim.text);
		assert_true(c.claim.n_preds >= 1);
		for (size_t k = 0; k < c.claim.n_preds; k++) {
			assert_non_null(kb_conf_variant(&c, c.claim.preds[k].a));
			assert_non_null(kb_conf_variant(&c, c.claim.preds[k].b));
		}
		kb_conf_release(&c);
	}
}

static void edit_distance(void **state)
{
	(void)state;
	assert_int_equal(kb_edit_distance("kcflag", "kcflags"), 1);
	assert_int_equal(kb_edit_distance("kitten", "sitting"), 3);
	assert_int_equal(kb_edit_distance("", "abc"), 3);
	assert_int_equal(kb_edit_distance("same", "same"), 0);
}

/* The manifest.json a new run of c starts with (in a run directory under
 * the scratch directory), parsed. */
static json_t *new_manifest(const struct kb_conf *c)
{
	struct kb_store s;
	char *out = kb_xasprintf("%s/results", dir), *path;
	json_t *m;

	assert_int_equal(kb_store_create(&s, out), 0);
	assert_int_equal(kb_manifest_init(&s, c), 0);
	path = kb_store_path(&s, "manifest.json");
	m = json_load_file(path, 0, NULL);
	assert_non_null(m);
	free(path);
	free(out);
	kb_store_release(&s);
	return m;
}

/* [run] seed is any unsigned 64-bit decimal: 2^64 - 1 is taken, survives
 * manifest.json (as a string: jansson holds no integer above 2^63 - 1) and
 * reads back whole; a small one stays a JSON integer. */
static void seed_u64_round_trip(void **state)
{
	static const struct {
		const char *text;
		unsigned long long seed;
		int as_string;
	} cases[] = {
		{ "18446744073709551615", ULLONG_MAX, 1 },
		{ "9223372036854775808", 9223372036854775808ULL, 1 },
		{ "9223372036854775807", 9223372036854775807ULL, 0 },
		{ "1001", 1001, 0 },
	};
	unsigned long long v;
	json_t *bad;

	(void)state;
	setenv("KBENCH_CACHE", "/tmp/kbench-test-cache", 1);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kb_conf c;
		char conf[256];
		json_t *m, *seed;

		snprintf(conf, sizeof(conf),
			 "[run]\nseed = %s\n[variant O2]\n[variant Os]\n"
			 "config = CC_OPTIMIZE_FOR_SIZE=y\n", cases[i].text);
		assert_int_equal(load(&c, conf), 0);
		assert_true(c.seed == cases[i].seed);
		m = new_manifest(&c);
		seed = json_object_get(m, "seed");
		if (cases[i].as_string)
			assert_string_equal(json_string_value(seed), cases[i].text);
		else
			assert_true(json_is_integer(seed));
		assert_int_equal(kb_json_u64_value(seed, &v), 0);
		assert_true(v == cases[i].seed);
		json_decref(m);
		kb_conf_release(&c);
	}
	/* what is not an unsigned 64-bit figure is refused when read back */
	bad = json_pack("[s,s,s,s,I,f,b]", "18446744073709551616", "-1", "1e3", "",
			(json_int_t)-1, 5.0, 1);
	for (size_t i = 0; i < json_array_size(bad); i++)
		assert_int_equal(kb_json_u64_value(json_array_get(bad, i), &v), -1);
	json_decref(bad);
	assert_int_equal(kb_json_u64_value(NULL, &v), -1);
}

/* [kernel] unsafe_flags = yes takes what the policy refuses, and the
 * manifest lists each flag it let through (the report states them). */
static void unsafe_flags_recorded(void **state)
{
	struct kb_conf c;
	json_t *m, *u;

	(void)state;
	setenv("KBENCH_CACHE", "/tmp/kbench-test-cache", 1);
	assert_int_equal(load(&c, "[variant O2]\n[variant Os]\nkcflags = -O2 -wrapper x -fplugin=p.so\n"), -1);
	kb_conf_release(&c);
	assert_int_equal(load(&c, "[variant O2]\n[variant Os]\nkcflags = -O2 -wrapper x -fplugin=p.so\n"
			      "[kernel]\nunsafe_flags = yes\n"), 0);
	assert_int_equal(c.n_unsafe, 2);
	assert_string_equal(c.unsafe[0].flag, "-wrapper");
	assert_string_equal(c.unsafe[1].flag, "-fplugin=p.so");
	assert_int_equal(c.unsafe[1].line, 3);
	m = new_manifest(&c);
	u = json_object_get(m, "unsafe_flags");
	assert_int_equal(json_array_size(u), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(u, 0), "variant")), "Os");
	assert_string_equal(json_string_value(json_object_get(json_array_get(u, 0), "key")), "kcflags");
	assert_string_equal(json_string_value(json_object_get(json_array_get(u, 1), "flag")), "-fplugin=p.so");
	json_decref(m);
	kb_conf_release(&c);
}

static int setup(void **state)
{
	(void)state;
	return kb_test_scratch(dir, sizeof(dir), "test-conf");
}

static int teardown(void **state)
{
	(void)state;
	return kb_test_scratch_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_and_values),
		cmocka_unit_test(workloads_all_and_order),
		cmocka_unit_test(prebuilt_pair),
		cmocka_unit_test(bad_files_refused),
		cmocka_unit_test(missing_file),
		cmocka_unit_test(layout_replicas),
		cmocka_unit_test(claim_section),
		cmocka_unit_test(claim_files),
		cmocka_unit_test(edit_distance),
		cmocka_unit_test(seed_u64_round_trip),
		cmocka_unit_test(unsafe_flags_recorded),
	};

	/* error messages go to stderr; keep the TAP stream clean */
	return cmocka_run_group_tests_name("conf", tests, setup, teardown);
}
