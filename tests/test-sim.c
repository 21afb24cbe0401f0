// SPDX-License-Identifier: GPL-2.0-or-later
/* The sim backend's host side: cache geometry, the cache model the plugin
 * runs, the parser of the plugin's output and the pairing of its regions
 * with the guest's samples. */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../plugin/cachesim.h"
#include "proto.h"
#include "sim.h"

static void geometry_parsed(void **state)
{
	struct kb_sim_geom g;
	const char *why;

	(void)state;
	assert_int_equal(kb_sim_geom_parse("32768:8:64", 0, &g, &why), 0);
	assert_int_equal(g.size, 32768);
	assert_int_equal(g.ways, 8);
	assert_int_equal(g.line, 64);
	assert_int_equal(kb_sim_geom_parse("32K:8:64", 0, &g, &why), 0);
	assert_int_equal(g.size, 32768);
	assert_int_equal(kb_sim_geom_parse("1M:16:64", 1, &g, &why), 0);
	assert_int_equal(g.size, 1u << 20);
	/* 48 KiB 12-way: 64 sets; 33 KiB 8-way: 66 sets, not a power of two, allowed */
	assert_int_equal(kb_sim_geom_parse("48K:12:64", 0, &g, &why), 0);
	assert_int_equal(kb_sim_geom_parse("33K:8:64", 0, &g, &why), 0);
	assert_int_equal(kb_sim_geom_parse("off", 1, &g, &why), 0);
	assert_int_equal(g.size, 0);
}

static void geometry_rejected(void **state)
{
	static const char *const bad[] = { "off", "32K:8", "32K:8:48", "32K:0:64", "32K:8:8",
					   "1000:8:64", "abc", "32K:8:64x", "-1:8:64", "32K::64",
					   "4G:8:64", "" };
	struct kb_sim_geom g;
	const char *why;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		assert_int_equal(kb_sim_geom_parse(bad[i], 0, &g, &why), -1);
		assert_non_null(why);
	}
}

static void cache_cold_misses_only_when_it_fits(void **state)
{
	struct kb_cache c;
	int misses = 0;

	(void)state;
	assert_int_equal(kb_cache_init(&c, 32768, 8, 64), 0);
	assert_int_equal(c.sets, 64);
	for (int round = 0; round < 3; round++)
		for (uint64_t a = 0x8000; a < 0x8000 + 32768; a += 16)
			misses += kb_cache_access(&c, a);
	assert_int_equal(misses, 512);	/* 32 KiB of 64-byte lines, once each */
	kb_cache_release(&c);
}

static void cache_lru_replacement(void **state)
{
	struct kb_cache c;

	(void)state;
	/* one set of two ways: A B A C evicts B, the least recently used */
	assert_int_equal(kb_cache_init(&c, 128, 2, 64), 0);
	assert_int_equal(kb_cache_access_line(&c, 1), 1);
	assert_int_equal(kb_cache_access_line(&c, 2), 1);
	assert_int_equal(kb_cache_access_line(&c, 1), 0);
	assert_int_equal(kb_cache_access_line(&c, 3), 1);
	assert_int_equal(kb_cache_access_line(&c, 1), 0);
	assert_int_equal(kb_cache_access_line(&c, 2), 1);
	kb_cache_release(&c);

	/* a loop one line bigger than the cache misses every time under LRU */
	assert_int_equal(kb_cache_init(&c, 256, 4, 64), 0);
	for (int round = 0; round < 4; round++)
		for (uint64_t ln = 0; ln < 5; ln++)
			assert_int_equal(kb_cache_access_line(&c, ln), 1);
	kb_cache_release(&c);
}

static void cache_sets_by_modulo(void **state)
{
	struct kb_cache c;

	(void)state;
	/* three sets, direct mapped: lines 0 and 3 conflict, 0 and 1 do not */
	assert_int_equal(kb_cache_init(&c, 192, 1, 64), 0);
	assert_int_equal(c.sets, 3);
	assert_int_equal(kb_cache_access_line(&c, 0), 1);
	assert_int_equal(kb_cache_access_line(&c, 1), 1);
	assert_int_equal(kb_cache_access_line(&c, 0), 0);
	assert_int_equal(kb_cache_access_line(&c, 3), 1);
	assert_int_equal(kb_cache_access_line(&c, 0), 1);
	assert_int_equal(kb_cache_access_line(&c, 1), 0);
	kb_cache_release(&c);
	assert_int_equal(kb_cache_init(&c, 1000, 8, 64), -1);
	assert_int_equal(kb_cache_init(&c, 1024, 4, 48), -1);
}

