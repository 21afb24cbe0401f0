// SPDX-License-Identifier: GPL-2.0-or-later
/* Host-side counters on the QEMU vCPU thread, region by region (pmuhost.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "pmuhost.h"
#include "util.h"

/* One boot's counters on QEMU's vCPU thread. */
struct kb_pmuhost {
	enum kb_pmuhost_mode mode;
	const char *name;	/* the backend's, for the boot record */
	const struct kb_perf_desc *events;
	size_t n;
	pid_t qemu;
	int in_fd;		/* the serial port's input; -1 when none */
	pid_t tid;		/* the vCPU thread, once found */
	int opened, broken;
	char why[160];		/* once broken: why (the boot record says it) */
	struct kb_counters c;
	int in_region;
	char wl[32];
	unsigned long long rep, k;
	int has_k, have_result;
	uint64_t val[KB_COUNTERS_MODES][KB_COUNTERS_MAX];
	unsigned mux[KB_COUNTERS_MODES];
	long regions, bad_marks;
};

/* Guest-only hardware counting opens here (on this process: no guest runs,
 * it only has to be accepted). */
int kb_pmuhost_hardware_usable(char **why)
{
	struct kb_counters c;
	int r = kb_counters_open_flags(&c, kb_perf_hw_events, kb_perf_n_hw_events, 0, -1,
				       KB_COUNTERS_GUEST_ONLY);

	if (r < 0) {
		*why = kb_xasprintf("the host cannot count guest-only hardware events (%s: %s)", c.why,
				    strerror(-r));
		return 0;
	}
	kb_counters_close(&c);
	return 1;
}

static void kb_pmuhost_init(struct kb_pmuhost *h, enum kb_pmuhost_mode mode, const char *name)
{
	memset(h, 0, sizeof(*h));
	h->mode = mode;
	h->name = name;
	h->in_fd = -1;
	h->tid = -1;
	if (mode == KB_PMUHOST_HARDWARE) {
		h->events = kb_perf_hw_events;
		h->n = kb_perf_n_hw_events;
	} else {
		h->events = kb_perf_sw_events;
		h->n = kb_perf_n_sw_events;
	}
}

/* kb_vm_opts.on_start: QEMU's pid and the serial input. */
static void kb_pmuhost_start(struct kb_pmuhost *h, pid_t qemu, int serial_in)
{
	h->qemu = qemu;
	h->in_fd = serial_in;
}

/* The thread of QEMU's first vCPU ("CPU 0/KVM", "CPU 0/TCG", "ALL
 * CPUs/TCG"; QEMU names them with -name debug-threads=on), or -1. */
static pid_t kb_pmuhost_find_vcpu(pid_t qemu)
{
	char *dir = kb_xasprintf("/proc/%ld/task", (long)qemu), *path;
	DIR *d = opendir(dir);
	struct dirent *e;
	pid_t found = -1;

	while (d && (e = readdir(d)) && found < 0) {
		char comm[64] = "";
		FILE *f;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		path = kb_xasprintf("%s/%s/comm", dir, e->d_name);
		f = fopen(path, "r");
		if (f && fgets(comm, sizeof(comm), f) &&
		    (!strncmp(comm, "CPU 0/", 6) || !strncmp(comm, "ALL CPUs/", 9)))
			found = (pid_t)atol(e->d_name);
		if (f)
			fclose(f);
		free(path);
	}
	if (d)
		closedir(d);
	free(dir);
	return found;
}

