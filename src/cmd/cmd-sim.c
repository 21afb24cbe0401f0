// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench sim: kbench's plugin on a static i386 program under qemu-i386
 * (user mode), for checking the simulator against references. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "mca.h"
#include "profile.h"
#include "sim.h"
#include "util.h"

/* $KBENCH_QEMU_USER, else the qemu-i386 configure found, else one in $PATH
 * now (qemu-user may come after configure ran: ./quickstart test after
 * ./quickstart run); malloc'd, NULL where there is none. */
static char *qemu_user_path(void)
{
	const char *e = getenv("KBENCH_QEMU_USER");

	if (e && *e)
		return kb_xstrdup(e);
	if (*QEMU_I386 && access(QEMU_I386, X_OK) == 0)
		return kb_xstrdup(QEMU_I386);
	return kb_path_lookup("qemu-i386");
}

static json_t *region_json(const struct kb_sim_region *r)
{
	json_t *j = json_object(), *f = json_array();
	const char *wl = r->seq ? kb_sim_marker_workload(r->id) : NULL;

	if (r->seq) {
		json_object_set_new(j, "seq", json_integer((json_int_t)r->seq));
		json_object_set_new(j, "id", json_sprintf("0x%08x", r->id));
		json_object_set_new(j, "workload", wl ? json_string(wl) : json_null());
	}
	for (int i = 0; i < KB_SIM_NCOUNTERS; i++)
		json_object_set_new(j, kb_sim_counter_names[i], json_integer((json_int_t)r->c[i]));
	for (size_t i = 0; i < r->n_funcs; i++)
		json_array_append_new(f, json_pack("[s,I,I]", r->funcs[i].name,
						   (json_int_t)r->funcs[i].insn,
						   (json_int_t)r->funcs[i].miss));
	json_object_set_new(j, "functions", f);
	kb_sim_vl_arrays(r, NULL, j);
	return j;
}

static void print_region(const char *label, const struct kb_sim_region *r)
{
	uint64_t ins = r->c[KB_SIM_insn_k] + r->c[KB_SIM_insn_u];
	uint64_t miss = r->c[KB_SIM_l1i_miss_k] + r->c[KB_SIM_l1i_miss_u];

	printf("%-16s %14" PRIu64 " %14" PRIu64 " %12" PRIu64 " %8.4f%% %10" PRIu64 " %10" PRIu64 "\n",
	       label, r->c[KB_SIM_insn_k], r->c[KB_SIM_insn_u], miss,
	       ins ? 100.0 * (double)miss / (double)ins : 0.0, r->c[KB_SIM_l2_miss],
	       r->c[KB_SIM_kfoot_lines]);
}

struct args {
	struct kb_sim_geom l1i, l2;
	const char *map, *out, *blocks, *calls, *cpu, *order;
	struct kb_sim_vl vl;
	int as_json;
};

static int option(void *ctx, int key, const char *value)
{
	const struct kb_command *c = &kb_command_sim;
	struct args *a = ctx;
	unsigned long long num;
	const char *bad;
	char *end;

	errno = 0;
	switch (key) {
	case KB_LONG('j'):
		a->as_json = 1;
		break;
	case KB_LONG('I'):
	case KB_LONG('L'):
		if (kb_sim_geom_parse(value, key == KB_LONG('L'), key == KB_LONG('L') ? &a->l2 : &a->l1i,
				      &bad) < 0)
			return kb_command_usage_error(c, "--%s '%s': %s", key == KB_LONG('L') ? "l2" : "l1i",
						      value, bad);
		break;
	case KB_LONG('m'):
		a->map = value;
		break;
	case KB_LONG('V'):
	case KB_LONG('S'):
		num = strtoull(value, &end, 10);
		if (key == KB_LONG('V'))
			a->vl.n = num <= KB_SIM_VL_MAX ? (unsigned)num : KB_SIM_VL_MAX + 1;
		else
			a->vl.seed = num;
		if (!*value || *end || errno || *value == '-' || a->vl.n > KB_SIM_VL_MAX)
			return kb_command_usage_error(c, "--%s '%s': expected %s",
						      key == KB_LONG('V') ? "vl" : "vl-seed", value,
						      key == KB_LONG('V') ? "a number of layouts from 0 to 64"
									  : "a number");
		break;
	case KB_LONG('P'):
		if (strcmp(value, "pad") && strcmp(value, "shuffle"))
			return kb_command_unknown(c, "--vl-place", value, (const char *const[]){ "pad", "shuffle" },
						  2);
		a->vl.place = value;
		break;
	case KB_LONG('N'):
		num = strtoull(value, &end, 10);
		if (!*value || *end || errno || *value == '-' || num < 1 || num > 4096)
			return kb_command_usage_error(c, "--vl-pads '%s': expected a number from 1 to 4096",
						      value);
		a->vl.pads = (unsigned)num;
		break;
	case KB_LONG('F'):
		a->vl.file = value;
		break;
	case KB_LONG('D'):
		a->vl.dump = value;
		break;
	case KB_LONG('o'):
		a->out = value;
		break;
	case KB_LONG('B'):
		a->blocks = value;
		break;
	case KB_LONG('c'):
		a->calls = value;
		break;
	case KB_LONG('O'):
		a->order = value;
		break;
	case KB_LONG('C'):
		a->cpu = value;
		break;
	}
	return KB_GO_ON;
}

