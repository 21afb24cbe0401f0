/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_MODEL_H
#define KB_MODEL_H

/*
 * The one result model of a run (hyperfine's BenchmarkResult): every figure
 * of the report with the per-boot medians it came from.  It is filled in one
 * place, kb_model_load, from the run directory's files (each read once), and
 * every writer reads it and computes nothing: report.md and report.html
 * (through the section builders), summary.json (model-json.c, its one
 * serialization), summary.csv, variants/<name>/bloat-vs-<baseline>.txt and
 * kbench compare.
 *
 * summary.json, keys in this order; null where a figure does not exist (one
 * boot, no size), a key left out where a row has no such figure at all:
 *
 *   format (rundir.h's KB_RUNDIR_FORMAT: the layout of this summary),
 *   run_id, kernel{source, id, version, arch, base}, backend, accel, seed,
 *   baseline, confidence, alpha, resamples, outlier_z, deterministic,
 *   primary_metric, accel_why, host_cpu, workloads, scale, min_effect,
 *   layouts (built layouts), unit (the primary metric's replicates:
 *   "layout" or "boot"), test_unit (kb_unit_name of its tests),
 *   virtual_layouts (the most K of a metric, 0: none),
 *   torn_lines{samples, boots, timing, sim}
 *   ignored_samples {variant, layout, wrong_type, zero_iterations, negative,
 *                 not_integer}  (sample lines used in no figure, by why:
 *                 enum kb_ignored)
 *   dropped       {duplicate_samples, names{manifest, samples, boots,
 *                 timing, sim}}  (only where a line or a manifest variant
 *                 was dropped: see struct kb_model_dropped)
 *   variants[]    {name, status, flags, description, text, data, bss, text_change,
 *                  boots_ok, reason, text_delta, cached, build_seconds, key,
 *                  compiler, vmlinux}
 *   cases[]       case names, in the order the report shows them
 *   metrics[]     {name, field, label, unit, source (measured, simulated or
 *                  modeled), note, moves_with_layout, model (the machine
 *                  model it rests on, "LLVM skylake": only where there is
 *                  one, and then in label and unit too), cycle_model (true,
 *                  only on the run's models of cycles), replicates{unit
 *                  ("layout" with 2 or more built layouts or with virtual
 *                  layouts of the metric, else "boot"), test_unit
 *                  (kb_unit_name), built_layouts N, virtual_layouts K (the samples
 *                  give the field under K virtual layouts, "vl_<field>": sim's
 *                  L1i and L2 misses and modeled cycles; 0 for instructions
 *                  and time, which a layout does not change), per_variant
 *                  (N x (K + 1) with layouts, 0 with boots)}}
 *   results[]     {case, metric, variant, backend, boots, samples,
 *                  boot_ids[], boot_medians[], outlier_boots[],
 *                  outlier_samples, median, deterministic, ci[lo, hi],
 *                  -- with layouts --
 *                  layouts, layout_ids[] (the built layout of each
 *                  replicate), layout_medians[], range[lo, hi],
 *                  layout_virtual[] (where the metric has virtual layouts:
 *                  0 the built layout's own addresses, k its virtual layout
 *                  k; each (built, k) one replicate, its median over the
 *                  built layout's boots and samples), builds, build_ids[],
 *                  build_medians[] (per build, the median of its layouts:
 *                  the test's replicates with 2 or more builds),
 *                  ratio (the baseline's row: 1; null where infinite),
 *                  -- off the baseline, where both have replicates --
 *                  ratio_ci[lo, hi], test_unit, replicates[n, n_ref], u, p,
 *                  p_exact, p_min (u, p, p_min null: no test),
 *                  cliffs_delta, effect, identical_counts, difference,
 *                  noise (with layouts), superiority,
 *                  -- where p exists, after Holm over the cases --
 *                  p_holm, family,
 *                  verdict_level, verdict_ci[lo, hi],
 *                  verdict (faster, slower, same, not distinguishable,
 *                  equivalent, this layout only),
 *                  needed{replicates, unit, for} (not distinguishable),
 *                  -- the primary metric's rows, in a run of two or more
 *                  cycle models, where each gives a verdict --
 *                  model_robust (every cycle model gives this verdict),
 *                  verdicts_by_model{metric name: verdict}}
 *   robustness    {metrics[] (the cycle models, the primary first), judged,
 *                  flips, flipped[] {case, variant}}  (only in a run of two
 *                  or more cycle models: sim's model_cycles, mca_cycles,
 *                  mca_cycles_alt)
 *   caveats[]     sentences (hyperfine's warnings); caveat_ids[] says which
 *                 each is (kb_caveat_name: emulated_time, few_boots, ...)
 *   build_sensitive[] {case, variant, metric, builds, min, max, spread}
 *                 (instruction counts that change from build to build)
 *   seed_drawn    true (only where [run] seed = 0 had kbench draw it)
 *   correlation[] {metric, case, n, rho, p, smallest, fastest,
 *                  smallest_is_fastest, cheapest_tied}
 *   answer[]      {variant, line (the answer in one line: the terminal's
 *                  last, report.md's first), metric, source, model, text_change,
 *                  cases, faster, slower, same, equivalent,
 *                  not_distinguishable, geomean, geomean_ci[lo, hi],
 *                  geomean_cases, weighting ("cases equally"), flips (null
 *                  without two cycle models), fallback (null, or why
 *                  llvm-mca's cycles were not used)}  (per non-baseline
 *                  variant, primary metric)
 *   size_speed[]  {variant, text_change, smaller, faster, slower, same,
 *                  undecided, equivalent, answer (kb_answer_name: "smaller is faster",
 *                  ...)}  (primary metric, per non-baseline variant)
 *   claim_made    {text, source, date}  (only where variants.conf has [claim])
 *   claims[]      {kind (smaller, faster, slower, not_faster, layout_sensitive), a, b,
 *                  cases[] (as asked: "all" or names), backend ("size" for
 *                  smaller), figures (measured, simulated or modeled), word
 *                  (supported, contradicted, not distinguishable), why,
 *                  -- smaller -- text_a, text_b, text_change,
 *                  -- the others -- metric, layouts, own_tests, faster,
 *                  slower, same, not_distinguishable, equivalent, missing,
 *                  per_case[] {case, and a result's test figures: ratio,
 *                  ratio_ci, p_holm, verdict...}, by_model[] {metric, word}
 *                  (with two or more cycle models: the word under each;
 *                  word is supported or contradicted only where they all
 *                  say so)}  (one per prediction)
 *   boots         {ok, total, failed[] {variant, boot, status, reason, serial}}
 *   bloat[]       {variant, categories[] {what, add, remove, grow, shrink,
 *                  up, down, old_total, new_total, percent}, growers[],
 *                  shrinkers[] {name, old, new, delta} (old/new null where
 *                  the symbol is not in that kernel), full}  (per variant
 *                  other than the baseline whose symbols were read)
 *   executed_text[] {case, variant, text, executed, executed_change,
 *                  executed_share, functions, functions_change, samples}
 *                  (the sim backend's sim.jsonl, medians over samples)
 *   boot_timing   the same layout for the whole boots timed by hyperfine
 *                 (without kernel, torn_lines, boots, bloat and
 *                 executed_text), plus
 *                 timing[] {variant, status, reason, runs, warmup, ok,
 *                 failed, seconds, accel, json, log}  (timing.jsonl)
 */

