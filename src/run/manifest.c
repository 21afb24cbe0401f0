// SPDX-License-Identifier: GPL-2.0-or-later
/* manifest.json, written field by field as the run learns them (manifest.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manifest.h"
#include "order.h"
#include "probe.h"
#include "rundir.h"
#include "size.h"
#include "util.h"

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
	if (v->hybrid)
		fprintf(f, "%shybrid: %s", ftell(f) ? " " : "", v->hybrid);
	if (v->hy_cflags)
		fprintf(f, " with %s", v->hy_cflags);
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
	if (v->ld)	/* the manifest as before without it */
		json_object_set_new(j, "ld", json_string(v->ld));
	json_object_set_new(j, "cmdline", v->cmdline ? json_string(v->cmdline) : json_null());
	json_object_set_new(j, "flags", json_string(flags));
	/* A B PATH...: A with the objects under the paths as B compiled them */
	if (v->hybrid)
		json_object_set_new(j, "hybrid", json_string(v->hybrid));
	if (v->hy_cflags)
		json_object_set_new(j, "hybrid_cflags", json_string(v->hy_cflags));
	/* an order, and what it says it was made from: the report tells the
	 * cases its profile covered (trained) from the others (held out) */
	if (v->order) {
		char *method = NULL, *pvariant = NULL, *cases = NULL;
		json_t *o = json_object(), *trained = json_null();

		json_object_set_new(o, "path", json_string(v->order));
		if (kb_order_made(v->order, &method, &pvariant, &cases) == 0 && cases) {
			char *save = NULL;

			if (!strcmp(cases, "all")) {
				trained = json_string("all");
			} else {
				trained = json_array();
				for (char *t = strtok_r(cases, ",", &save); t; t = strtok_r(NULL, ",", &save))
					json_array_append_new(trained, json_string(t));
			}
		}
		json_object_set_new(o, "method", method ? json_string(method) : json_null());
		json_object_set_new(o, "profile_variant", pvariant ? json_string(pvariant) : json_null());
		json_object_set_new(o, "trained_on", trained);
		json_object_set_new(j, "order", o);
		free(method);
		free(pvariant);
		free(cases);
	}
	json_object_set_new(j, "status", json_string("pending"));
	free(flags);
	return j;
}

/* [claim], as the report rebuilds it: the claim and each prediction with
 * its cases ("all", or the names as given). */
static json_t *claim_json(const struct kb_claim_conf *cl)
{
	json_t *preds = json_array();

	for (size_t i = 0; i < cl->n_preds; i++) {
		const struct kb_prediction *x = &cl->preds[i];
		json_t *cases = json_array();
		char *list = kb_xstrdup(x->cases), *save = NULL;

		for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save))
			json_array_append_new(cases, json_string(t));
		free(list);
		json_array_append_new(preds, json_pack("{s:s,s:s,s:s,s:o,s:i}", "kind", kb_pred_kind_name(x->kind),
						       "a", x->a, "b", x->b, "cases", cases, "line", x->line));
	}
	return json_pack("{s:s,s:s?,s:s?,s:o}", "text", cl->text, "source", cl->source, "date", cl->date,
			 "predictions", preds);
}

static int set(struct kb_store *s, const char *key, json_t *value)
{
	json_object_set_new(s->manifest, key, value);
	return kb_store_save_manifest(s);
}

/* kbench run --set, as given and in order (config_keys has their values). */
static json_t *sets_json(const struct kb_conf *conf)
{
	json_t *a = json_array();

	for (size_t i = 0; i < conf->n_sets; i++)
		json_array_append_new(a, json_string(conf->sets[i]));
	return a;
}

/* The --set options of a run as words for a message: "--set A --set B",
 * or "no --set" (malloc'd). */
static char *sets_words(const json_t *sets)
{
	char *s = NULL;
	size_t len = 0, i;
	json_t *v;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		abort();
	json_array_foreach(sets, i, v)
		fprintf(f, "%s--set %s", i ? " " : "", json_string_value(v) ?: "?");
	if (!json_array_size(sets))
		fputs("no --set", f);
	fclose(f);
	return s;
}

/* The run's copy of its configuration as it began: its SHA-256 and every
 * key given, which a resume checks the copy against (kb_manifest_config_check). */
static void config_json(json_t *m, const struct kb_store *s, const struct kb_conf *conf)
{
	char *copy = kb_store_path(s, "variants.conf"), hex[65];
	json_t *keys = json_object();

	if (kb_sha256_file(copy, hex) == 0)
		json_object_set_new(m, "config_sha256", json_string(hex));
	for (size_t i = 0; i < conf->n_given; i++)
		json_object_set_new(keys, conf->given[i].key, json_string(conf->given[i].value));
	json_object_set_new(m, "config_keys", keys);
	json_object_set_new(m, "overrides", sets_json(conf));
	free(copy);
}

