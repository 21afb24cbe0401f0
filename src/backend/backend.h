/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_BACKEND_H
#define KB_BACKEND_H

/*
 * Measurement backends behind one interface (fio's struct ioengine_ops), one
 * file each (backend-*.c), registered once in backends.def.
 *
 * "Backend" means one thing: an entry of this table, the thing that produced
 * a figure.  A run has one primary backend (what measures each region: sim
 * or clock), at most one overlay (counters kbench reads on the host around
 * the same regions: pmu-host or host-sw) and stages that run after the
 * measuring boots (hyperfine's whole-boot timing).  [run] backend asks for a
 * primary, [run] host_counters for an overlay; a sample carries the name of
 * the backend whose figures it holds.  No code outside the backend files
 * compares a backend's name: it asks the table (kb_backend_find, flags).
 */

#include <jansson.h>
#include <stddef.h>
#include <sys/types.h>

#include "accel.h"
#include "option.h"

struct kb_order_file;

struct kb_host;
struct kb_record;
struct kb_store;

/* What a figure is; the report says it beside every figure. */
enum kb_figure_kind { KB_FIG_MEASURED, KB_FIG_SIMULATED, KB_FIG_MODELED };
const char *kb_figure_kind_name(enum kb_figure_kind s);

enum kb_backend_role { KB_ROLE_PRIMARY, KB_ROLE_OVERLAY, KB_ROLE_STAGE };

enum {
	/* the same kernel gives the same counts in every boot: boots
	 * replicate nothing, one suffices */
	KB_BACKEND_DETERMINISTIC = 1u << 0,
	/* its figures are times: its boots run one at a time */
	KB_BACKEND_TIMES = 1u << 1,
	/* runs under TCG only (a QEMU plugin): asking for it makes accel = auto TCG */
	KB_BACKEND_NEEDS_TCG = 1u << 2,
};

/* The version of this interface; a backend built for another is refused. */
#define KB_BACKEND_API 2

/* What a backend is told when a run chooses its backends. */
struct kb_backend_env {
	const char *qemu;
	const char *arch;		/* the guest's: "i386" or "x86_64" ([kernel] arch) */
	enum kb_accel accel;		/* KVM or TCG, chosen before any backend */
	const char *want_primary;	/* [run] backend: "auto" or a primary's name */
	const char *want_host;		/* [run] host_counters: auto, off, hardware, software */
	const struct kb_backend *primary; /* for overlays and stages: the primary chosen */
	const char *declined;		/* for a fallback primary: why the ones before it declined */
	unsigned long long seed;	/* [run] seed (chosen and recorded when 0) */
	const char *cache;		/* [kernel] cache: the build cache directory, or NULL */
	const void *opts;		/* this backend's [run] options (its opts_size struct) */
	/* lent by the layer that builds kernels (run.c): where the build
	 * with order o would put the code of the build whose objects and
	 * System.map these are (kbench order --place --objects), written
	 * to out as the sim plugin's vl_file, its counts into rec; 0, or
	 * -1 after a message.  NULL: no such prediction */
	int (*place_order)(const struct kb_order_file *o, const char *objdir, const char *system_map,
			   const char *out, json_t *rec);
};

/* One boot, for the per-boot hooks. */
struct kb_backend_boot {
	struct kb_store *store;
	const char *variant;
	long boot, vboot;		/* the run's boot id; the variant's boot number */
	const char *system_map;		/* the kernel's, or NULL */
	int layout;			/* its layout replica ([run] layouts), 0: as configured */
	const char *objdir;		/* its build's object directory, or NULL (prebuilt) */
	int ordered;			/* built with an order ([variant] order) */
};

/* A sample the guest reported, for on_sample. */
struct kb_backend_sample {
	const char *workload;
	const char *cas;		/* the case: workload, or workload/k=K */
	unsigned long long rep;
	const unsigned long long *k;	/* the workload's parameter, or NULL */
};

/* A stage after the measuring boots. */
struct kb_stage_variant {
	const char *name, *bzimage, *cmdline;
	int built;
};
struct kb_backend_stage {
	struct kb_store *store;
	const struct kb_stage_variant *variants;	/* every variant, in the configuration's order */
	size_t n;
	long first_id;			/* boot ids from here on are the stage's */
	enum kb_accel accel;
	const char *image;
	unsigned long long seed;
	long timeout, memory;
	int resume;
	const char *arch;		/* the guest's ([kernel] arch) */
};

/* How the report names and qualifies a metric. */
struct kb_metric_desc {
	enum kb_figure_kind source;
	const char *label;		/* NULL: "<field> per operation" / "time per operation" */
	const char *unit;		/* NULL: "<field>/op" / "ns/op" */
	const char *note;		/* static text; "" for none */
	int layout_free;		/* deterministic and the same wherever the code
					 * lands (instruction counts): one layout tells */
	const char *model;		/* the machine model it rests on ("LLVM skylake"),
					 * named beside it in every table; NULL: none */
	int cycle_model;		/* one of the run's models of cycles: a verdict
					 * on it is checked under the others */
};

