// SPDX-License-Identifier: GPL-2.0-or-later
/* The table of measurement backends (backends.def) and how a run chooses
 * among them (backend.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "rundir.h"
#include "util.h"

static const struct kb_backend *const table[] = {
#define KB_BACKEND(id, ops) &ops,
#include "backends.def"
#undef KB_BACKEND
};

const char *kb_figure_kind_name(enum kb_figure_kind s)
{
	static const char *const names[] = { "measured", "simulated", "modeled" };

	return (size_t)s < KB_ARRAY_SIZE(names) ? names[s] : "?";
}

const struct kb_backend *const *kb_backends(size_t *n)
{
	*n = KB_ARRAY_SIZE(table);
	return table;
}

const struct kb_backend *kb_backend_find(const char *name)
{
	for (size_t i = 0; name && i < KB_ARRAY_SIZE(table); i++)
		if (!strcmp(table[i]->name, name))
			return table[i];
	return NULL;
}

/* files[0..n) holds f, or f is NULL */
static int listed(const char *const *files, size_t n, const char *f)
{
	for (size_t i = 0; f && i < n; i++)
		if (!strcmp(files[i], f))
			return 1;
	return !f;
}

size_t kb_backend_run_files(const char *files[KB_BACKEND_MAX_FILES])
{
	size_t n = 0;

	files[n++] = KB_RD_SAMPLES;
	files[n++] = KB_RD_BOOTS;
	for (size_t i = 0; i < KB_ARRAY_SIZE(table); i++) {
		if (!listed(files, n, table[i]->boot_file))
			files[n++] = table[i]->boot_file;
		if (!listed(files, n, table[i]->stage_file))
			files[n++] = table[i]->stage_file;
	}
	return n;
}

size_t kb_backend_index(const struct kb_backend *b)
{
	for (size_t i = 0; i < KB_ARRAY_SIZE(table); i++)
		if (table[i] == b)
			return i;
	abort();	/* not registered: a bug */
}

const char *kb_backend_check(const struct kb_backend *b)
{
	if (!b->name || !*b->name)
		return "no name";
	if (b->api != KB_BACKEND_API)
		return "built for another backend API version";
	if (!b->help || !b->choose || !b->metric)
		return "missing help, choose or metric";
	if (b->options && b->options->name && !b->opts_size)
		return "options without an options struct (opts_size 0)";
	for (const struct kb_option *o = b->options; o && o->name; o++)
		if (o->section != KB_SEC_RUN || o->off >= b->opts_size)
			return "an option outside [run] or past its options struct";
	switch (b->role) {
	case KB_ROLE_PRIMARY:
	case KB_ROLE_OVERLAY:
		if (!!b->boot_new != !!b->boot_free)
			return "boot_new without boot_free (or the reverse)";
		if (b->role == KB_ROLE_OVERLAY && !b->boot_new)
			return "an overlay without per-boot hooks";
		break;
	case KB_ROLE_STAGE:
		if (!b->stage)
			return "a stage without its stage hook";
		break;
	default:
		return "unknown role";
	}
	return NULL;
}

void kb_backend_check_table(void)
{
	for (size_t i = 0; i < KB_ARRAY_SIZE(table); i++) {
		const char *why = kb_backend_check(table[i]);

		for (size_t j = 0; !why && j < i; j++)
			if (!strcmp(table[i]->name, table[j]->name))
				why = "registered twice";
		if (why) {
			fprintf(stderr, "kbench: backend '%s': %s\n", table[i]->name ? table[i]->name : "?", why);
			abort();
		}
	}
}

void kb_backend_metric(const char *name, const char *field, enum kb_accel accel,
		       const json_t *described, struct kb_metric_desc *d)
{
	const struct kb_backend *b = kb_backend_find(name);

	memset(d, 0, sizeof(*d));
	d->note = "";
	(b ? b : &kb_backend_clock)->metric(field, accel, b ? described : NULL, d);
}

int kb_backend_deterministic(const char *name)
{
	const struct kb_backend *b = kb_backend_find(name);

	return b && (b->flags & KB_BACKEND_DETERMINISTIC);
}

/* ---- a run's choice ---- */

static void run_release(struct kb_backend_run *r)
{
	if (r->b && r->b->release)
		r->b->release(r->priv);
	free(r->why);
	memset(r, 0, sizeof(*r));
}

const char *kb_backends_name(const struct kb_backends_chosen *c)
{
	return c->overlay.b ? c->overlay.b->name : c->primary.b ? c->primary.b->name : "none";
}

void kb_backends_release(struct kb_backends_chosen *c)
{
	run_release(&c->primary);
	run_release(&c->overlay);
	for (size_t i = 0; i < c->n_stages; i++)
		run_release(&c->stages[i]);
	free(c->stages);
	free(c->overlay_why);
	memset(c, 0, sizeof(*c));
}
