// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench sim: kbench's plugin on a static i386 program under qemu-i386
 * (user mode), for checking the simulator against references. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
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

static int cmd_sim(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "l1i", required_argument, NULL, 'I' }, { "l2", required_argument, NULL, 'L' },
		{ "map", required_argument, NULL, 'm' }, { "out", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' }, { "help", no_argument, NULL, 'h' },
		{ "vl", required_argument, NULL, 'V' }, { "vl-seed", required_argument, NULL, 'S' },
		{ "vl-file", required_argument, NULL, 'F' }, { "vl-dump", required_argument, NULL, 'D' },
		{ "vl-place", required_argument, NULL, 'P' }, { "vl-pads", required_argument, NULL, 'N' },
		{ NULL, 0, NULL, 0 },
	};
	struct kb_sim_geom l1i = { 32768, 8, 64 }, l2 = { 1u << 20, 16, 64 };
	const char *map = NULL, *out = NULL, *bad;
	struct kb_sim_vl vl = { 0 };
	unsigned long long num;
	char *end;
	char *plugin = NULL, *spec = NULL, *log = NULL, *tmpout = NULL, *why = NULL, *qemu = NULL;
	int as_json = 0, i, r, opt, ret = KB_EXIT_FAILED;
	char **qargv;
	struct kb_sim_out o;

	kb_sim_host_geom(&l1i, &l2);
	optind = 1;
	/* '+': options end at PROGRAM, whose own arguments are its own */
	while ((opt = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			return kb_command_usage(&kb_command_sim, KB_EXIT_OK);
		case 'j':
			as_json = 1;
			break;
		case 'I':
		case 'L':
			if (kb_sim_geom_parse(optarg, opt == 'L', opt == 'L' ? &l2 : &l1i, &bad) < 0) {
				kb_error("--%s '%s': %s", opt == 'L' ? "l2" : "l1i", optarg, bad);
				return KB_EXIT_USAGE;
			}
			break;
		case 'm':
			map = optarg;
			break;
		case 'V':
		case 'S':
			errno = 0;
			num = strtoull(optarg, &end, 10);
			if (opt == 'V')
				vl.n = num <= KB_SIM_VL_MAX ? (unsigned)num : KB_SIM_VL_MAX + 1;
			else
				vl.seed = num;
			if (!*optarg || *end || errno || *optarg == '-' || vl.n > KB_SIM_VL_MAX) {
				kb_error("--%s '%s': expected %s", opt == 'V' ? "vl" : "vl-seed", optarg,
					 opt == 'V' ? "a number of layouts from 0 to 64" : "a number");
				return KB_EXIT_USAGE;
			}
			break;
		case 'P':
			if (strcmp(optarg, "pad") && strcmp(optarg, "shuffle")) {
				kb_error("--vl-place '%s': expected pad or shuffle", optarg);
				return KB_EXIT_USAGE;
			}
			vl.place = optarg;
			break;
		case 'N':
			errno = 0;
			num = strtoull(optarg, &end, 10);
			if (!*optarg || *end || errno || *optarg == '-' || num < 1 || num > 4096) {
				kb_error("--vl-pads '%s': expected a number from 1 to 4096", optarg);
				return KB_EXIT_USAGE;
			}
			vl.pads = (unsigned)num;
			break;
		case 'F':
			vl.file = optarg;
			break;
		case 'D':
			vl.dump = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		default:
			return kb_command_usage(&kb_command_sim, KB_EXIT_USAGE);
		}
	}
	i = optind;
	if (i >= argc)
		return kb_command_usage(&kb_command_sim, KB_EXIT_USAGE);
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
	plugin = kb_sim_find_plugin();
	if (access(plugin, R_OK) < 0) {
		kb_error("plugin '%s': %s (build kbench, or set KBENCH_PLUGIN)", plugin, strerror(errno));
		ret = KB_EXIT_NOT_SUPPORTED;
		goto out;
	}
	spec = kb_sim_plugin_spec(plugin, out, map, &l1i, &l2, &vl);
	qargv = kb_xcalloc((size_t)(argc - i) + 4, sizeof(*qargv));
	qargv[0] = qemu;
	qargv[1] = "-plugin";
	qargv[2] = spec;
	for (int k = i; k < argc; k++)
		qargv[3 + k - i] = argv[k];
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
	if (as_json) {
		json_t *j = json_object(), *regs = json_array();

		json_object_set_new(j, "program", json_string(argv[i]));
		json_object_set_new(j, "exit_status", json_integer(r));
		json_object_set_new(j, "l1i", json_sprintf("%u:%u:%u", o.l1i.size, o.l1i.ways, o.l1i.line));
		json_object_set_new(j, "l2", o.l2.size ? json_sprintf("%u:%u:%u", o.l2.size, o.l2.ways,
								      o.l2.line) : json_string("off"));
		for (size_t k = 0; k < o.n_regions; k++)
			json_array_append_new(regs, region_json(&o.regions[k]));
		json_object_set_new(j, "regions", regs);
		json_object_set_new(j, "total", o.have_total ? region_json(&o.total) : json_null());
		json_object_set_new(j, "errors", json_array());
		for (size_t k = 0; k < o.n_errors; k++) {
			char *t = kb_sim_error_text(&o.errors[k]);

			json_array_append_new(json_object_get(j, "errors"),
					      json_pack("{s:s,s:s}", "kind", o.errors[k].kind, "message", t));
			free(t);
		}
		json_object_set_new(j, "complete", json_boolean(o.ended));
		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(j);
	} else {
		printf("L1i %u:%u:%u, L2 %u:%u:%u (program exit status %d)\n", o.l1i.size, o.l1i.ways,
		       o.l1i.line, o.l2.size, o.l2.ways, o.l2.line, r);
		printf("%-16s %14s %14s %12s %9s %10s %10s\n", "region", "insn_k", "insn_u", "l1i_miss",
		       "miss/insn", "l2_miss", "kfoot_ln");
		for (size_t k = 0; k < o.n_regions; k++) {
			const char *wl = kb_sim_marker_workload(o.regions[k].id);
			char label[40];

			snprintf(label, sizeof(label), "%" PRIu64 " %s", o.regions[k].seq, wl ? wl : "?");
			print_region(label, &o.regions[k]);
		}
		if (o.have_total)
			print_region("whole run", &o.total);
		if (o.have_total && o.total.n_vl) {
			printf("L1i misses in the whole run under each of the %zu virtual layouts:",
			       o.total.n_vl);
			for (size_t k = 0; k < o.total.n_vl; k++)
				printf(" %" PRIu64, o.total.vl[k][KB_SIM_VL_l1i_miss_k] +
						     o.total.vl[k][KB_SIM_VL_l1i_miss_u]);
			printf("\n");
		}
	}
	for (size_t k = 0; k < o.n_errors; k++) {
		char *t = kb_sim_error_text(&o.errors[k]);

		kb_error("%s", t);
		free(t);
	}
	if (!o.ended)
		kb_error("the plugin's output '%s' ends early: qemu-i386 did not exit normally", out);
	ret = o.n_errors || !o.ended ? KB_EXIT_FAILED : KB_EXIT_OK;
	kb_sim_out_release(&o);
