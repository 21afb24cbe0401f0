// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench profile RUN_DIR: a variant's execution profile from a sim run's
 * boots; kbench order PROFILE: a function order from it (profile.h). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "order.h"
#include "profile.h"
#include "util.h"

struct args {
	const char *variant, *cases, *out, *method, *place, *objects;
};

static int option(void *ctx, int key, const char *value)
{
	struct args *a = ctx;

	switch (key) {
	case KB_LONG('v'):
		a->variant = value;
		break;
	case KB_LONG('c'):
		a->cases = value;
		break;
	case 'o':
		a->out = value;
		break;
	case KB_LONG('m'):
		a->method = value;
		break;
	case KB_LONG('p'):
		a->place = value;
		break;
	case KB_LONG('O'):
		a->objects = value;
		break;
	}
	return KB_GO_ON;
}

/* what fn writes (fn: 0, or negative after a message, and then nothing is
 * written: KB_EXIT_USAGE) to path, whole or not at all, else to stdout */
static int put(const char *path, int (*fn)(FILE *f, const void *ctx), const void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int r;

	if (!f) {
		kb_error_errno(errno, "cannot write '%s'", path ? path : "standard output");
		return KB_EXIT_FAILED;
	}
	r = fn(f, ctx);
	fclose(f);
	if (r < 0)
		r = KB_EXIT_USAGE;
	else if (path)
		r = kb_write_file_atomic(path, buf, len) < 0 ? KB_EXIT_FAILED : KB_EXIT_OK;
	else
		r = fwrite(buf, 1, len, stdout) == len && fflush(stdout) == 0 ? KB_EXIT_OK : KB_EXIT_FAILED;
	free(buf);
	return r;
}

static int put_profile(FILE *f, const void *ctx)
{
	kb_profile_write(f, ctx);
	return 0;
}

static int cmd_profile(int argc, char **argv)
{
	struct args a = { 0 };
	struct kb_profile p;
	int r = kb_command_parse(&kb_command_profile, &argc, &argv, option, &a);

	if (r != KB_GO_ON)
		return r;
	if (argc != 1)
		return kb_command_usage_error(&kb_command_profile, "one run directory");
	if (!a.variant)
		return kb_command_usage_error(&kb_command_profile, "--variant: which variant's kernel");
	if (kb_profile_from_run(argv[0], a.variant, a.cases, &p) < 0)
		return KB_EXIT_FAILED;
	r = put(a.out, put_profile, &p);
	kb_profile_release(&p);
	return r;
}

static const struct kb_command_option profile_options[] = {
	{ "variant", KB_LONG('v'), "NAME", "the variant whose kernel (its layout 0 build) is profiled" },
	{ "cases", KB_LONG('c'), "LIST", "only these cases (comma-separated, e.g. syscall_mix): the\n"
	  "training set; default every case" },
	{ "out", 'o', "FILE", "write the profile to FILE (whole or not at all), not stdout" },
	{ 0 },
};

const struct kb_command kb_command_profile = {
	.name = "profile",
	.summary = "a variant's execution profile from a sim run: functions and call edges",
	.usage = "usage: kbench profile --variant NAME [--cases LIST] [-o FILE] RUN_DIR\n\n"
		 "Merge the sim boots of a variant's layout 0 build into one profile: per kernel\n"
		 "function of its System.map the instructions executed, the calls that entered it\n"
		 "and its bytes that ran; per call edge between two functions how often it was\n"
		 "taken.  Exact counts of the sim plugin (simulated, not sampled).\n",
	.options = profile_options,
	.fn = cmd_profile,
};

struct ordered {
	const struct kb_profile *p;
	const char *path;
	enum kb_order_method m;
	const size_t *order;
	size_t n;
};

static int put_order(FILE *f, const void *ctx)
{
	const struct ordered *o = ctx;

	kb_order_write(f, o->p, o->path, o->m, o->order, o->n);
	return 0;
}

/* kbench order --place MAP ORDER: the placement the order gives MAP's
 * functions, in the sim plugin's vl_file format */
struct placed {
	const char *order, *map, *objects;
};

/* --objects: the ordered kernel's own layout, from the unordered build's
 * objects (order.h, kb_order_place) */