#include <gsl/gsl_rng.h>
#include <jansson.h>
#include <stddef.h>

#include "backend.h"
#include "names.h"
#include "pool.h"
#include "pred.h"
#include "stats.h"

struct kb_model_opts {
	double level;		/* confidence of the intervals, 0.95 */
	double alpha;		/* significance of the verdicts, 1 - level */
	size_t resamples;	/* bootstrap resamples */
	double outlier_z;	/* modified z-score beyond which a value is marked */
	double min_effect;	/* smallest relative difference a verdict calls ([run]
				 * min_effect; a run's manifest overrides it) */
};
#define KB_MIN_EFFECT_DEFAULT 0.01
#define KB_MODEL_OPTS_INIT { 0.95, 0.05, 10000, 3.5, KB_MIN_EFFECT_DEFAULT }

enum kb_verdict {
	KB_VERDICT_NONE,	/* not tested: the baseline, or no data on a side */
	KB_VERDICT_FASTER,
	KB_VERDICT_SLOWER,
	KB_VERDICT_SAME,	/* identical deterministic counts */
	KB_VERDICT_UNDECIDED,	/* "not distinguishable" */
	KB_VERDICT_EQUIVALENT,	/* the ratio's interval inside 1 +- min_effect */
	KB_VERDICT_ONE_LAYOUT,	/* deterministic counts of a metric that moves with
				 * the layout, in one layout: untested */
	KB_VERDICT_N
};
/* "", "faster", "slower", "same", "not distinguishable", "equivalent",
 * "this layout only" */
const char *kb_verdict_name(enum kb_verdict v);

struct kb_model_kernel {
	const char *source, *id, *version, *arch, *base;
	/* the variants' slab allocator (manifest variants[].allocator): "SLUB",
	 * or where they differ "O2 SLUB, Os SLOB"; NULL: not recorded */
	const char *allocator;
};

