// SPDX-License-Identifier: GPL-2.0-or-later
/* report.md from what the run directory holds: the report can always be
 * written again (kbench report RUN_DIR) and never depends on memory. */
#include "config.h"

#include <errno.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "report.h"
#include "size.h"
#include "store.h"
#include "util.h"

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* What a sample measured: its case, or its workload in runs without cases. */
static const char *sample_case(json_t *s)
{
	const char *c = json_string_value(json_object_get(s, "case"));

	return c ? c : str(s, "workload");
}

/* Markdown table cells come from the config and the guest: keep them inert. */
static void cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (strchr("|\\`*_<>[]", *s))
			fputc('\\', f);
		if ((unsigned char)*s < 0x20)
			fputc(' ', f);
		else
			fputc(*s, f);
	}
}

static double median(double *v, size_t n)
{
	gsl_sort(v, 1, n);
	return gsl_stats_median_from_sorted_data(v, 1, n);
}

static void size_section(FILE *f, json_t *variants, const char *baseline)
{
	json_t *v, *base = NULL;
	size_t i;

	fprintf(f, "## Text size\n\n");
	fprintf(f, "Berkeley format, as binutils `size` prints it (run directory relative paths):\n\n```\n");
	kb_size_print_header(f);
	json_array_foreach(variants, i, v) {
		json_t *sz = json_object_get(v, "size");
		struct kb_size s;

		if (!json_is_object(sz))
			continue;
		s.text = (unsigned long long)json_integer_value(json_object_get(sz, "text"));
		s.data = (unsigned long long)json_integer_value(json_object_get(sz, "data"));
		s.bss = (unsigned long long)json_integer_value(json_object_get(sz, "bss"));
		kb_size_print_row(f, &s, str(v, "vmlinux"));
		if (!strcmp(str(v, "name"), baseline))
			base = sz;
	}
	fprintf(f, "```\n\n");
	if (!base)
		return;
	fprintf(f, "| variant | text | change vs %s | flags |\n|---|---:|---:|---|\n", baseline);
	json_array_foreach(variants, i, v) {
		json_t *sz = json_object_get(v, "size");
		long long t, bt = json_integer_value(json_object_get(base, "text"));

		if (!json_is_object(sz))
			continue;
		t = json_integer_value(json_object_get(sz, "text"));
		fprintf(f, "| ");
		cell(f, str(v, "name"));
		fprintf(f, " | %lld | %+lld (%+.1f%%) | ", t, t - bt, bt ? 100.0 * (double)(t - bt) / (double)bt : 0.0);
		cell(f, str(v, "flags"));
		fprintf(f, " |\n");
	}
	fprintf(f, "\n");
}

/* Per-boot medians of ns/op for one variant and case. */
static size_t boot_medians(json_t *samples, const char *variant, const char *wl,
			   double *out, size_t cap, size_t *nsamples)
{
	size_t n = 0, i;
	json_t *s;
	long long boots[4096];
	size_t nb = 0;

	*nsamples = 0;
	json_array_foreach(samples, i, s) {
		long long b = json_integer_value(json_object_get(s, "boot"));
		size_t k;

		if (strcmp(str(s, "variant"), variant) || strcmp(sample_case(s), wl))
			continue;
		(*nsamples)++;
		for (k = 0; k < nb && boots[k] != b; k++)
			;
		if (k == nb && nb < KB_ARRAY_SIZE(boots))
			boots[nb++] = b;
	}
	for (size_t k = 0; k < nb && n < cap; k++) {
		double *v = kb_xcalloc(*nsamples, sizeof(*v));
		size_t m = 0;

		json_array_foreach(samples, i, s)
			if (!strcmp(str(s, "variant"), variant) && !strcmp(sample_case(s), wl) &&
			    json_integer_value(json_object_get(s, "boot")) == boots[k])
				v[m++] = json_real_value(json_object_get(s, "ns_per_op"));
		if (m)
			out[n++] = median(v, m);
		free(v);
	}
	return n;
}

static void speed_rows(FILE *f, json_t *m, json_t *samples, const char *cas)
{
	json_t *variants = json_object_get(m, "variants"), *v;
	const char *baseline = str(m, "baseline");
	double base = 0, per[4096];
	size_t nb, ns, i;

	nb = boot_medians(samples, baseline, cas, per, KB_ARRAY_SIZE(per), &ns);
	if (nb)
		base = median(per, nb);
	json_array_foreach(variants, i, v) {
		const char *name = str(v, "name");
		double med;

		nb = boot_medians(samples, name, cas, per, KB_ARRAY_SIZE(per), &ns);
		fprintf(f, "| %s | ", cas);
		cell(f, name);
		if (!nb) {
			fprintf(f, " | no samples (%s) | | 0 | 0 | |\n", str(v, "status"));
			continue;
		}
		med = median(per, nb);
		fprintf(f, " | %.1f | ", med);
		if (base > 0)
			fprintf(f, "%.3f", med / base);
		fprintf(f, " | %zu | %zu | %s |\n", nb, ns, str(m, "backend"));
	}
}