static int put_kernel_placement(FILE *f, const struct placed *pl)
{
	struct kb_order_file o = { 0 };
	struct kb_order_place st;
	int r;

	if (kb_order_file_read(pl->order, &o) < 0)
		return -1;
	fprintf(f, "# the order %s placed over %s as its ordered build lays it out (objects %s)\n",
		pl->order, pl->map, pl->objects);
	r = kb_order_place(&o, pl->objects, pl->map, f, &st);
	kb_order_file_release(&o);
	if (r < 0)
		return -1;
	kb_info("%s: %zu of its %zu functions placed first (%zu functions, the syscalls' bodies "
		"with their entries), from %zu of the kernel's %zu objects compiled with "
		"-ffunction-sections; %zu in no such object's main text stay where they are "
		"(assembly, .noinstr.text, .entry.text...)%s",
		pl->order, st.listed, st.listed + st.unmovable + st.cold, st.functions, st.split,
		st.objects, st.unmovable, st.cold ? "; its cold parts (NAME.cold) are not modeled" : "");
	kb_info("%zu tail calls grow in their own sections (%" PRIu64 " bytes); main text %+" PRId64
		" bytes, text to its end %+" PRId64 " bytes (modeled)%s", st.grown, st.grow_bytes,
		(int64_t)(st.main_end_new - st.main_start) - (int64_t)(st.main_end - st.main_start),
		(int64_t)(st.etext_new - st.main_start) - (int64_t)(st.etext - st.main_start),
		st.unread || st.unexplained || st.overlaps || st.self_aligned ? "; not exact:" : "");
	if (st.self_aligned)
		kb_info("  %zu objects compiled with -ffunction-sections align code inside a function "
			"(inline assembly's .align) and could not be compiled here: their own sections may "
			"take other padding: %s%s%s%s%s",
			st.self_aligned, st.self_aligned_objects[0], st.self_aligned > 1 ? ", " : "",
			st.self_aligned > 1 ? st.self_aligned_objects[1] : "", st.self_aligned > 2 ? ", " : "",
			st.self_aligned > 2 ? st.self_aligned_objects[2] : "");
	if (st.unread)
		kb_info("  %zu functions LLVM's disassembler could not read (their tail calls not counted)",
			st.unread);
	if (st.compiled)
		kb_info("%zu objects whose functions' own assembly aligns their code compiled here with "
			"-ffunction-sections, their functions sized and aligned as their sections there",
			st.compiled);
	if (st.unexplained)
		kb_info("  %zu gaps (%" PRIu64 " bytes) in the unordered kernel's text no alignment explains, kept",
			st.unexplained, st.unexplained_bytes);
	if (st.overlaps)
		kb_info("  %zu sections found where another is, left in place", st.overlaps);
	return 0;
}

static int put_placement(FILE *f, const void *ctx)
{
	const struct placed *pl = ctx;
	size_t listed = 0;

	if (pl->objects)
		return put_kernel_placement(f, pl);
	/* the order or the map refused, with file:line */
	if (kb_order_placement(pl->order, pl->map, f, &listed) < 0)
		return -1;
	kb_info("%s: %zu functions placed first, the rest of %s after them", pl->order, listed, pl->map);
	return 0;
}

static int cmd_order(int argc, char **argv)
{
	static const char *const methods[] = { "c3", "pettis-hansen", "hot-cold" };
	struct args a = { .method = "c3" };
	enum kb_order_method m;
	struct kb_profile p;
	size_t *order;
	int r = kb_command_parse(&kb_command_order, &argc, &argv, option, &a);

	if (r != KB_GO_ON)
		return r;
	if (argc != 1)
		return kb_command_usage_error(&kb_command_order, a.place ? "one order file (kbench order's)" :
					      "one profile (kbench profile's)");
	if (a.place)
		return put(a.out, put_placement, &(struct placed){ argv[0], a.place, a.objects });
	if (a.objects)
		return kb_command_usage_error(&kb_command_order, "--objects goes with --place");
	if (kb_order_method_parse(a.method, &m) < 0)
		return kb_command_unknown(&kb_command_order, "--method", a.method, methods, 3);
	if (kb_profile_read(argv[0], &p) < 0)
		return KB_EXIT_USAGE;
	order = kb_xcalloc(p.nf + 1, sizeof(*order));
	r = put(a.out, put_order, &(struct ordered){ &p, argv[0], m, order, kb_order(&p, m, order) });
	free(order);
	kb_profile_release(&p);
	return r;
}

static const struct kb_command_option order_options[] = {
	{ "method", KB_LONG('m'), "M", "c3 (call-chain clustering, Ottoni and Maher 2017; the\n"
	  "default), pettis-hansen (Pettis and Hansen 1990) or hot-cold\n"
	  "(the functions that ran, in System.map's order)" },
	{ "place", KB_LONG('p'), "MAP", "read an order file, not a profile, and write where it puts\n"
	  "the functions of the System.map MAP (listed ones first, in order, the rest\n"
	  "after in MAP's order, each keeping its alignment, 16 at most): the sim\n"
	  "plugin's vl_file, the prediction of the ordered kernel from MAP's" },
	{ "objects", KB_LONG('O'), "DIR", "with --place: MAP is a kernel's System.map and DIR the\n"
	  "object directory of its build; write where that kernel's ordered build\n"
	  "(a variant's order = ORDER) puts its code: the order's functions first,\n"
	  "the rest of the main text in link order, the sections after it moved on,\n"
	  "laid out from the objects as the build's linker script does" },
	{ "out", 'o', "FILE", "write the order to FILE (whole or not at all), not stdout" },
	{ 0 },
};

const struct kb_command kb_command_order = {
	.name = "order",
	.summary = "a function order from a profile: the hot functions, clustered by calls",
	.usage = "usage: kbench order [--method c3|pettis-hansen|hot-cold] [-o FILE] PROFILE\n"
		 "       kbench order --place SYSTEM.MAP [--objects OBJDIR] [-o FILE] ORDER\n\n"
		 "Write the functions of PROFILE that ran, one name a line, in the order the method\n"
		 "gives (the rest stay in the linker's order after them); '#' lines say the method,\n"
		 "the profile and the functions' bytes.\n",
	.options = order_options,
	.fn = cmd_order,
};