/* The plugin's output o of program (its exit status status) as JSON on
 * stdout, with each region's block cycles mr[] when mca prices them. */
static void print_json(const struct kb_sim_out *o, const char *program, int status,
		       struct kb_mca *mca, const struct kb_mca_region *mr)
{
	json_t *j = json_object(), *regs = json_array();

	json_object_set_new(j, "program", json_string(program));
	json_object_set_new(j, "exit_status", json_integer(status));
	json_object_set_new(j, "l1i", json_sprintf("%u:%u:%u", o->l1i.size, o->l1i.ways, o->l1i.line));
	json_object_set_new(j, "l2", o->l2.size ? json_sprintf("%u:%u:%u", o->l2.size, o->l2.ways,
							      o->l2.line) : json_string("off"));
	for (size_t k = 0; k < o->n_regions; k++) {
		json_t *rj = region_json(&o->regions[k]);

		if (mca)	/* modeled: LLVM's machine model, no misses */
			json_object_set_new(rj, "block_cycles", json_real(mr[k].cycles));
		json_array_append_new(regs, rj);
	}
	json_object_set_new(j, "regions", regs);
	if (mca) {
		const struct kb_mca_stats *st = kb_mca_stats(mca);

		json_object_set_new(j, "mca", json_pack("{s:s,s:I,s:I,s:I,s:I,s:f}", "model",
			kb_mca_model(mca), "calls", (json_int_t)st->calls, "priced",
			(json_int_t)st->priced, "cache_hits", (json_int_t)st->hits, "unpriced",
			(json_int_t)st->unpriced, "seconds", st->seconds));
	}
	json_object_set_new(j, "total", o->have_total ? region_json(&o->total) : json_null());
	json_object_set_new(j, "errors", json_array());
	for (size_t k = 0; k < o->n_errors; k++) {
		char *t = kb_sim_error_text(&o->errors[k]);

		json_array_append_new(json_object_get(j, "errors"),
				      json_pack("{s:s,s:s}", "kind", o->errors[k].kind, "message", t));
		free(t);
	}
	json_object_set_new(j, "complete", json_boolean(o->ended));
	json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', stdout);
	json_decref(j);
}

/* The same as a table on stdout. */
static void print_text(const struct kb_sim_out *o, int status, struct kb_mca *mca,
		       const struct kb_mca_region *mr, size_t n_mr)
{
	printf("L1i %u:%u:%u, L2 %u:%u:%u (program exit status %d)\n", o->l1i.size, o->l1i.ways,
	       o->l1i.line, o->l2.size, o->l2.ways, o->l2.line, status);
	printf("%-16s %14s %14s %12s %9s %10s %10s\n", "region", "insn_k", "insn_u", "l1i_miss",
	       "miss/insn", "l2_miss", "kfoot_ln");
	for (size_t k = 0; k < o->n_regions; k++) {
		const char *wl = kb_sim_marker_workload(o->regions[k].id);
		char label[40];

		snprintf(label, sizeof(label), "%" PRIu64 " %s", o->regions[k].seq, wl ? wl : "?");
		print_region(label, &o->regions[k]);
	}
	if (o->have_total)
		print_region("whole run", &o->total);
	if (mca) {
		const struct kb_mca_stats *st = kb_mca_stats(mca);

		printf("block cycles per region (modeled: %s; misses not included):", kb_mca_model(mca));
		for (size_t k = 0; k < n_mr; k++)
			printf(" %.0f", mr[k].cycles);
		printf("\n%lu blocks priced in %lu llvm-mca calls, %lu from the cache, %lu unpriced, "
		       "%.2f s\n", st->priced, st->calls, st->hits, st->unpriced, st->seconds);
	}
	if (o->have_total && o->total.n_vl) {
		printf("L1i misses in the whole run under each of the %zu virtual layouts:",
		       o->total.n_vl);
		for (size_t k = 0; k < o->total.n_vl; k++)
			printf(" %" PRIu64, o->total.vl[k][KB_SIM_VL_l1i_miss_k] +
					     o->total.vl[k][KB_SIM_VL_l1i_miss_u]);
		printf("\n");
	}
}