int kb_manifest_init(struct kb_store *s, const struct kb_conf *conf)
{
	json_t *m = s->manifest, *jv = json_array();
	struct kb_host host;

	json_object_set_new(m, "kbench", json_string(PACKAGE_VERSION));
	json_object_set_new(m, KB_RD_FORMAT, json_integer(KB_RUNDIR_FORMAT));
	json_object_set_new(m, "run_id", json_string(s->id));
	json_object_set_new(m, "state", json_string("running"));
	json_object_set_new(m, "config", json_string(conf->path));
	json_object_set_new(m, "config_dir", json_string(conf->dir));
	config_json(m, s, conf);
	json_object_set_new(m, "seed", kb_json_u64(conf->seed));
	if (conf->seed_drawn)	/* the manifest as before with a seed given */
		json_object_set_new(m, "seed_drawn", json_true());
	json_object_set_new(m, "baseline", json_string(conf->baseline));
	json_object_set_new(m, "run",
			    json_pack("{s:i,s:s,s:i,s:f,s:i,s:i,s:f}", "boots", (int)conf->boots,
				      "workloads", conf->workloads, "samples", (int)conf->samples,
				      "scale", conf->scale, "timeout", (int)conf->timeout,
				      "memory_mb", (int)conf->memory, "min_effect", conf->min_effect));
	json_object_set_new(m, "layouts", json_integer((json_int_t)conf->layouts));
	kb_probe_host(&host, 0);
	json_object_set_new(m, "host", kb_probe_host_json(&host));
	kb_probe_host_release(&host);
	if (conf->claim.text)
		json_object_set_new(m, "claim", claim_json(&conf->claim));
	if (conf->unsafe_flags) {	/* [kernel] unsafe_flags = yes: what it let through */
		json_t *u = json_array();

		for (size_t i = 0; i < conf->n_unsafe; i++)
			json_array_append_new(u, json_pack("{s:s,s:s,s:s,s:s}", "variant", conf->unsafe[i].variant,
							   "key", conf->unsafe[i].key, "flag", conf->unsafe[i].flag,
							   "why", conf->unsafe[i].why));
		json_object_set_new(m, "unsafe_flags", u);
	}
	for (size_t i = 0; i < conf->n_variants; i++)
		json_array_append_new(jv, variant_json(&conf->variants[i]));
	return set(s, "variants", jv);
}

int kb_manifest_kernel(struct kb_store *s, const struct kb_conf *conf, const struct kb_source *src)
{
	return set(s, "kernel", json_pack("{s:s,s:s,s:s,s:s,s:s}", "source", conf->source,
					  "id", src->id, "version", src->version, "arch", conf->arch,
					  "base", conf->base));
}

static json_t *size_json(const struct kb_size *size)
{
	return json_pack("{s:I,s:I,s:I,s:I}", "text", (json_int_t)size->text, "data",
			 (json_int_t)size->data, "bss", (json_int_t)size->bss, "dec",
			 (json_int_t)(size->text + size->data + size->bss));
}

/* How a build went, into j: the fields a variant and each of its replicas have. */
static void build_json(json_t *j, const struct kb_run_variant *rv, int build_ok, const char *dir)
{
	const char *allocator;

	if (!build_ok) {
		json_object_set_new(j, "status", json_string("build-failed"));
		json_object_set_new(j, "reason", json_string(rv->k.failure ? rv->k.failure : "?"));
		json_object_set_new(j, "log", json_sprintf("%s/build.log", dir));
		return;
	}
	json_object_set_new(j, "status", json_string(rv->built ? "built" : "copy-failed"));
	json_object_set_new(j, "key", json_string(rv->k.key));
	json_object_set_new(j, "cached", json_boolean(rv->k.cached));
	json_object_set_new(j, "build_seconds", json_real(rv->k.seconds));
	json_object_set_new(j, "compiler", rv->k.compiler ? json_string(rv->k.compiler) : json_null());
	json_object_set_new(j, "vmlinux", json_sprintf("%s/vmlinux", dir));
	/* the slab allocator its .config selects: SLOB, SLUB_TINY and SLUB run
	 * the allocation-heavy cases differently */
	if ((allocator = kb_config_allocator(rv->k.dotconfig)))
		json_object_set_new(j, "allocator", json_string(allocator));
	/* the build tree, objects and Kbuild's .cmd files (kbench explain's input) */
	if (rv->k.objdir)
		json_object_set_new(j, "objdir", json_string(rv->k.objdir));
	if (!rv->k.cached && rv->k.ccache_hits >= 0)
		json_object_set_new(j, "ccache", json_pack("{s:I,s:I}", "hits",
							  (json_int_t)rv->k.ccache_hits, "misses",
							  (json_int_t)rv->k.ccache_misses));
}