static const char sample_output[] =
	"kbsim 1 api=1 target=i386 system=1 mode=full l1i=32768:8:64 l2=1048576:16:64 "
	"page_offset=0xc0000000 symbols=3\n"
	"region seq=1 id=0x4b420001 insn_k=900 insn_u=100 l1i_access=1000 l1i_miss_k=9 "
	"l1i_miss_u=1 l1i_fill=10 l2_miss=2 kfoot_lines=7 kfoot_bytes=300 host_ns=12345\n"
	"func seq=1 insn=600 l1i_miss=6 name=entry_INT80_32\n"
	"func seq=1 insn=300 l1i_miss=3 name=__ia32_sys_getppid\n"
	"func seq=1 insn=100 l1i_miss=1 name=[user]\n"
	"error seq=2 kind=nested id=0x4b420101 open=0x4b420001\n"
	"region seq=2 id=0x4b420101 insn_k=50 insn_u=5 l1i_access=55 l1i_miss_k=0 "
	"l1i_miss_u=0 l1i_fill=0 l2_miss=0 kfoot_lines=1 kfoot_bytes=20 host_ns=1\n"
	"total regions=2 insn_k=5000 insn_u=600 l1i_access=5600 l1i_miss_k=90 l1i_miss_u=4 "
	"l1i_fill=95 l2_miss=30 kfoot_lines=0 kfoot_bytes=0\n"
	"func seq=0 insn=5600 l1i_miss=94 name=[kernel]\n"
	"end errors=1\n";

static char *write_tmp(const char *text, size_t len)
{
	char tmpl[] = "/tmp/kbench-test-sim.XXXXXX";
	int fd = mkstemp(tmpl);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	return strdup(tmpl);
}

static void output_parsed(void **state)
{
	char *path = write_tmp(sample_output, sizeof(sample_output) - 1);
	struct kb_sim_out o;

	(void)state;
	assert_int_equal(kb_sim_out_read(&o, path), 0);
	assert_true(o.header);
	assert_true(o.system);
	assert_int_equal(o.l1i.size, 32768);
	assert_int_equal(o.l2.ways, 16);
	assert_int_equal(o.n_regions, 2);
	assert_int_equal(o.regions[0].id, KB_MARK_BEGIN(0));
	assert_int_equal(o.regions[0].c[KB_SIM_insn_k], 900);
	assert_int_equal(o.regions[0].c[KB_SIM_kfoot_bytes], 300);
	assert_int_equal(o.regions[0].host_ns, 12345);
	assert_int_equal(o.regions[0].n_funcs, 3);
	assert_string_equal(o.regions[0].funcs[1].name, "__ia32_sys_getppid");
	assert_int_equal(o.regions[0].funcs[1].miss, 3);
	assert_int_equal(o.regions[1].n_funcs, 0);
	assert_int_equal(o.n_errors, 1);
	assert_string_equal(o.errors[0].kind, KB_SIM_ERR_NESTED);
	assert_int_equal(o.errors[0].open, KB_MARK_BEGIN(0));
	assert_true(o.have_total);
	assert_int_equal(o.total.c[KB_SIM_l2_miss], 30);
	assert_int_equal(o.total.n_funcs, 1);
	assert_true(o.ended);
	assert_int_equal(o.bad, 0);
	kb_sim_out_release(&o);
	unlink(path);
	free(path);
}

/* Virtual layouts: "vl" lines follow their region in order, as many as the
 * header says; the samples carry each layout's value of the real fields. */