/* A layout replica of a variant ([run] layouts), as the manifest records
 * its build: the same flags, padding of pad[] bytes in the text. */
struct kb_model_replica {
	long long layout, seed, pad[2];
	int has_size;
	long long text, data, bss;
	const char *status, *vmlinux;
};

struct kb_model_variant {
	const char *name, *status, *reason, *flags;
	const char *description;	/* [variant] description; "" when none */
	int in_manifest;		/* 0: only samples name it (status "unknown") */
	int has_size;
	long long text, data, bss;
	long long text_delta;		/* text - the baseline's (both sized), else 0 */
	double text_change;		/* text / the baseline's text - 1, or NAN */
	long long boots_ok;
	/* its build, as the manifest records it */
	int cached;
	double build_seconds;		/* NAN when not recorded */
	const char *key, *compiler, *vmlinux;
	/* its layout replicas, layout 0 included; none in a run without them */
	struct kb_model_replica *replicas;
	size_t nreplicas;
	/* [variant] order: the file (NULL: not ordered), what it says it was
	 * made by ("" where it does not say), and the cases its profile
	 * covered (manifest variants[].order.trained_on): trained_all where
	 * every case, else trained[ntrained]; order_training_known 0 where
	 * the file does not say */
	const char *order, *order_method, *order_profile_variant;
	int order_training_known, trained_all;
	const char **trained;
	size_t ntrained;
};

/* Whether case name is one variant v's order was trained on: 1 trained,
 * 0 held out, -1 where v is not ordered or its order does not say. */
int kb_model_trained(const struct kb_model_variant *v, const char *cas);

struct kb_metric {
	const char *name;		/* "ns_per_op", or "<field>_per_op" */
	const char *field;		/* the sample field; NULL for the time */
	const char *label, *unit, *note;	/* note: "" for none */
	enum kb_figure_kind source;
	/* its replicates: layouts (by_layout) where the run has 2 or more
	 * built layouts or the samples give this field under virtual layouts
	 * ("vl_<field>", the sim backend's), else boots */
	int by_layout;
	size_t virtual_layouts;		/* K: per built layout, K more replicates */
	int moves_with_layout;		/* where code lands changes it (misses, modeled
					 * cycles; the backend table says) */
	const char *model;		/* the machine model it rests on ("LLVM skylake"),
					 * also in its label and unit; "" for none */
	const char *bare_unit;		/* unit without the model: "mca_cycles/op" */
	int cycle_model;		/* one of the run's models of cycles (the
					 * backend table says): the robustness set */
};

/* What a test's replicates are: boots; builds (the built layouts, each
 * summarised over its virtual layouts); or, with one build, its layouts
 * (the built addresses and the virtual ones: "under simulated layouts of
 * one build"). */
enum kb_unit {
	KB_UNIT_BOOT,
	KB_UNIT_BUILD,
	KB_UNIT_VLAYOUT,
};
/* "boot", "build", "virtual layout" */
const char *kb_unit_name(enum kb_unit u);

/* One side's replicates (per-boot medians, or per-layout medians where the
 * run has layouts) against a reference's (the baseline, or run A in kbench
 * compare). */
struct kb_test {
	int done;			/* both sides had replicates: the figures below exist */
	enum kb_unit unit;		/* of the rank test and the interval's first stage */
	size_t n, n_ref;		/* replicates of each side in that unit */
	double ratio;			/* of the medians; 1 on the baseline's own row;
					 * +-inf where the reference's median is 0 */
	struct kb_interval ratio_ci;	/* at the model's level (95%): two-stage
					 * bootstrap, builds then layouts within */
	double difference;		/* median - the reference's median */
	double noise;			/* layouts: the larger range (max - min) of the
					 * two sides' layouts, in the metric's unit;
					 * NAN without layouts: a description, no gate */
	double superiority;		/* the share of pairs of layouts (or boots), one
					 * of each side, in which this side costs more
					 * (ties half): a description, no gate */
	double u, p, p_min, cliffs_delta;	/* p NAN: no test (identical
						 * deterministic counts, one layout) */
	int p_exact;
	const char *effect;		/* static */
	int identical_counts;		/* every replicate the same on both sides */
	int deterministic;		/* both sides from deterministic backends */
	int moves_with_layout;		/* set by the caller: the metric's */
	struct kb_tails tails;		/* of the ratio's bootstrap, until decided */
	/* Holm over its family (kb_model_decide) */
	int decided;
	double p_holm;
	size_t family;
	/* the interval the verdict reads: at 1 - alpha / family (Bonferroni,
	 * so that it agrees with Holm), the ratio itself where nothing varies */
	double family_level;
	struct kb_interval verdict_ci;
	/* not distinguishable: the replicates a side (in unit) that would decide
	 * it at the observed effect and spread (the interval's half-width scaled
	 * as one over the root of the replicates, and the rank test's needs);
	 * 0: none would, -1: not estimated */
	long long needed;
	enum kb_verdict needed_for;	/* what those would give: slower, faster
					 * or equivalent */
	enum kb_verdict verdict;
};