static void broken(struct kb_pmuhost *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void broken(struct kb_pmuhost *h, const char *fmt, ...)
{
	va_list ap;

	if (h->broken)
		return;
	h->broken = 1;
	va_start(ap, fmt);
	vsnprintf(h->why, sizeof(h->why), fmt, ap);
	va_end(ap);
	if (h->opened)
		kb_counters_close(&h->c);
	h->opened = 0;
}

static void attach(struct kb_pmuhost *h)
{
	int r;

	h->tid = kb_pmuhost_find_vcpu(h->qemu);
	if (h->tid < 0) {
		broken(h, "no vCPU thread ('CPU 0/...') in /proc/%ld/task", (long)h->qemu);
		return;
	}
	r = kb_counters_open_flags(&h->c, h->events, h->n, h->tid, -1,
				   h->mode == KB_PMUHOST_HARDWARE ? KB_COUNTERS_GUEST_ONLY : 0);
	if (r < 0) {
		broken(h, "%s on vCPU thread %ld: %s", h->c.why, (long)h->tid, strerror(-r));
		return;
	}
	h->opened = 1;
}

static void answer(struct kb_pmuhost *h)
{
	ssize_t n;

	if (h->in_fd < 0)
		return;
	do
		n = send(h->in_fd, "g", 1, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n != 1) {
		broken(h, "cannot answer the guest: %s", n < 0 ? strerror(errno) : "short write");
		close(h->in_fd);
		h->in_fd = -1;
	}
}

/* A mark record from the guest: counters on or off, then the answer.  The
 * guest always gets its answer, counters or not. */
static void kb_pmuhost_mark(struct kb_pmuhost *h, const struct kb_record *r)
{
	const char *at = kb_record_get(r, "at"), *wl = kb_record_get(r, "wl");
	unsigned long long rep, k;
	int has_k = kb_record_get_u64(r, "k", &k) == 0;

	if (!at || !wl || strlen(wl) >= sizeof(h->wl) || kb_record_get_u64(r, "rep", &rep) ||
	    (strcmp(at, "begin") && strcmp(at, "end"))) {
		h->bad_marks++;
		answer(h);
		return;
	}
	if (!strcmp(at, "begin")) {
		h->have_result = 0;
		if (!h->opened && !h->broken)
			attach(h);
		if (h->opened && kb_counters_start(&h->c) < 0)
			broken(h, "cannot start the counters: %s", h->c.why);
		h->in_region = h->opened;
		snprintf(h->wl, sizeof(h->wl), "%s", wl);
		h->rep = rep;
		h->k = has_k ? k : 0;
		h->has_k = has_k;
	} else if (!h->in_region || strcmp(wl, h->wl) || rep != h->rep || has_k != h->has_k ||
		   (has_k && k != h->k)) {
		h->bad_marks++;	/* an end without its begin */
	} else {
		h->in_region = 0;
		if (kb_counters_stop(&h->c) < 0) {
			broken(h, "cannot read the counters: %s", h->c.why);
		} else {
			for (int m = 0; m < KB_COUNTERS_MODES; m++) {
				for (size_t i = 0; i < h->n; i++)
					h->val[m][i] = kb_counters_value(&h->c, m, i);
				h->mux[m] = kb_counters_permille(&h->c, m);
			}
			h->have_result = 1;
			h->regions++;
		}
	}
	answer(h);
}

/* The sample of the region just counted: adds the host_* fields to fields
 * when wl, rep and k match it.  1 when added, else 0. */
static int kb_pmuhost_take(struct kb_pmuhost *h, const char *wl, unsigned long long rep,
		    const unsigned long long *k, json_t *fields)
{
	static const char *const mode_suffix[KB_COUNTERS_MODES] = { "k", "u" };

	if (!h->have_result || strcmp(wl, h->wl) || rep != h->rep || !!k != h->has_k ||
	    (k && *k != h->k))
		return 0;
	h->have_result = 0;
	for (int m = 0; m < KB_COUNTERS_MODES; m++) {
		char key[48];

		for (size_t i = 0; i < h->n; i++) {
			snprintf(key, sizeof(key), "host_%s_%s", h->events[i].key, mode_suffix[m]);
			json_object_set_new(fields, key, json_integer((json_int_t)h->val[m][i]));
		}
		snprintf(key, sizeof(key), "host_mux_%s", mode_suffix[m]);
		json_object_set_new(fields, key, json_integer((json_int_t)h->mux[m]));
	}
	return 1;
}

/* What the boot record says: "pmu-host: 35 regions" or "none: why". */
static char *kb_pmuhost_summary(const struct kb_pmuhost *h)
{
	if (h->broken)
		return kb_xasprintf("none: %s (after %ld regions)", h->why, h->regions);
	return kb_xasprintf("%s: %ld regions on thread %ld%s", h->name, h->regions,
			    (long)h->tid, h->bad_marks ? ", some marks rejected" : "");
}

static void kb_pmuhost_release(struct kb_pmuhost *h)
{
	if (h->opened)
		kb_counters_close(&h->c);
	h->opened = 0;
	h->in_fd = -1;	/* vm.c closes it */
}

/* ---- the backend hooks pmu-host and host-sw share ---- */

struct host_boot {
	struct kb_pmuhost h;
	char *variant;
	long vboot;
};

void *kb_pmuhost_boot_new(enum kb_pmuhost_mode mode, const char *name,
			  const struct kb_backend_boot *b)
{
	struct host_boot *hb = kb_xcalloc(1, sizeof(*hb));

	kb_pmuhost_init(&hb->h, mode, name);
	hb->variant = kb_xstrdup(b->variant);
	hb->vboot = b->vboot;
	return hb;
}

void kb_pmuhost_boot_started(void *bs, pid_t qemu, int serial_in)
{
	kb_pmuhost_start(&((struct host_boot *)bs)->h, qemu, serial_in);
}

void kb_pmuhost_boot_record(void *bs, const struct kb_record *r)
{
	if (!strcmp(r->kind, "mark"))
		kb_pmuhost_mark(&((struct host_boot *)bs)->h, r);
}

int kb_pmuhost_boot_sample(void *bs, const struct kb_backend_sample *s, json_t *fields,
			   const char **why)
{
	(void)why;
	return kb_pmuhost_take(&((struct host_boot *)bs)->h, s->workload, s->rep, s->k, fields);
}

int kb_pmuhost_boot_end(void *bs, json_t *rec)
{
	struct host_boot *hb = bs;
	char *sum = kb_pmuhost_summary(&hb->h);
	int bad = hb->h.broken && hb->h.regions == 0;

	json_object_set_new(rec, "host_counters", json_string(sum));
	if (bad)
		kb_warn("variant '%s' boot %ld: host counters: %s", hb->variant, hb->vboot, sum);
	free(sum);
	return bad;
}

void kb_pmuhost_boot_free(void *bs)
{
	struct host_boot *hb = bs;

	if (!hb)
		return;
	kb_pmuhost_release(&hb->h);
	free(hb->variant);
	free(hb);
}

void kb_pmuhost_metric(const char *field, enum kb_accel accel, const char *host_note,
		       struct kb_metric_desc *d)
{
	if (field && !strncmp(field, "host_", 5)) {
		d->source = KB_FIG_MEASURED;
		d->note = host_note;
		return;
	}
	kb_backend_clock.metric(field, accel, NULL, d);	/* the guest's own figures */
}
