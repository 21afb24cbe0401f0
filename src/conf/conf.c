// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * variants.conf: one table of options (fio's parse.c style).  Each entry names
 * its section, type and target field by offset; defaults go through the same
 * parser as the file, so help text, defaults and validation cannot drift.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <time.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "../../workloads/icache.h"
#include "backend.h"
#include "conf.h"
#include "option.h"
#include "util.h"

/* [run] backend: auto or a primary's name, from the backend table */
static const char *backend_check(const char *value)
{
	const struct kb_backend *b = kb_backend_find(value);

	if (!strcmp(value, "auto") || (b && b->role == KB_ROLE_PRIMARY))
		return NULL;
	return "not a primary backend (see the backends in kbench run --help-config)";
}

/* [variant] hybrid: words of path characters (A B PATH...; names and
 * paths are checked once every variant is known). */
static const char *hybrid_check(const char *v)
{
	static const char ok[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				 "0123456789/._-+ ";
	int words = 0;

	if (v[strspn(v, ok)])
		return "only variant names and kernel paths (letters, digits, /._-+) separated by spaces";
	for (const char *p = v; *p; p++)
		words += *p != ' ' && (p == v || p[-1] == ' ');
	return words < 3 ? "A B PATH...: two variants and at least one path" : NULL;
}

#define KOFF(f) offsetof(struct kb_conf, f)
#define VOFF(f) offsetof(struct kb_variant, f)
#define COFF(f) offsetof(struct kb_claim_conf, f)

/* [claim] date: when the claim was made, YYYY, YYYY-MM or YYYY-MM-DD: a day
 * of the calendar (2004-02-30 is none, nor is year 0000), and not after
 * today. */
static const char *date_check(const char *v)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	size_t n = strlen(v);
	int ok = (n == 4 || n == 7 || n == 10) && strspn(v, "0123456789") == 4;
	int y, m = 0, d = 0;
	time_t now = time(NULL);
	struct tm today;

	for (size_t i = 4; ok && i < n; i += 3)
		ok = v[i] == '-' && isdigit((unsigned char)v[i + 1]) && isdigit((unsigned char)v[i + 2]);
	if (!ok)
		return "not a date (YYYY, YYYY-MM or YYYY-MM-DD)";
	y = atoi(v);
	if (n >= 7)
		m = atoi(v + 5);
	if (n == 10)
		d = atoi(v + 8);
	if (y == 0)
		return "not a date: there is no year 0000";
	if (n >= 7 && (m < 1 || m > 12))
		return "not a date: months are 01 to 12";
	if (n == 10 && (d < 1 || d > mdays[m - 1] ||
			(m == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))))
		return "not a date: that month has no such day";
	gmtime_r(&now, &today);
	if (y > today.tm_year + 1900 ||
	    (y == today.tm_year + 1900 && n >= 7 && (m > today.tm_mon + 1 ||
	     (m == today.tm_mon + 1 && n == 10 && d > today.tm_mday))))
		return "after today: a claim is dated when it was made";
	return NULL;
}

/* ---- compiler flags: what the driver would run, load or write ---- */

/*
 * kcflags, hybrid_cflags and cc's flags reach gcc's (or clang's) driver,
 * which some options tell to run another program, load code into the
 * compiler, take more options from a file or write outside the build
 * (gcc's manual: "Overall Options", "Directory Options", "Developer
 * Options", "Plugins"; clang's driver reference).  Those are refused
 * unless [kernel] unsafe_flags = yes.  A long option ("--...") other than
 * --param is refused too: the drivers take unambiguous abbreviations of
 * them (--sysroot, --specs, --output, --prefix, --config...).
 */
static const struct {
	const char *prefix;
	int whole;		/* the word is the prefix itself, not more */
	int sep;		/* given alone, it takes the next word as its argument */
	const char *why;
} unsafe_flags[] = {
	{ "-wrapper", 1, 1, "runs another program around every compiler pass" },
	{ "-fplugin", 0, 0, "loads a plugin into the compiler" },
	{ "-fpass-plugin", 0, 0, "loads a plugin into the compiler" },
	{ "-iplugindir", 0, 1, "names where compiler plugins are loaded from" },
	{ "-Xclang", 1, 1, "passes options to clang's compiler unchecked (-load among them)" },
	{ "-mllvm", 1, 1, "passes options to LLVM unchecked (some write files)" },
	{ "-B", 0, 1, "the driver runs the compiler, assembler and linker found there" },
	{ "-specs", 0, 1, "a spec file can make the driver run any program" },
	{ "-ccc-", 0, 0, "changes which programs clang's driver runs" },
	{ "-gcc-toolchain", 0, 1, "changes which programs clang's driver runs" },
	{ "-fuse-ld", 0, 0, "names the linker program to run" },
	{ "-Wa,", 0, 0, "passes options to the assembler unchecked" },
	{ "-Xassembler", 1, 1, "passes options to the assembler unchecked" },
	{ "-Wl,", 0, 0, "passes options to the linker unchecked" },
	{ "-Xlinker", 1, 1, "passes options to the linker unchecked" },
	{ "-Wp,", 0, 0, "passes options to the preprocessor unchecked (-MD FILE writes anywhere)" },
	{ "-Xpreprocessor", 1, 1, "passes options to the preprocessor unchecked" },
	{ "-o", 0, 1, "writes the output elsewhere than the kernel's build asks" },
	{ "-MF", 0, 1, "writes the dependency file elsewhere" },
	{ "-dumpdir", 0, 1, "writes auxiliary output elsewhere" },
	{ "-dumpbase", 0, 1, "writes auxiliary output elsewhere" },
	{ "-auxbase", 0, 1, "writes auxiliary output elsewhere" },
	{ "-aux-info", 0, 1, "writes a file elsewhere" },
	{ "-foptimization-record-file", 0, 0, "writes a file elsewhere" },
};

/* Options whose argument is the next word (those not refused above). */
static const char *const separate_arg[] = {
	"-D", "-U", "-I", "-include", "-imacros", "-isystem", "-iquote", "-idirafter",
	"-iprefix", "-iwithprefix", "-iwithprefixbefore", "-x", "-MT", "-MQ", "--param",
};

/* -fdump-...=FILE and -fopt-info...=FILE write a file of that name. */
static int dump_to_file(const char *w, size_t len)
{
	const char *eq = memchr(w, '=', len);
	size_t rest;

	if (!eq || (strncmp(w, "-fdump-", 7) && strncmp(w, "-fopt-info", 10)))
		return 0;
	rest = len - (size_t)(eq + 1 - w);
	return !((rest == 6 && !strncmp(eq + 1, "stdout", 6)) || (rest == 6 && !strncmp(eq + 1, "stderr", 6)));
}

/* A compiler's name: gcc, clang or cc, maybe with a target prefix
 * (i686-linux-gnu-gcc) and a version suffix (gcc-12, clang-14). */
static int compiler_name(const char *w, size_t len)
{
	static const char *const names[] = { "gcc", "clang", "cc" };
	const char *base = w, *end = w + len;

	for (const char *q = w; q < end; q++)
		if (*q == '/')
			base = q + 1;
	while (end > base && (isdigit((unsigned char)end[-1]) || end[-1] == '.'))
		end--;
	if (end < w + len && end > base && end[-1] == '-')
		end--;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t n = strlen(names[i]);

		if ((size_t)(end - base) >= n && !strncmp(end - n, names[i], n) &&
		    (end - n == base || end[-(ptrdiff_t)n - 1] == '-'))
			return 1;
	}
	return 0;
}

/* Call fn for each word of flags outside the policy; stops at fn's
 * non-zero return, which it returns. */
static int flag_policy_each(const char *flags, int is_cc,
			    int (*fn)(void *ctx, const char *w, size_t len, const char *why), void *ctx)
{
	int takes_arg = 0, first = 1, r;

	for (const char *w = flags; *w;) {
		size_t len = strcspn(w, " \t");
		const char *why = NULL;

		if (!len) {
			w++;
			continue;
		}
		if (first && is_cc) {
			if (!compiler_name(w, len))
				why = "not the name of a compiler (gcc, clang or cc, maybe with a target "
				      "prefix and a version: i686-linux-gnu-gcc, clang-14)";
		} else if (takes_arg) {
			takes_arg = 0;
		} else if (w[0] == '@') {
			why = "takes more options from a file kbench does not check";
		} else if (w[0] != '-') {
			why = "not an option: the driver takes it as one more file to compile";
		} else if (w[1] == '-' && (len < 7 || strncmp(w, "--param", 7) || (len > 7 && w[7] != '='))) {
			why = "a long driver option (the drivers take abbreviations of them: --sysroot, "
			      "--specs, --output, --prefix...); only --param is taken";
		} else if (dump_to_file(w, len)) {
			why = "writes a dump to a file of that name";
		} else {
			for (size_t i = 0; i < sizeof(unsafe_flags) / sizeof(unsafe_flags[0]) && !why; i++) {
				size_t n = strlen(unsafe_flags[i].prefix);

				if (len >= n && !strncmp(w, unsafe_flags[i].prefix, n) &&
				    (!unsafe_flags[i].whole || len == n)) {
					why = unsafe_flags[i].why;
					takes_arg = unsafe_flags[i].sep && len == n;
				}
			}
			for (size_t i = 0; i < sizeof(separate_arg) / sizeof(separate_arg[0]); i++)
				if (len == strlen(separate_arg[i]) && !strncmp(w, separate_arg[i], len))
					takes_arg = 1;
		}
		first = 0;
		if (why && (r = fn(ctx, w, len, why)) != 0)
			return r;
		w += len;
	}
	return 0;
}

struct policy_ctx {
	struct kb_conf *conf;
	const char *variant, *key;
	int line;
};

static int note_unsafe(void *ctx, const char *w, size_t len, const char *why)
{
	struct policy_ctx *pc = ctx;
	struct kb_conf *c = pc->conf;

	c->unsafe = kb_xrealloc(c->unsafe, (c->n_unsafe + 1) * sizeof(*c->unsafe));
	c->unsafe[c->n_unsafe++] = (struct kb_unsafe_flag){ kb_xstrdup(pc->variant), pc->key,
							    kb_xstrndup(w, len), why, pc->line };
	return 0;
}

