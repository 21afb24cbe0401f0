// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer harness: the run-directory loaders and every report writer.
 * The input is a run directory's files, each after a line "===" in this
 * order: manifest.json, samples.jsonl, boots.jsonl, timing.jsonl, sim.jsonl
 * (a file the input does not reach is absent).  They are written into a
 * private directory, loaded as kbench report loads them (kb_model_load),
 * and every writer runs into memory: report.md, report.html, summary.json,
 * summary.csv, and kbench compare of the run against itself.
 *
 * What must hold on any input: a model's names are plain names, so that
 * no markup reaches report.html; summary.json is an object. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare.h"
#include "model.h"
#include "report.h"
#include "util.h"

static const char *const files[] = { "manifest.json", "samples.jsonl", "boots.jsonl", "timing.jsonl", "sim.jsonl" };

#define SEP "\n===\n"

static const char *rundir(void)
{
	static char dir[64];

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/kbench-fuzz-rundir.%ld", (long)getpid());
		if (mkdir(dir, 0700) < 0 && errno != EEXIST)
			abort();
		setenv("KBENCH_GNUPLOT", "none", 1);	/* plot scripts are built, gnuplot never runs */
	}
	return dir;
}

/* data split at SEP into the files, in order; the rest removed */
static void write_files(const char *dir, const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;

	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
		char path[128];
		const char *next = p ? memmem(p, (size_t)(end - p), SEP, strlen(SEP)) : NULL;
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
		if (!p)
			continue;
		f = fopen(path, "wb");
		if (!f)
			abort();
		fwrite(p, 1, (size_t)((next ? next : end) - p), f);
		fclose(f);
		p = next ? next + strlen(SEP) : NULL;
	}
}

static void names_are_plain(const struct kb_model *m)
{
	for (size_t i = 0; i < m->nv; i++)
		if (!kb_model_name_ok(KB_NAME_VARIANT, m->variants[i].name))
			__builtin_trap();
	for (size_t i = 0; i < m->nc; i++)
		if (!kb_model_name_ok(KB_NAME_CASE, m->cases[i]))
			__builtin_trap();
	for (size_t i = 1; i < m->nm; i++)
		if (!kb_model_name_ok(KB_NAME_PLAIN, m->metrics[i].field))
			__builtin_trap();
	if (m->boot_timing)
		names_are_plain(m->boot_timing);
}

/* Each writer into memory; report.html holds no markup but kbench's. */
static void write_all(const struct kb_model *m, const char *dir)
{
	const struct kb_report_writer *const w[] = { &kb_report_md, &kb_report_html, &kb_report_json, &kb_report_csv };
	struct kb_doc doc;
	struct kb_report_ctx ctx = { dir, m, &doc, NULL };
	struct kb_model_opts o = m->o;
	struct kb_compare c;

	kb_doc_init(&doc, "fuzz");
	kb_report_document(&doc, m);
	for (size_t i = 0; i < sizeof(w) / sizeof(*w); i++) {
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		if (!f)
			abort();
		w[i]->write(f, &ctx);
		fclose(f);
		if (w[i] == &kb_report_html && (strcasestr(text, "<script") || strcasestr(text, "<img")))
			__builtin_trap();
		free(text);
	}
	kb_doc_release(&doc);
	kb_compare_init(&c, m, m, dir, dir, &o);
	{
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		json_t *j = kb_compare_json(&c);

		if (!f || !json_is_object(j))
			abort();
		kb_compare_md(f, &c);
		fclose(f);
		free(text);
		json_decref(j);
	}
	kb_compare_release(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *dir = rundir();
	struct kb_model_opts o = KB_MODEL_OPTS_INIT;
	struct kb_model *m;
	json_t *j;

	/* few resamples: the statistics are tested elsewhere, here only that they run */
	o.resamples = 16;

	write_files(dir, data, size);
	m = kb_model_load(dir, &o);
	if (!m)
		return 0;
	names_are_plain(m);
	j = kb_model_json(m);
	if (!json_is_object(j))
		__builtin_trap();
	json_decref(j);
	write_all(m, dir);
	kb_model_free(m);
	return 0;
}