/* Whether a verdict holds under each of the run's cycle models. */
enum kb_robust {
	KB_ROBUST_UNJUDGED,	/* another metric, the baseline, or no verdict under one */
	KB_ROBUST_SAME,		/* every cycle model gives the same verdict */
	KB_ROBUST_FLIPS,	/* the verdict flips with the model */
};

/* A variant's figures of one metric in one case. */
struct kb_row {
	size_t cas, metric, variant;	/* indexes into the model's arrays */
	size_t boots;			/* boots with a value */
	long long samples;
	long long *boot_ids;		/* [boots], increasing */
	double *boot_medians;		/* [boots] */
	long long *outlier_boots;
	size_t n_outlier_boots;
	long long outlier_samples;
	double median;			/* over the replicates (boots, or layouts) */
	struct kb_interval ci;
	/* layouts (the model's unit is the layout): per layout, the median of
	 * its boots' samples pooled */
	int by_layout;			/* the model has layouts: these are set */
	size_t layouts;
	long long *layout_ids;		/* [layouts], increasing: the built layout */
	long long *layout_virtual;	/* [layouts]: 0 the built layout's own addresses,
					 * k its virtual layout k (increasing within one) */
	double *layout_medians;
	/* builds: per built layout, the median of its layouts' medians (the
	 * replicates of the test where the model has 2 or more builds) */
	int by_build;			/* the model has 2 or more built layouts */
	size_t builds;
	long long *build_ids;		/* [builds], increasing */
	double *build_medians;
	size_t *build_start;		/* [builds + 1]: build i's layouts in layout_* */
	double lo, hi;			/* the layouts' range (or the boots') */
	double build_spread;		/* (max - min) / |median| of the builds' medians;
					 * NAN with fewer than 2 builds */
	struct kb_test t;
	/* the primary metric's row, in a run of two or more cycle models
	 * (the model's robust[]): whether each of them gives its verdict */
	enum kb_robust robust;
};
/* A row's replicates for the rank test: its builds' medians where the
 * model has 2 or more builds, else its layouts' (one build's, virtual
 * ones included) in a model with layouts, else its boots'. */
const double *kb_row_reps(const struct kb_row *r, size_t *n);
/* The unit of those replicates. */
enum kb_unit kb_row_unit(const struct kb_row *r);
/* The two levels the ratio's interval resamples: builds, each with its
 * layouts; one build with its layouts; or each boot alone. */
void kb_row_nested(const struct kb_row *r, struct kb_nested *out);

struct kb_correlation {
	size_t metric, cas, n;
	double rho, p;
	size_t smallest, fastest;	/* variant indexes */
	int smallest_is_fastest;	/* no variant costs less than the smallest */
	size_t cheapest_tied;		/* other variants that cost exactly the least */
};

/* What a variant's verdicts say about the claim "smaller is faster". */
enum kb_answer {
	KB_ANSWER_NO_DATA,		/* no case was judged */
	KB_ANSWER_SAME_SIZE,		/* no size, or the same: nothing to say */
	KB_ANSWER_SMALLER_FASTER,	/* smaller and faster in every case: yes */
	KB_ANSWER_LARGER_FASTER,
	KB_ANSWER_SMALLER_SLOWER,	/* smaller and slower in every case: no */
	KB_ANSWER_LARGER_SLOWER,
	KB_ANSWER_UNDECIDED,		/* no case tells the two apart */
	KB_ANSWER_MIXED,		/* faster in some cases, slower in others */
	KB_ANSWER_EQUIVALENT,		/* every case equivalent or the same */
	/* slower (faster) in some cases and faster (slower) in none, the others
	 * equivalent, the same or not distinguishable */
	KB_ANSWER_SMALLER_SLOWER_WHERE,	/* no */
	KB_ANSWER_LARGER_SLOWER_WHERE,
	KB_ANSWER_SMALLER_FASTER_WHERE,	/* yes, where it differs */
	KB_ANSWER_LARGER_FASTER_WHERE,
};
/* "no data", "same size", "smaller is faster", ... "mixed", "equivalent",
 * "smaller is slower where it differs", ... */
const char *kb_answer_name(enum kb_answer a);

