// SPDX-License-Identifier: GPL-2.0-or-later
/* Backend "sim": TCG with kbench's own QEMU plugin (sim.c, plugin/): exact
 * guest instruction counts, simulated L1i and L2 misses, a stated cycle
 * model.  Deterministic under -icount: boots replicate nothing. */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "mca.h"
#include "orderfile.h"
#include "probe.h"
#include "rundir.h"
#include "sim.h"
#include "store.h"
#include "util.h"

struct sim_opts {
	char *l1i;		/* "auto" or SIZE:WAYS:LINE */
	char *l2;		/* "auto", "off" or SIZE:WAYS:LINE */
	double cpi, l1i_penalty, l2_penalty;
	long virtual_layouts;
	char *placement;	/* "pad", "shuffle" or "order:FILE" */
	long pads;
	char *cpu, *cpu_alt;	/* llvm-mca -mcpu names; cpu_alt may be "off" */
	char *primary;		/* "auto", "mca_cycles" or "model_cycles" */
};

static const char *check_l1i(const char *v)
{
	struct kb_sim_geom g;
	const char *why;

	return strcmp(v, "auto") && kb_sim_geom_parse(v, 0, &g, &why) < 0 ? why : NULL;
}

static const char *check_l2(const char *v)
{
	struct kb_sim_geom g;
	const char *why;

	return strcmp(v, "auto") && kb_sim_geom_parse(v, 1, &g, &why) < 0 ? why : NULL;
}

static const char *check_cpu(const char *v)
{
	return kb_mca_check_cpu(v);
}

#define ORDER_PREFIX "order:"

/* pad, shuffle, or order:FILE with FILE an order kbench reads (its
 * messages name the file and line) */
static const char *check_placement(const char *v)
{
	struct kb_order_file o;

	if (!strcmp(v, "pad") || !strcmp(v, "shuffle"))
		return NULL;
	if (strncmp(v, ORDER_PREFIX, strlen(ORDER_PREFIX)))
		return "not one of pad, shuffle, order:FILE";
	if (kb_order_file_read(v + strlen(ORDER_PREFIX), &o) < 0)
		return "order:FILE: FILE is no order kbench reads (the message above says where)";
	kb_order_file_release(&o);
	return NULL;
}

static const char *check_cpu_alt(const char *v)
{
	return strcmp(v, "off") ? kb_mca_check_cpu(v) : NULL;
}