int kb_manifest_variant(struct kb_store *s, const struct kb_run_variant *rv, int build_ok,
			const struct kb_size *size)
{
	json_t *j = json_array_get(json_object_get(s->manifest, "variants"), rv->vi);
	json_t *reps, *r, *pad = json_array();
	char *dir = kb_store_variant_dir(rv->v->name, rv->layout.layout);

	if (!j) {
		json_decref(pad);
		free(dir);
		return -1;
	}
	/* the variant's own fields are its layout 0's */
	if (rv->layout.layout == 0) {
		build_json(j, rv, build_ok, dir);
		if (size)
			json_object_set_new(j, "size", size_json(size));
	}
	reps = json_object_get(j, "replicas");
	if (!json_is_array(reps)) {
		reps = json_array();
		json_object_set_new(j, "replicas", reps);
	}
	while (json_array_size(reps) <= (size_t)rv->layout.layout)
		json_array_append_new(reps, json_null());
	for (int i = 0; i < KB_LAYOUT_PADS; i++)
		json_array_append_new(pad, json_integer((json_int_t)rv->layout.pad[i]));
	r = json_pack("{s:i,s:I,s:o,s:o}", "layout", rv->layout.layout, "seed",
		      (json_int_t)rv->layout.seed, "pad", pad, "text",
		      size ? json_integer((json_int_t)size->text) : json_null());
	build_json(r, rv, build_ok, dir);
	if (size)
		json_object_set_new(r, "size", size_json(size));
	json_array_set_new(reps, (size_t)rv->layout.layout, r);
	free(dir);
	return kb_store_save_manifest(s);
}

int kb_manifest_accel(struct kb_store *s, const char *accel, const char *why)
{
	return set(s, "accel", json_pack("{s:s?,s:s}", "chosen", accel, "why", why ? why : ""));
}

static json_t *choice_json(const struct kb_backend_run *r)
{
	return json_pack("{s:s,s:s}", "name", r->b->name, "why", r->why);
}

static void describe(json_t *m, const struct kb_backend_run *r)
{
	if (r->b && r->b->describe)
		json_object_set_new(m, r->b->name, r->b->describe(r->priv));
}

int kb_manifest_backends(struct kb_store *s, const struct kb_backends_chosen *c,
			 const char *failed_why)
{
	json_t *m = s->manifest, *all;

	if (!c) {
		json_object_set_new(m, "backend", json_string("none"));
		return set(s, "backend_why", json_string(failed_why ? failed_why : ""));
	}
	/* the run's figures: the primary's, or the overlay's read around them */
	json_object_set_new(m, "backend", json_string(kb_backends_name(c)));
	json_object_set_new(m, "backend_why", json_string(c->primary.why));
	json_object_set_new(m, "host_counters",
			    json_pack("{s:s?,s:s}", "mode", c->overlay.b ? c->overlay.b->name : NULL,
				      "why", c->overlay_why ? c->overlay_why : ""));
	all = json_pack("{s:o}", "primary", choice_json(&c->primary));
	if (c->overlay.b)
		json_object_set_new(all, "overlay", choice_json(&c->overlay));
	json_object_set_new(all, "stages", json_array());
	for (size_t i = 0; i < c->n_stages; i++)
		json_array_append_new(json_object_get(all, "stages"), choice_json(&c->stages[i]));
	json_object_set_new(m, "backends", all);
	/* what each one chose in detail (the sim's geometry and model...) */
	describe(m, &c->primary);
	describe(m, &c->overlay);
	for (size_t i = 0; i < c->n_stages; i++)
		describe(m, &c->stages[i]);
	return kb_store_save_manifest(s);
}

int kb_manifest_executor(struct kb_store *s, const char *executor)
{
	json_object_set_new(s->manifest, "executor", json_string(executor));
	return kb_store_save_manifest(s);
}

int kb_manifest_boots(struct kb_store *s, long boots, const char *why, long at_once)
{
	json_t *run = json_object_get(s->manifest, "run");

	json_object_set_new(run, "boots", json_integer((json_int_t)boots));
	json_object_set_new(run, "boots_why", json_string(why));
	json_object_set_new(run, "boots_at_once", json_integer((json_int_t)at_once));
	return kb_store_save_manifest(s);
}

int kb_manifest_state(struct kb_store *s, const char *state, double seconds)
{
	json_object_set_new(s->manifest, "seconds", json_real(seconds));
	return set(s, "state", json_string(state));
}

const char *kb_manifest_str(const struct kb_store *s, const char *path)
{
	char *p = kb_xstrdup(path), *save = NULL;
	json_t *v = s->manifest;

	for (char *k = strtok_r(p, ".", &save); k && v; k = strtok_r(NULL, ".", &save))
		v = json_object_get(v, k);
	free(p);
	return json_string_value(v);
}