out:
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

const struct kb_command kb_command_sim = {
	.name = "sim",
	.summary = "run a static i386 program under kbench's cache-simulating QEMU plugin",
	.usage = "usage: kbench sim [--l1i SIZE:WAYS:LINE] [--l2 SIZE:WAYS:LINE|off] [--map FILE]\n"
		 "                  [--vl K] [--vl-seed N] [--vl-place pad|shuffle] [--vl-pads N]\n"
		 "                  [--vl-file FILE] [--vl-dump FILE]\n"
		 "                  [--out FILE] [--json] [--] PROGRAM [ARG...]\n\n"
		 "Run a static i386 PROGRAM under qemu-i386 with kbench's plugin and print what it\n"
		 "counted: per region between the guest's markers, and for the whole run.\n\n"
		 "  --l1i G    the L1i simulated (default: this host's, libcpuid)\n"
		 "  --l2 G     the L2 behind it, or off (default: this host's)\n"
		 "  --map FILE `nm PROGRAM` output (or a System.map) for per-function counts\n"
		 "  --vl K     also simulate K virtual layouts (seeded), placed by --vl-place\n"
		 "  --vl-seed N  their seed (default 0)\n"
		 "  --vl-place pad  the map's order kept, 16 to 4080 bytes of padding (steps of\n"
		 "             16) before --vl-pads functions drawn by size: the code after\n"
		 "             each moves on, as a padded build's does (the default)\n"
		 "  --vl-place shuffle  each run of the map's functions shuffled and packed,\n"
		 "             each keeping its alignment (16 at most)\n"
		 "  --vl-pads N  padding points per layout (default 8)\n"
		 "  --vl-file FILE  placements to simulate as well (\"layout\", then\n"
		 "             \"START SIZE NEW\" per range; an address outside them stays)\n"
		 "  --vl-dump FILE  write every layout's placement, in --vl-file's format\n"
		 "  --out FILE keep the plugin's own output in FILE and the program's in FILE.log\n"
		 "  --json     print JSON instead of a table\n\n"
		 "Exit status 1 when markers are nested, unbalanced or never ended, 3 when\n"
		 "qemu-i386 or the plugin cannot run here.\n",
	.fn = cmd_sim,
};