static int cmd_sim(int argc, char **argv)
{
	struct args a = { .l1i = { 32768, 8, 64 }, .l2 = { 1u << 20, 16, 64 } };
	const char *out, *blocks;
	char *tmpblocks = NULL, *tmpvl = NULL;
	struct kb_mca *mca = NULL;
	struct kb_mca_region *mr = NULL;
	size_t n_mr = 0;
	char *plugin = NULL, *spec = NULL, *log = NULL, *tmpout = NULL, *why = NULL, *qemu = NULL;
	int r, ret = KB_EXIT_FAILED;
	char **qargv;
	struct kb_sim_out o;

	kb_sim_host_geom(&a.l1i, &a.l2);
	r = kb_command_parse(&kb_command_sim, &argc, &argv, option, &a);
	if (r != KB_GO_ON)
		return r;
	if (argc < 1)
		return kb_command_usage_error(&kb_command_sim, "no PROGRAM to run");
	out = a.out;
	blocks = a.blocks;
	qemu = qemu_user_path();
	if (!qemu || access(qemu, X_OK) < 0) {
		kb_error("kbench sim needs qemu-i386: install Debian package 'qemu-user' "
			 "(or set KBENCH_QEMU_USER)");
		free(qemu);
		return KB_EXIT_NOT_SUPPORTED;
	}
	if (!out) {
		int fd = kb_mkstemp("sim", &tmpout);

		if (fd < 0) {
			free(qemu);
			return KB_EXIT_FAILED;
		}
		close(fd);
		out = tmpout;
	}
	log = kb_xasprintf("%s.log", out);
	if (a.order) {	/* the order's placement: one more layout, the first */
		size_t listed;
		FILE *f;

		if (!a.map || a.vl.file) {
			ret = kb_command_usage_error(&kb_command_sim, "--vl-order needs --map%s",
						     a.vl.file ? ", and not --vl-file" : "");
			goto out;
		}
		tmpvl = kb_xasprintf("%s.order.vl", out);
		f = fopen(tmpvl, "w");
		if (!f) {
			kb_error_errno(errno, "cannot create '%s'", tmpvl);
			goto out;
		}
		r = kb_order_placement(a.order, a.map, f, &listed);
		if (fclose(f) != 0 || r < 0) {
			ret = r < 0 ? KB_EXIT_USAGE : KB_EXIT_FAILED;
			goto out;
		}
		a.vl.file = tmpvl;
	}
	if (a.cpu) {
		mca = kb_mca_new(a.cpu, NULL, &why);
		if (!mca) {	/* the counts still come, without the block costs */
			kb_warn("%s", why);
		} else if (!blocks) {
			tmpblocks = kb_xasprintf("%s.blocks", out);
			blocks = tmpblocks;
		}
	}
	plugin = kb_sim_find_plugin();
	if (access(plugin, R_OK) < 0) {
		kb_error("plugin '%s': %s (build kbench, or set KBENCH_PLUGIN)", plugin, strerror(errno));
		ret = KB_EXIT_NOT_SUPPORTED;
		goto out;
	}
	spec = kb_sim_plugin_spec(plugin, out, a.map, &a.l1i, &a.l2, &a.vl, blocks, a.calls);
	qargv = kb_xcalloc((size_t)argc + 4, sizeof(*qargv));
	qargv[0] = qemu;
	qargv[1] = "-plugin";
	qargv[2] = spec;
	for (int k = 0; k < argc; k++)
		qargv[3 + k] = argv[k];
	unlink(log);
	r = kb_run_argv(qargv, NULL, log);
	free(qargv);
	if (r < 0)
		goto out;
	if (kb_sim_out_read(&o, out) < 0 || !o.header) {
		kb_sim_out_release(&o);
		char *text = NULL;

		if (kb_read_file(log, &text, NULL) == 0 && strstr(text, "Could not load plugin"))
			kb_error("qemu-i386 refused the plugin '%s' (this kbench builds it for QEMU plugin API %d; "
				 "rebuild kbench against the QEMU installed); QEMU said:", plugin, KB_QEMU_PLUGIN_API);
		else
			kb_error("qemu-i386 did not run the plugin (exit status %d); its output:", r);
		free(text);
		kb_print_tail(stderr, log, 8, "kbench:   | ");
		ret = KB_EXIT_NOT_SUPPORTED;
		goto out;
	}
	if (mca && (kb_mca_blocks_file(mca, blocks, &mr, &n_mr) < 0 || n_mr != o.n_regions)) {
		kb_error("cannot price the blocks of '%s'%s", blocks,
			 n_mr != o.n_regions ? ": not one region for each of the plugin's" : "");
		goto out_o;
	}
	if (a.as_json)
		print_json(&o, argv[0], r, mca, mr);
	else
		print_text(&o, r, mca, mr, n_mr);
	for (size_t k = 0; k < o.n_errors; k++) {
		char *t = kb_sim_error_text(&o.errors[k]);

		kb_error("%s", t);
		free(t);
	}
	if (!o.ended)
		kb_error("the plugin's output '%s' ends early: qemu-i386 did not exit normally", out);
	ret = o.n_errors || !o.ended ? KB_EXIT_FAILED : KB_EXIT_OK;
out_o:
	kb_sim_out_release(&o);
out:
	if (tmpblocks)
		unlink(tmpblocks);
	free(tmpblocks);
	if (tmpvl)
		unlink(tmpvl);
	free(tmpvl);
	free(mr);
	kb_mca_free(mca);
	free(qemu);
	free(why);
	if (tmpout) {
		unlink(tmpout);
		unlink(log);
	}
	free(tmpout);
	free(log);
	free(plugin);
	free(spec);
	return ret;
}