static const struct kb_option options[] = {
	{ .name = "source", .section = KB_SEC_KERNEL, .type = KB_OPT_PATH, .off = KOFF(source),
	  .def = "/usr/src/linux-source-6.12.tar.xz", .check = kb_make_inert_path,
	  .help = "kernel source: a tarball (.tar.xz, .tar.gz, ...) or a source tree" },
	{ .name = "arch", .section = KB_SEC_KERNEL, .type = KB_OPT_CHOICE, .off = KOFF(arch),
	  .def = "i386", .allowed = { "i386", "x86_64" },
	  .help = "guest architecture (ARCH= for the kernel build)" },
	{ .name = "base", .section = KB_SEC_KERNEL, .type = KB_OPT_CHOICE, .off = KOFF(base),
	  .def = "tinyconfig", .allowed = { "tinyconfig", "defconfig" }, .check = kb_make_inert_path,
	  .help = "base configuration: a target (tinyconfig, defconfig), or a .config file (a lab's "
		  "own, for arch), before kbench's guest fragment and the variant's options" },
	{ .name = "fragment", .section = KB_SEC_KERNEL, .type = KB_OPT_PATH, .off = KOFF(fragment),
	  .check = kb_make_inert_path,
	  .help = "extra Kconfig fragment applied to every variant after the guest fragment" },
	{ .name = "cache", .section = KB_SEC_KERNEL, .type = KB_OPT_PATH, .off = KOFF(cache),
	  .check = kb_make_inert_path,
	  .help = "build cache (default $KBENCH_CACHE, else $XDG_CACHE_HOME/kbench, else ~/.cache/kbench)" },
	{ .name = "jobs", .section = KB_SEC_KERNEL, .type = KB_OPT_LONG, .off = KOFF(jobs),
	  .def = "0", .min = 0, .max = 1024,
	  .help = "make -j for kernel builds (0: number of online CPUs)" },
	{ .name = "builds_at_once", .section = KB_SEC_KERNEL, .type = KB_OPT_LONG,
	  .off = KOFF(builds_at_once), .def = "0", .min = 0, .max = 1024,
	  .help = "variants built at the same time, sharing one make jobserver of [kernel] jobs "
		  "(0: up to jobs; 1: one after another)" },
	{ .name = "build_timeout", .section = KB_SEC_KERNEL, .type = KB_OPT_LONG, .off = KOFF(build_timeout),
	  .def = "14400", .min = 60, .max = 7 * 86400,
	  .help = "seconds one step of a kernel build (make) may take before it is killed" },
	{ .name = "ccache", .section = KB_SEC_KERNEL, .type = KB_OPT_CHOICE, .off = KOFF(ccache),
	  .def = "auto", .allowed = { "auto", "on", "off" },
	  .help = "compile through ccache, kept in the build cache: a variant that differs from "
		  "a cached one in a few objects costs those and the link (auto: when installed)" },
	{ .name = "allow_dirty", .section = KB_SEC_KERNEL, .type = KB_OPT_ENUM, .off = KOFF(allow_dirty),
	  .def = "no", .allowed = { "no", "yes" },
	  .help = "source a git work tree with changes not committed (git status --porcelain not "
		  "empty): no refuses it; yes builds it, the build cache keyed by the commit and a "
		  "hash of the changes (git diff HEAD and the untracked files)" },
	{ .name = "unsafe_flags", .section = KB_SEC_KERNEL, .type = KB_OPT_ENUM, .off = KOFF(unsafe_flags),
	  .def = "no", .allowed = { "no", "yes" },
	  .help = "yes: take compiler flags (kcflags, cc, hybrid_cflags) that make the compiler "
		  "driver run or load another program, read options from a file or write outside "
		  "the build (-wrapper, -fplugin, -B, -specs, @FILE, -o, -Wa, and long options but "
		  "--param; cc must name gcc, clang or cc), which kbench otherwise refuses; the "
		  "report then lists each one taken" },

	{ .name = "accel", .section = KB_SEC_RUN, .type = KB_OPT_ENUM, .off = KOFF(accel),
	  .def = "auto", .allowed = { "auto", "kvm", "tcg" },	/* enum kb_accel's order */
	  .help = "QEMU accelerator; auto uses KVM only if a guest really makes progress under it" },
	{ .name = "boots", .section = KB_SEC_RUN, .type = KB_OPT_LONG, .off = KOFF(boots),
	  .def = "5", .min = 1, .max = 10000,
	  .help = "boots per variant: the unit of replication under a backend that measures time; "
		  "left out, 1 under a deterministic one (sim), whose boots give the same counts" },
	{ .name = "layouts", .section = KB_SEC_RUN, .type = KB_OPT_LONG, .off = KOFF(layouts),
	  .def = "1", .min = 1, .max = KB_MAX_LAYOUTS,
	  .help = "builds of each variant with identical flags: layout 0 as configured, layouts 1 "
		  "to N-1 with seeded padding in the kernel text (after the head objects and between "
		  "mm/ and fs/), so that code moves relative to the cache sets; each is booted like "
		  "a variant, and the build is then the unit of replication of the verdicts (needs a "
		  "tarball source: the padding is added to kbench's own copy)" },
	{ .name = "jobs", .section = KB_SEC_RUN, .type = KB_OPT_LONG, .off = KOFF(run_jobs),
	  .def = "0", .min = 0, .max = 1024,
	  .help = "boots at once under a backend whose counts do not depend on the machine's load "
		  "(sim); those that measure time boot one at a time (0: number of online CPUs)" },
	{ .name = "workloads", .section = KB_SEC_RUN, .type = KB_OPT_WORKLOADS, .off = KOFF(workloads),
	  .def = "all", .help = "comma-separated workloads to run in each boot, or 'all'" },
	{ .name = "samples", .section = KB_SEC_RUN, .type = KB_OPT_LONG, .off = KOFF(samples),
	  .def = "5", .min = 1, .max = 100000,
	  .help = "measured regions per workload per boot" },
	{ .name = "scale", .section = KB_SEC_RUN, .type = KB_OPT_DOUBLE, .off = KOFF(scale),
	  .def = "1.0", .max = 1000,
	  .help = "multiplier of each workload's default iteration count" },
	{ .name = "sweep", .section = KB_SEC_RUN, .type = KB_OPT_ULIST, .off = KOFF(sweep),
	  .def = "0,4,8,16,32,64,128", .min = 0, .max = KB_ICACHE_MAX_KIB,
	  .help = "KiB of straight-line user code between system calls, one icache sample per value" },
	{ .name = "timeout", .section = KB_SEC_RUN, .type = KB_OPT_LONG, .off = KOFF(timeout),
	  .def = "300", .min = 1, .max = 86400,
	  .help = "seconds one boot may take before QEMU is killed" },
	{ .name = "serial_limit", .section = KB_SEC_RUN, .type = KB_OPT_LONG, .off = KOFF(serial_limit),
	  .def = "8388608", .min = 4096, .max = 1L << 30,
	  .help = "bytes of serial output one boot may produce before it is stopped as a flood" },
	{ .name = "memory", .section = KB_SEC_RUN, .type = KB_OPT_LONG, .off = KOFF(memory),
	  .def = "128", .min = 32, .max = 3072, .help = "guest memory in MiB" },
	{ .name = "output", .section = KB_SEC_RUN, .type = KB_OPT_PATH, .off = KOFF(output),
	  .def = "results", .help = "directory that receives one run directory per run" },
	{ .name = "seed", .section = KB_SEC_RUN, .type = KB_OPT_U64, .off = KOFF(seed),
	  .def = "0", .help = "random seed for the boot order, the builds' padding and the virtual "
		  "layouts: the same seed, the same report (0: chosen from the clock and recorded, "
		  "and the report says its layouts were drawn at random)" },
	{ .name = "min_effect", .section = KB_SEC_RUN, .type = KB_OPT_DOUBLE, .off = KOFF(min_effect),
	  .def = "0.01", .max = 1,
	  .help = "smallest relative difference a verdict calls faster or slower (0.01: 1%): a "
		  "verdict reads the ratio's interval (at 1 - alpha over the cases): faster or slower "
		  "where it lies beyond 1 +- this margin and Holm's p is under alpha, equivalent where "
		  "it lies inside, else not distinguishable" },
	{ .name = "baseline", .section = KB_SEC_RUN, .type = KB_OPT_STR, .off = KOFF(baseline),
	  .help = "variant the others are compared with (default: the first)" },
	{ .name = "backend", .section = KB_SEC_RUN, .type = KB_OPT_STR, .off = KOFF(backend),
	  .def = "auto", .check = backend_check,
	  .help = "the primary backend, what measures each region (backends below); auto: the "
		  "first that works here" },
	{ .name = "host_counters", .section = KB_SEC_RUN, .type = KB_OPT_CHOICE, .off = KOFF(host_counters),
	  .def = "auto", .allowed = { "auto", "off", "hardware", "software" },
	  .help = "counters kbench reads on the QEMU vCPU thread around each region (backend clock): "
		  "hardware: backend pmu-host; software: backend host-sw; auto: hardware where it "
		  "works, else off" },
	{ .name = "executor", .section = KB_SEC_RUN, .type = KB_OPT_CHOICE, .off = KOFF(executor),
	  .def = "local", .allowed = {
#define KB_EXECUTOR(id, ops) #id,
#include "executors.def"
#undef KB_EXECUTOR
	  },
	  .help = "where builds and boots run: local (here), or slurm (each build and each boot a "
		  "Slurm job; results and the build cache on a filesystem every node sees)" },

	{ .name = "description", .section = KB_SEC_VARIANT, .type = KB_OPT_STR, .off = VOFF(description),
	  .help = "one line shown in the report" },
	{ .name = "config", .section = KB_SEC_VARIANT, .type = KB_OPT_KOPTS, .off = VOFF(kopts),
	  .help = "Kconfig options, e.g. CC_OPTIMIZE_FOR_SIZE=y; several per line or several lines" },
	{ .name = "kcflags", .section = KB_SEC_VARIANT, .type = KB_OPT_FLAGS, .off = VOFF(kcflags),
	  .help = "extra compiler flags, passed to make as KCFLAGS" },
	{ .name = "cc", .section = KB_SEC_VARIANT, .type = KB_OPT_FLAGS, .off = VOFF(cc),
	  .help = "compiler, passed to make as CC" },
	{ .name = "ld", .section = KB_SEC_VARIANT, .type = KB_OPT_FLAGS, .off = VOFF(ld),
	  .help = "linker, passed to make as LD: ld.lld-19 or ld.lld links with LLVM's lld (an order "
		  "then as with GNU ld, by kbench's linker script rule); default: binutils' ld" },
	{ .name = "cmdline", .section = KB_SEC_VARIANT, .type = KB_OPT_FLAGS, .off = VOFF(cmdline),
	  .help = "extra kernel command line for this variant's boots, e.g. clearcpuid=11 "
		  "(the same built kernel, booted differently)" },
	{ .name = "bzimage", .section = KB_SEC_VARIANT, .type = KB_OPT_PATH, .off = VOFF(bzimage),
	  .help = "prebuilt kernel image (with vmlinux): no build" },
	{ .name = "vmlinux", .section = KB_SEC_VARIANT, .type = KB_OPT_PATH, .off = VOFF(vmlinux),
	  .help = "the vmlinux that goes with bzimage" },
	{ .name = "hybrid", .section = KB_SEC_VARIANT, .type = KB_OPT_FLAGS, .off = VOFF(hybrid),
	  .check = hybrid_check,
	  .help = "A B PATH...: a hybrid kernel, built as variant A with the objects under each "
		  "PATH (a directory of the kernel tree, an object such as kernel/fork.o, or '.' "
		  "for all) compiled exactly as variant B compiled them (its recorded commands); A "
		  "and B come earlier in the file and their .configs may differ only in the "
		  "optimization level (kbench explain builds these)" },
	{ .name = "hybrid_cflags", .section = KB_SEC_VARIANT, .type = KB_OPT_FLAGS,
	  .off = VOFF(hy_cflags),
	  .help = "with hybrid: every object compiled under the paths takes B's command with these "
		  "flags appended (A may then be B itself): one compiler flag set as in another "
		  "variant (kbench explain --by-flag builds these)" },
	{ .name = "order", .section = KB_SEC_VARIANT, .type = KB_OPT_PATH, .off = VOFF(order),
	  .help = "a function order (kbench order writes one): the variant built without it, then "
		  "the objects that define its functions compiled again with -ffunction-sections "
		  "and the kernel's linker script placing the functions it names first in the "
		  "text, in its order (a tarball or git work tree: kbench's own copy of the tree "
		  "gets the hook)" },

	{ .name = "text", .section = KB_SEC_CLAIM, .type = KB_OPT_STR, .off = COFF(text),
	  .help = "the claim in one sentence, as it was made; the report opens with it" },
	{ .name = "source", .section = KB_SEC_CLAIM, .type = KB_OPT_STR, .off = COFF(source),
	  .help = "where it was made: an article, a commit, a mailing-list post" },
	{ .name = "date", .section = KB_SEC_CLAIM, .type = KB_OPT_STR, .off = COFF(date),
	  .check = date_check, .help = "when it was made: YYYY, YYYY-MM or YYYY-MM-DD" },
	{ .name = "smaller", .section = KB_SEC_CLAIM, .type = KB_OPT_PREDICTION,
	  .help = "'A vs B': variant A's text is smaller than B's (binutils size; a difference "
		  "under min_effect is not distinguishable)" },
	{ .name = "faster", .section = KB_SEC_CLAIM, .type = KB_OPT_PREDICTION,
	  .help = "'A vs B [on CASES]': A costs less than B on the primary metric in every case "
		  "named (CASES: workloads, cases such as icache/k=32, or all, the default), by "
		  "the verdicts of the speed tables" },
	{ .name = "slower", .section = KB_SEC_CLAIM, .type = KB_OPT_PREDICTION,
	  .help = "'A vs B [on CASES]': A costs more than B in every case named" },
	{ .name = "not_faster", .section = KB_SEC_CLAIM, .type = KB_OPT_PREDICTION,
	  .help = "'A vs B [on CASES]': A costs no less than B: slower, equivalent or the same in "
		  "every case named (\"-Os is not the answer\")" },
	{ .name = "layout_sensitive", .section = KB_SEC_CLAIM, .type = KB_OPT_PREDICTION,
	  .help = "'A vs B [on CASES]': A and B differ only in where code lands (an alignment "
		  "flag), and that alone moves the cost; supported only where a case is faster or "
		  "slower under layout control (with one layout, a difference is not "
		  "distinguishable)" },
};