static const char vl_output[] =
	"kbsim 1 api=1 target=i386 system=1 mode=full l1i=32768:8:64 l2=1048576:16:64 "
	"page_offset=0xc0000000 symbols=2 vl=4 vl_seeded=4 vl_seed=7 vl_funcs=2\n"
	"region seq=1 id=0x4b420001 insn_k=900 insn_u=100 l1i_access=1000 l1i_miss_k=10 "
	"l1i_miss_u=2 l1i_fill=13 l2_miss=3 kfoot_lines=5 kfoot_bytes=300 host_ns=1\n"
	"vl seq=1 layout=0 l1i_miss_k=12 l1i_miss_u=2 l1i_fill=14 l2_miss_k=2 l2_miss_u=1\n"
	"vl seq=1 layout=1 l1i_miss_k=7 l1i_miss_u=1 l1i_fill=8 l2_miss_k=1 l2_miss_u=0\n"
	"vl seq=1 layout=2 l1i_miss_k=30 l1i_miss_u=3 l1i_fill=33 l2_miss_k=4 l2_miss_u=1\n"
	"vl seq=1 layout=3 l1i_miss_k=10 l1i_miss_u=2 l1i_fill=13 l2_miss_k=2 l2_miss_u=1\n"
	"vl seq=1 layout=9 l1i_miss_k=1 l1i_miss_u=0 l1i_fill=1 l2_miss_k=0 l2_miss_u=0\n"
	"vl seq=2 layout=0 l1i_miss_k=1 l1i_miss_u=0 l1i_fill=1 l2_miss_k=0 l2_miss_u=0\n"
	"total regions=1 insn_k=900 insn_u=100 l1i_access=1000 l1i_miss_k=10 l1i_miss_u=2 "
	"l1i_fill=13 l2_miss=3 kfoot_lines=5 kfoot_bytes=300\n"
	"vl seq=0 layout=0 l1i_miss_k=12 l1i_miss_u=2 l1i_fill=14 l2_miss_k=2 l2_miss_u=1\n"
	"end errors=0 blocks=1 descriptor_bytes=64\n";

static void virtual_layouts_parsed(void **state)
{
	char *path = write_tmp(vl_output, sizeof(vl_output) - 1);
	struct kb_sim_model m = { 1.0, 12, 40 };
	struct kb_sim_out o;
	json_t *f = json_object(), *j = json_object();

	(void)state;
	assert_int_equal(kb_sim_out_read(&o, path), 0);
	assert_int_equal(o.vl, 4);
	assert_int_equal(o.n_regions, 1);
	assert_int_equal(o.regions[0].n_vl, 4);
	assert_int_equal(o.regions[0].vl[2][KB_SIM_VL_l1i_miss_k], 30);
	assert_int_equal(o.regions[0].vl[1][KB_SIM_VL_l2_miss_u], 0);
	assert_int_equal(o.total.n_vl, 1);
	assert_int_equal(o.bad, 2);	/* layout 9 out of order; seq 2 with no region */
	/* each layout's value of the real field, layout by layout: kernel misses 12 7 30 10 */
	kb_sim_vl_fields(&o.regions[0], &m, f);
	assert_int_equal(json_array_size(json_object_get(f, "vl_l1i_k")), 4);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(f, "vl_l1i_k"), 0)), 12);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(f, "vl_l1i_k"), 1)), 7);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(f, "vl_l1i_k"), 2)), 30);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(f, "vl_l1i_u"), 0)), 2);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(f, "vl_l1i_fill"), 3)), 13);
	/* L2, kernel and user: layout 0 2 + 1 */
	assert_int_equal(json_integer_value(json_array_get(json_object_get(f, "vl_l2_miss"), 0)), 3);
	/* cycles: 1000 + 12 x L1i + 40 x L2; layout 1: 1000 + 96 + 40 */
	assert_int_equal(json_integer_value(json_array_get(json_object_get(f, "vl_model_cycles"), 1)), 1136);
	assert_int_equal(json_object_size(f), 5);
	assert_int_equal(kb_sim_vl_model_cycles(&o.regions[0], 0, &m), 1000 + 12 * 14 + 40 * 3);
	kb_sim_vl_arrays(&o.regions[0], &m, j);
	assert_int_equal(json_array_size(json_object_get(j, "vl_l1i_miss_k")), 4);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(j, "vl_l1i_fill"), 3)), 13);
	assert_int_equal(json_array_size(json_object_get(j, "vl_model_cycles")), 4);
	/* no layouts, no fields: the samples as before */
	json_decref(f);
	f = json_object();
	o.regions[0].n_vl = 0;
	kb_sim_vl_fields(&o.regions[0], &m, f);
	assert_int_equal(json_object_size(f), 0);
	o.regions[0].n_vl = 4;
	json_decref(f);
	json_decref(j);
	kb_sim_out_release(&o);
	unlink(path);
	free(path);
}