#define OFF(f) offsetof(struct sim_opts, f)
static const struct kb_option options[] = {
	{ .name = "sim_l1i", .section = KB_SEC_RUN, .type = KB_OPT_STR, .off = OFF(l1i),
	  .def = "auto", .check = check_l1i,
	  .help = "L1i as SIZE:WAYS:LINE (e.g. 32K:8:64, a Pentium M); auto: this host's (libcpuid)" },
	{ .name = "sim_l2", .section = KB_SEC_RUN, .type = KB_OPT_STR, .off = OFF(l2),
	  .def = "auto", .check = check_l2,
	  .help = "unified L2 behind the L1i, SIZE:WAYS:LINE or off; auto: this host's" },
	{ .name = "sim_cpi", .section = KB_SEC_RUN, .type = KB_OPT_DOUBLE, .off = OFF(cpi),
	  .def = "1.0", .max = 100,
	  .help = "cycle model: cycles per instruction before misses (a model, never a measurement)" },
	{ .name = "sim_l1i_penalty", .section = KB_SEC_RUN, .type = KB_OPT_DOUBLE, .off = OFF(l1i_penalty),
	  .def = "12", .max = 10000,
	  .help = "cycle model: cycles per L1i miss served by L2 (12 to 16 on recent x86 cores: "
		  "Intel and AMD optimization guides give their L2 latency)" },
	{ .name = "sim_l2_penalty", .section = KB_SEC_RUN, .type = KB_OPT_DOUBLE, .off = OFF(l2_penalty),
	  .def = "40", .max = 10000,
	  .help = "cycle model: extra cycles per L2 miss (about an L3 hit on those cores)" },
	{ .name = "sim_virtual_layouts", .section = KB_SEC_RUN, .type = KB_OPT_LONG,
	  .off = OFF(virtual_layouts), .def = "0", .max = KB_SIM_VL_MAX,
	  .help = "virtual layouts: the plugin also simulates this many L1i/L2 pairs in which the "
		  "kernel's functions sit at other addresses (sim_virtual_placement, seeded from "
		  "[run] seed and the build; instruction counts unchanged); each is one more layout "
		  "of its build for the L1i and L2 misses and modeled cycles (samples carry them as "
		  "vl_<field>): a build's figure is the median over its own addresses and these; "
		  "each layout costs about a quarter of a boot's host time more; 0: none" },
	{ .name = "sim_virtual_placement", .section = KB_SEC_RUN, .type = KB_OPT_STR,
	  .off = OFF(placement), .def = "pad", .check = check_placement, .path_after = ORDER_PREFIX,
	  .help = "how virtual layouts place the code: pad keeps the linker's order and puts 16 to "
		  "4080 bytes (steps of 16) before sim_virtual_pads functions drawn by size, so the "
		  "code after each moves on, as a layout replica's padding does; shuffle shuffles "
		  "every function within each run of System.map and packs them (each keeping its "
		  "alignment, 16 at most): a harsher population, which breaks the locality of "
		  "callers and callees a link gives and costs more than real builds do; order:FILE "
		  "(a function order, kbench order's): a prediction, not a layout: every boot of a "
		  "variant built without an order also simulates its code where the build with "
		  "order = FILE would put it (kbench order --place --objects, from the boot's own "
		  "System.map and objects), its figures the samples' pred_<field>, in the report's "
		  "prediction table beside the ordered variant built from the same flags, never in "
		  "a median of layouts; sim_virtual_layouts are then placed as pad places them" },
	{ .name = "sim_virtual_pads", .section = KB_SEC_RUN, .type = KB_OPT_LONG,
	  .off = OFF(pads), .def = "8", .min = 1, .max = 4096,
	  .help = "sim_virtual_placement = pad: padding points per virtual layout; 8 matched real "
		  "padded builds best of 1, 2, 8 and 32 (bench/layout-study compare: medians, spreads "
		  "and the Os/O2 ratio per case, 9 builds a side)" },
	{ .name = "sim_cpu", .section = KB_SEC_RUN, .type = KB_OPT_STR, .off = OFF(cpu),
	  .def = "skylake", .check = check_cpu,
	  .help = "cycle model mca_cycles: the CPU whose LLVM machine model prices each block of code "
		  "(llvm-mca -mcpu, one that llvm-mca -mtriple=i386-linux-gnu -mcpu=help lists), plus "
		  "the miss penalties of model_cycles; needs Debian's llvm (else model_cycles alone)" },
	{ .name = "sim_cpu_alt", .section = KB_SEC_RUN, .type = KB_OPT_STR, .off = OFF(cpu_alt),
	  .def = "znver3", .check = check_cpu_alt,
	  .help = "a second CPU model, whose mca_cycles (mca_cycles_alt) tell whether each verdict "
		  "survives a change of machine model, as model_cycles tells it for the cycle model; "
		  "off: none" },
	{ .name = "primary_metric", .section = KB_SEC_RUN, .type = KB_OPT_CHOICE, .off = OFF(primary),
	  .def = "auto", .allowed = { "auto", "mca_cycles", "model_cycles" },
	  .help = "the cycle model the verdicts are about: mca_cycles (LLVM's machine model of "
		  "sim_cpu per block, pushes and pops as a stack engine issues them, plus the miss "
		  "penalties of model_cycles), model_cycles (sim_cpi per instruction, plus those "
		  "penalties), or auto (the default): mca_cycles where llvm-mca is there, else "
		  "model_cycles, and says so; the other models' verdicts are reported "
		  "beside them" },
	{ NULL },
};