struct kb_claim {
	size_t variant;
	double text_change;
	long long cases;		/* judged: faster + slower + same + undecided + equivalent */
	long long faster, slower, same, undecided, equivalent;
	enum kb_answer answer;
	/* the size of the answer: the geometric mean over the cases of the
	 * primary metric's ratio to the baseline, each case weighed equally,
	 * with its interval at the model's level from the verdicts' two-stage
	 * bootstrap (kb_stats_bootstrap_geomean_nested); NAN where no case
	 * has a positive ratio on both sides */
	double geomean;
	struct kb_interval geomean_ci;
	size_t geomean_cases;		/* the cases it is over */
	size_t flips;			/* its verdicts that flip with the cycle model */
	/* the answer in one line (kb_model_answer_line): the terminal's last,
	 * report.md's first, summary.json's answer[].line */
	const char *line;
};

/* The answer for claim c in one line, in the model's pool: "Os vs O2: text
 * -34.3% (measured); mca_cycles (modeled, LLVM skylake): slower in 14 of
 * 19 cases, faster in none; geometric mean x1.160 [1.120, 1.200] (95%; 19
 * cases, each weighed equally); 6 verdicts depend on the cycle model." */
struct kb_model;
const char *kb_model_answer_line(struct kb_model *m, const struct kb_claim *c);

/* Claim vs measured: what variants.conf's [claim] predicted, judged by the
 * figures above (kb_model_claim).  One word per prediction, never stronger
 * than the verdicts it rests on. */
enum kb_word {
	KB_WORD_UNDISTINGUISHED,	/* "not distinguishable" */
	KB_WORD_SUPPORTED,
	KB_WORD_CONTRADICTED,
};
/* "not distinguishable", "supported", "contradicted" */
const char *kb_word_name(enum kb_word w);

/* One case of a speed prediction: A against B on the primary metric. */
struct kb_pred_case {
	size_t cas;
	struct kb_test t;	/* the row's where B is the baseline; else a test of the
				 * pair, Holm over the prediction's cases */
};

struct kb_pred {
	enum kb_pred_kind kind;
	const char *a, *b;		/* variant names as the claim gives them */
	size_t va, vb;			/* their indexes; nv where the run has no such variant */
	const char **asked;		/* the cases as asked: "all", or case and workload names */
	size_t nasked;
	const char *backend;		/* what measured: the run's backend; "size" for smaller */
	enum kb_figure_kind source;	/* of the figures behind the word */
	size_t metric;			/* the primary metric (not for smaller) */
	/* smaller: text sizes as binutils size gives them */
	int has_size;
	long long text_a, text_b;
	double text_change;		/* text_a / text_b - 1, or NAN */
	/* faster, slower, layout_sensitive */
	struct kb_pred_case *per_case;
	size_t ncases;
	int own_tests;			/* B is not the baseline: the tests were made for A vs B */
	long long faster, slower, same, undecided, equivalent;
	long long missing;		/* cases asked for that no row of both has */
	enum kb_word word;
	const char *why;		/* kbench's own words: what decided the word */
	/* the word under each cycle model (the model's robust[], the primary
	 * first), where the run has two or more: word is supported or
	 * contradicted only where they all say so */
	enum kb_word *by_model;
	size_t nby_model;
};

struct kb_claim_check {
	const char *text, *source, *date;	/* text NULL: the run states no claim */
	struct kb_pred *preds;
	size_t npreds;
};

/* hyperfine's warnings: what limits the figures, each with its advice. */
enum kb_caveat_id {
	KB_CAVEAT_EMULATED_TIME,	/* time under TCG */
	KB_CAVEAT_DETERMINISTIC,	/* more boots repeat the same counts */
	KB_CAVEAT_FEW_BOOTS,		/* no p-value can be small enough */
	KB_CAVEAT_OUTLIERS,
	KB_CAVEAT_FAILED_BOOTS,
	KB_CAVEAT_FEW_VARIANTS,		/* rank correlation by construction */
	KB_CAVEAT_TIMING_PARTIAL,	/* some whole boots failed */
	KB_CAVEAT_TIMING_FAILED,	/* no whole boot timed */
	KB_CAVEAT_UNSAFE_FLAGS,		/* [kernel] unsafe_flags = yes */
};
const char *kb_caveat_name(enum kb_caveat_id id);

struct kb_caveat {
	enum kb_caveat_id id;
	const char *text;		/* the sentence */
};

struct kb_boot {
	const char *variant, *status, *reason, *serial;
	long long boot;
	const char *node;	/* executor = slurm: the node it ran on */
};

/* timing.jsonl: how one variant's whole-boot timing went. */
struct kb_timing {
	const char *variant, *status, *reason, *accel, *json, *log;
	long long runs, warmup, ok, failed;
	double seconds;
	double other_cpu;		/* other processes' share of the CPU, or NAN */
};