static void output_damage_counted(void **state)
{
	static const char text[] =
		"region seq=1 id=0x4b420001 insn_k=1\n"	/* before the header */
		"kbsim 1 api=1 system=1 mode=full l1i=32768:8:64 l2=off\n"
		"region seq=1 id=0x4b420001 insn_k=1\n"	/* counters missing */
		"func seq=7 insn=1 l1i_miss=0 name=orphan\n"	/* no region 7 */
		"what is this\n"
		"region seq=2 id=0x4b420001 insn_k=-1 insn_u=0 l1i_access=0 l1i_miss_k=0 l1i_miss_u=0 "
		"l1i_fill=0 l2_miss=0 kfoot_lines=0 kfoot_bytes=0 host_ns=0\n";
	char *path = write_tmp(text, sizeof(text) - 1);
	struct kb_sim_out o;

	(void)state;
	assert_int_equal(kb_sim_out_read(&o, path), 0);
	assert_true(o.header);
	assert_int_equal(o.l2.size, 0);
	assert_int_equal(o.n_regions, 0);
	assert_int_equal(o.bad, 5);
	assert_string_equal(o.first_bad, "region seq=1 id=0x4b420001 insn_k=1");
	assert_false(o.ended);	/* cut short: no end line */
	kb_sim_out_release(&o);
	unlink(path);
	free(path);
}

static void output_read_as_it_grows(void **state)
{
	size_t cut = strstr(sample_output, "insn_u=100") - sample_output;
	char *path = write_tmp(sample_output, cut);
	struct kb_sim_out o;
	FILE *f;

	(void)state;
	kb_sim_out_init(&o);
	assert_int_equal(kb_sim_out_poll(&o, path), 0);
	assert_true(o.header);
	assert_int_equal(o.n_regions, 0);	/* half a line: not yet */
	f = fopen(path, "a");
	fputs(sample_output + cut, f);
	fclose(f);
	assert_int_equal(kb_sim_out_poll(&o, path), 0);
	assert_int_equal(o.n_regions, 2);
	assert_int_equal(o.regions[0].c[KB_SIM_insn_u], 100);
	assert_true(o.ended);
	assert_int_equal(o.bad, 0);
	kb_sim_out_release(&o);
	assert_int_equal(kb_sim_out_poll(&o, "/nonexistent/kbench.sim"), -ENOENT);
	kb_sim_out_release(&o);
	unlink(path);
	free(path);
}

static void marker_errors_in_words(void **state)
{
	struct kb_sim_error nested = { 3, KB_SIM_ERR_NESTED, KB_MARK_BEGIN(1), KB_MARK_BEGIN(0) };
	struct kb_sim_error unbal = { 3, KB_SIM_ERR_UNBALANCED, KB_MARK_END(0), 0 };
	struct kb_sim_error open = { 3, KB_SIM_ERR_UNCLOSED, KB_MARK_BEGIN(1), KB_MARK_BEGIN(1) };
	char *t;

	(void)state;
	assert_string_equal(kb_sim_marker_workload(KB_MARK_BEGIN(0)), "getppid");
	assert_string_equal(kb_sim_marker_workload(KB_MARK_END(1)), "pipe");
	assert_null(kb_sim_marker_workload(0x12340001u));
	assert_null(kb_sim_marker_workload(KB_MARK_BEGIN(250)));
	t = kb_sim_error_text(&nested);
	assert_non_null(strstr(t, "nested markers"));
	assert_non_null(strstr(t, "'pipe'"));
	assert_non_null(strstr(t, "'getppid'"));
	free(t);
	t = kb_sim_error_text(&unbal);
	assert_non_null(strstr(t, "unbalanced markers: end of 'getppid'"));
	free(t);
	t = kb_sim_error_text(&open);
	assert_non_null(strstr(t, "missing end marker"));
	free(t);
}

static void model_cycles_stated(void **state)
{
	struct kb_sim_region r = { 0 };
	struct kb_sim_model m = { 1.0, 12, 40 };
	json_t *f = json_object();

	(void)state;
	r.c[KB_SIM_insn_k] = 900;
	r.c[KB_SIM_insn_u] = 100;
	r.c[KB_SIM_l1i_miss_k] = 8;
	r.c[KB_SIM_l1i_miss_u] = 2;
	r.c[KB_SIM_l2_miss] = 2;
	assert_int_equal(kb_sim_model_cycles(&r, &m), 1000 + 12 * 10 + 40 * 2);
	kb_sim_fields(&r, &m, f);
	assert_int_equal(json_integer_value(json_object_get(f, "ins_k")), 900);
	assert_int_equal(json_integer_value(json_object_get(f, "l1i_u")), 2);
	assert_int_equal(json_integer_value(json_object_get(f, "model_cycles")), 1200);
	json_decref(f);
}