struct kb_backend {
	const char *name;
	int api;			/* KB_BACKEND_API */
	enum kb_backend_role role;
	enum kb_figure_kind source;		/* its own figures */
	unsigned flags;
	const char *help;		/* one line: probe, --help-config, the man page */
	const struct kb_option *options; /* its [run] keys, up to one with a NULL name */
	size_t opts_size;		/* the struct those offsets point into */
	/* guest command line words its boots need (" kb_sync=1"), or NULL */
	const char *guest_args;

	/* Usable on this host, as kb_probe_host found it?  1 or 0 (kbench probe). */
	int (*usable)(const struct kb_host *host);
	/* Decide for a run: 1 chosen (*priv its state), 0 declined, -1 the
	 * configuration asks for what this host cannot give.  *why (malloc'd)
	 * says why in each case. */
	int (*choose)(const struct kb_backend_env *env, void **priv, char **why);
	/* The manifest's record of the choice (geometry, model...), or NULL. */
	json_t *(*describe)(const void *priv);
	void (*release)(void *priv);

	/* One boot: state, QEMU arguments (NULL-terminated, owned by the
	 * state), QEMU started, a guest record that is not a sample, a sample
	 * (add this backend's figures to fields: 1 added, 0 none, -1 reject
	 * with *why, static), the boot's end (add to its boots.jsonl record;
	 * returns problems found), free. */
	void *(*boot_new)(void *priv, const struct kb_backend_boot *b);
	const char *const *(*boot_argv)(void *bs);
	void (*boot_started)(void *bs, pid_t qemu, int serial_in);
	void (*on_record)(void *bs, const struct kb_record *r);
	int (*on_sample)(void *bs, const struct kb_backend_sample *s, json_t *fields, const char **why);
	/* Optional: QEMU has exited; figures that wait for the whole boot go
	 * into the fields on_sample was given.  A backend that has it makes
	 * the boot hold its samples until then (none is stored before). */
	void (*boot_settle)(void *bs);
	int (*boot_end)(void *bs, json_t *boot_record);
	void (*boot_free)(void *bs);
	/* per-boot lines it appends to run files other than samples.jsonl
	 * ("sim.jsonl"): --resume drops an unfinished boot's lines there too */
	const char *boot_file;
	/* the run file its stage appends a line per variant to
	 * ("timing.jsonl"), or NULL */
	const char *stage_file;

	/* A stage after the measuring boots; returns how many of its parts failed. */
	long (*stage)(void *priv, const struct kb_backend_stage *st);

	/* A metric of its samples: field is the sample field, or NULL for the
	 * region's time (ns_per_op); described: the run's record of this
	 * backend's choice (the manifest's, from describe), or NULL.  Strings
	 * set in d are static or described's. */
	void (*metric)(const char *field, enum kb_accel accel, const json_t *described,
		       struct kb_metric_desc *d);
};

#define KB_BACKEND(id, ops) extern const struct kb_backend ops;
#include "backends.def"
#undef KB_BACKEND
enum {
#define KB_BACKEND(id, ops) KB_BACKEND_ID_##id,
#include "backends.def"
#undef KB_BACKEND
	KB_N_BACKENDS
};

/* The table, in preference order; n in *n. */
const struct kb_backend *const *kb_backends(size_t *n);
/* The backend of that name, or NULL. */
const struct kb_backend *kb_backend_find(const char *name);
/* NULL if b is fit to register, else what is wrong (static text): a wrong
 * API version, a missing hook its role needs, options without storage. */
const char *kb_backend_check(const struct kb_backend *b);
/* The table checked at start-up: aborts naming the broken entry. */
void kb_backend_check_table(void);
/* The append-only files of a run directory (rundir.h): samples.jsonl and
 * boots.jsonl, then each backend's boot_file and stage_file in table order,
 * each once.  How many; at most KB_BACKEND_MAX_FILES in files. */
#define KB_BACKEND_MAX_FILES (2 + 2 * KB_N_BACKENDS)
size_t kb_backend_run_files(const char *files[KB_BACKEND_MAX_FILES]);
/* Index of b in the table (conf.c keeps each backend's options by index). */
size_t kb_backend_index(const struct kb_backend *b);

/* The description of a metric of backend name (NULL or unknown: clock);
 * described: the manifest's record of that backend (NULL: none). */
void kb_backend_metric(const char *name, const char *field, enum kb_accel accel,
		       const json_t *described, struct kb_metric_desc *d);
/* Whether samples of backend name are deterministic (KB_BACKEND_DETERMINISTIC). */
int kb_backend_deterministic(const char *name);

/* ---- a run's backends ---- */

struct kb_backend_run {
	const struct kb_backend *b;
	void *priv;
	char *why;			/* why it was chosen */
};

struct kb_backends_chosen {
	struct kb_backend_run primary;
	struct kb_backend_run overlay;	/* b NULL when none */
	char *overlay_why;		/* why there is none, or why this one */
	struct kb_backend_run *stages;
	size_t n_stages;
};

/* A run chooses them from its configuration: kb_run_choose_backends (run.h). */
/* The name a run's samples carry by default: the overlay's, else the primary's. */
const char *kb_backends_name(const struct kb_backends_chosen *c);
void kb_backends_release(struct kb_backends_chosen *c);

#endif