/* Whether the machine was otherwise idle while kbench timed boots: other
 * processes' share of its CPU time during each (hostload.h), measured. */
struct kb_host_other {
	size_t n;			/* boots (or timings) that recorded it */
	double median, max;
};

/* bloat-o-meter's counts for one kind of symbol. */
struct kb_bloat_category {
	const char *what;		/* "functions", "data", "read-only data" */
	size_t add, remove, grow, shrink;
	unsigned long long up, down, old_total, new_total;
	double percent;
};

struct kb_bloat_change {
	const char *name;
	unsigned long long old_size, new_size;
	int in_old, in_new;
	long long delta;
};

#define KB_MODEL_BLOAT_TOP 20

/* One variant's symbols against the baseline's. */
struct kb_bloat_figures {
	size_t variant;
	struct kb_bloat_category cat[3];
	struct kb_bloat_change *growers, *shrinkers;	/* biggest first */
	size_t n_growers, n_shrinkers;
	const char *full_path;		/* run-relative; NULL: no place to write it */
	const char *full_text;		/* bloat-o-meter's whole output (not in summary.json) */
};

/* Executed text (sim.jsonl): medians over a variant's samples of one case. */
struct kb_exec_row {
	const char *cas;
	size_t variant;
	double executed;		/* distinct kernel text bytes executed */
	double executed_change;		/* against the baseline's, or NAN */
	double executed_share;		/* of the variant's text, or NAN */
	double functions;		/* bytes of the functions that ran, or NAN */
	double functions_change;
	size_t samples;
};

/* The miss-o-meter (miss-o-meter.h) of one case, one variant against the
 * baseline: the functions whose instructions or L1i misses per operation
 * changed most (sim.jsonl; simulated). */
struct kb_miss_row;
#define KB_MISS_TOP_INS		3	/* functions each way by instructions */
#define KB_MISS_TOP_MISS	2	/* and by L1i misses */
#define KB_MISS_TOP_CYCLES	3	/* and by modeled cycles, either way */
#define KB_MISS_KEPT	(2 * KB_MISS_TOP_INS + KB_MISS_TOP_MISS + KB_MISS_TOP_CYCLES)
struct kb_miss_model {
	const char *cas;
	size_t variant;
	double ins_k[2], miss_k[2];	/* per operation: the baseline's, the variant's */
	double cyc_k[2];		/* modeled cycles of the kernel's blocks; NAN: none */
	const char *cycles_model;	/* the rows' cyc: "LLVM ... -mcpu=skylake", or NULL */
	size_t changed;			/* functions whose figures changed */
	const struct kb_miss_row *rows;	/* the largest changes, growers first */
	size_t n;
	/* an ordered variant: the functions its order names that ran in
	 * either kernel (moved_n; -1: the variant is not ordered) and the sums
	 * of their changes per operation */
	long moved_n;
	double moved_d_ins, moved_d_miss, moved_d_cyc;
};

/* The functions whose modeled cycles per operation grow while their
 * instructions do not (miss-o-meter.h, kb_miss_cycles_top): one variant
 * against the baseline, over every case. */
struct kb_miss_cyc;
struct kb_cyc_model {
	size_t variant;
	const struct kb_miss_cyc *rows;	/* largest growth first */
	size_t n;
};

/* The prediction of an ordered kernel for one unordered variant and case
 * (sim_virtual_placement = order:FILE): per operation, [0] the kernel's
 * L1i misses (simulated) and [1] the cycles of the verdicts' cycle model
 * (modeled), each the median over the variant's samples: as built (own),
 * where the order would put its code (pred), and those of the variant
 * built with the order from the same configuration and flags (ordered,
 * variant built; built -1 and NAN where the run has none). */
struct kb_pred_row {
	const char *cas;
	size_t variant;
	long built;
	double own[2], pred[2], ordered[2];
	/* the same of layout 0 alone, the builds as configured: in a run
	 * with layout replicas, each variant's are padded with draws of its
	 * own, so only layout 0 is the same kernel but for the order */
	double pred0[2], ordered0[2];
};

/* What the model left out of a run directory, besides torn lines. */
struct kb_model_dropped {
	long duplicates;		/* sample lines whose (boot, case, rep) came before */
	struct {
		long manifest;		/* manifest.json's variants and workloads */
		long samples, boots, timing, sim;	/* lines */
	} names;			/* a name that is not plain (kb_model_name_ok) */
};

/* Why a sample line was ignored: it is used in no figure, and counted
 * (kb_model_load).  A line is counted once, for the first of these. */