/* The geometries: configured, else this host's, else a common default. */
static int geometry(const struct sim_opts *o, struct kb_sim_run *sr, char **why)
{
	struct kb_sim_geom hl1 = { 32768, 8, 64 }, hl2 = { 1u << 20, 16, 64 };
	int host = kb_sim_host_geom(&hl1, &hl2) == 0;
	int l1auto = !strcmp(o->l1i, "auto"), l2auto = !strcmp(o->l2, "auto");
	const char *bad;
	char *a, *b;

	if (l1auto ? (sr->l1i = hl1, 0) : kb_sim_geom_parse(o->l1i, 0, &sr->l1i, &bad) < 0) {
		*why = kb_xasprintf("[run] sim_l1i: '%s': %s", o->l1i, bad);
		return -1;
	}
	if (l2auto ? (sr->l2 = hl2, 0) : kb_sim_geom_parse(o->l2, 1, &sr->l2, &bad) < 0) {
		*why = kb_xasprintf("[run] sim_l2: '%s': %s", o->l2, bad);
		return -1;
	}
	a = kb_sim_geom_text(&sr->l1i);
	b = kb_sim_geom_text(&sr->l2);
	sr->geom_why = kb_xasprintf("L1i %s (%s), L2 %s (%s)", a,
				    !l1auto ? "sim_l1i" : host ? "this host, libcpuid"
					    : "libcpuid could not tell: a common default",
				    b, !l2auto ? "sim_l2" : host ? "this host, libcpuid" : "a common default");
	free(a);
	free(b);
	return 0;
}

static void release(void *priv)
{
	struct kb_sim_run *sr = priv;

	if (!sr)
		return;
	free(sr->plugin);
	free(sr->geom_why);
	for (size_t i = 0; i < KB_SIM_NMCA; i++)
		kb_mca_free(sr->mca[i]);
	free(sr->mca_why);
	if (sr->order) {
		kb_order_file_release(sr->order);
		free(sr->order);
	}
	free(sr);
}

/* The block cost models: sim_cpu's, then sim_cpu_alt's.  -1 with *why
 * where primary_metric = mca_cycles asks for what is not there. */
static int models(const struct sim_opts *o, const struct kb_backend_env *env, struct kb_sim_run *sr, char **why)
{
	char *w = NULL;

	sr->primary = KB_SIM_MODEL_CYCLES;
	sr->mca[0] = kb_mca_new(o->cpu, env->cache, &w);
	if (!sr->mca[0]) {
		if (!strcmp(o->primary, KB_SIM_MCA_CYCLES)) {	/* asked for: no fallback */
			char *cut = strstr(w, ": install");

			if (cut)
				*cut = '\0';
			*why = kb_xasprintf("[run] primary_metric = mca_cycles needs llvm-mca and llvm-mc "
					    "(Debian package 'llvm'): %s", w);
			free(w);
			return -1;
		}
		kb_warn("%s", w);
		sr->mca_why = w;
		return 0;
	}
	if (strcmp(o->primary, KB_SIM_MODEL_CYCLES))
		sr->primary = KB_SIM_MCA_CYCLES;
	if (strcmp(o->cpu_alt, "off") && !(sr->mca[1] = kb_mca_new(o->cpu_alt, env->cache, &w))) {
		kb_warn("[run] sim_cpu_alt: %s", w);
		free(w);
	}
	/* the guest's blocks decode as its architecture's */
	for (size_t i = 0; env->arch && i < KB_SIM_NMCA; i++)
		if (sr->mca[i] && kb_mca_set_arch(sr->mca[i], env->arch) < 0) {
			*why = kb_xasprintf("llvm-mca cannot price blocks of a '%s' guest", env->arch);
			return -1;
		}
	return 0;
}

/* "verdicts on mca_cycles (LLVM ..., -mcpu=skylake), checked against
 * model_cycles and mca_cycles_alt (..., -mcpu=znver3)" */
static char *cycle_models_text(const struct kb_sim_run *sr)
{
	char *out = NULL, *m[KB_SIM_NMCA];
	int mca = strcmp(sr->primary, KB_SIM_MODEL_CYCLES) != 0;

	if (!sr->mca[0])
		return kb_xstrdup("verdicts on model_cycles (no llvm-mca: no mca_cycles)");
	for (size_t i = 0; i < KB_SIM_NMCA; i++)
		m[i] = sr->mca[i] ? kb_xasprintf("%s (%s)", kb_sim_mca_fields[i], kb_mca_model(sr->mca[i]))
				  : NULL;
	out = kb_xasprintf("verdicts on %s, checked against %s%s%s", mca ? m[0] : KB_SIM_MODEL_CYCLES,
			   mca ? KB_SIM_MODEL_CYCLES : m[0], m[1] ? " and " : "", m[1] ? m[1] : "");
	for (size_t i = 0; i < KB_SIM_NMCA; i++)
		free(m[i]);
	return out;
}