static const char *const section_names[] = { "kernel", "run", "variant NAME", "claim" };

const char *kb_conf_section_name(enum kb_opt_section s)
{
	return section_names[s];
}

/* Every option: the core table, then each executor's [run] keys, then each
 * backend's. */
#define optref kb_conf_option

const struct kb_conf_option *kb_conf_options(size_t *n)
{
	static struct optref all[KB_MAX_OPTIONS];
	static size_t nall;
	const struct kb_executor *const *es;
	const struct kb_backend *const *bs;
	size_t nb, ne;

	if (nall) {
		*n = nall;
		return all;
	}
	for (size_t i = 0; i < KB_ARRAY_SIZE(options); i++)
		all[nall++] = (struct optref){ &options[i], NULL, NULL };
	es = kb_executors(&ne);
	for (size_t e = 0; e < ne; e++)
		for (const struct kb_option *o = es[e]->options; o && o->name; o++) {
			if (nall == KB_MAX_OPTIONS)
				abort();	/* raise KB_MAX_OPTIONS */
			all[nall++] = (struct optref){ o, NULL, es[e] };
		}
	bs = kb_backends(&nb);
	for (size_t b = 0; b < nb; b++)
		for (const struct kb_option *o = bs[b]->options; o && o->name; o++) {
			if (nall == KB_MAX_OPTIONS)
				abort();	/* raise KB_MAX_OPTIONS */
			all[nall++] = (struct optref){ o, bs[b], NULL };
		}
	*n = nall;
	return all;
}

/* The struct an option writes into. */
static void *option_base(struct kb_conf *c, struct kb_variant *v, const struct optref *r)
{
	if (r->owner)
		return c->backend_opts[kb_backend_index(r->owner)];
	if (r->executor)
		return c->executor_opts[kb_executor_index(r->executor)];
	if (r->o->section == KB_SEC_CLAIM)
		return &c->claim;
	return r->o->section == KB_SEC_VARIANT ? (void *)v : (void *)c;
}

static const char *const workload_names[] = {
#define KB_WORKLOAD(name, kind, iters, help) #name,
#include "../../workloads/workloads.def"
#undef KB_WORKLOAD
};

/* Parser state: inih gives no line numbers, so the reader counts them and
 * tracks section headers itself (it also sees sections with no keys). */
#define NO_SECTION_YET (-2)

struct parse {
	struct kb_conf *conf;
	FILE *f;
	int line;
	int errors;
	int sec_kind;			/* enum kb_opt_section; -1 after a bad header; NO_SECTION_YET */
	struct kb_variant *variant;	/* current [variant NAME] */
	char seen[KB_SEC_LAST + 1];			/* [kernel], [run], [claim] seen */
	unsigned char set[KB_MAX_OPTIONS]; /* per section: key given (by optref index) */
	char text[KB_CONF_LINE_MAX + 2];	/* the line as read, and its '\n' */
	const char *value;		/* a key line's value, as written; else NULL */
	int overriding;			/* a --set: its key replaces the file's */
};

static int perr(struct parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int perr(struct parse *p, const char *fmt, ...)
{
	va_list ap;
	char *msg, *where;

	va_start(ap, fmt);
	msg = kb_xvasprintf(fmt, ap);
	va_end(ap);
	where = kb_conf_where(p->conf, p->line);
	kb_eprint("%s: %s", where, msg);
	free(where);
	free(msg);
	p->errors++;
	return 1;	/* keep inih going: report every problem */
}

size_t kb_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *row = kb_xcalloc(lb + 1, sizeof(*row));
	size_t d;

	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (tolower((unsigned char)a[i - 1]) !=
					      tolower((unsigned char)b[j - 1]));

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

const char *kb_closest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	size_t bestd = (size_t)-1;

	for (size_t i = 0; i < n; i++) {
		size_t d = kb_edit_distance(word, cands[i]);

		if (d < bestd) {
			bestd = d;
			best = cands[i];
		}
	}
	return bestd <= 2 + strlen(word) / 4 ? best : NULL;
}

static int valid_variant_name(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 64 || s[0] == '.' || s[0] == '-')
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
			return 0;
	return 1;
}

static char *absolute(const struct kb_conf *conf, const char *path)
{
	if (path[0] == '/')
		return kb_xstrdup(path);
	if (path[0] == '~' && path[1] == '/' && getenv("HOME"))
		return kb_xasprintf("%s%s", getenv("HOME"), path + 1);
	return kb_xasprintf("%s/%s", conf->dir, path);
}

/* A Kconfig symbol's name, without CONFIG_: as the kernel spells them. */
static int valid_kopt_name(const char *name)
{
	return *name && strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(name);
}

static int valid_kopt_value(const char *v)
{
	size_t n = strlen(v);

	if (!strcmp(v, "y") || !strcmp(v, "n") || !strcmp(v, "m"))
		return 1;
	if (n >= 2 && v[0] == '"' && v[n - 1] == '"')
		return strcspn(v + 1, "\"$`\\\n") == n - 2;
	if (!strncmp(v, "0x", 2) && n > 2)
		return strspn(v + 2, "0123456789abcdefABCDEF") == n - 2;
	if (v[0] == '-')
		v++, n--;
	return n > 0 && strspn(v, "0123456789") == n;
}

