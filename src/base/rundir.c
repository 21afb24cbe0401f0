// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include "rundir.h"
#include "store.h"
#include "util.h"

int kb_rundir_sample_append(const struct kb_store *store, const struct kb_rundir_sample *s)
{
	json_t *j = json_object();
	int r;

	json_object_set_new(j, KB_RD_VARIANT, json_string(s->variant));
	if (s->layout >= 0)
		json_object_set_new(j, KB_RD_LAYOUT, json_integer(s->layout));
	json_object_set_new(j, KB_RD_BOOT, json_integer(s->boot));
	json_object_set_new(j, KB_RD_VBOOT, json_integer(s->vboot));
	json_object_set_new(j, KB_RD_WORKLOAD, json_string(s->workload));
	json_object_set_new(j, KB_RD_CASE, json_string(s->cas));
	json_object_set_new(j, KB_RD_REP, json_integer(s->rep));
	json_object_set_new(j, KB_RD_ITERATIONS, json_integer(s->iterations));
	json_object_set_new(j, KB_RD_NS, json_integer(s->ns));
	json_object_set_new(j, KB_RD_NS_PER_OP, json_real(s->ns_per_op));
	json_object_set_new(j, KB_RD_BACKEND, json_string(s->backend));
	json_object_set_new(j, KB_RD_ACCEL, json_string(kb_accel_name(s->accel)));
	json_object_set_new(j, KB_RD_FIELDS, s->fields ? s->fields : json_object());
	r = kb_store_append(store, KB_RD_SAMPLES, j);
	json_decref(j);
	return r;
}

/* The format of a run directory's manifest.json or summary.json object:
 * its "format", 0 where it has none; -1 where it is not a non-negative
 * integer. */
static long long kb_rundir_format(const json_t *obj)
{
	json_t *f = json_object_get(obj, KB_RD_FORMAT);

	if (!f)
		return 0;
	return json_is_integer(f) && json_integer_value(f) >= 0 ? json_integer_value(f) : -1;
}

int kb_rundir_format_check(const json_t *obj, const char *what)
{
	long long f = kb_rundir_format(obj);

	if (f < 0)
		return kb_error("'%s': its \"%s\" is not a format number", what, KB_RD_FORMAT);
	if (f > KB_RUNDIR_FORMAT)
		return kb_error("'%s': written by a newer kbench (format %lld; this one reads up to %d)",
				what, f, KB_RUNDIR_FORMAT);
	return 0;
}