/* The k-th sample of a workload takes its k-th region, whatever came between. */
static void samples_take_regions_in_order(void **state)
{
	struct kb_sim_run sr = { .plugin = (char *)"/opt/a,b/kbench-sim.so",
				 .l1i = { 32768, 8, 64 }, .l2 = { 0, 0, 0 },
				 .model = { 1.0, 12, 40 } };
	char tmpl[] = "/tmp/kbench-test-sim.XXXXXX";
	int fd = mkstemp(tmpl);
	struct kb_sim_boot *sb;
	const char *const *argv;
	const char *why = NULL;
	json_t *f = json_object();
	FILE *out;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	sb = kb_sim_boot_new(&sr, tmpl, NULL, 0, NULL, "O2", 1, 1, NULL);
	argv = kb_sim_boot_argv(sb);
	assert_string_equal(argv[0], "-icount");
	assert_string_equal(argv[1], "shift=0,sleep=off");
	assert_string_equal(argv[4], "-plugin");
	/* commas in a path are doubled for QEMU's option parser */
	assert_non_null(strstr(argv[5], "file=/opt/a,,b/kbench-sim.so,out="));
	assert_non_null(strstr(argv[5], ",l1i=32768:8:64,l2=off"));
	assert_null(strstr(argv[5], ",vl"));	/* no virtual layouts: the argument as before */
	assert_null(argv[6]);

	/* no output yet: the sample has no region */
	assert_int_equal(kb_sim_boot_sample(sb, "getppid", "getppid", 1, f, &why), -1);
	assert_non_null(strstr(why, "markers"));

	out = fopen(tmpl, "w");
	fputs(sample_output, out);	/* getppid's region, then pipe's */
	fclose(out);
	assert_int_equal(kb_sim_boot_sample(sb, "pipe", "pipe", 1, f, &why), 0);
	assert_int_equal(json_integer_value(json_object_get(f, "ins_k")), 50);
	assert_int_equal(kb_sim_boot_sample(sb, "getppid", "getppid", 1, f, &why), 0);
	assert_int_equal(json_integer_value(json_object_get(f, "ins_k")), 900);
	assert_int_equal(kb_sim_boot_sample(sb, "getppid", "getppid", 2, f, &why), -1);
	assert_int_equal(kb_sim_boot_sample(sb, "nosuch", "nosuch", 1, f, &why), -1);
	/* the nested-marker error, and the two samples without a region */
	assert_int_equal(kb_sim_boot_finish(sb), 2);
	kb_sim_boot_free(sb);
	json_decref(f);

	/* with virtual layouts: their number, the run's seed, the placements beside the output */
	sr.vl.n = 3;
	sr.vl.seed = 5;
	sb = kb_sim_boot_new(&sr, "/tmp/run/boots/O2-1.sim", NULL, 0, NULL, "O2", 1, 1, NULL);
	assert_non_null(strstr(kb_sim_boot_argv(sb)[5], ",vl=3,vl_seed=5,vl_dump=/tmp/run/boots/O2-1.vl"));
	kb_sim_boot_free(sb);
	/* layout replica 2: its own placements (5 + 2 x 0x9e3779b97f4a7c15, modulo 2^64) */
	sb = kb_sim_boot_new(&sr, "/tmp/run/boots/O2-3.sim", NULL, 2, NULL, "O2", 1, 3, NULL);
	assert_non_null(strstr(kb_sim_boot_argv(sb)[5], ",vl=3,vl_seed=4354685564936845359,"));
	kb_sim_boot_free(sb);
	unlink(tmpl);
}

/* A prediction (sim_virtual_placement = order:FILE): the plugin reads the
 * placement file's layout first, so layout 0 is the prediction, whose
 * figures are pred_<field>, and the seeded layouts after it are the
 * vl_<field> arrays, as without it. */