static void speed_section(FILE *f, json_t *m, json_t *samples)
{
	const char *baseline = str(m, "baseline");
	char *wls = kb_xstrdup(str(json_object_get(m, "run"), "workloads")), *save = NULL;

	fprintf(f, "## Speed\n\n");
	fprintf(f, "Median over boots of each boot's median time per operation. Backend `%s`",
		str(m, "backend"));
	if (!strcmp(str(json_object_get(m, "accel"), "chosen"), "tcg"))
		fprintf(f, ": under TCG this is emulated time, a property of QEMU's translation as much as of the kernel");
	fprintf(f, ".\n\n| workload | variant | median ns/op | vs %s | boots | samples | backend |\n"
		   "|---|---|---:|---:|---:|---:|---|\n", baseline);
	for (char *wl = strtok_r(wls, ",", &save); wl; wl = strtok_r(NULL, ",", &save)) {
		/* The cases of a workload (one, or one per sweep parameter), in
		 * the order the guest reported them. */
		json_t *cases = json_array(), *c, *smp;
		size_t k;

		json_array_foreach(samples, k, smp) {
			size_t x;
			int seen = 0;

			if (strcmp(str(smp, "workload"), wl))
				continue;
			json_array_foreach(cases, x, c)
				seen |= !strcmp(json_string_value(c), sample_case(smp));
			if (!seen)
				json_array_append_new(cases, json_string(sample_case(smp)));
		}
		if (!json_array_size(cases))
			json_array_append_new(cases, json_string(wl));
		json_array_foreach(cases, k, c)
			speed_rows(f, m, samples, json_string_value(c));
		json_decref(cases);
	}
	fprintf(f, "\n");
	free(wls);
}

static void boots_section(FILE *f, json_t *boots)
{
	size_t i, ok = 0;
	json_t *b;

	json_array_foreach(boots, i, b)
		ok += !strcmp(str(b, "status"), "ok");
	fprintf(f, "## Boots\n\n%zu of %zu boots completed.\n\n", ok, json_array_size(boots));
	if (ok == json_array_size(boots))
		return;
	fprintf(f, "| variant | boot | status | reason | serial log |\n|---|---:|---|---|---|\n");
	json_array_foreach(boots, i, b) {
		if (!strcmp(str(b, "status"), "ok"))
			continue;
		fprintf(f, "| ");
		cell(f, str(b, "variant"));
		fprintf(f, " | %lld | %s | ", json_integer_value(json_object_get(b, "boot")),
			str(b, "status"));
		cell(f, str(b, "reason"));
		fprintf(f, " | %s |\n", str(b, "serial"));
	}
	fprintf(f, "\n");
}

static void build_section(FILE *f, json_t *m)
{
	json_t *variants = json_object_get(m, "variants"), *v;
	size_t i;

	fprintf(f, "## Variants\n\n| variant | status | build | config key | compiler | log |\n|---|---|---|---|---|---|\n");
	json_array_foreach(variants, i, v) {
		fprintf(f, "| ");
		cell(f, str(v, "name"));
		fprintf(f, " | %s", str(v, "status"));
		if (*str(v, "reason"))
			fprintf(f, ": %s", str(v, "reason"));
		fprintf(f, " | ");
		if (json_is_true(json_object_get(v, "cached")))
			fprintf(f, "cached");
		else if (json_is_number(json_object_get(v, "build_seconds")))
			fprintf(f, "%.0f s", json_number_value(json_object_get(v, "build_seconds")));
		fprintf(f, " | `%.12s` | ", str(v, "key"));
		cell(f, str(v, "compiler"));
		fprintf(f, " | variants/");
		cell(f, str(v, "name"));
		fprintf(f, "/build.log |\n");
	}
	fprintf(f, "\n");
}

int kb_report_write(const char *run_dir)
{
	char *mpath = kb_xasprintf("%s/manifest.json", run_dir);
	char *spath = kb_xasprintf("%s/samples.jsonl", run_dir);
	char *bpath = kb_xasprintf("%s/boots.jsonl", run_dir);
	char *rpath = kb_xasprintf("%s/report.md", run_dir);
	json_t *m, *samples = NULL, *boots = NULL, *accel;
	json_error_t jerr;
	char *text = NULL;
	size_t len = 0;
	int bad_s, bad_b, ret = -1;
	FILE *f;

	m = json_load_file(mpath, 0, &jerr);
	if (!m) {
		kb_error("%s:%d: %s", mpath, jerr.line, jerr.text);
		goto out;
	}
	samples = kb_store_read_lines(spath, &bad_s);
	boots = kb_store_read_lines(bpath, &bad_b);
	f = open_memstream(&text, &len);
	if (!f)
		abort();
	accel = json_object_get(m, "accel");
	fprintf(f, "# kbench report %s\n\n", str(m, "run_id"));
	fprintf(f, "Kernel %s (%s), %zu variants, baseline `", str(json_object_get(m, "kernel"), "version"),
		str(json_object_get(m, "kernel"), "arch"), json_array_size(json_object_get(m, "variants")));
	cell(f, str(m, "baseline"));
	fprintf(f, "`. Accelerator: %s (", str(accel, "chosen"));
	cell(f, str(accel, "why"));
	fprintf(f, "). Host: ");
	cell(f, str(json_object_get(json_object_get(m, "host"), "cpu"), "brand"));
	fprintf(f, ".\n\n");
	if (bad_s || bad_b)
		fprintf(f, "**%d torn or invalid lines were skipped in samples.jsonl/boots.jsonl.**\n\n",
			bad_s + bad_b);
	size_section(f, json_object_get(m, "variants"), str(m, "baseline"));
	speed_section(f, m, samples);
	boots_section(f, boots);
	build_section(f, m);
	fclose(f);
	ret = kb_write_file_atomic(rpath, text, len);
out:
	free(text);
	json_decref(m);
	json_decref(samples);
	json_decref(boots);
	free(mpath);
	free(spath);
	free(bpath);
	free(rpath);
	return ret;
}

int kb_cmd_report(int argc, char **argv)
{
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: kbench report RUN_DIR\n");
		return KB_EXIT_USAGE;
	}
	if (kb_report_write(argv[1]) < 0)
		return KB_EXIT_FAILED;
	printf("%s/report.md\n", argv[1]);
	return KB_EXIT_OK;
}