static const struct kb_command_option options[] = {
	{ "l1i", KB_LONG('I'), "G", "the L1i simulated (default: this host's, libcpuid)" },
	{ "l2", KB_LONG('L'), "G", "the L2 behind it, or off (default: this host's)" },
	{ "map", KB_LONG('m'), "FILE", "`nm PROGRAM` output (or a System.map) for per-function counts" },
	{ "vl", KB_LONG('V'), "K", "also simulate K virtual layouts (seeded), placed by --vl-place" },
	{ "vl-seed", KB_LONG('S'), "N", "their seed (default 0)" },
	{ "vl-place", KB_LONG('P'), "HOW", "pad: the map's order kept, 16 to 4080 bytes of padding\n"
	  "(steps of 16) before --vl-pads functions drawn by size:\n"
	  "the code after each moves on, as a padded build's does\n"
	  "(the default); shuffle: each run of the map's functions\n"
	  "shuffled and packed, each keeping its alignment (16 at most)" },
	{ "vl-pads", KB_LONG('N'), "N", "padding points per layout (default 8)" },
	{ "vl-file", KB_LONG('F'), "FILE", "placements to simulate as well (\"layout\", then\n"
	  "\"START SIZE NEW\" per range; an address outside them stays)" },
	{ "vl-dump", KB_LONG('D'), "FILE", "write every layout's placement, in --vl-file's format" },
	{ "blocks", KB_LONG('B'), "FILE", "write, per region, how often each run of instructions ran,\n"
	  "with its bytes (plugin/simfmt.h)" },
	{ "vl-order", KB_LONG('O'), "FILE", "also simulate the placement a function order (kbench\n"
	  "order's file) gives the --map's functions: listed first, in\n"
	  "order, the rest after in the map's order, each keeping its\n"
	  "alignment (16 at most); layout 0 of the virtual ones" },
	{ "calls", KB_LONG('c'), "FILE", "write, per region, each call site's callees and how often\n"
	  "each was entered from it (plugin/simfmt.h)" },
	{ "cpu", KB_LONG('C'), "CPU", "price each region's blocks with llvm-mca -mcpu=CPU (modeled\n"
	  "cycles, misses not included; costs cached in kbench's cache)" },
	{ "out", KB_LONG('o'), "FILE", "keep the plugin's own output in FILE and the program's\n"
	  "in FILE.log" },
	{ "json", KB_LONG('j'), NULL, "print JSON instead of a table" },
	{ 0 },
};

const struct kb_command kb_command_sim = {
	.name = "sim",
	.summary = "run a static i386 program under kbench's cache-simulating QEMU plugin",
	.usage = "usage: kbench sim [--l1i SIZE:WAYS:LINE] [--l2 SIZE:WAYS:LINE|off] [--map FILE]\n"
		 "                  [--vl K] [--vl-seed N] [--vl-place pad|shuffle] [--vl-pads N]\n"
		 "                  [--vl-file FILE] [--vl-order FILE] [--vl-dump FILE] [--blocks FILE]\n"
		 "                  [--calls FILE] [--cpu CPU]\n"
		 "                  [--out FILE] [--json] [--] PROGRAM [ARG...]\n\n"
		 "Run a static i386 PROGRAM under qemu-i386 with kbench's plugin and print what it\n"
		 "counted: per region between the guest's markers, and for the whole run.\n",
	.options = options,
	.footer = "Exit status 1 when markers are nested, unbalanced or never ended, 3 when\n"
		  "qemu-i386 or the plugin cannot run here.\n",
	.fn = cmd_sim,
	.options_first = 1,	/* options end at PROGRAM, whose own arguments are its own */
};