static int parse_kopts(struct parse *p, struct kb_variant *v, const char *value)
{
	char *copy = kb_xstrdup(value), *save = NULL;

	for (char *tok = strtok_r(copy, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
		char *eq = strchr(tok, '='), *name = tok;

		if (!eq || eq == tok || !eq[1]) {
			perr(p, "variant '%s': config entry '%s' is not NAME=VALUE", v->name, tok);
			continue;
		}
		*eq = '\0';
		if (!strncmp(name, "CONFIG_", 7))
			name += 7;
		if (!valid_kopt_name(name)) {
			perr(p, "variant '%s': '%s' is not a Kconfig symbol name", v->name, tok);
			continue;
		}
		if (!valid_kopt_value(eq + 1)) {
			perr(p, "variant '%s': CONFIG_%s: bad value '%s' (y, n, m, a number or a quoted string)",
			     v->name, name, eq + 1);
			continue;
		}
		for (size_t i = 0; i < v->n_kopts; i++)
			if (!strcmp(v->kopts[i].name, name)) {
				perr(p, "variant '%s': CONFIG_%s given twice", v->name, name);
				goto next;
			}
		v->kopts = kb_xrealloc(v->kopts, (v->n_kopts + 1) * sizeof(*v->kopts));
		v->kopts[v->n_kopts].name = kb_xstrdup(name);
		v->kopts[v->n_kopts].value = kb_xstrdup(eq + 1);
		v->n_kopts++;
next:
		;
	}
	free(copy);
	return 0;
}

/* "A vs B" or "A vs B on CASES": names checked here, whether they exist
 * once the whole file is read (check_claim). */
static int parse_prediction(struct parse *p, const struct kb_option *o, struct kb_claim_conf *cl,
			    const char *value)
{
	char *copy = kb_xstrdup(value), *w[3] = { NULL }, *save = NULL, *tok, *cases = NULL, *list;
	struct kb_prediction *x;
	size_t n = 0;
	int kind;

	for (kind = 0; kind < KB_PRED_KINDS && strcmp(o->name, kb_pred_kind_name(kind)); kind++)
		;
	for (tok = strtok_r(copy, " \t", &save); tok && n < 3; tok = strtok_r(NULL, " \t", &save))
		w[n++] = tok;
	if (n == 3 && tok && !strcmp(tok, "on"))
		cases = save;
	if (n != 3 || strcmp(w[1], "vs") || (tok && !cases) || (cases && !*(cases + strspn(cases, " \t")))) {
		free(copy);
		return perr(p, "[claim] '%s': '%s' is not 'A vs B'%s", o->name, value,
			    kind == KB_PRED_SMALLER ? "" : " or 'A vs B on CASES'");
	}
	if (cases && kind == KB_PRED_SMALLER) {
		free(copy);
		return perr(p, "[claim] 'smaller': text size is one figure per kernel: no case list");
	}
	if (!valid_variant_name(w[0]) || !valid_variant_name(w[2])) {
		perr(p, "[claim] '%s': '%s' and '%s' must be variant names", o->name, w[0], w[2]);
		free(copy);
		return 1;
	}
	if (!strcmp(w[0], w[2])) {
		perr(p, "[claim] '%s': variant '%s' against itself", o->name, w[0]);
		free(copy);
		return 1;
	}
	if (cases) {
		/* kept as "a,b,c": the manifest and the report list them so */
		char *s2 = NULL;
		size_t len = 0;

		list = kb_xcalloc(1, strlen(cases) + 1);
		for (tok = strtok_r(cases, " \t,", &s2); tok; tok = strtok_r(NULL, " \t,", &s2))
			len += (size_t)sprintf(list + len, "%s%s", len ? "," : "", tok);
	} else {
		list = kb_xstrdup("all");
	}
	/* the same prediction twice would be counted twice in the claim's word */
	for (size_t i = 0; i < cl->n_preds; i++) {
		const struct kb_prediction *y = &cl->preds[i];

		if ((int)y->kind == kind && !strcmp(y->a, w[0]) && !strcmp(y->b, w[2]) &&
		    !strcmp(y->cases, list)) {
			perr(p, "[claim] '%s': '%s' is the prediction of line %d again", o->name, value,
			     y->line);
			free(list);
			free(copy);
			return 1;
		}
	}
	cl->preds = kb_xrealloc(cl->preds, (cl->n_preds + 1) * sizeof(*cl->preds));
	x = &cl->preds[cl->n_preds++];
	x->kind = (enum kb_pred_kind)kind;
	x->a = kb_xstrdup(w[0]);
	x->b = kb_xstrdup(w[2]);
	x->line = p->line;
	x->cases = list;
	free(copy);
	return 0;
}

/* The workloads a [run] workloads value names ("all", or names separated
 * by commas or blanks), counted in chosen; each problem, in words, to
 * bad(ctx, words).  0, or -1 after at least one. */
static int workloads_chosen(const char *value, unsigned char *chosen,
			    void (*bad)(void *ctx, const char *words), void *ctx)
{
	char *copy = kb_xstrdup(value), *save = NULL, *msg;
	int ret = 0, any = 0;

	for (char *tok = strtok_r(copy, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
		size_t i;

		any = 1;
		if (!strcmp(tok, "all")) {
			for (i = 0; i < KB_ARRAY_SIZE(workload_names); i++)
				chosen[i]++;
			continue;
		}
		for (i = 0; i < KB_ARRAY_SIZE(workload_names); i++)
			if (!strcmp(tok, workload_names[i]))
				break;
		if (i < KB_ARRAY_SIZE(workload_names)) {
			chosen[i]++;
			continue;
		}
		const char *s = kb_closest(tok, workload_names, KB_ARRAY_SIZE(workload_names));

		msg = s ? kb_xasprintf("unknown workload '%s' (did you mean '%s'?)", tok, s)
			: kb_xasprintf("unknown workload '%s'", tok);
		bad(ctx, msg);
		free(msg);
		ret = -1;
	}
	free(copy);
	for (size_t i = 0; i < KB_ARRAY_SIZE(workload_names); i++) {
		if (chosen[i] > 1) {
			msg = kb_xasprintf("workload '%s' listed twice", workload_names[i]);
			bad(ctx, msg);
			free(msg);
			ret = -1;
		}
	}
	if (!any) {
		bad(ctx, "empty workload list");
		ret = -1;
	}
	return ret;
}

static void workloads_perr(void *p, const char *words)
{
	perr(p, "%s", words);
}

static int parse_workloads(struct parse *p, char **dst, const char *value)
{
	unsigned char chosen[KB_ARRAY_SIZE(workload_names)] = { 0 };
	size_t cap = 1, len = 0;
	char *out;

	if (workloads_chosen(value, chosen, workloads_perr, p) < 0)
		return -1;
	for (size_t i = 0; i < KB_ARRAY_SIZE(workload_names); i++)
		cap += strlen(workload_names[i]) + 1;
	out = kb_xcalloc(1, cap);
	for (size_t i = 0; i < KB_ARRAY_SIZE(workload_names); i++)
		if (chosen[i])
			len += (size_t)snprintf(out + len, cap - len, "%s%s", len ? "," : "",
						workload_names[i]);
	free(*dst);
	*dst = out;
	return 0;
}

static void workloads_error(void *what, const char *words)
{
	kb_error("%s: %s", *(const char **)what, words);
}

int kb_conf_check_workloads(const char *what, const char *value)
{
	unsigned char chosen[KB_ARRAY_SIZE(workload_names)] = { 0 };

	return workloads_chosen(value, chosen, workloads_error, &what);
}

/* "0, 4,8": at most KB_SWEEP_MAX_POINTS distinct integers, kept as "0,4,8" */
static int parse_ulist(struct parse *p, const struct kb_option *o, char **dst, const char *value)
{
	char *copy = kb_xstrdup(value), *save = NULL, *out = kb_xcalloc(1, strlen(value) + 1);
	long seen[KB_SWEEP_MAX_POINTS];
	size_t n = 0, len = 0;
	int bad = 0;

	for (char *tok = strtok_r(copy, " \t,", &save); tok && !bad; tok = strtok_r(NULL, " \t,", &save)) {
		char *end;
		long v;

		errno = 0;
		v = strtol(tok, &end, 10);
		if (!isdigit((unsigned char)tok[0]) || *end || errno || v < o->min || v > o->max) {
			bad = perr(p, "'%s': '%s' is not an integer in [%ld, %ld]", o->name, tok,
				   o->min, o->max);
			break;
		}
		for (size_t i = 0; i < n; i++)
			if (seen[i] == v)
				bad = perr(p, "'%s': %ld given twice", o->name, v);
		if (!bad && n == KB_SWEEP_MAX_POINTS)
			bad = perr(p, "'%s': more than %d values", o->name, KB_SWEEP_MAX_POINTS);
		if (!bad) {
			seen[n++] = v;
			len += (size_t)sprintf(out + len, "%s%ld", len ? "," : "", v);
		}
	}
	if (!bad && !n)
		bad = perr(p, "'%s': empty list", o->name);
	free(copy);
	if (bad) {
		free(out);
		return 1;
	}
	free(*dst);
	*dst = out;
	return 0;
}

/* The string field of o takes v (malloc'd), once o's check passes: 0, or 1
 * after a message naming the value (v freed). */
static int set_checked(struct parse *p, const struct kb_option *o, void *field, char *v)
{
	const char *bad = o->check ? o->check(v) : NULL;

	if (bad) {
		perr(p, "'%s': '%s': %s", o->name, v, bad);
		free(v);
		return 1;
	}
	free(*(char **)field);
	*(char **)field = v;
	return 0;
}

static int set_option(struct parse *p, const struct kb_option *o, void *base, const char *value)
{
	void *field = (char *)base + o->off;
	size_t at;
	char *end;

	/* JSON, Markdown and HTML take UTF-8 only: a value that is not would
	 * be lost from the manifest and the report without a word */
	if (!kb_utf8_valid(value, &at))
		return perr(p, "'%s': not valid UTF-8 (byte 0x%02x at offset %zu)", o->name,
			    (unsigned char)value[at], at);
	switch (o->type) {
	case KB_OPT_FLAGS: {
		/* make passes these into the kernel's shell recipes: nothing a
		 * shell or make would expand may get through. */
		size_t bad = strspn(value, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					   "0123456789 _-=,.+:/@%");

		if (value[bad])
			return perr(p, "'%s': character '%c' not allowed (flags reach make and "
				    "the kernel's shell recipes; allowed: letters, digits, space and _-=,.+:/@%%)",
				    o->name, value[bad]);
		if (p->variant && (!strcmp(o->name, "kcflags") || !strcmp(o->name, "cc") ||
				   !strcmp(o->name, "hybrid_cflags"))) {
			struct policy_ctx pc = { p->conf, p->variant->name, o->name, p->line };

			/* refused in finish() unless [kernel] unsafe_flags = yes,
			 * which may come later in the file */
			flag_policy_each(value, !strcmp(o->name, "cc"), note_unsafe, &pc);
			if (!strcmp(o->name, "cc"))
				p->variant->cc_line = p->line;
		}
	}
	/* fall through */
	case KB_OPT_STR:
	case KB_OPT_PATH: {
		char *v;
		if (!*value)
			return perr(p, "'%s': missing value", o->name);

		v = o->type == KB_OPT_PATH ? absolute(p->conf, value) : kb_xstrdup(value);
		if (o->path_after && !strncmp(value, o->path_after, strlen(o->path_after)) &&
		    value[strlen(o->path_after)]) {
			char *path = absolute(p->conf, value + strlen(o->path_after));

			free(v);
			v = kb_xasprintf("%s%s", o->path_after, path);
			free(path);
		}
		return set_checked(p, o, field, v);
	}
	case KB_OPT_LONG: {
		long v;

		errno = 0;
		v = strtol(value, &end, 10);
		if (!*value || *end || errno)
			return perr(p, "'%s': '%s' is not an integer", o->name, value);
		if (v < o->min || v > o->max)
			return perr(p, "'%s': %ld is out of range [%ld, %ld]", o->name, v, o->min, o->max);
		*(long *)field = v;
		return 0;
	}
	case KB_OPT_U64: {
		unsigned long long v;

		/* decimal, as every other number here: "00042" is 42, not octal */
		errno = 0;
		v = strtoull(value, &end, 10);
		if (!*value || value[strspn(value, "0123456789")])
			return perr(p, "'%s': '%s' is not an unsigned decimal integer", o->name, value);
		if (errno)
			return perr(p, "'%s': %s is out of range [0, %llu]", o->name, value, ULLONG_MAX);
		*(unsigned long long *)field = v;
		return 0;
	}
	case KB_OPT_DOUBLE: {
		double v;

		errno = 0;
		v = strtod(value, &end);
		if (!*value || *end || errno)
			return perr(p, "'%s': '%s' is not a number", o->name, value);
		if (!(v > 0) || v > (double)o->max)
			return perr(p, "'%s': %g is out of range (0, %ld]", o->name, v, o->max);
		*(double *)field = v;
		return 0;
	}
	case KB_OPT_ENUM:
	case KB_OPT_CHOICE: {
		char list[128] = "";

		for (long i = 0; i < (long)KB_ARRAY_SIZE(o->allowed) && o->allowed[i]; i++) {
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i ? ", " : "", o->allowed[i]);
			if (strcmp(value, o->allowed[i]))
				continue;
			if (o->type == KB_OPT_ENUM) {
				*(long *)field = i;
			} else {
				free(*(char **)field);
				*(char **)field = kb_xstrdup(value);
			}
			return 0;
		}
		/* base: a target, else a file (an option with a check takes a path) */
		if (o->check && *value && (strchr(value, '/') || strchr(value, '.')))
			return set_checked(p, o, field, absolute(p->conf, value));
		return perr(p, "'%s': '%s' is not one of: %s%s", o->name, value, list,
			    o->check ? ", or a file (a path with '/' or '.')" : "");
	}
	case KB_OPT_WORKLOADS:
		parse_workloads(p, (char **)field, value);
		return 0;
	case KB_OPT_ULIST:
		return parse_ulist(p, o, (char **)field, value);
	case KB_OPT_KOPTS:
		return parse_kopts(p, base, value);
	case KB_OPT_PREDICTION:
		return parse_prediction(p, o, base, value);
	}
	return 0;
}

/* kbench reads the lines and inih parses what they hold.  Debian's libinih
 * takes lines of at most 200 bytes and cuts a value at " ;" (its inline
 * comments): a claim's sentence could not be given whole, and "a ; b" would
 * silently become "a".  So a key line reaches inih as "NAME=" alone, and the
 * handler takes its value from p->value: everything after the first '=' or
 * ':', as written, less the blanks around it. */
static char *reader(char *buf, int size, void *stream)
{
	struct parse *p = stream;
	char *line = fgets(p->text, sizeof(p->text), p->f);
	char *s, *close, *sep, *end;

	p->value = NULL;
	if (!line)
		return NULL;
	p->line++;
	snprintf(buf, (size_t)size, "\n");	/* blank, to inih, unless set below */
	/* a byte-order mark (editors on other systems write one) is no text */
	if (p->line == 1 && !strncmp(line, "\xef\xbb\xbf", 3))
		memmove(line, line + 3, strlen(line + 3) + 1);
	if (!strchr(line, '\n') && !feof(p->f)) {
		int c;

		perr(p, "line longer than %d bytes", KB_CONF_LINE_MAX);
		while ((c = fgetc(p->f)) != EOF && c != '\n')
			;
		return buf;
	}
	s = line + strspn(line, " \t");
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	if (!*s || *s == ';' || *s == '#')
		return buf;
	if (*s != '[') {
		size_t name_len;

		sep = s + strcspn(s, "=:");
		if (!*sep) {
			perr(p, "syntax error (expected 'key = value' or '[section]')");
			return buf;
		}
		for (name_len = (size_t)(sep - s); name_len && isspace((unsigned char)s[name_len - 1]); name_len--)
			;
		if ((int)name_len + 3 > size || memchr(s, ';', name_len)) {
			perr(p, "'%.*s': not a key", (int)(name_len > 40 ? 40 : name_len), s);
			return buf;
		}
		p->value = sep + 1 + strspn(sep + 1, " \t");
		snprintf(buf, (size_t)size, "%.*s=\n", (int)name_len, s);
		return buf;
	}
	close = strchr(s, ']');
	if (!close) {
		perr(p, "section header without ']'");
		p->sec_kind = -1;
		return buf;
	}
	*close = '\0';
	s++;
	p->variant = NULL;
	memset(p->set, 0, sizeof(p->set));
	if (!strcmp(s, "kernel") || !strcmp(s, "run") || !strcmp(s, "claim")) {
		int k = s[0] == 'k' ? KB_SEC_KERNEL : s[0] == 'r' ? KB_SEC_RUN : KB_SEC_CLAIM;

		if (p->seen[k])
			perr(p, "section [%s] given twice", s);
		p->seen[k] = 1;
		p->sec_kind = k;
		if (k == KB_SEC_CLAIM && !p->conf->claim.line)
			p->conf->claim.line = p->line;
	} else if (!strncmp(s, "variant", 7) && (s[7] == ' ' || s[7] == '\t' || !s[7])) {
		char *name = s + 7;
		struct kb_conf *c = p->conf;

		name += strspn(name, " \t");
		name[strcspn(name, " \t")] = '\0';
		p->sec_kind = KB_SEC_VARIANT;
		if (!*name) {
			perr(p, "[variant] needs a name: [variant NAME]");
			p->sec_kind = -1;
		} else if (!valid_variant_name(name)) {
			perr(p, "variant name '%s' cannot be a directory name (letters, digits, '.', '_', '-'; not starting with '.' or '-'; at most 64)", name);
			p->sec_kind = -1;
		} else if (kb_conf_variant(c, name)) {
			perr(p, "variant '%s' defined twice (first at line %d)", name,
			     kb_conf_variant(c, name)->line);
			p->sec_kind = -1;
		} else {
			c->variants = kb_xrealloc(c->variants, (c->n_variants + 1) * sizeof(*c->variants));
			p->variant = &c->variants[c->n_variants++];
			memset(p->variant, 0, sizeof(*p->variant));
			p->variant->name = kb_xstrdup(name);
			p->variant->line = p->line;
		}
	} else {
		const char *cands[] = { "kernel", "run", "variant", "claim" };
		const char *d = kb_closest(s, cands, 4);

		if (d)
			perr(p, "unknown section [%s] (did you mean [%s%s]?)", s, d,
			     !strcmp(d, "variant") ? " NAME" : "");
		else
			perr(p, "unknown section [%s] (sections: [kernel], [run], [variant NAME], [claim])", s);
		p->sec_kind = -1;
	}
	snprintf(buf, (size_t)size, "[x]\n");	/* the section itself is kept in p */
	return buf;
}

/* A key as given, under its section's name; given again (a repeatable
 * key: its section's entries are the last ones), one more line of its
 * value, the buffer doubled as it fills (a hostile file may repeat one key
 * for a megabyte). */
static void given(struct parse *p, const char *name, const char *value, int again)
{
	struct kb_conf *c = p->conf;
	char *key = p->sec_kind == KB_SEC_VARIANT ? kb_xasprintf("[variant %s] %s", p->variant->name, name)
		    : kb_xasprintf("[%s] %s", section_names[p->sec_kind], name);
	size_t vlen = strlen(value);

	for (size_t i = c->n_given; p->overriding && i-- > 0; ) {
		struct kb_conf_given *g = &c->given[i];

		if (strcmp(g->key, key))
			continue;
		free(g->value);
		*g = (struct kb_conf_given){ g->key, kb_xstrdup(value), vlen, vlen + 1 };
		free(key);
		return;
	}
	for (size_t i = c->n_given; again && i-- > 0; ) {
		struct kb_conf_given *g = &c->given[i];

		if (strcmp(g->key, key))
			continue;
		if (g->len + vlen + 2 > g->cap) {
			g->cap = 2 * (g->len + vlen + 2);
			g->value = kb_xrealloc(g->value, g->cap);
		}
		g->value[g->len++] = '\n';
		memcpy(g->value + g->len, value, vlen + 1);
		g->len += vlen;
		free(key);
		return;
	}
	c->given = kb_xrealloc(c->given, (c->n_given + 1) * sizeof(*c->given));
	c->given[c->n_given++] = (struct kb_conf_given){ key, kb_xstrdup(value), vlen, vlen + 1 };
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct parse *p = user;
	const char *cands[KB_MAX_OPTIONS];
	size_t nc = 0, n;
	const struct optref *all = kb_conf_options(&n);

	(void)section;
	if (p->value)
		value = p->value;
	if (p->sec_kind == NO_SECTION_YET)
		return perr(p, "'%s' before any section: keys belong in [kernel], [run], "
			    "[variant NAME] or [claim]", name);
	if (p->sec_kind < 0)
		return 1;	/* the header's error was reported already */
	for (size_t i = 0; i < n; i++) {
		const struct kb_option *o = all[i].o;

		if ((int)o->section != p->sec_kind)
			continue;
		cands[nc++] = o->name;
		if (strcmp(o->name, name))
			continue;
		if (p->set[i] && o->type != KB_OPT_KOPTS && o->type != KB_OPT_PREDICTION)
			return perr(p, "'%s' given twice in this section", name);
		given(p, name, value, p->set[i]);
		p->set[i] = 1;
		if (o->section != KB_SEC_VARIANT)
			p->conf->key_line[i] = p->line;
		if (!*value && o->type != KB_OPT_KOPTS)
			return perr(p, "'%s': missing value", name);
		set_option(p, o, option_base(p->conf, p->variant, &all[i]), value);
		return 1;
	}
	{
		const char *d = kb_closest(name, cands, nc);
		const char *where = p->sec_kind == KB_SEC_VARIANT ? p->variant->name : NULL;

		if (where && d)
			return perr(p, "variant '%s': unknown key '%s' (did you mean '%s'?)", where, name, d);
		if (where)
			return perr(p, "variant '%s': unknown key '%s'", where, name);
		if (d)
			return perr(p, "[%s]: unknown key '%s' (did you mean '%s'?)",
				     section_names[p->sec_kind], name, d);
		return perr(p, "[%s]: unknown key '%s'", section_names[p->sec_kind], name);
	}
}

/* Every backend and executor gets its options struct, and every key its
 * default. */
static void set_defaults(struct parse *p)
{
	const struct kb_executor *const *es;
	const struct kb_backend *const *bs;
	const struct optref *all;
	size_t n, nb, ne;

	bs = kb_backends(&nb);
	for (size_t b = 0; b < nb; b++)
		p->conf->backend_opts[b] = kb_xcalloc(1, bs[b]->opts_size);
	es = kb_executors(&ne);
	for (size_t e = 0; e < ne; e++)
		p->conf->executor_opts[e] = kb_xcalloc(1, es[e]->opts_size ? es[e]->opts_size : 1);
	all = kb_conf_options(&n);
	for (size_t i = 0; i < n; i++) {
		const struct kb_option *o = all[i].o;

		if (o->section != KB_SEC_VARIANT && o->def &&
		    set_option(p, o, option_base(p->conf, NULL, &all[i]), o->def))
			abort();	/* a bad default is a bug in the table */
	}
}

/* The tables as a whole: no key twice in a section, whoever owns it. */
static void check_table(void)
{
	size_t n;
	const struct optref *all;

	kb_backend_check_table();
	kb_executor_check_table();
	all = kb_conf_options(&n);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (all[i].o->section == all[j].o->section &&
			    !strcmp(all[i].o->name, all[j].o->name)) {
				kb_eprint("kbench: option '%s' defined twice", all[i].o->name);
				abort();
			}
}

/* A hybrid variant's A, B and paths (hybrid_check passed the characters). */
static void hybrid_parse(struct parse *p, struct kb_conf *c, size_t i)
{
	struct kb_variant *v = &c->variants[i];
	char *s = kb_xstrdup(v->hybrid), *save = NULL, *w;
	int n = 0;

	if (v->n_kopts || v->kcflags || v->cc || v->ld || v->bzimage)
		perr(p, "variant '%s': a hybrid takes its config, kcflags and cc from its variants A "
		     "and B; it cannot have its own", v->name);
	for (w = strtok_r(s, " ", &save); w; w = strtok_r(NULL, " ", &save), n++) {
		if (n < 2) {
			size_t j;

			for (j = 0; j < i && strcmp(c->variants[j].name, w); j++)
				;
			if (j == i) {
				perr(p, "variant '%s': hybrid: '%s' is not a variant defined before it",
				     v->name, w);
			} else if (c->variants[j].hybrid || c->variants[j].bzimage || c->variants[j].order) {
				/* an ordered variant is a hybrid of its own build: its
				 * objects are not those of its configuration alone */
				perr(p, "variant '%s': hybrid: '%s' is %s; A and B must be built from "
				     "source as configured", v->name, w,
				     c->variants[j].hybrid ? "a hybrid itself"
				     : c->variants[j].bzimage ? "prebuilt" : "ordered (order = FILE)");
			} else if (n == 0) {
				v->hy_a = j;
			} else if (j == v->hy_a && !v->hy_cflags) {
				perr(p, "variant '%s': hybrid: A and B are both '%s' (that is A, unless "
				     "hybrid_cflags changes B's commands)", v->name, w);
			} else {
				v->hy_b = j;
			}
			continue;
		}
		if (w[0] == '/' || !strcmp(w, "..") || !strncmp(w, "../", 3) || strstr(w, "/../") ||
		    (strlen(w) >= 3 && !strcmp(w + strlen(w) - 3, "/..")) || strstr(w, "//")) {
			perr(p, "variant '%s': hybrid: path '%s' must be relative to the kernel tree, "
			     "without '..' or '//'", v->name, w);
			continue;
		}
		v->hy_paths = kb_xrealloc(v->hy_paths, (v->n_hy_paths + 1) * sizeof(*v->hy_paths));
		if (!strcmp(w, ".") || !strcmp(w, "./"))
			v->hy_paths[v->n_hy_paths++] = kb_xstrdup("");
		else if (strlen(w) > 2 && !strcmp(w + strlen(w) - 2, ".o"))
			v->hy_paths[v->n_hy_paths++] = kb_xstrdup(w);
		else
			v->hy_paths[v->n_hy_paths++] = w[strlen(w) - 1] == '/' ? kb_xstrdup(w)
						       : kb_xasprintf("%s/", w);
	}
	free(s);
}

/* Whether word is in the comma-separated list. */
static int in_list(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *q = list; q && *q; q += strcspn(q, ",") + (q[strcspn(q, ",")] == ',')) {
		if (strcspn(q, ",") == n && !strncmp(q, word, n))
			return 1;
	}
	return 0;
}