static int choose(const struct kb_backend_env *env, void **priv, char **why)
{
	const struct sim_opts *o = env->opts;
	int asked = !strcmp(env->want_primary, kb_backend_sim.name);
	struct kb_sim_run *sr;
	char *probe = NULL, *mca;

	if (!asked && strcmp(env->want_primary, "auto")) {
		*why = kb_xasprintf("backend = %s in the configuration", env->want_primary);
		return 0;
	}
	if (env->accel != KB_ACCEL_TCG) {
		if (asked) {
			*why = kb_xasprintf("it needs TCG (QEMU plugins do not run under %s)",
					    kb_accel_name(env->accel));
			return -1;
		}
		*why = kb_xasprintf("under %s the guest's clock is real time",
				    kb_accel_name(env->accel));
		return 0;
	}
	sr = kb_xcalloc(1, sizeof(*sr));
	sr->plugin = kb_sim_find_plugin();
	if (!kb_sim_probe_plugin(env->qemu, sr->plugin, &probe)) {
		release(sr);
		if (asked) {
			*why = probe;
			return -1;
		}
		*why = kb_xasprintf("TCG, but no simulator: %s", probe);
		free(probe);
		return 0;
	}
	free(probe);
	if (geometry(o, sr, why) < 0 || models(o, env, sr, why) < 0) {
		release(sr);
		return -1;
	}
	sr->model.cpi = o->cpi;
	sr->model.l1i_penalty = o->l1i_penalty;
	sr->model.l2_penalty = o->l2_penalty;
	sr->vl.n = (unsigned)o->virtual_layouts;
	sr->vl.seed = env->seed;
	sr->vl.place = !strcmp(o->placement, "shuffle") ? "shuffle" : "pad";
	sr->vl.pads = (unsigned)o->pads;
	sr->place_order = env->place_order;
	if (!strncmp(o->placement, ORDER_PREFIX, strlen(ORDER_PREFIX))) {
		sr->order = kb_xcalloc(1, sizeof(*sr->order));
		if (kb_order_file_read(o->placement + strlen(ORDER_PREFIX), sr->order) < 0) {
			*why = kb_xasprintf("[run] sim_virtual_placement: '%s' cannot be read",
					    o->placement + strlen(ORDER_PREFIX));
			release(sr);
			return -1;
		}
	}
	mca = cycle_models_text(sr);
	*why = kb_xasprintf("%s; %s; %s", asked ? "backend = sim in the configuration"
				     : "TCG has no performance counters: kbench's plugin counts instead",
			    sr->geom_why, mca);
	free(mca);
	*priv = sr;
	return 1;
}