static const char pred_output[] =
	"kbsim 1 api=1 target=i386 system=1 mode=full l1i=32768:8:64 l2=1048576:16:64 "
	"page_offset=0xc0000000 symbols=2 vl=3 vl_seeded=2 vl_seed=7 vl_funcs=2\n"
	"region seq=1 id=0x4b420001 insn_k=900 insn_u=100 l1i_access=1000 l1i_miss_k=10 "
	"l1i_miss_u=2 l1i_fill=13 l2_miss=3 kfoot_lines=5 kfoot_bytes=300 host_ns=1\n"
	"vl seq=1 layout=0 l1i_miss_k=40 l1i_miss_u=5 l1i_fill=46 l2_miss_k=6 l2_miss_u=1\n"
	"vl seq=1 layout=1 l1i_miss_k=7 l1i_miss_u=1 l1i_fill=8 l2_miss_k=1 l2_miss_u=0\n"
	"vl seq=1 layout=2 l1i_miss_k=30 l1i_miss_u=3 l1i_fill=33 l2_miss_k=4 l2_miss_u=1\n"
	"total regions=1 insn_k=900 insn_u=100 l1i_access=1000 l1i_miss_k=10 l1i_miss_u=2 "
	"l1i_fill=13 l2_miss=3 kfoot_lines=5 kfoot_bytes=300\n"
	"end errors=0 blocks=1 descriptor_bytes=64\n";

static void prediction_apart(void **state)
{
	struct kb_sim_run sr = { .plugin = (char *)"/p/kbench-sim.so", .l1i = { 32768, 8, 64 },
				 .l2 = { 1048576, 16, 64 }, .model = { 1.0, 12, 40 },
				 .vl = { .n = 2, .seed = 7 } };
	char tmpl[] = "/tmp/kbench-test-sim.XXXXXX";
	int fd = mkstemp(tmpl);
	const char *why = NULL;
	struct kb_sim_boot *sb;
	json_t *f = json_object(), *a;
	FILE *out;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	sb = kb_sim_boot_new(&sr, tmpl, NULL, 0, NULL, "Os", 1, 1, "/run/boots/Os-1.pred");
	assert_non_null(strstr(kb_sim_boot_argv(sb)[5], ",vl=2,vl_seed=7,"));
	assert_non_null(strstr(kb_sim_boot_argv(sb)[5], ",vl_file=/run/boots/Os-1.pred,"));
	out = fopen(tmpl, "w");
	fputs(pred_output, out);
	fclose(out);
	assert_int_equal(kb_sim_boot_sample(sb, "getppid", "getppid", 1, f, &why), 0);
	/* the build's own figures, untouched */
	assert_int_equal(json_integer_value(json_object_get(f, "l1i_k")), 10);
	/* the prediction: layout 0, one number a field */
	assert_int_equal(json_integer_value(json_object_get(f, "pred_l1i_k")), 40);
	assert_int_equal(json_integer_value(json_object_get(f, "pred_l1i_u")), 5);
	assert_int_equal(json_integer_value(json_object_get(f, "pred_l2_miss")), 7);
	assert_int_equal(json_integer_value(json_object_get(f, "pred_model_cycles")), 1000 + 12 * 45 + 40 * 7);
	/* the seeded layouts: 1 and 2, never the prediction */
	a = json_object_get(f, "vl_l1i_k");
	assert_int_equal(json_array_size(a), 2);
	assert_int_equal(json_integer_value(json_array_get(a, 0)), 7);
	assert_int_equal(json_integer_value(json_array_get(a, 1)), 30);
	assert_int_equal(json_array_size(json_object_get(f, "vl_model_cycles")), 2);
	assert_null(json_object_get(f, "pred_ins_k"));
	kb_sim_boot_free(sb);
	json_decref(f);

	/* a prediction alone: no seeded layouts asked, no vl_ field */
	sr.vl.n = 0;
	sb = kb_sim_boot_new(&sr, tmpl, NULL, 0, NULL, "Os", 1, 1, "/run/boots/Os-1.pred");
	assert_null(strstr(kb_sim_boot_argv(sb)[5], ",vl="));
	assert_non_null(strstr(kb_sim_boot_argv(sb)[5], ",vl_file=/run/boots/Os-1.pred,"));
	kb_sim_boot_free(sb);
	unlink(tmpl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(geometry_parsed),
		cmocka_unit_test(geometry_rejected),
		cmocka_unit_test(cache_cold_misses_only_when_it_fits),
		cmocka_unit_test(cache_lru_replacement),
		cmocka_unit_test(cache_sets_by_modulo),
		cmocka_unit_test(output_parsed),
		cmocka_unit_test(virtual_layouts_parsed),
		cmocka_unit_test(output_damage_counted),
		cmocka_unit_test(output_read_as_it_grows),
		cmocka_unit_test(marker_errors_in_words),
		cmocka_unit_test(model_cycles_stated),
		cmocka_unit_test(samples_take_regions_in_order),
		cmocka_unit_test(prediction_apart),
	};

	return cmocka_run_group_tests_name("sim", tests, NULL, NULL);
}