/* A prediction's variant: one of the file's, else what it might be. */
static void claim_variant(struct parse *p, const struct kb_prediction *x, const char *name)
{
	const char *cands[64];
	size_t nc = 0;
	const char *d;

	if (kb_conf_variant(p->conf, name))
		return;
	for (size_t i = 0; i < p->conf->n_variants && nc < KB_ARRAY_SIZE(cands); i++)
		cands[nc++] = p->conf->variants[i].name;
	d = kb_closest(name, cands, nc);
	if (d)
		perr(p, "[claim] '%s': unknown variant '%s' (did you mean '%s'?)", kb_pred_kind_name(x->kind),
		     name, d);
	else
		perr(p, "[claim] '%s': unknown variant '%s' (not a [variant NAME] of this file)",
		     kb_pred_kind_name(x->kind), name);
}

/* A prediction's cases: all, or workloads the run has, or icache/k=K
 * of its sweep. */
static void claim_cases(struct parse *p, const struct kb_prediction *x)
{
	const struct kb_conf *c = p->conf;
	char *copy = kb_xstrdup(x->cases), *save = NULL;
	const char *kind = kb_pred_kind_name(x->kind);

	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const char *wl = tok, *d;
		char *k = strchr(tok, '/');

		if (!strcmp(tok, "all")) {
			if (strcmp(x->cases, "all"))
				perr(p, "[claim] '%s': 'all' is every case: no other beside it", kind);
			continue;
		}
		if (k) {
			*k = '\0';
			if (strcmp(tok, "icache") || strncmp(k + 1, "k=", 2) || !in_list(c->sweep, k + 3) ||
			    !*(k + 3)) {
				perr(p, "[claim] '%s': case '%s/%s' is not icache/k=K for a K of [run] sweep (%s)",
				     kind, tok, k + 1, c->sweep);
				continue;
			}
		}
		if (in_list(c->workloads, wl))
			continue;
		for (size_t i = 0; i < KB_ARRAY_SIZE(workload_names); i++)
			if (!strcmp(wl, workload_names[i])) {
				perr(p, "[claim] '%s': workload '%s' is not in [run] workloads (%s)", kind, wl,
				     c->workloads);
				goto next;
			}
		d = kb_closest(wl, workload_names, KB_ARRAY_SIZE(workload_names));
		if (d)
			perr(p, "[claim] '%s': unknown case '%s' (did you mean '%s'?)", kind, wl, d);
		else
			perr(p, "[claim] '%s': unknown case '%s' (a workload, icache/k=K or all)", kind, wl);
next:
		;
	}
	free(copy);
}