static json_t *describe(const void *priv)
{
	const struct kb_sim_run *sr = priv;
	char *qargs = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&qargs, &len);
	json_t *j;

	if (!f)
		abort();
	for (size_t i = 0; kb_sim_qemu_args[i]; i++)
		fprintf(f, "%s%s", i ? " " : "", kb_sim_qemu_args[i]);
	fclose(f);
	j = json_pack("{s:s,s:i,s:{s:i,s:i,s:i},s:{s:i,s:i,s:i},s:s,s:s,s:{s:f,s:f,s:f,s:s},s:s}",
		      "plugin", sr->plugin, "plugin_api", KB_QEMU_PLUGIN_API,
		      "l1i", "size", sr->l1i.size, "ways", sr->l1i.ways, "line", sr->l1i.line,
		      "l2", "size", sr->l2.size, "ways", sr->l2.ways, "line", sr->l2.line,
		      "geometry", sr->geom_why, "qemu_args", qargs,
		      "cycle_model", "cpi", sr->model.cpi, "l1i_penalty", sr->model.l1i_penalty,
		      "l2_penalty", sr->model.l2_penalty, "formula",
		      "model_cycles = cpi * instructions + l1i_penalty * L1i misses + "
		      "l2_penalty * L2 misses: a model, not a measurement",
		      "counts", "instructions exact (per translation block; a block cut short by an "
		      "exception counts whole); L1i: set-associative LRU, cachegrind's counting; "
		      "L2: instruction side only");
	free(qargs);
	json_object_set_new(j, "primary_metric", json_string(sr->primary));
	if (sr->mca[0]) {
		json_t *x = json_pack("{s:s,s:s,s:o,s:s}", "cpu", kb_mca_cpu(sr->mca[0]), "model",
				      kb_mca_model(sr->mca[0]), "label",
				      json_sprintf("LLVM %s", kb_mca_cpu(sr->mca[0])), "formula",
				      "mca_cycles = sum over the region's blocks of executions x the block's "
				      "cycles (llvm-mca's steady state for cpu: Total Cycles / Iterations, or "
				      "the difference of two runs for a block of over 20 instructions; pushes "
				      "and pops as the stores and loads a stack engine issues; an instruction "
				      "the model has no figure for, 1 cycle; rep movs/stos from AMD's table: "
				      "15 + c, 14 + c) + l1i_penalty * L1i misses + l2_penalty * L2 misses: a "
				      "model, not a measurement; no branch mispredictions, no data-cache misses");

		if (sr->mca[1]) {
			json_object_set_new(x, "cpu_alt", json_string(kb_mca_cpu(sr->mca[1])));
			json_object_set_new(x, "model_alt", json_string(kb_mca_model(sr->mca[1])));
			json_object_set_new(x, "label_alt", json_sprintf("LLVM %s", kb_mca_cpu(sr->mca[1])));
		}
		json_object_set_new(j, "mca", x);
	} else {
		json_object_set_new(j, "mca", json_pack("{s:s}", "missing", sr->mca_why ? sr->mca_why : ""));
	}
	if (sr->order)
		json_object_set_new(j, "prediction",
				    json_pack("{s:s,s:s}", "order", sr->order->path, "placement",
					      "each boot of a variant built without an order also simulates "
					      "its code where the build with this order would put it (kbench "
					      "order --place --objects, from the boot's System.map and "
					      "objects: exact but for a function whose inline assembly aligns "
					      "its own code, listed cold parts, and code outside the main "
					      "text); its figures are the samples' pred_<field>, a "
					      "prediction, not a layout of the build"));
	if (sr->vl.n)	/* the manifest as before without them */
		json_object_set_new(j, "virtual_layouts",
				    json_pack("{s:i,s:o,s:i,s:s,s:i,s:s}", "n", (int)sr->vl.n, "seed",
					      kb_json_u64(sr->vl.seed), "align", KB_SIM_VL_ALIGN, "place",
					      sr->vl.place, "pads", (int)sr->vl.pads, "placement",
					      !strcmp(sr->vl.place, "pad") ?
					      "System.map's kernel functions in their order, 16 to 4080 bytes "
					      "(steps of 16) inserted before each of `pads` functions drawn with "
					      "a chance proportional to their size, every function after one "
					      "moved on by it; user code unmoved; layout replica r seeded with "
					      "seed + r x 0x9e3779b97f4a7c15 (mod 2^64)" :
					      "each run of contiguous kernel functions of System.map "
					      "shuffled (seeded) and packed from its start, every function "
					      "keeping its size, its internal offsets and its alignment (the "
					      "largest power of two dividing its address, 16 at most); a run "
					      "that grew pushes the next on; addresses outside them unmoved; "
					      "user code unmoved; layout replica r seeded with seed + r x "
					      "0x9e3779b97f4a7c15 (mod 2^64)"));
	return j;
}

/* A boot: the plugin's, and what its prediction is (the boot record's
 * "prediction": the placement's file and counts, or why there is none). */
struct boot {
	struct kb_sim_boot *sb;
	json_t *pred;
};

/* The order's placement of this boot's build into the run's
 * boots/<variant>-<n>.pred (the plugin's vl_file), its counts into
 * *rec; the path, or NULL with rec saying why there is none. */
static char *prediction(const struct kb_sim_run *sr, const struct kb_backend_boot *b, json_t **rec)
{
	char *path;

	*rec = json_pack("{s:s}", "order", sr->order->path);
	if (b->ordered || !b->objdir || !b->system_map || !sr->place_order) {
		json_object_set_new(*rec, "none", json_string(b->ordered ? "the variant is built with an order"
							      : sr->place_order ? "no object directory: a prebuilt kernel"
							      : "no placement lent to the backend"));
		return NULL;
	}
	path = kb_store_path(b->store, "boots/%s-%ld.pred", b->variant, b->vboot);
	if (sr->place_order(sr->order, b->objdir, b->system_map, path, *rec) < 0) {
		json_object_set_new(*rec, "none", json_sprintf("kbench order --place failed on '%s' (objects "
							       "'%s'): see the run's log", b->system_map,
							       b->objdir));
		kb_warn("variant '%s' boot %ld: sim: no prediction of the order '%s'", b->variant, b->vboot,
			sr->order->path);
		free(path);
		return NULL;
	}
	json_object_set_new(*rec, "placement", json_string(path));
	return path;
}

