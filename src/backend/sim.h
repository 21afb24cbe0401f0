/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sim backend, host side: choose it, load kbench's QEMU TCG plugin
 * (plugin/kbench-sim.c) into a boot, and parse what the plugin writes
 * (plugin/simfmt.h).  Its figures are simulated (instructions, L1i and L2
 * misses, footprint) or modeled (cycles), never measured.
 */
#ifndef KB_SIM_H
#define KB_SIM_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "../../plugin/simfmt.h"

struct kb_store;

/* The backend's name (backend-sim.c), which its sim.jsonl lines carry. */
#define KB_SIM_BACKEND "sim"

struct kb_mca;
struct kb_blocks;

/* The cycle models of a sample, its fields: model_cycles (CPI x
 * instructions), and where llvm-mca is there mca_cycles under [run]
 * sim_cpu and mca_cycles_alt under sim_cpu_alt (LLVM's machine model of
 * each block), each with the same miss penalties. */
#define KB_SIM_MODEL_CYCLES	"model_cycles"
#define KB_SIM_MCA_CYCLES	"mca_cycles"
#define KB_SIM_MCA_CYCLES_ALT	"mca_cycles_alt"
#define KB_SIM_NMCA		2	/* mca_cycles, mca_cycles_alt */
extern const char *const kb_sim_mca_fields[KB_SIM_NMCA];

/* The counters' names, as the plugin writes them (simfmt.h). */
extern const char *const kb_sim_counter_names[KB_SIM_NCOUNTERS];
/* The per-virtual-layout counters' names (simfmt.h). */
extern const char *const kb_sim_vl_counter_names[KB_SIM_VL_NCOUNTERS];

/* Virtual layouts asked of the plugin: n seeded ones (seed), and those of a
 * placement file (file, or NULL); dump: where it writes them all, or NULL. */
struct kb_sim_vl {
	unsigned n;
	unsigned long long seed;
	const char *place;	/* "pad" (the plugin's default: NULL) or "shuffle" */
	unsigned pads;		/* pad: padding points per layout (0: the plugin's 8) */
	const char *file, *dump;
};

/* A cache: size in bytes, ways, line in bytes; size 0: none. */
struct kb_sim_geom {
	unsigned size, ways, line;
};

/* "32768:8:64", "32K:8:64", "1M:16:64"; "off" (allow_off) gives size 0.
 * 0, or -1 with *why (static text) saying what is wrong. */
int kb_sim_geom_parse(const char *s, int allow_off, struct kb_sim_geom *g, const char **why);
/* This host's L1i and L2 from libcpuid; 0, or -1 when it cannot tell. */
int kb_sim_host_geom(struct kb_sim_geom *l1i, struct kb_sim_geom *l2);

/* ---- the plugin's output ---- */

struct kb_sim_func {
	char *name;
	uint64_t insn, miss;
};

struct kb_sim_region {
	uint64_t seq;			/* 1 for the first begin marker; 0 for the whole run */
	uint32_t id;			/* its begin marker */
	uint64_t c[KB_SIM_NCOUNTERS];
	uint64_t host_ns;		/* host time inside the region: not deterministic */
	struct kb_sim_func *funcs;	/* functions that ran in it */
	size_t n_funcs;
	uint64_t (*vl)[KB_SIM_VL_NCOUNTERS];	/* per virtual layout, in order */
	size_t n_vl;
	int claimed;			/* matched to a sample */
};

struct kb_sim_error {
	uint64_t seq;
	char kind[16];			/* KB_SIM_ERR_* */
	uint32_t id, open;
};

struct kb_sim_out {
	int header;			/* a valid header line was read */
	int api, system, markers_only;
	unsigned vl;			/* virtual layouts (header "vl="), 0: none */
	struct kb_sim_geom l1i, l2;
	struct kb_sim_region *regions;
	size_t n_regions;
	struct kb_sim_region total;	/* whole run, from the "total" line */
	int have_total;
	struct kb_sim_error *errors;
	size_t n_errors;
	int ended;			/* the "end" line: the file is complete */
	size_t bad;			/* lines not understood */
	char first_bad[96];
	/* incremental reading */
	int fd;
	uint64_t off;
	char *pending;
	size_t n_pending;
};

