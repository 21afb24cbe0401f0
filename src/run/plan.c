// SPDX-License-Identifier: GPL-2.0-or-later
/* The boot plan and what of it is finished (plan.h). */
#include "config.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "rundir.h"
#include "util.h"

void kb_plan_make(struct kb_plan *p, const struct kb_run_variant *vs, size_t n, long rounds,
		  unsigned long long seed)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t nbuilt = 0;

	memset(p, 0, sizeof(*p));
	for (size_t i = 0; i < n; i++)
		nbuilt += vs[i].built != 0;
	p->variant = kb_xcalloc((size_t)rounds * nbuilt + 1, sizeof(*p->variant));
	gsl_rng_set(rng, (unsigned long)seed);
	for (long round = 0; round < rounds; round++) {
		size_t *r = p->variant + p->total, k = 0;

		for (size_t i = 0; i < n; i++)
			if (vs[i].built)
				r[k++] = i;
		gsl_ran_shuffle(rng, r, k, sizeof(*r));
		p->total += (long)k;
	}
	gsl_rng_free(rng);
	p->done = kb_xcalloc((size_t)p->total + 1, 1);
	p->todo = kb_xcalloc((size_t)p->total + 1, sizeof(*p->todo));
	for (long seq = 1; seq <= p->total; seq++)
		p->todo[p->n_todo++] = seq;
}

void kb_plan_read_done(struct kb_plan *p, const struct kb_store *store)
{
	char *path = kb_store_path(store, KB_RD_BOOTS);
	json_t *lines, *b;
	size_t i;
	int bad;

	lines = kb_store_read_lines(path, &bad);
	json_array_foreach(lines, i, b) {
		long seq = (long)json_integer_value(json_object_get(b, KB_RD_BOOT));

		if (seq >= 1 && seq <= p->total)
			p->done[seq] = 1;
	}
	json_decref(lines);
	free(path);
	p->n_todo = 0;
	for (long seq = 1; seq <= p->total; seq++)
		if (!p->done[seq])
			p->todo[p->n_todo++] = seq;
}

void kb_plan_release(struct kb_plan *p)
{
	free(p->variant);
	free(p->done);
	free(p->todo);
	memset(p, 0, sizeof(*p));
}