/* [claim] as a whole, once every variant and [run] key is known. */
static void check_claim(struct parse *p)
{
	struct kb_claim_conf *cl = &p->conf->claim;

	if (!cl->line)
		return;
	p->line = cl->line;
	if (!cl->text)
		perr(p, "[claim] needs 'text': the claim in one sentence");
	if (!cl->n_preds && !p->errors)	/* not after a prediction refused */
		perr(p, "[claim] predicts nothing kbench can check: give smaller, faster, slower, "
		     "not_faster or layout_sensitive = A vs B");
	for (size_t i = 0; i < cl->n_preds; i++) {
		const struct kb_prediction *x = &cl->preds[i];

		p->line = x->line;
		claim_variant(p, x, x->a);
		claim_variant(p, x, x->b);
		claim_cases(p, x);
	}
}

/* The flags outside the policy: refused at their line, or with [kernel]
 * unsafe_flags = yes kept for the report. */
static void check_flag_policy(struct parse *p)
{
	struct kb_conf *c = p->conf;

	if (c->unsafe_flags)
		return;
	for (size_t i = 0; i < c->n_unsafe; i++) {
		const struct kb_unsafe_flag *u = &c->unsafe[i];

		p->line = u->line;
		perr(p, "'%s': '%s': %s (refused unless [kernel] unsafe_flags = yes)", u->key, u->flag, u->why);
	}
}

/* cc names a compiler, as the compiler itself says: "gcc --version" names
 * the Free Software Foundation, clang's says "clang version". */
static void check_cc(struct parse *p)
{
	struct kb_conf *c = p->conf;

	for (size_t i = 0; i < c->n_variants; i++) {
		const struct kb_variant *v = &c->variants[i];
		char *prog, *out = NULL;
		int st, is_cc;

		/* a name that is not a compiler's is not run, unless allowed */
		if (!v->cc || (!c->unsafe_flags && !compiler_name(v->cc, strcspn(v->cc, " \t"))))
			continue;
		prog = kb_xstrndup(v->cc, strcspn(v->cc, " \t"));
		{
			char *argv[] = { prog, "--version", NULL };

			st = kb_capture(argv, KB_PROBE_DEADLINE, 4096, &out);
		}
		is_cc = st == 0 && (strstr(out, "Free Software Foundation") || strstr(out, "clang version"));
		if (!is_cc) {
			p->line = v->cc_line;
			if (st != 0)
				perr(p, "'cc': '%s' is not a compiler kbench can run ('%s --version' %s)", prog,
				     prog, st < 0 ? "did not finish" : st == 127 ? "found no such program" :
				     "failed");
			else
				perr(p, "'cc': '%s' is not gcc or clang (its --version says '%.*s')", prog,
				     (int)strcspn(out, "\n"), out);
		}
		free(out);
		free(prog);
	}
}

static void finish(struct parse *p)
{
	struct kb_conf *c = p->conf;

	p->line = 0;
	if (c->n_variants == 0) {
		kb_eprint("%s: no [variant NAME] section: nothing to build", c->path);
		p->errors++;
	}
	for (size_t i = 0; i < c->n_variants; i++) {
		struct kb_variant *v = &c->variants[i];

		p->line = v->line;
		if (!!v->bzimage != !!v->vmlinux)
			perr(p, "variant '%s': bzimage and vmlinux go together", v->name);
		if (v->cmdline && (!strncmp(v->cmdline, "kb_", 3) || strstr(v->cmdline, " kb_")))
			perr(p, "variant '%s': cmdline: kb_ parameters belong to kbench's guest runner", v->name);
		if (v->bzimage && (v->n_kopts || v->kcflags || v->cc || v->ld))
			perr(p, "variant '%s': a prebuilt bzimage cannot have config, kcflags or cc", v->name);
		if (v->order && (v->bzimage || v->hybrid))
			perr(p, "variant '%s': order: a %s kernel cannot be ordered; order a variant "
			     "built from source", v->name, v->bzimage ? "prebuilt" : "hybrid");
		if (v->hybrid)
			hybrid_parse(p, c, i);
		else if (v->hy_cflags)
			perr(p, "variant '%s': hybrid_cflags needs hybrid = A B PATH...", v->name);
		if (v->bzimage && c->layouts > 1) {
			p->line = kb_conf_key_line(c, KB_SEC_RUN, "layouts");
			perr(p, "'layouts': %ld, but variant '%s' is a prebuilt bzimage: kbench cannot "
			     "pad it (layouts = 1, or build it from source)", c->layouts, v->name);
		}
	}
	if (c->baseline && !kb_conf_variant(c, c->baseline)) {
		const char *cands[64], *d;
		size_t nc = 0;

		for (size_t i = 0; i < c->n_variants && nc < KB_ARRAY_SIZE(cands); i++)
			cands[nc++] = c->variants[i].name;
		d = kb_closest(c->baseline, cands, nc);
		p->line = kb_conf_key_line(c, KB_SEC_RUN, "baseline");
		if (d)
			perr(p, "'baseline': unknown variant '%s' (did you mean '%s'?)", c->baseline, d);
		else
			perr(p, "'baseline': unknown variant '%s' (not a [variant NAME] of this file)",
			     c->baseline);
	}
	if (!c->baseline && c->n_variants)
		c->baseline = kb_xstrdup(c->variants[0].name);
	check_claim(p);
	check_flag_policy(p);
	check_cc(p);
	if (!c->cache) {
		const char *why;

		c->cache = kb_default_cache_dir();
		why = kb_make_inert_path(c->cache);
		if (why) {
			kb_eprint("%s: the build cache '%s' (from $KBENCH_CACHE, $XDG_CACHE_HOME or "
				  "$HOME): %s", c->path, c->cache, why);
			p->errors++;
		}
	}
	if (c->jobs == 0 || c->run_jobs == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		if (c->jobs == 0)
			c->jobs = n > 0 ? n : 1;
		if (c->run_jobs == 0)
			c->run_jobs = n > 0 ? n : 1;
	}
}

int kb_conf_load(struct kb_conf *conf, const char *path)
{
	return kb_conf_load_dir(conf, path, NULL);
}