void kb_sim_out_init(struct kb_sim_out *o);
/* Read the complete lines appended to path since the last call (opening it
 * the first time).  0, or -errno (the file is not there yet: -ENOENT). */
int kb_sim_out_poll(struct kb_sim_out *o, const char *path);
/* The whole file at once: kb_sim_out_init + poll.  0 or -errno with a message. */
int kb_sim_out_read(struct kb_sim_out *o, const char *path);
void kb_sim_out_release(struct kb_sim_out *o);

/* The workload a marker ID names, or NULL. */
const char *kb_sim_marker_workload(uint32_t id);
/* A marker error in words, malloc'd: "nested markers: 'pipe' began while
 * 'getppid' was open (region 3)". */
char *kb_sim_error_text(const struct kb_sim_error *e);
/* The counters of a region as JSON fields (the sample's "fields" names):
 * ins_k, ins_u, l1i_k, l1i_u, l1i_fill, l2_miss and model_cycles. */
struct kb_sim_model {
	double cpi, l1i_penalty, l2_penalty;
};
void kb_sim_fields(const struct kb_sim_region *r, const struct kb_sim_model *m, json_t *fields);
uint64_t kb_sim_model_cycles(const struct kb_sim_region *r, const struct kb_sim_model *m);
/* mca_cycles: the region's block cycles (LLVM's machine model, kb_mca)
 * plus its misses weighted as model_cycles weighs them; and virtual
 * layout k's (the same blocks, that layout's misses). */
uint64_t kb_sim_mca_cycles(const struct kb_sim_region *r, double block_cycles, const struct kb_sim_model *m);
uint64_t kb_sim_vl_mca_cycles(const struct kb_sim_region *r, size_t k, double block_cycles,
			      const struct kb_sim_model *m);
/* Field name (kb_sim_mca_fields) and "vl_<name>" (where the region has
 * virtual layouts) into fields, for a region whose blocks cost
 * block_cycles. */
void kb_sim_mca_fields_of(const struct kb_sim_region *r, const struct kb_sim_model *m, const char *name,
			  double block_cycles, json_t *fields);
/* Virtual layout k's modeled cycles: the region's instructions, that
 * layout's misses. */
uint64_t kb_sim_vl_model_cycles(const struct kb_sim_region *r, size_t k, const struct kb_sim_model *m);
/* The virtual layouts' figures as sample fields, each "vl_<field>": [K
 * integers], layout by layout, the value field <field> (kb_sim_fields) has
 * under that layout: vl_l1i_k, vl_l1i_u, vl_l1i_fill, vl_l2_miss (kernel
 * and user) and vl_model_cycles.  The model takes them as layout
 * replicates of <field> (model-read.c).  Nothing when the region has no
 * layouts.  Instructions do not move with the layout: no vl_ins_*. */
void kb_sim_vl_fields(const struct kb_sim_region *r, const struct kb_sim_model *m, json_t *fields);
/* Each layout's counters as arrays, "vl_<counter>": [K values], plus
 * "vl_model_cycles", into a sim.jsonl line. */
void kb_sim_vl_arrays(const struct kb_sim_region *r, const struct kb_sim_model *m, json_t *j);

/* ---- the backend in a run ---- */

struct kb_order_file;

struct kb_sim_run {
	char *plugin;			/* kbench-sim.so */
	struct kb_sim_geom l1i, l2;
	struct kb_sim_model model;
	char *geom_why;			/* where the geometry came from */
	struct kb_sim_vl vl;		/* virtual layouts: [run] sim_virtual_layouts, seed */
	/* block costs: [run] sim_cpu's and sim_cpu_alt's models (NULL: none,
	 * llvm-mca missing or sim_cpu_alt = off); their samples' fields
	 * kb_sim_mca_fields[] */
	struct kb_mca *mca[KB_SIM_NMCA];
	char *mca_why;			/* why there are none, or NULL */
	const char *primary;		/* the field the verdicts are about */
	/* [run] sim_virtual_placement = order:FILE: the order (NULL: none),
	 * whose placement of each unordered build (kbench order --place
	 * --objects) every boot of it also simulates, as the prediction of
	 * the ordered kernel: fields "pred_<field>", never a layout */
	struct kb_order_file *order;
	/* the placement the run lends (backend.h, kb_backend_env) */
	int (*place_order)(const struct kb_order_file *o, const char *objdir, const char *system_map,
			   const char *out, json_t *rec);
};