enum kb_ignored {
	KB_IGNORED_VARIANT,	/* a variant the manifest does not list */
	KB_IGNORED_LAYOUT,	/* a built layout its variant's replicas (or the
				 * manifest's layouts) do not list, or more
				 * virtual layouts than its sim.virtual_layouts */
	KB_IGNORED_TYPE,	/* a value of the wrong type: a count as a string,
				 * a boot, rep or layout that is not an integer */
	KB_IGNORED_ITERATIONS,	/* zero iterations */
	KB_IGNORED_NEGATIVE,	/* a negative count, iteration count or time */
	KB_IGNORED_FRACTION,	/* a count that is not an integer (1e308, 2.5) */
	KB_IGNORED_N
};
/* summary.json's key: "variant", "layout", "wrong_type", "zero_iterations",
 * "negative", "not_integer" */
const char *kb_ignored_name(enum kb_ignored why);

struct kb_model {
	struct kb_pool pool;		/* everything below lives here */
	const char *run_id, *backend, *accel, *accel_why, *host_cpu;
	struct kb_model_kernel kernel;
	const char *workloads;		/* the run's, comma-separated */
	double scale;			/* NAN when not recorded */
	unsigned long long seed;
	int seed_drawn;			/* [run] seed = 0: drawn from the clock for this run */
	const char *unsafe_flags;	/* [kernel] unsafe_flags = yes: what it let through; else NULL */
	const char *baseline_name;
	size_t baseline;		/* its index, or nv when it has no variant */
	struct kb_model_opts o;
	int deterministic;		/* every sample from a deterministic backend */
	size_t primary;			/* the metric verdicts are about */
	/* why the run's backend fell back from llvm-mca's cycles to its own
	 * model (the manifest's <backend>.mca.missing), or NULL */
	const char *cycles_fallback;
	/* the run's models of cycles (metrics with cycle_model), the primary
	 * first, where it is one and there are two or more (else none): a
	 * verdict is robust where each gives it (kb_row.robust) */
	size_t *robust;
	size_t nrobust;
	size_t robust_judged, robust_flips;	/* primary rows judged, and flipping */
	size_t nlayouts;		/* distinct built layouts the samples name ("layout");
					 * >= 2: the layout is the unit of replication */
	size_t virtual_layouts;		/* the most virtual layouts a metric has (K), 0: none */

	struct kb_model_variant *variants;
	size_t nv, nv_manifest;
	const char **cases;
	size_t nc;
	struct kb_metric *metrics;
	size_t nm;
	struct kb_row *rows;		/* nc * nm * nv: case, then metric, then variant */
	size_t nrows;
	struct kb_correlation *corr;
	size_t ncorr;
	struct kb_claim *claims;
	size_t nclaims;
	struct kb_claim_check stated;	/* variants.conf's [claim], judged */
	struct kb_caveat *caveats;
	size_t ncaveats;
	struct kb_build_sensitive *sensitive;	/* cases, then variants */
	size_t nsensitive;

	size_t boots_ok, boots_total;
	const char *boots_why;		/* manifest run.boots_why, "" if not recorded */
	long boots_per_variant;		/* 0 when not recorded; of each layout replica */
	long layouts;			/* manifest layouts: builds of each variant (1 if absent) */
	long boots_at_once;		/* 0 when not recorded */
	struct kb_host_other host_other;	/* the measuring boots */
	struct kb_boot *failed_boots;
	size_t n_failed_boots;
	struct kb_boot *node_boots;	/* boots that name their Slurm node, in file order */
	size_t n_node_boots;
	struct {
		long samples, boots, timing, sim;
	} torn;				/* lines skipped as torn or invalid */
	struct kb_model_dropped dropped;
	long ignored[KB_IGNORED_N];	/* sample lines, by why */

	struct kb_bloat_figures *bloat;
	size_t nbloat;
	struct kb_exec_row *exec;
	size_t nexec;
	struct kb_miss_model *miss;	/* per variant off the baseline, then case */
	size_t nmiss;
	const char *cycles_model;	/* the miss-o-meter's modeled cycles, or NULL */
	const char *cycles_why;		/* NULL, or why some or all are missing */
	struct kb_cyc_model *cyc;	/* per variant off the baseline */
	size_t ncyc;

	/* [run] sim_virtual_placement = order:FILE (model-predict.c): the
	 * order (NULL: none), the cycle field predicted beside the L1i
	 * misses, and a row per unordered variant and case predicted */
	const char *pred_order, *pred_cycles;
	struct kb_pred_row *pred;
	size_t npred;

	struct kb_model *boot_timing;	/* whole boots (hyperfine), or NULL */
	struct kb_timing *timing;	/* in boot_timing: timing.jsonl */
	size_t ntiming;
};