static void *boot_new(void *priv, const struct kb_backend_boot *b)
{
	const struct kb_sim_run *sr = priv;
	char *out = kb_store_path(b->store, "boots/%s-%ld.sim", b->variant, b->vboot);
	struct boot *bs = kb_xcalloc(1, sizeof(*bs));
	char *pred = sr->order ? prediction(sr, b, &bs->pred) : NULL;

	bs->sb = kb_sim_boot_new(priv, out, b->system_map, b->layout, b->store, b->variant, b->boot,
				 b->vboot, pred);
	free(pred);
	free(out);
	return bs;
}

static const char *const *boot_argv(void *bs)
{
	return kb_sim_boot_argv(((struct boot *)bs)->sb);
}

static int on_sample(void *bs, const struct kb_backend_sample *s, json_t *fields, const char **why)
{
	return kb_sim_boot_sample(((struct boot *)bs)->sb, s->workload, s->cas, (long)s->rep, fields,
				  why) < 0 ? -1 : 1;
}

static void boot_settle(void *bs)
{
	kb_sim_boot_settle(((struct boot *)bs)->sb);
}

static int boot_end(void *bs, json_t *rec)
{
	struct boot *b = bs;
	int problems = kb_sim_boot_finish(b->sb);
	json_t *mca = kb_sim_boot_mca_json(b->sb);

	json_object_set_new(rec, "sim_problems", json_integer(problems));
	if (mca)
		json_object_set_new(rec, KB_RD_MCA, mca);
	if (b->pred)
		json_object_set(rec, "prediction", b->pred);
	return problems;
}

static void boot_free(void *bs)
{
	struct boot *b = bs;

	kb_sim_boot_free(b->sb);
	json_decref(b->pred);
	free(b);
}

static int usable(const struct kb_host *host)
{
	return host->qemu.plugins;
}

static void metric(const char *field, enum kb_accel accel, const json_t *described,
		   struct kb_metric_desc *d)
{
	(void)accel;
	/* time under -icount and instruction counts do not depend on where
	 * the code lands; misses and what is modeled from them do */
	d->layout_free = !field || !strncmp(field, "ins", 3);
	if (!field) {
		d->source = KB_FIG_MODELED;
		d->note = "emulated time, paced by the instruction count";
	} else if (!strcmp(field, KB_SIM_MCA_CYCLES) || !strcmp(field, KB_SIM_MCA_CYCLES_ALT)) {
		d->source = KB_FIG_MODELED;
		d->cycle_model = 1;
		d->model = json_string_value(json_object_get(json_object_get(described, "mca"),
							     strcmp(field, KB_SIM_MCA_CYCLES) ? "label_alt" : "label"));
		d->note = "each block's cycles from LLVM's machine model (llvm-mca), and misses weighted "
			  "by stated penalties; no branch mispredictions, no data-cache misses";
	} else if (strstr(field, "cycles")) {
		d->source = KB_FIG_MODELED;
		d->cycle_model = 1;
		d->note = "instructions and misses weighted by stated penalties";
	} else {
		d->source = KB_FIG_SIMULATED;
		d->note = "counted by kbench's TCG plugin";
	}
}

const struct kb_backend kb_backend_sim = {
	.name = KB_SIM_BACKEND,
	.api = KB_BACKEND_API,
	.role = KB_ROLE_PRIMARY,
	.source = KB_FIG_SIMULATED,
	.flags = KB_BACKEND_DETERMINISTIC | KB_BACKEND_NEEDS_TCG,
	.help = "TCG with kbench's plugin: exact instructions, simulated L1i/L2 misses, modeled "
		"cycles (per instruction, and per block from LLVM's machine model); deterministic "
		"under -icount",
	.options = options,
	.opts_size = sizeof(struct sim_opts),
	.usable = usable,
	.choose = choose,
	.describe = describe,
	.release = release,
	.boot_new = boot_new,
	.boot_argv = boot_argv,
	.on_sample = on_sample,
	.boot_settle = boot_settle,
	.boot_end = boot_end,
	.boot_free = boot_free,
	.boot_file = KB_RD_SIM,
	.metric = metric,
};