int kb_conf_load_dir(struct kb_conf *conf, const char *path, const char *dir)
{
	return kb_conf_load_set(conf, path, dir, NULL, 0);
}

/* What a --set replaces of its key's value in the file: a variant's
 * config entries (appended, else), and the flags of its key noted for the
 * policy (the new value's are noted as it is taken). */
static void set_forget(struct parse *p, const struct kb_option *o)
{
	struct kb_variant *v = p->variant;
	struct kb_conf *c = p->conf;
	size_t k = 0;

	if (!v)
		return;
	if (o->type == KB_OPT_KOPTS) {
		for (size_t i = 0; i < v->n_kopts; i++) {
			free(v->kopts[i].name);
			free(v->kopts[i].value);
		}
		v->n_kopts = 0;
	}
	for (size_t i = 0; i < c->n_unsafe; i++) {
		if (!strcmp(c->unsafe[i].variant, v->name) && !strcmp(c->unsafe[i].key, o->name)) {
			free(c->unsafe[i].variant);
			free(c->unsafe[i].flag);
			continue;
		}
		c->unsafe[k++] = c->unsafe[i];
	}
	c->n_unsafe = k;
}

/* The kth --set, "SECTION.KEY=VALUE", taken as that key of the file would
 * be (handler), in place of the file's value; its messages "--set SET: ...". */
static void apply_set(struct parse *p, size_t k)
{
	static const char *const secs[] = { "kernel", "run", "variant" };
	struct kb_conf *c = p->conf;
	const char *arg = c->sets[k], *eq = strchr(arg, '=');
	char *left, *dot, *last, *name = NULL, *key, *value;
	size_t n;
	const struct optref *all = kb_conf_options(&n);

	p->line = -(int)(k + 1);
	p->variant = NULL;
	p->sec_kind = -1;
	if (!eq)
		return (void)perr(p, "not SECTION.KEY=VALUE (no '=')");
	for (size_t j = 0; j < k; j++)
		if (!strncmp(c->sets[j], arg, (size_t)(eq - arg) + 1))
			return (void)perr(p, "'%.*s' given twice (first: --set %s)", (int)(eq - arg), arg,
					  c->sets[j]);
	left = kb_xstrndup(arg, (size_t)(eq - arg));
	dot = strchr(left, '.');
	last = strrchr(left, '.');
	if (!dot || !last[1]) {
		perr(p, "not SECTION.KEY=VALUE (SECTION kernel, run or variant.NAME)");
		goto out;
	}
	*dot = '\0';
	key = last + 1;
	if (last != dot) {
		*last = '\0';
		name = dot + 1;
	}
	if (!strcmp(left, "variant") && name) {
		p->variant = (struct kb_variant *)kb_conf_variant(c, name);
		if (!p->variant) {
			const char *cands[64], *d;
			size_t nc = 0;

			for (size_t i = 0; i < c->n_variants && nc < KB_ARRAY_SIZE(cands); i++)
				cands[nc++] = c->variants[i].name;
			d = kb_closest(name, cands, nc);
			if (d)
				perr(p, "unknown variant '%s' (did you mean '%s'?)", name, d);
			else
				perr(p, "unknown variant '%s' (not a [variant NAME] of %s)", name, c->path);
			goto out;
		}
		p->sec_kind = KB_SEC_VARIANT;
	} else if (!name && (!strcmp(left, "kernel") || !strcmp(left, "run"))) {
		p->sec_kind = left[0] == 'k' ? KB_SEC_KERNEL : KB_SEC_RUN;
	} else if (!strcmp(left, "variant")) {
		perr(p, "a variant's key is variant.NAME.KEY");
		goto out;
	} else if (!strcmp(left, "claim")) {
		perr(p, "[claim] is not set from the command line (SECTION kernel, run or variant.NAME)");
		goto out;
	} else if (!strcmp(left, "kernel") || !strcmp(left, "run")) {
		perr(p, "[%s] has no NAME: %s.KEY=VALUE", left, left);
		goto out;
	} else {
		const char *d = kb_closest(left, secs, KB_ARRAY_SIZE(secs));

		if (d)
			perr(p, "unknown section '%s' (did you mean '%s'?)", left, d);
		else
			perr(p, "unknown section '%s' (SECTION kernel, run or variant.NAME)", left);
		goto out;
	}
	/* the value as a file line gives it: less the blanks around it */
	value = kb_xstrdup(eq + 1 + strspn(eq + 1, " \t"));
	kb_rtrim(value);
	for (size_t i = 0; i < n; i++)
		if ((int)all[i].o->section == p->sec_kind && !strcmp(all[i].o->name, key))
			set_forget(p, all[i].o);
	memset(p->set, 0, sizeof(p->set));
	p->value = value;
	p->overriding = 1;
	handler(p, NULL, key, value);
	p->overriding = 0;
	p->value = NULL;
	free(value);
out:
	free(left);
}

int kb_conf_load_set(struct kb_conf *conf, const char *path, const char *dir,
		     const char *const *sets, size_t n_sets)
{
	struct parse p = { .conf = conf, .sec_kind = NO_SECTION_YET };
	struct stat st;
	char *slash;
	int ret, fd;

	check_table();
	memset(conf, 0, sizeof(*conf));
	conf->path = kb_xstrdup(path);
	slash = strrchr(conf->path, '/');
	if (dir) {
		conf->dir = kb_xstrdup(dir);
	} else if (slash) {
		char *d = kb_xstrndup(conf->path, (size_t)(slash - conf->path));

		conf->dir = realpath(*d ? d : "/", NULL);
		free(d);
	} else {
		conf->dir = realpath(".", NULL);
	}
	if (!conf->dir)
		conf->dir = kb_xstrdup(".");
	conf->sets = kb_xcalloc(n_sets + 1, sizeof(*conf->sets));
	for (conf->n_sets = 0; conf->n_sets < n_sets; conf->n_sets++)
		conf->sets[conf->n_sets] = kb_xstrdup(sets[conf->n_sets]);
	set_defaults(&p);
	fd = kb_open_regular(path, &st);
	if (fd < 0)
		return kb_error("cannot read '%s': %s", path, kb_file_strerror(fd));
	if (st.st_size > KB_CONF_MAX_BYTES) {
		close(fd);
		return kb_error("'%s': %lld bytes; a configuration is at most %d", path,
				(long long)st.st_size, KB_CONF_MAX_BYTES);
	}
	p.f = fdopen(fd, "r");
	if (!p.f)
		abort();
	ret = ini_parse_stream(reader, &p, handler, &p);
	fclose(p.f);
	if (ret > 0 && p.errors == 0) {
		p.line = ret;
		perr(&p, "syntax error (expected 'key = value' or '[section]')");
	} else if (ret < 0) {
		kb_eprint("%s: cannot parse (error %d)", path, ret);
		p.errors++;
	}
	for (size_t k = 0; k < conf->n_sets; k++)
		apply_set(&p, k);
	finish(&p);
	return p.errors ? -1 : 0;
}

const struct kb_variant *kb_conf_variant(const struct kb_conf *conf, const char *name)
{
	for (size_t i = 0; i < conf->n_variants; i++)
		if (!strcmp(conf->variants[i].name, name))
			return &conf->variants[i];
	return NULL;
}

/* ---- what the configuration names on disk ---- */

int kb_conf_key_line(const struct kb_conf *c, enum kb_opt_section sec, const char *key)
{
	size_t n;
	const struct kb_conf_option *all = kb_conf_options(&n);

	for (size_t i = 0; i < n; i++)
		if (all[i].o->section == sec && sec != KB_SEC_VARIANT && !strcmp(all[i].o->name, key))
			return c->key_line[i];
	return 0;
}

static void key_error(const struct kb_conf *c, enum kb_opt_section sec, const char *key,
		      const char *value, const char *why)
{
	int line = kb_conf_key_line(c, sec, key);
	char *where = kb_conf_where(c, line);

	if (line)
		kb_eprint("%s: '%s': '%s': %s", where, key, value, why);
	else
		kb_eprint("%s: '%s' (default '%s'): %s", c->path, key, value, why);
	free(where);
}

/* The fragment: a regular file kbench can read (else key_error, as for
 * the other paths), whose lines reach the kernel's .config, and from there
 * include/config/auto.conf, which make reads (a '$(...)' in a value would
 * run): each is blank, a comment, or CONFIG_NAME=VALUE with a value as
 * [variant] config allows. -1 after naming the first bad line. */
static int fragment_check(const struct kb_conf *conf)
{
	char *text = NULL;
	int r = kb_read_file_max(conf->fragment, &text, NULL, 1 << 20), ln = 0, ret = 0;

	if (r < 0) {
		key_error(conf, KB_SEC_KERNEL, "fragment", conf->fragment, kb_file_strerror(r));
		return -1;
	}
	/* strtok_r skips empty lines: count them from the text itself */
	for (char *l = text, *nl; l && *l && !ret; l = nl ? nl + 1 : NULL) {
		char *eq;

		nl = strchr(l, '\n');
		if (nl)
			*nl = 0;
		ln++;
		l += strspn(l, " \t");
		kb_rtrim(l);
		if (!*l || *l == '#')
			continue;
		eq = strchr(l, '=');
		if (eq)
			*eq = 0;
		if (strncmp(l, "CONFIG_", 7) || !eq || !valid_kopt_name(l + 7) ||
		    !valid_kopt_value(eq + 1)) {
			char *where = kb_conf_where(conf, kb_conf_key_line(conf, KB_SEC_KERNEL, "fragment"));

			kb_eprint("%s:%d: not a Kconfig line (CONFIG_NAME=VALUE, VALUE y, n, m, a number "
				  "or a \"string\" without $, `, \\ or \"; the fragment of %s)",
				  conf->fragment, ln, where);
			free(where);
			ret = -1;
		}
	}
	free(text);
	return ret;
}

/* The line of text that is exactly want (1-based), or 0. */
static int line_of(const char *text, const char *want)
{
	int ln = 1;
	size_t n = strlen(want);

	for (const char *l = text; *l; ln++) {
		size_t len = strcspn(l, "\n");

		if (len == n && !strncmp(l, want, n))
			return ln;
		l += len + (l[len] == '\n');
	}
	return 0;
}

/* [kernel] base as a file: a readable kernel .config for x86 of conf's
 * arch (its CONFIG_64BIT says which), else an error at base's line. */