/* $KBENCH_PLUGIN, else the build tree's plugin/kbench-sim.so beside this
 * kbench, else the installed one; malloc'd. */
char *kb_sim_find_plugin(void);
/* Does QEMU load this plugin?  1 yes; 0 no, *why (malloc'd) says QEMU's own
 * words (a plugin built for another API version is refused here). */
int kb_sim_probe_plugin(const char *qemu, const char *plugin, char **why);
/* The plugin's -plugin argument: the plugin, its output file, the
 * geometries, the symbol map (or NULL), the virtual layouts (or NULL:
 * none), where it writes the blocks' counts and the call edges' (or
 * NULL: nowhere); malloc'd. */
char *kb_sim_plugin_spec(const char *plugin, const char *out, const char *map,
			 const struct kb_sim_geom *l1i, const struct kb_sim_geom *l2,
			 const struct kb_sim_vl *vl, const char *blocks, const char *calls);
/* "32 KiB, 8-way, 64-byte lines", or "off"; malloc'd. */
char *kb_sim_geom_text(const struct kb_sim_geom *g);
/* The QEMU arguments of a deterministic sim boot, before -plugin. */
extern const char *const kb_sim_qemu_args[];

/* One boot under the plugin. */
struct kb_sim_boot;
/* out: where the plugin writes (the run's boots/<variant>-<n>.sim; the
 * blocks' counts go beside it, <variant>-<n>.blocks); map:
 * the variant's System.map or NULL; layout: its layout replica, whose
 * virtual layouts are seeded apart (seed + layout x 0x9e3779b97f4a7c15) so
 * that no two replicas simulate the same placements; store and the keys
 * name the lines of sim.jsonl (footprint and per-function attribution, one
 * per sample); pred: a vl_file (the order's placement of this boot's
 * build: sr->order) whose one placement the boot simulates too, or NULL:
 * its figures go into each sample as "pred_<field>" (pred_l1i_k,
 * pred_l1i_u, pred_l1i_fill, pred_l2_miss, pred_model_cycles,
 * pred_mca_cycles...: the value <field> has there) and into sim.jsonl as
 * "pred_<counter>"; the model takes none of them as a metric or a layout. */
struct kb_sim_boot *kb_sim_boot_new(const struct kb_sim_run *sr, const char *out, const char *map,
				    int layout, struct kb_store *store, const char *variant, long boot,
				    long vboot, const char *pred);
/* QEMU arguments: -icount, -rtc, -plugin; NULL-terminated, owned by sb. */
const char *const *kb_sim_boot_argv(const struct kb_sim_boot *sb);
/* A sample of workload wl came in: its region is the plugin's latest one
 * (the plugin writes it when the end marker runs, before the guest prints
 * the sample).  Adds the counts to fields and writes its sim.jsonl line;
 * with block costs, those and the line wait for kb_sim_boot_settle (fields
 * is kept until then).  0, or -1 with *why (static text) when there is no
 * such region. */
int kb_sim_boot_sample(struct kb_sim_boot *sb, const char *wl, const char *cas, long rep,
		       json_t *fields, const char **why);
/* QEMU has exited: every block of the boot priced in one batch per model,
 * then each waiting sample's block costs into its fields, and its sim.jsonl
 * line written. */
void kb_sim_boot_settle(struct kb_sim_boot *sb);
/* QEMU has ended: read the rest, report marker errors and a cut-short file
 * (messages name the variant and boot).  Returns the number of problems. */
int kb_sim_boot_finish(struct kb_sim_boot *sb);
/* The boot's block pricing, for its boots.jsonl line: per CPU, llvm-mca
 * calls, blocks priced, found in the cache, host seconds; NULL without
 * block costs.  A new reference. */
json_t *kb_sim_boot_mca_json(const struct kb_sim_boot *sb);
void kb_sim_boot_free(struct kb_sim_boot *sb);

#endif
