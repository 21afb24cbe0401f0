// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench run --dry-run (run.h): a configuration's plan from the build cache
 * and from the run directories already in its output directory: which
 * kernels are there and which would be built, the boots, and how long
 * earlier runs took for each.  Nothing is built, booted or written. */
#include "config.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "backend.h"
#include "build.h"
#include "run.h"
#include "rundir.h"
#include "util.h"

#define NO_ESTIMATE "no estimate (no earlier build/boot of this kind)"

/* Seconds an earlier run took for one kind of step. */
struct times {
	double *v;
	size_t n;
};

static void times_add(struct times *t, const json_t *seconds)
{
	if (!json_is_number(seconds) || !(json_number_value(seconds) >= 0))
		return;
	t->v = kb_xrealloc(t->v, (t->n + 1) * sizeof(*t->v));
	t->v[t->n++] = json_number_value(seconds);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median: one slow build (a cold ccache) does not set the estimate. */
static double times_median(struct times *t)
{
	qsort(t->v, t->n, sizeof(*t->v), cmp_double);
	return t->n % 2 ? t->v[t->n / 2] : (t->v[t->n / 2 - 1] + t->v[t->n / 2]) / 2;
}

static int same_str(const json_t *j, const char *s)
{
	return json_string_value(j) && s && !strcmp(json_string_value(j), s);
}

/* A variant's builds in an earlier manifest, each replica's (layout 0's is
 * the variant's own when it has none): the fresh ones, not from the cache. */
static void past_builds(json_t *variants, struct times *builds, struct times *replicas)
{
	size_t i, k;
	json_t *v, *r;

	json_array_foreach(variants, i, v) {
		json_t *reps = json_object_get(v, "replicas");

		if (!json_is_array(reps) || !json_array_size(reps)) {
			if (same_str(json_object_get(v, "status"), "built") &&
			    json_is_false(json_object_get(v, "cached")))
				times_add(builds, json_object_get(v, "build_seconds"));
			continue;
		}
		json_array_foreach(reps, k, r)
			if (same_str(json_object_get(r, "status"), "built") &&
			    json_is_false(json_object_get(r, "cached")))
				times_add(json_integer_value(json_object_get(r, "layout")) > 0 ? replicas
				          : builds, json_object_get(r, "build_seconds"));
	}
}

/* Whether an earlier run's boots are of the kind conf's would be: the same
 * guest, workloads, samples and scale, under the backend and accelerator
 * conf names (any, where it says auto). */
static int same_boots(const struct kb_conf *conf, json_t *m)
{
	json_t *run = json_object_get(m, "run");
	json_t *primary = json_object_get(json_object_get(json_object_get(m, "backends"), "primary"), "name");
	double scale = json_number_value(json_object_get(run, "scale"));

	return same_str(json_object_get(json_object_get(m, "kernel"), "arch"), conf->arch) &&
	       same_str(json_object_get(run, "workloads"), conf->workloads) &&
	       json_integer_value(json_object_get(run, "samples")) == conf->samples &&
	       fabs(scale - conf->scale) <= 1e-9 * conf->scale &&
	       (!strcmp(conf->backend, "auto") || same_str(primary, conf->backend)) &&
	       (conf->accel == KB_ACCEL_AUTO ||
		same_str(json_object_get(json_object_get(m, "accel"), "chosen"),
			 kb_accel_name((enum kb_accel)conf->accel)));
}

/* The finished boots of one earlier run, each one's seconds. */
static void past_boots(const char *dir, struct times *boots)
{
	char *path = kb_xasprintf("%s/%s", dir, KB_RD_BOOTS);
	json_t *lines = kb_store_read_lines(path, &(int){ 0 }), *b;
	size_t i;

	json_array_foreach(lines, i, b)
		if (same_str(json_object_get(b, KB_RD_STATUS), KB_RD_OK))
			times_add(boots, json_object_get(b, KB_RD_SECONDS));
	json_decref(lines);
	free(path);
}

/* Every run directory under conf->output: its builds of conf's kernel
 * source, arch and base, and its boots of this kind. */
static void past_timings(const struct kb_conf *conf, const struct kb_source *src, struct times *builds,
			 struct times *replicas, struct times *boots, char **last, char **backend)
{
	DIR *d = opendir(conf->output);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char *dir, *path;
		json_t *m, *kernel;

		if (de->d_name[0] == '.')
			continue;
		dir = kb_xasprintf("%s/%s", conf->output, de->d_name);
		path = kb_xasprintf("%s/%s", dir, KB_RD_MANIFEST);
		m = json_load_file(path, 0, NULL);
		kernel = json_object_get(m, "kernel");
		if (m && same_str(json_object_get(kernel, "id"), src->id) &&
		    same_str(json_object_get(kernel, "arch"), conf->arch) &&
		    same_str(json_object_get(kernel, "base"), conf->base))
			past_builds(json_object_get(m, "variants"), builds, replicas);
		if (m && same_boots(conf, m))
			past_boots(dir, boots);
		/* the primary backend of the newest run of this arch: what
		 * backend = auto chose here (run ids sort by their time) */
		if (m && same_str(json_object_get(kernel, "arch"), conf->arch) &&
		    json_string_value(json_object_get(json_object_get(json_object_get(m, "backends"), "primary"),
						      "name")) &&
		    (!*last || strcmp(de->d_name, *last) > 0)) {
			free(*last);
			free(*backend);
			*last = kb_xstrdup(de->d_name);
			*backend = kb_xstrdup(json_string_value(json_object_get(
				json_object_get(json_object_get(m, "backends"), "primary"), "name")));
		}
		json_decref(m);
		free(path);
		free(dir);
	}
	if (d)
		closedir(d);
}