static int base_check(const struct kb_conf *conf)
{
	char *text = NULL;
	int r = kb_read_file_max(conf->base, &text, NULL, 8 << 20), ln, ret = 0;
	int want64 = !strcmp(conf->arch, "x86_64");
	char *bl = kb_conf_where(conf, kb_conf_key_line(conf, KB_SEC_KERNEL, "base"));

	if (r < 0) {
		key_error(conf, KB_SEC_KERNEL, "base", conf->base, kb_file_strerror(r));
		free(bl);
		return -1;
	}
	if (!line_of(text, "CONFIG_X86=y")) {
		kb_eprint("%s: 'base': '%s' is not a kernel .config for x86 (no line CONFIG_X86=y)",
			  bl, conf->base);
		ret = -1;
	} else if ((ln = line_of(text, want64 ? "# CONFIG_64BIT is not set" : "CONFIG_64BIT=y")) ||
		   (ln = line_of(text, want64 ? "CONFIG_X86_32=y" : "CONFIG_X86_64=y"))) {
		int al = kb_conf_key_line(conf, KB_SEC_KERNEL, "arch");
		char *aw = al < 0 ? kb_conf_where(conf, al) : NULL;

		kb_eprint("%s: 'base': '%s' is a .config for %s (its line %d), but arch = %s (%s%.0d)",
			  bl, conf->base, want64 ? "i386" : "x86_64", ln, conf->arch,
			  aw ? aw : al ? "line " : "the default", al > 0 ? al : 0);
		free(aw);
		ret = -1;
	}
	free(bl);
	free(text);
	return ret;
}

/* NULL if path is, or can be made, a directory kbench writes in; else why. */
static const char *dir_usable(const char *path)
{
	char *p = kb_xstrdup(path), *slash;
	const char *why = NULL;
	struct statfs fs;
	struct stat st;
	int self = 1;

	while (stat(p, &st) < 0) {
		if (errno != ENOENT && errno != ENOTDIR) {
			why = strerror(errno);
			goto out;
		}
		slash = strrchr(p, '/');
		if (!slash) {
			why = "cannot be made";
			goto out;
		}
		slash[slash == p] = '\0';	/* keep "/" itself */
		self = 0;
	}
	if (!S_ISDIR(st.st_mode))
		why = self ? "is a file, not a directory" : "cannot be made: a parent is not a directory";
	else if (statfs(p, &fs) == 0 && (fs.f_type == PROC_SUPER_MAGIC || fs.f_type == SYSFS_MAGIC))
		why = "is in /proc or /sys, not a place for files";
	else if (access(p, W_OK | X_OK) < 0)
		why = errno == EROFS ? "is on a read-only filesystem" : "cannot be written (no permission)";
out:
	free(p);
	return why;
}

static int is_directory(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* NULL if path can be a kernel source: a tarball, or a directory (the
 * build looks for the tree in it); else why. */
static const char *source_usable(const char *path)
{
	static const struct {
		size_t off, len;
		const char *magic;
	} kinds[] = {
		{ 0, 6, "\xfd" "7zXZ\0" }, { 0, 2, "\x1f\x8b" }, { 0, 3, "BZh" },
		{ 0, 4, "\x28\xb5\x2f\xfd" }, { 257, 5, "ustar" },
	};
	unsigned char head[262] = { 0 };
	struct stat st;
	ssize_t n;
	int fd;

	if (stat(path, &st) < 0) {
		static char why[96];
		char *pkg;

		if (errno != ENOENT)
			return strerror(errno);
		pkg = kb_debian_source_package(path);
		if (!pkg)
			return "not found";
		snprintf(why, sizeof(why), "not found (Debian's package: apt-get install %s)", pkg);
		free(pkg);
		return why;
	}
	if (S_ISDIR(st.st_mode))
		return NULL;
	fd = kb_open_regular(path, NULL);
	if (fd < 0)
		return kb_file_strerror(fd);
	n = read(fd, head, sizeof(head));
	close(fd);
	for (size_t i = 0; i < KB_ARRAY_SIZE(kinds); i++)
		if (n >= (ssize_t)(kinds[i].off + kinds[i].len) &&
		    !memcmp(head + kinds[i].off, kinds[i].magic, kinds[i].len))
			return NULL;
	return "neither a tarball (xz, gzip, bzip2, zstd or tar) nor a directory";
}

int kb_conf_check_paths(const struct kb_conf *conf)
{
	const char *why;
	int bad = 0, fd;

	if ((why = dir_usable(conf->output)))
		key_error(conf, KB_SEC_RUN, "output", conf->output, why), bad = 1;
	if ((why = dir_usable(conf->cache)))
		key_error(conf, KB_SEC_KERNEL, "cache", conf->cache, why), bad = 1;
	if ((why = source_usable(conf->source)))
		key_error(conf, KB_SEC_KERNEL, "source", conf->source, why), bad = 1;
	else if (conf->layouts > 1 && is_directory(conf->source)) {
		char *where = kb_conf_where(conf, kb_conf_key_line(conf, KB_SEC_RUN, "layouts"));

		kb_eprint("%s: 'layouts': %ld, but [kernel] source '%s' is a tree kbench does not "
			  "own: layout replicas add padding objects to the source, which kbench does "
			  "only to its own copy of a tarball (give the tarball, or layouts = 1)",
			  where, conf->layouts, conf->source);
		free(where);
		bad = 1;
	}
	/* read once: a regular file, then its lines */
	if (conf->fragment && fragment_check(conf) < 0)
		bad = 1;
	if (kb_conf_base_is_file(conf) && base_check(conf) < 0)
		bad = 1;
	for (size_t i = 0; i < conf->n_variants; i++) {
		const struct kb_variant *v = &conf->variants[i];
		const char *const files[] = { v->bzimage, v->vmlinux, v->order };

		for (size_t k = 0; k < KB_ARRAY_SIZE(files); k++) {
			if (!files[k])
				continue;
			fd = kb_open_regular(files[k], NULL);
			if (fd >= 0) {
				close(fd);
				continue;
			}
			kb_eprint("%s:%d: variant '%s': '%s': %s", conf->path, v->line, v->name,
				files[k], kb_file_strerror(fd));
			bad = 1;
		}
	}
	return bad ? -1 : 0;
}

const void *kb_conf_backend_opts(const struct kb_conf *conf, const struct kb_backend *b)
{
	return conf->backend_opts[kb_backend_index(b)];
}

const void *kb_conf_executor_opts(const struct kb_conf *conf, const struct kb_executor *e)
{
	return conf->executor_opts[kb_executor_index(e)];
}

static int kb_option_owns_string(const struct kb_option *o)
{
	switch (o->type) {
	case KB_OPT_STR: case KB_OPT_FLAGS: case KB_OPT_PATH: case KB_OPT_WORKLOADS:
	case KB_OPT_ULIST: case KB_OPT_CHOICE:
		return 1;
	default:
		return 0;
	}
}

/* Free the strings an option struct owns (fields of section sec). */
static void free_fields(struct kb_conf *c, struct kb_variant *v, enum kb_opt_section sec)
{
	size_t n;
	const struct optref *all = kb_conf_options(&n);

	for (size_t i = 0; i < n; i++) {
		void *base;

		if (all[i].o->section != sec || !kb_option_owns_string(all[i].o))
			continue;
		base = option_base(c, v, &all[i]);
		if (!base)
			continue;
		free(*(char **)((char *)base + all[i].o->off));
		*(char **)((char *)base + all[i].o->off) = NULL;
	}
}

void kb_conf_release(struct kb_conf *conf)
{
	free_fields(conf, NULL, KB_SEC_KERNEL);
	free_fields(conf, NULL, KB_SEC_RUN);
	for (size_t i = 0; i < conf->n_variants; i++) {
		struct kb_variant *v = &conf->variants[i];

		free_fields(conf, v, KB_SEC_VARIANT);
		for (size_t k = 0; k < v->n_kopts; k++) {
			free(v->kopts[k].name);
			free(v->kopts[k].value);
		}
		free(v->kopts);
		for (size_t k = 0; k < v->n_hy_paths; k++)
			free(v->hy_paths[k]);
		free(v->hy_paths);
		free(v->name);
	}
	free_fields(conf, NULL, KB_SEC_CLAIM);
	for (size_t i = 0; i < conf->claim.n_preds; i++) {
		free(conf->claim.preds[i].a);
		free(conf->claim.preds[i].b);
		free(conf->claim.preds[i].cases);
	}
	free(conf->claim.preds);
	for (size_t i = 0; i < conf->n_unsafe; i++) {
		free(conf->unsafe[i].variant);
		free(conf->unsafe[i].flag);
	}
	free(conf->unsafe);
	for (size_t i = 0; i < conf->n_given; i++) {
		free(conf->given[i].key);
		free(conf->given[i].value);
	}
	free(conf->given);
	for (size_t i = 0; i < conf->n_sets; i++)
		free(conf->sets[i]);
	free(conf->sets);
	for (size_t b = 0; b < KB_N_BACKENDS; b++)
		free(conf->backend_opts[b]);
	for (size_t e = 0; e < KB_N_EXECUTORS; e++)
		free(conf->executor_opts[e]);
	free(conf->variants);
	free(conf->path);
	free(conf->dir);
	memset(conf, 0, sizeof(*conf));
}

static void help_option(FILE *f, const struct kb_option *o)
{
	fprintf(f, "  %-15s %s", o->name, o->help);
	if (o->def)
		fprintf(f, " (default: %s)", o->def);
	fputc('\n', f);
}

#define STR_(x) #x
#define STR(x) STR_(x)
const char kb_conf_syntax[] =
	"Each line is a [section], a 'key = value' (or 'key: value'), a blank, or a comment: "
	"a line whose first character, after blanks, is '#' or ';'. A value is the rest of its "
	"line as written, less the blanks around it: a ';' or '#' in it is part of the value, "
	"never a comment. A line is at most " STR(KB_CONF_LINE_MAX) " bytes, and a value is UTF-8.";

void kb_conf_help(FILE *f)
{
	const struct kb_executor *const *es;
	const struct kb_backend *const *bs;
	size_t nb, ne;

	fprintf(f, "%s\n\n", kb_conf_syntax);
	for (int s = KB_SEC_KERNEL; s <= KB_SEC_LAST; s++) {
		fprintf(f, "[%s]\n", section_names[s]);
		if (s == KB_SEC_CLAIM)
			fprintf(f, "  (optional: a claim made elsewhere; the report opens with \"Claim vs "
				"measured\", one line per prediction below, each supported, contradicted or "
				"not distinguishable; each prediction key may be given more than once)\n");
		for (size_t i = 0; i < KB_ARRAY_SIZE(options); i++)
			if ((int)options[i].section == s)
				help_option(f, &options[i]);
		es = kb_executors(&ne);
		for (size_t e = 0; e < ne; e++)
			for (const struct kb_option *o = es[e]->options; o && o->name; o++)
				if ((int)o->section == s)
					help_option(f, o);
	}
	fprintf(f, "\nbackends ([run] keys of each below it):\n");
	bs = kb_backends(&nb);
	for (size_t b = 0; b < nb; b++) {
		static const char *const roles[] = { "primary", "overlay", "stage" };

		fprintf(f, "%s (%s, %s): %s\n", bs[b]->name, roles[bs[b]->role],
			kb_figure_kind_name(bs[b]->source), bs[b]->help);
		for (const struct kb_option *o = bs[b]->options; o && o->name; o++)
			help_option(f, o);
	}
}