/* A value for a message: quoted, its lines joined, cut at 60 bytes. */
static void print_value(FILE *f, const char *v)
{
	if (!v) {
		fputs("not given", f);
		return;
	}
	fputc('\'', f);
	for (size_t i = 0; v[i]; i++) {
		if (i == 60) {
			fputs("...", f);
			break;
		}
		if (v[i] == '\n')
			fputs(" | ", f);
		else
			fputc(v[i], f);
	}
	fputc('\'', f);
}

/* The [variant] sections of keys, in their order, one name a line. */
static char *variant_order(json_t *keys)
{
	char *s = NULL, *last = NULL;
	const char *k;
	size_t len = 0;
	json_t *v;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		abort();
	json_object_foreach(keys, k, v) {
		size_t n = strcspn(k, "]");

		if (strncmp(k, "[variant ", 9) || (last && !strncmp(last, k, n + 1)))
			continue;
		fprintf(f, "%.*s, ", (int)(n - 9), k + 9);
		last = (char *)k;
	}
	fclose(f);
	return s;
}

int kb_manifest_config_check(const struct kb_store *s, const struct kb_conf *conf)
{
	const char *want = kb_manifest_str(s, "config_sha256"), *k;
	json_t *was = json_object_get(s->manifest, "config_keys"), *now = json_object(), *v;
	json_t *sets_was = json_object_get(s->manifest, "overrides"), *sets_now = sets_json(conf);
	char *copy = kb_store_path(s, "variants.conf"), hex[65], *diff = NULL, *o1, *o2;
	size_t len = 0, n = 0;
	FILE *f;
	/* a run from before --set was recorded had none */
	int r = 0, same_sets = json_equal(sets_now, sets_was) ||
			       (!sets_was && !json_array_size(sets_now));

	if (!want && same_sets) {
		kb_warn("'%s': the manifest records no hash of it (a run from before kbench "
			"checked it): resumed as it reads now, unchecked", copy);
		goto out;
	}
	if (want && same_sets && kb_sha256_file(copy, hex) == 0 && !strcmp(hex, want))
		goto out;
	for (size_t i = 0; i < conf->n_given; i++)
		json_object_set_new(now, conf->given[i].key, json_string(conf->given[i].value));
	if (!same_sets && !json_is_object(was)) {
		o1 = sets_words(sets_was);
		o2 = sets_words(sets_now);
		r = kb_error("'%s' began with %s, and is resumed with %s; resume with the same --set "
			     "options (or none: the run's own), or start a new run", s->dir, o1, o2);
		free(o1);
		free(o2);
		goto out;
	}
	if (!json_is_object(was)) {
		r = kb_error("'%s' was changed after the run began (its SHA-256 is not the one the "
			     "manifest recorded); resume reads this copy: restore it, or start a new run",
			     copy);
		goto out;
	}
	f = open_memstream(&diff, &len);
	if (!f)
		abort();
	/* each key changed or added, then each one taken out */
	for (int pass = 0; pass < 2; pass++) {
		json_t *a = pass ? was : now, *b = pass ? now : was;

		json_object_foreach(a, k, v) {
			const char *x = json_string_value(json_object_get(b, k));

			if ((pass && x) || (x && json_string_value(v) && !strcmp(x, json_string_value(v))))
				continue;
			if (n++ < 10) {
				fprintf(f, "%s%s (", n > 1 ? ", " : "", k);
				print_value(f, pass ? json_string_value(v) : x);
				fputs(" -> ", f);
				print_value(f, pass ? NULL : json_string_value(v));
				fputc(')', f);
			}
		}
	}
	if (n > 10)
		fprintf(f, " and %zu more", n - 10);
	o1 = variant_order(was);
	o2 = variant_order(now);
	if (!n && strcmp(o1, o2)) {
		o1[strlen(o1) - 2] = o2[strlen(o2) - 2] = '\0';
		fprintf(f, "the order of its variants (%s -> %s)", o1, o2);
		n++;
	}
	free(o1);
	free(o2);
	fclose(f);
	if (!same_sets) {
		/* the same words as for an edited copy: the keys whose values differ */
		o1 = sets_words(sets_was);
		o2 = sets_words(sets_now);
		r = kb_error("'%s' began with %s, and is resumed with %s%s%s; resume with the same --set "
			     "options (or none: the run's own), or start a new run", s->dir, o1, o2,
			     n ? ": " : "", n ? diff : "");
		free(o1);
		free(o2);
	} else if (n)
		r = kb_error("'%s' was changed after the run began: %s; resume reads this copy: restore "
			     "it, or start a new run", copy, diff);
	else
		kb_warn("'%s' was changed after the run began, but only in comments or blanks: resuming",
			copy);
out:
	json_decref(now);
	json_decref(sets_now);
	free(diff);
	free(copy);
	return r;
}