/* "~N s[ each] (median of K earlier WHAT)", or NO_ESTIMATE (malloc'd). */
static char *estimate_words(struct times *t, const char *each, const char *what, double *sum,
			    size_t *unknown)
{
	double m;

	if (!t->n) {
		++*unknown;
		return kb_xstrdup(NO_ESTIMATE);
	}
	m = times_median(t);
	*sum += m;
	return kb_xasprintf("~%.0f s%s (median of %zu earlier %s)", m, each, t->n, what);
}

/* Cases in one boot: a case per workload, icache's one per sweep point. */
static long cases_per_boot(const struct kb_conf *conf, long *nworkloads, long *nsweep)
{
	char *w = kb_xstrdup(conf->workloads), *save = NULL;
	long cases = 0, icache = 0;

	*nworkloads = 0;
	*nsweep = 1;
	for (const char *p = conf->sweep; *p; p++)
		*nsweep += *p == ',';
	for (char *t = strtok_r(w, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		++*nworkloads;
		if (!strcmp(t, "icache"))
			icache = 1;
		else
			cases++;
	}
	free(w);
	return cases + (icache ? *nsweep : 0);
}

/* Boots per variant as the run will decide them (boots_per_variant in
 * pipeline.c): as configured, or one under a deterministic backend named
 * where the configuration does not say; *note says what is not known yet. */
static long boots_each(const struct kb_conf *conf, const char *last, const char *chose, char **note)
{
	const struct kb_backend *b = kb_backend_find(conf->backend);

	*note = kb_xstrdup("");
	if (kb_conf_key_line(conf, KB_SEC_RUN, "boots"))
		return conf->boots;
	if (b && (b->flags & KB_BACKEND_DETERMINISTIC))
		return 1;
	if (b)
		return conf->boots;
	/* backend = auto: as it chose in the newest run here, which the host
	 * decides (counters, KVM), not the file */
	b = chose ? kb_backend_find(chose) : NULL;
	free(*note);
	if (b) {
		*note = kb_xasprintf(" (backend auto chose %s in the newest run here, %s: %s)", b->name, last,
				     b->flags & KB_BACKEND_DETERMINISTIC ? "deterministic, 1 boot per layout" :
				     "it measures time");
		return b->flags & KB_BACKEND_DETERMINISTIC ? 1 : conf->boots;
	}
	*note = kb_xstrdup(" (boots not given, and no earlier run here says which backend auto chooses: "
			   "1 per layout where it is deterministic)");
	return conf->boots;
}

int kb_run_dry(const struct kb_conf *conf, FILE *f)
{
	struct kb_run_variant *vs = kb_run_variants_new(conf);
	struct times builds = { 0 }, replicas = { 0 }, boots = { 0 };
	struct kb_source src;
	size_t n = kb_run_n(conf), unknown = 0, unknown_builds = 0, to_build = 0;
	long layouts = conf->layouts > 1 ? conf->layouts : 1, nw, ns, each, total, cases;
	double build_s = 0, boot_s = 0;
	char *note, *last = NULL, *chose = NULL;
	char *w;

	if (kb_source_find(conf, &src) < 0) {
		kb_run_variants_free(conf, vs);
		return KB_EXIT_USAGE;
	}
	past_timings(conf, &src, &builds, &replicas, &boots, &last, &chose);
	fprintf(f, "plan of %s (dry run: nothing is built, booted or written)\n", conf->path);
	for (size_t i = 0; i < conf->n_sets; i++)
		fprintf(f, "--set %s\n", conf->sets[i]);
	fprintf(f, "kernel source: %s (%s%s)\n", conf->source, src.version ? src.version : "",
		src.tree ? "" : "not unpacked or copied into the build cache yet");
	fprintf(f, "build cache: %s\n", conf->cache);
	fprintf(f, "executor: %s\n", conf->executor);
	for (size_t u = 0; u < n; u++) {
		const struct kb_run_variant *rv = &vs[u];
		char *what = rv->layout.layout ? kb_xasprintf("'%s' layout %d", rv->v->name, rv->layout.layout)
					       : kb_xasprintf("'%s'", rv->v->name);
		struct kb_kernel k;
		const char *why;
		int r = kb_build_lookup(conf, &src, rv->v, &rv->layout, &k, &why);

		if (r == 1) {
			fprintf(f, "variant %s: in the build cache (%s)\n", what, k.dir);
		} else if (rv->v->bzimage) {
			fprintf(f, "variant %s: prebuilt (%s): no build\n", what, rv->v->bzimage);
		} else {
			struct times *t = rv->layout.layout ? &replicas : &builds;
			size_t before = unknown;

			w = estimate_words(t, "", rv->layout.layout ? "builds of a padded replica" : "builds",
					   &build_s, &unknown);
			unknown_builds += unknown > before;
			fprintf(f, "variant %s: to build (%s): %s\n", what, why, w);
			free(w);
			to_build++;
		}
		kb_kernel_release(&k);
		free(what);
	}
	each = boots_each(conf, last, chose, &note);
	total = (long)conf->n_variants * layouts * each;
	cases = cases_per_boot(conf, &nw, &ns);
	w = strstr(conf->workloads, "icache") ? kb_xasprintf(", icache at %ld sweep points", ns)
					      : kb_xstrdup("");
	fprintf(f, "boots: %zu variant%s x %ld layout%s x %ld boot%s = %ld boots%s; %ld case%s per boot "
		"(%ld workload%s%s), %ld sample%s per case\n", conf->n_variants,
		conf->n_variants == 1 ? "" : "s", layouts, layouts == 1 ? "" : "s", each, each == 1 ? "" : "s",
		total, note, cases, cases == 1 ? "" : "s", nw, nw == 1 ? "" : "s", w,
		conf->samples, conf->samples == 1 ? "" : "s");
	free(w);
	w = estimate_words(&boots, " a boot", "boots of this kind", &boot_s, &unknown);
	fprintf(f, "boot time: %s\n", w);
	free(w);
	boot_s *= (double)total;
	if (!unknown && !to_build) {
		fprintf(f, "estimate: ~%.0f s one after another (nothing to build, boots ~%.0f s)\n",
			boot_s, boot_s);
	} else if (!unknown) {
		fprintf(f, "estimate: ~%.0f s one after another (builds ~%.0f s, boots ~%.0f s)\n",
			build_s + boot_s, build_s, boot_s);
	} else {
		char nb[32] = "";

		if (unknown_builds)
			snprintf(nb, sizeof(nb), "%zu build%s", unknown_builds, unknown_builds == 1 ? "" : "s");
		fprintf(f, "estimate: %s for %s%s%s", NO_ESTIMATE, nb,
			unknown_builds && unknown > unknown_builds ? " and " : "",
			unknown > unknown_builds ? "the boots" : "");
		if (!to_build)
			fprintf(f, "; nothing to build (every kernel is in the build cache)");
		else if (to_build > unknown_builds || unknown == unknown_builds)
			fprintf(f, "; the rest ~%.0f s", build_s + boot_s);
		fputc('\n', f);
	}
	free(builds.v);
	free(replicas.v);
	free(boots.v);
	free(note);
	free(last);
	free(chose);
	kb_source_release(&src);
	kb_run_variants_free(conf, vs);
	return KB_EXIT_OK;
}