/* The model of a run directory: manifest.json, samples.jsonl, boots.jsonl,
 * timing.jsonl, sim.jsonl and each variant's vmlinux, each read once, the
 * JSON-lines files line by line (model-read.c): memory grows with the
 * figures kept, not with the files.  NULL after a message (a file that is
 * not a regular one, a run too large to report). */
struct kb_model *kb_model_load(const char *run_dir, const struct kb_model_opts *o);
/* The statistics part from parsed files (borrowed): what kb_model_load
 * builds before it adds timing, symbols and executed text.  NULL after a
 * message. */
struct kb_model *kb_model_build(json_t *manifest, json_t *samples, json_t *boots,
				const struct kb_model_opts *o);
void kb_model_free(struct kb_model *m);
/* Part of kb_model_load (model-bloat.c): the bloat figures from each
 * variant's vmlinux and the executed text from sim.jsonl.  Unreadable
 * kernels are left out: a run copied without them still has a model.
 * 0, or -errno after a message (a sim.jsonl that cannot be read). */
int kb_model_symbols(struct kb_model *m, const char *run_dir);

/* Most rows (cases * metrics * variants) a model holds: a crafted run
 * directory cannot make the report allocate without bound. */
#define KB_MODEL_MAX_ROWS (1 << 17)

/* Row x against row base: sets every figure of t up to the verdict (the
 * caller sets t->deterministic and t->moves_with_layout first).  rng seeds
 * the bootstrap. */
void kb_model_versus(struct kb_test *t, const struct kb_row *x, const struct kb_row *base, gsl_rng *rng,
		     const struct kb_model_opts *o);
/* Holm over each family (the tests of equal family[i]) of the tests that
 * have a p-value, then each one's interval at 1 - alpha / (its family's
 * size) and its verdict: slower where Holm's p is under alpha and that
 * interval lies above 1 + min_effect, faster where it lies below
 * 1 - min_effect, equivalent where it lies inside 1 +- min_effect, else
 * not distinguishable (with the replicates that would decide it). */
void kb_model_decide(struct kb_test *const *t, const size_t *family, size_t n,
		     const struct kb_model_opts *o);

/* A case and variant whose instruction counts change from build to build
 * by more than min_effect (kb_model_build_spread): its row of the metric
 * that spreads most. */
struct kb_build_sensitive {
	size_t cas, variant;
	const struct kb_row *row;
	double spread;
};

/* The unit of the tests of metric k: builds, one build's layouts, or boots. */
enum kb_unit kb_model_unit(const struct kb_model *m, size_t k);

/* Look-ups by name: an index (n when there is none) or a row (or NULL). */
size_t kb_model_variant(const struct kb_model *m, const char *name);
size_t kb_model_case(const struct kb_model *m, const char *name);
size_t kb_model_metric(const struct kb_model *m, const char *name);
const struct kb_row *kb_model_row(const struct kb_model *m, size_t cas, size_t metric, size_t variant);
const struct kb_row *kb_model_find(const struct kb_model *m, const char *cas, const char *metric,
				   const char *variant);
/* The row's timing.jsonl line (a boot_timing model), or NULL. */
const struct kb_timing *kb_model_timing(const struct kb_model *m, const char *variant);

/* summary.json: the model serialized (model-json.c); a new reference. */
json_t *kb_model_json(const struct kb_model *m);
/* A test's figures added to a JSON object (the baseline's row: only its
 * ratio): summary.json's rows and kbench compare --json share them. */
void kb_model_json_test(json_t *row, const struct kb_test *t, int reference);
/* A figure (null where it does not exist) and an array of them. */
json_t *kb_model_json_num(double v);
json_t *kb_model_json_reals(const double *v, size_t n);

/* The verdicts in the order a count of them is said ("faster 1, slower 0,
 * ..."): the first KB_VERDICTS_ALWAYS always, the others where any is. */
#define KB_VERDICTS_SAID 6
#define KB_VERDICTS_ALWAYS 4
extern const enum kb_verdict kb_verdicts_said[KB_VERDICTS_SAID];

/* Variant v's verdicts on the primary metric, counted by verdict
 * (indexed by enum kb_verdict): on the cases its order was not trained on
 * (held[], *nheld of them) and on those it was (trained[], *ntrained).
 * 0, or -1 where v is not ordered or its order does not say what trained
 * it (then nothing is counted). */
int kb_model_order_split(const struct kb_model *m, size_t v, size_t held[KB_VERDICT_N], size_t *nheld,
			 size_t trained[KB_VERDICT_N], size_t *ntrained);

#endif
