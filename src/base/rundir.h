/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The run directory's records, shared by every writer and reader of them so
 * that the two cannot drift (as proto.h is for the serial protocol): the
 * names of its files, the keys of each record, and the one function that
 * packs each record kbench writes whole.  results/README.md says what each
 * key means.
 *
 * The format number is in manifest.json and summary.json; a run directory
 * without one is format 0 (a run from before it was written), read as it
 * always was.  Raise it when a reader of this kbench would misread a run of
 * the next; kbench report and compare refuse a newer one.
 */
#ifndef KB_RUNDIR_H
#define KB_RUNDIR_H

#include <jansson.h>

#include "accel.h"

#define KB_RUNDIR_FORMAT	1
#define KB_RD_FORMAT		"format"

/* the files */
#define KB_RD_MANIFEST		"manifest.json"
#define KB_RD_SUMMARY		"summary.json"
#define KB_RD_SAMPLES		"samples.jsonl"	/* one line per measured sample */
#define KB_RD_BOOTS		"boots.jsonl"	/* one line per measuring boot */
#define KB_RD_TIMING		"timing.jsonl"	/* hyperfine: one line per timed variant */
#define KB_RD_SIM		"sim.jsonl"	/* sim: one line per measured region */

/* keys of a sample (samples.jsonl), in the order a line holds them; boots,
 * timing and sim lines name their variant and boot with the same keys */
#define KB_RD_VARIANT		"variant"
#define KB_RD_LAYOUT		"layout"	/* absent: 0 */
#define KB_RD_BOOT		"boot"		/* the run's boot id */
#define KB_RD_VBOOT		"vboot"		/* the variant's boot number */
#define KB_RD_WORKLOAD		"workload"
#define KB_RD_CASE		"case"		/* workload, or workload/k=K */
#define KB_RD_REP		"rep"
#define KB_RD_ITERATIONS	"iterations"
#define KB_RD_NS		"ns"
#define KB_RD_NS_PER_OP		"ns_per_op"
#define KB_RD_BACKEND		"backend"
#define KB_RD_ACCEL		"accel"
#define KB_RD_FIELDS		"fields"	/* the backends' counts, by name */

/* keys of a boot (boots.jsonl) and of a timed variant (timing.jsonl) besides those */
#define KB_RD_STATUS		"status"
#define KB_RD_REASON		"reason"
#define KB_RD_SECONDS		"seconds"
#define KB_RD_SAMPLES_N		"samples"
#define KB_RD_GARBLED		"garbled"
#define KB_RD_REJECTED		"rejected"
#define KB_RD_GUEST_ERRORS	"guest_errors"
#define KB_RD_SERIAL_BYTES	"serial_bytes"
#define KB_RD_SERIAL		"serial"
#define KB_RD_FIRST_REJECTED	"first_rejected"
#define KB_RD_PMU		"pmu"
#define KB_RD_GUEST_TSC_KHZ	"guest_tsc_khz"
#define KB_RD_HOST_OTHER_CPU	"host_other_cpu"
#define KB_RD_NODE		"node"
#define KB_RD_SLURM_JOB		"slurm_job"
#define KB_RD_RUNS		"runs"
#define KB_RD_WARMUP		"warmup"
#define KB_RD_OK		"ok"
#define KB_RD_FAILED		"failed"
#define KB_RD_JSON		"json"
#define KB_RD_LOG		"log"
/* timing.jsonl: each timed boot's place in the stage's interleaved order
 * (1 = first), parallel to the variant's hyperfine times */
#define KB_RD_SEQUENCE		"sequence"

/* keys of a sim region (sim.jsonl) besides those of a sample; its counters
 * are named by sim.h's kb_sim_counter_names */
#define KB_RD_REGION		"region"
#define KB_RD_MODEL_CYCLES	"model_cycles"
/* the region's block cycles under sim_cpu and sim_cpu_alt (LLVM's machine
 * model, misses not included): mca_cycles and mca_cycles_alt less their
 * miss penalties, before rounding */
#define KB_RD_MCA_BLOCK_CYCLES	"mca_block_cycles"
#define KB_RD_MCA_BLOCK_CYCLES_ALT "mca_block_cycles_alt"
/* boots.jsonl: the boot's block pricing, per CPU (sim.h) */
#define KB_RD_MCA		"mca"
#define KB_RD_FUNCTIONS		"functions"	/* [[name, insn, miss], ...] */

struct kb_store;

/* One sample, as samples.jsonl holds it. */
struct kb_rundir_sample {
	const char *variant;
	int layout;		/* -1: no layout key (a stage's whole boots) */
	long long boot, vboot;
	const char *workload, *cas;
	long long rep, iterations, ns;
	double ns_per_op;
	const char *backend;
	enum kb_accel accel;
	json_t *fields;		/* the call takes this reference; NULL: {} */
};

/* The one writer of a sample line: appended to the run's samples.jsonl
 * and fsync'd.  0, or -1 (kb_store_append's). */
int kb_rundir_sample_append(const struct kb_store *store, const struct kb_rundir_sample *s);

/* 0 if what (a run directory, for the message) is of a
 * format this kbench reads, else -1 after a message saying it was written
 * by a newer kbench. */
int kb_rundir_format_check(const json_t *obj, const char *what);

#endif
