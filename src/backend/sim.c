// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sim backend, host side.  The plugin writes one file per boot; kbench
 * reads it as the boot goes (a region's line is written when its end marker
 * runs, before the guest prints the sample) and pairs the regions of each
 * workload with its samples in order: the runner measures a workload's
 * samples one after another and stops the workload at its first failure.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libcpuid/libcpuid.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mca.h"
#include "proto.h"
#include "probe.h"
#include "sim.h"
#include "store.h"
#include "rundir.h"
#include "util.h"
#include "vm.h"

#define SIM_MAX_LINE	4096

const char *const kb_sim_counter_names[KB_SIM_NCOUNTERS] = {
#define KB_SIM_COUNTER(name, help) #name,
	KB_SIM_COUNTERS
#undef KB_SIM_COUNTER
};

const char *const kb_sim_mca_fields[KB_SIM_NMCA] = { KB_SIM_MCA_CYCLES, KB_SIM_MCA_CYCLES_ALT };

const char *const kb_sim_vl_counter_names[KB_SIM_VL_NCOUNTERS] = {
#define KB_SIM_VL_COUNTER(name, help) #name,
	KB_SIM_VL_COUNTERS
#undef KB_SIM_VL_COUNTER
};

static const char *const workload_names[] = {
#define KB_WORKLOAD(name, kind, iters, help) #name,
#include "../../workloads/workloads.def"
#undef KB_WORKLOAD
};

/* ---- cache geometry ---- */

static const char *geom_check(const struct kb_sim_geom *g)
{
	if (g->line < 16 || (g->line & (g->line - 1)))
		return "line size must be a power of two of 16 bytes or more";
	if (g->ways < 1 || g->ways > 64)
		return "ways must be between 1 and 64";
	if (g->size % (g->ways * g->line))
		return "size must be a multiple of ways x line size";
	return NULL;
}

int kb_sim_geom_parse(const char *s, int allow_off, struct kb_sim_geom *g, const char **why)
{
	unsigned long long size, ways, line;
	char *end;

	*why = NULL;
	if (allow_off && !strcmp(s, "off")) {
		memset(g, 0, sizeof(*g));
		return 0;
	}
	if (!isdigit((unsigned char)*s))
		goto bad;
	size = strtoull(s, &end, 10);
	if (*end == 'K' || *end == 'k')
		size <<= 10, end++;
	else if (*end == 'M' || *end == 'm')
		size <<= 20, end++;
	if (*end++ != ':' || !isdigit((unsigned char)*end))
		goto bad;
	ways = strtoull(end, &end, 10);
	if (*end++ != ':' || !isdigit((unsigned char)*end))
		goto bad;
	line = strtoull(end, &end, 10);
	if (*end || size == 0 || size > (1ull << 30) || ways > 64 || line > 4096)
		goto bad;
	g->size = (unsigned)size;
	g->ways = (unsigned)ways;
	g->line = (unsigned)line;
	*why = geom_check(g);
	return *why ? -1 : 0;
bad:
	*why = allow_off ? "expected SIZE:WAYS:LINE (e.g. 1M:16:64) or off"
			 : "expected SIZE:WAYS:LINE (e.g. 32K:8:64)";
	return -1;
}

int kb_sim_host_geom(struct kb_sim_geom *l1i, struct kb_sim_geom *l2)
{
	struct cpu_raw_data_t raw;
	struct cpu_id_t id;

	if (!cpuid_present() || cpuid_get_raw_data(&raw) < 0 || cpu_identify(&raw, &id) < 0)
		return -1;
	*l1i = (struct kb_sim_geom){ (unsigned)id.l1_instruction_cache << 10,
				     (unsigned)id.l1_instruction_assoc,
				     (unsigned)id.l1_instruction_cacheline };
	*l2 = (struct kb_sim_geom){ (unsigned)id.l2_cache << 10, (unsigned)id.l2_assoc,
				    (unsigned)id.l2_cacheline };
	if (id.l1_instruction_cache <= 0 || geom_check(l1i))
		return -1;
	if (id.l2_cache <= 0 || geom_check(l2))
		memset(l2, 0, sizeof(*l2));
	return 0;
}

/* ---- the plugin's output ---- */

void kb_sim_out_init(struct kb_sim_out *o)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
}

static void out_bad(struct kb_sim_out *o, const char *line, size_t len)
{
	if (!o->bad++) {
		size_t n = len < sizeof(o->first_bad) - 1 ? len : sizeof(o->first_bad) - 1;

		for (size_t i = 0; i < n; i++)
			o->first_bad[i] = isprint((unsigned char)line[i]) ? line[i] : '?';
		o->first_bad[n] = '\0';
	}
}

/* The value of key in "kind k=v k=v ..." (tokens), or NULL. */
static const char *field(char **tok, size_t n, const char *key)
{
	size_t k = strlen(key);

	for (size_t i = 1; i < n; i++)
		if (!strncmp(tok[i], key, k) && tok[i][k] == '=')
			return tok[i] + k + 1;
	return NULL;
}

static int u64_of(const char *s, uint64_t *v)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return *end || errno ? -1 : 0;
}

static int counters_of(char **tok, size_t n, struct kb_sim_region *r)
{
	for (int i = 0; i < KB_SIM_NCOUNTERS; i++)
		if (u64_of(field(tok, n, kb_sim_counter_names[i]), &r->c[i]) < 0)
			return -1;
	return 0;
}

static void region_free(struct kb_sim_region *r)
{
	for (size_t i = 0; i < r->n_funcs; i++)
		free(r->funcs[i].name);
	free(r->funcs);
	r->funcs = NULL;
	r->n_funcs = 0;
}

static void region_release(struct kb_sim_region *r)
{
	region_free(r);
	free(r->vl);
	r->vl = NULL;
	r->n_vl = 0;
}

/* Parse one line (without its newline). */
static void kb_sim_out_line(struct kb_sim_out *o, const char *line, size_t len)
{
	char buf[SIM_MAX_LINE], *tok[32], *save = NULL;
	size_t n = 0;
	uint64_t v, w;

	if (len >= sizeof(buf) || memchr(line, '\0', len))
		return out_bad(o, line, len);
	memcpy(buf, line, len);
	buf[len] = '\0';
	for (char *t = strtok_r(buf, " ", &save); t && n < KB_ARRAY_SIZE(tok); t = strtok_r(NULL, " ", &save))
		tok[n++] = t;
	if (!n)
		return;
	if (!strcmp(tok[0], KB_SIM_MAGIC)) {
		const char *why;

		if (n < 2 || u64_of(tok[1], &v) < 0 || v != KB_SIM_FORMAT ||
		    u64_of(field(tok, n, "api"), &w) < 0)
			return out_bad(o, line, len);
		o->api = (int)w;
		o->system = field(tok, n, "system") && !strcmp(field(tok, n, "system"), "1");
		o->markers_only = field(tok, n, "mode") && !strcmp(field(tok, n, "mode"), "markers");
		if (!field(tok, n, "l1i") || kb_sim_geom_parse(field(tok, n, "l1i"), 0, &o->l1i, &why) < 0)
			return out_bad(o, line, len);
		if (field(tok, n, "l2") && kb_sim_geom_parse(field(tok, n, "l2"), 0, &o->l2, &why) < 0)
			memset(&o->l2, 0, sizeof(o->l2));
		o->vl = 0;
		if (field(tok, n, "vl")) {
			if (u64_of(field(tok, n, "vl"), &w) < 0 || w > KB_SIM_VL_MAX)
				return out_bad(o, line, len);
			o->vl = (unsigned)w;
		}
		o->header = 1;
		return;
	}
	if (!o->header)
		return out_bad(o, line, len);
	if (!strcmp(tok[0], "region")) {
		struct kb_sim_region r = { 0 };

		if (u64_of(field(tok, n, "seq"), &r.seq) < 0 || u64_of(field(tok, n, "id"), &v) < 0 ||
		    v > UINT32_MAX || counters_of(tok, n, &r) < 0 ||
		    u64_of(field(tok, n, "host_ns"), &r.host_ns) < 0)
			return out_bad(o, line, len);
		r.id = (uint32_t)v;
		o->regions = kb_xrealloc(o->regions, (o->n_regions + 1) * sizeof(*o->regions));
		o->regions[o->n_regions++] = r;
	} else if (!strcmp(tok[0], "func")) {
		struct kb_sim_region *r;
		const char *name = field(tok, n, "name");

		if (u64_of(field(tok, n, "seq"), &v) < 0 || !name || !*name ||
		    u64_of(field(tok, n, "insn"), &w) < 0)
			return out_bad(o, line, len);
		if (v == 0)
			r = &o->total;
		else if (o->n_regions && o->regions[o->n_regions - 1].seq == v)
			r = &o->regions[o->n_regions - 1];
		else
			return out_bad(o, line, len);	/* functions follow their region */
		r->funcs = kb_xrealloc(r->funcs, (r->n_funcs + 1) * sizeof(*r->funcs));
		r->funcs[r->n_funcs].name = kb_xstrdup(name);
		r->funcs[r->n_funcs].insn = w;
		if (u64_of(field(tok, n, "l1i_miss"), &r->funcs[r->n_funcs].miss) < 0)
			r->funcs[r->n_funcs].miss = 0;
		r->n_funcs++;
	} else if (!strcmp(tok[0], "vl")) {
		struct kb_sim_region *r;
		uint64_t c[KB_SIM_VL_NCOUNTERS];

		if (u64_of(field(tok, n, "seq"), &v) < 0 || u64_of(field(tok, n, "layout"), &w) < 0)
			return out_bad(o, line, len);
		for (int i = 0; i < KB_SIM_VL_NCOUNTERS; i++)
			if (u64_of(field(tok, n, kb_sim_vl_counter_names[i]), &c[i]) < 0)
				return out_bad(o, line, len);
		if (v == 0 && o->have_total)
			r = &o->total;
		else if (v && o->n_regions && o->regions[o->n_regions - 1].seq == v)
			r = &o->regions[o->n_regions - 1];
		else
			return out_bad(o, line, len);	/* layouts follow their region */
		if (w != r->n_vl || w >= o->vl)
			return out_bad(o, line, len);	/* in order, as many as the header says */
		r->vl = kb_xrealloc(r->vl, (r->n_vl + 1) * sizeof(*r->vl));
		memcpy(r->vl[r->n_vl++], c, sizeof(c));
	} else if (!strcmp(tok[0], "error")) {
		struct kb_sim_error e = { 0 };
		const char *kind = field(tok, n, "kind");

		if (!kind || strlen(kind) >= sizeof(e.kind) || u64_of(field(tok, n, "seq"), &e.seq) < 0 ||
		    u64_of(field(tok, n, "id"), &v) < 0 || u64_of(field(tok, n, "open"), &w) < 0)
			return out_bad(o, line, len);
		strcpy(e.kind, kind);
		e.id = (uint32_t)v;
		e.open = (uint32_t)w;
		o->errors = kb_xrealloc(o->errors, (o->n_errors + 1) * sizeof(*o->errors));
		o->errors[o->n_errors++] = e;
	} else if (!strcmp(tok[0], "total")) {
		if (counters_of(tok, n, &o->total) < 0)
			return out_bad(o, line, len);
		o->have_total = 1;
	} else if (!strcmp(tok[0], "end")) {
		o->ended = 1;
	} else {
		out_bad(o, line, len);
	}
}

int kb_sim_out_poll(struct kb_sim_out *o, const char *path)
{
	char buf[65536];
	ssize_t n;

	if (o->fd < 0) {
		o->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (o->fd < 0)
			return -errno;
	}
	while ((n = pread(o->fd, buf, sizeof(buf), (off_t)o->off)) > 0) {
		size_t start = 0;

		o->off += (uint64_t)n;
		for (size_t i = 0; i < (size_t)n; i++) {
			if (buf[i] != '\n')
				continue;
			if (o->n_pending) {
				o->pending = kb_xrealloc(o->pending, o->n_pending + i - start + 1);
				memcpy(o->pending + o->n_pending, buf + start, i - start);
				kb_sim_out_line(o, o->pending, o->n_pending + i - start);
				o->n_pending = 0;
			} else {
				kb_sim_out_line(o, buf + start, i - start);
			}
			start = i + 1;
		}
		if (start < (size_t)n) {	/* a line not yet complete */
			if (o->n_pending + (size_t)n - start > SIM_MAX_LINE) {
				out_bad(o, buf + start, (size_t)n - start);
				o->n_pending = 0;
				continue;
			}
			o->pending = kb_xrealloc(o->pending, o->n_pending + (size_t)n - start + 1);
			memcpy(o->pending + o->n_pending, buf + start, (size_t)n - start);
			o->n_pending += (size_t)n - start;
		}
	}
	return n < 0 ? -errno : 0;
}

int kb_sim_out_read(struct kb_sim_out *o, const char *path)
{
	int r;

	kb_sim_out_init(o);
	r = kb_sim_out_poll(o, path);
	if (r < 0)
		return kb_error_errno(-r, "cannot read '%s'", path);
	return 0;
}

void kb_sim_out_release(struct kb_sim_out *o)
{
	for (size_t i = 0; i < o->n_regions; i++)
		region_release(&o->regions[i]);
	free(o->regions);
	region_release(&o->total);
	free(o->errors);
	free(o->pending);
	if (o->fd >= 0)
		close(o->fd);
	kb_sim_out_init(o);
}

const char *kb_sim_marker_workload(uint32_t id)
{
	uint32_t wl = (id >> 8) & 0xff;

	if ((id & 0xffff0000u) != KB_MARK_BASE || wl >= KB_ARRAY_SIZE(workload_names))
		return NULL;
	return workload_names[wl];
}

static char *marker_text(uint32_t id)
{
	const char *wl = kb_sim_marker_workload(id);

	return wl ? kb_xasprintf("'%s' (0x%08x)", wl, id) : kb_xasprintf("unknown marker 0x%08x", id);
}

char *kb_sim_error_text(const struct kb_sim_error *e)
{
	char *id = marker_text(e->id), *open = marker_text(e->open), *s;

	if (!strcmp(e->kind, KB_SIM_ERR_NESTED))
		s = kb_xasprintf("nested markers: region %s began while %s was open; the outer "
				 "region is dropped", id, open);
	else if (!strcmp(e->kind, KB_SIM_ERR_UNBALANCED))
		s = kb_xasprintf("unbalanced markers: end of %s with no region open", id);
	else if (!strcmp(e->kind, KB_SIM_ERR_MISMATCHED))
		s = kb_xasprintf("mismatched markers: end of %s while %s was open; that region "
				 "is dropped", id, open);
	else if (!strcmp(e->kind, KB_SIM_ERR_UNCLOSED))
		s = kb_xasprintf("missing end marker: region %s was still open when QEMU ended", id);
	else if (!strcmp(e->kind, KB_SIM_ERR_VCPUS))
		s = kb_xstrdup("more than one vCPU ran code: the counts mix CPUs");
	else
		s = kb_xasprintf("marker error '%s' at %s", e->kind, id);
	free(id);
	free(open);
	return s;
}

/* the misses' cycles, as both cycle models weigh them */
static double penalties(const struct kb_sim_region *r, const struct kb_sim_model *m)
{
	return m->l1i_penalty * (double)(r->c[KB_SIM_l1i_miss_k] + r->c[KB_SIM_l1i_miss_u]) +
	       m->l2_penalty * (double)r->c[KB_SIM_l2_miss];
}

static double vl_penalties(const struct kb_sim_region *r, size_t k, const struct kb_sim_model *m)
{
	const uint64_t *v = r->vl[k];

	return m->l1i_penalty * (double)(v[KB_SIM_VL_l1i_miss_k] + v[KB_SIM_VL_l1i_miss_u]) +
	       m->l2_penalty * (double)(v[KB_SIM_VL_l2_miss_k] + v[KB_SIM_VL_l2_miss_u]);
}

uint64_t kb_sim_model_cycles(const struct kb_sim_region *r, const struct kb_sim_model *m)
{
	double c = m->cpi * (double)(r->c[KB_SIM_insn_k] + r->c[KB_SIM_insn_u]) + penalties(r, m);

	return (uint64_t)(c + 0.5);
}

uint64_t kb_sim_mca_cycles(const struct kb_sim_region *r, double block_cycles, const struct kb_sim_model *m)
{
	return (uint64_t)(block_cycles + penalties(r, m) + 0.5);
}

uint64_t kb_sim_vl_mca_cycles(const struct kb_sim_region *r, size_t k, double block_cycles,
			      const struct kb_sim_model *m)
{
	return (uint64_t)(block_cycles + vl_penalties(r, k, m) + 0.5);
}

void kb_sim_fields(const struct kb_sim_region *r, const struct kb_sim_model *m, json_t *fields)
{
	/* the names the guest's PMU records use (counters.c), so both backends line up */
	json_object_set_new(fields, "ins_k", json_integer((json_int_t)r->c[KB_SIM_insn_k]));
	json_object_set_new(fields, "ins_u", json_integer((json_int_t)r->c[KB_SIM_insn_u]));
	json_object_set_new(fields, "l1i_k", json_integer((json_int_t)r->c[KB_SIM_l1i_miss_k]));
	json_object_set_new(fields, "l1i_u", json_integer((json_int_t)r->c[KB_SIM_l1i_miss_u]));
	json_object_set_new(fields, "l1i_fill", json_integer((json_int_t)r->c[KB_SIM_l1i_fill]));
	json_object_set_new(fields, "l2_miss", json_integer((json_int_t)r->c[KB_SIM_l2_miss]));
	json_object_set_new(fields, "model_cycles", json_integer((json_int_t)kb_sim_model_cycles(r, m)));
}

uint64_t kb_sim_vl_model_cycles(const struct kb_sim_region *r, size_t k, const struct kb_sim_model *m)
{
	double c = m->cpi * (double)(r->c[KB_SIM_insn_k] + r->c[KB_SIM_insn_u]) + vl_penalties(r, k, m);

	return (uint64_t)(c + 0.5);
}

/* fields[name] = [K integers], layout by layout */
static void per_layout(json_t *fields, const char *name, const uint64_t *v, size_t n)
{
	json_t *a = json_array();

	for (size_t k = 0; k < n; k++)
		json_array_append_new(a, json_integer((json_int_t)v[k]));
	json_object_set_new(fields, name, a);
}

void kb_sim_vl_fields(const struct kb_sim_region *r, const struct kb_sim_model *m, json_t *fields)
{
	/* the real field each is the layouts' value of (kb_sim_fields) */
	static const struct {
		const char *name;
		int a, b;	/* the counters summed (b: -1 none) */
	} per[] = {
		{ "vl_l1i_k", KB_SIM_VL_l1i_miss_k, -1 },
		{ "vl_l1i_u", KB_SIM_VL_l1i_miss_u, -1 },
		{ "vl_l1i_fill", KB_SIM_VL_l1i_fill, -1 },
		{ "vl_l2_miss", KB_SIM_VL_l2_miss_k, KB_SIM_VL_l2_miss_u },
	};
	size_t n = r->n_vl;
	uint64_t *v;

	if (!n)
		return;
	v = kb_xcalloc(n, sizeof(*v));
	for (size_t i = 0; i < KB_ARRAY_SIZE(per); i++) {
		for (size_t k = 0; k < n; k++)
			v[k] = r->vl[k][per[i].a] + (per[i].b >= 0 ? r->vl[k][per[i].b] : 0);
		per_layout(fields, per[i].name, v, n);
	}
	for (size_t k = 0; k < n; k++)
		v[k] = kb_sim_vl_model_cycles(r, k, m);
	per_layout(fields, "vl_model_cycles", v, n);
	free(v);
}

void kb_sim_mca_fields_of(const struct kb_sim_region *r, const struct kb_sim_model *m, const char *name,
			  double block_cycles, json_t *fields)
{
	json_object_set_new(fields, name, json_integer((json_int_t)kb_sim_mca_cycles(r, block_cycles, m)));
	if (r->n_vl) {	/* the blocks are the same in every layout: only the misses move */
		uint64_t *v = kb_xcalloc(r->n_vl, sizeof(*v));
		char *vname = kb_xasprintf("vl_%s", name);

		for (size_t k = 0; k < r->n_vl; k++)
			v[k] = kb_sim_vl_mca_cycles(r, k, block_cycles, m);
		per_layout(fields, vname, v, r->n_vl);
		free(vname);
		free(v);
	}
}

void kb_sim_vl_arrays(const struct kb_sim_region *r, const struct kb_sim_model *m, json_t *j)
{
	char name[64];
	json_t *a;

	if (!r->n_vl)
		return;
	for (int i = 0; i < KB_SIM_VL_NCOUNTERS; i++) {
		a = json_array();
		for (size_t k = 0; k < r->n_vl; k++)
			json_array_append_new(a, json_integer((json_int_t)r->vl[k][i]));
		snprintf(name, sizeof(name), "vl_%s", kb_sim_vl_counter_names[i]);
		json_object_set_new(j, name, a);
	}
	if (m) {
		a = json_array();
		for (size_t k = 0; k < r->n_vl; k++)
			json_array_append_new(a, json_integer((json_int_t)kb_sim_vl_model_cycles(r, k, m)));
		json_object_set_new(j, "vl_model_cycles", a);
	}
}

/* ---- finding and probing the plugin ---- */

char *kb_sim_find_plugin(void)
{
	return kb_find_companion("KBENCH_PLUGIN", "../plugin/kbench-sim.so",
				 PKGLIBDIR "/kbench-sim.so");
}

/* A QEMU option value: commas doubled. */
static void put_opt(char **s, size_t *len, const char *key, const char *val)
{
	size_t need = strlen(key) + 2 * strlen(val) + 3;

	*s = kb_xrealloc(*s, *len + need);
	*len += (size_t)sprintf(*s + *len, "%s%s=", *len ? "," : "", key);
	for (const char *p = val; *p; p++) {
		(*s)[(*len)++] = *p;
		if (*p == ',')
			(*s)[(*len)++] = ',';
	}
	(*s)[*len] = '\0';
}

char *kb_sim_plugin_spec(const char *plugin, const char *out, const char *map,
			 const struct kb_sim_geom *l1i, const struct kb_sim_geom *l2,
			 const struct kb_sim_vl *vl, const char *blocks, const char *calls)
{
	char *s = NULL, g[64];
	size_t len = 0;

	put_opt(&s, &len, "file", plugin);
	put_opt(&s, &len, "out", out);
	snprintf(g, sizeof(g), "%u:%u:%u", l1i->size, l1i->ways, l1i->line);
	put_opt(&s, &len, "l1i", g);
	if (l2->size)
		snprintf(g, sizeof(g), "%u:%u:%u", l2->size, l2->ways, l2->line);
	else
		snprintf(g, sizeof(g), "off");
	put_opt(&s, &len, "l2", g);
	if (map)
		put_opt(&s, &len, "map", map);
	if (vl && vl->n) {	/* nothing added without them: the same spec as before */
		snprintf(g, sizeof(g), "%u", vl->n);
		put_opt(&s, &len, "vl", g);
		snprintf(g, sizeof(g), "%llu", vl->seed);
		put_opt(&s, &len, "vl_seed", g);
		if (vl->place)
			put_opt(&s, &len, "vl_place", vl->place);
		if (vl->pads) {
			snprintf(g, sizeof(g), "%u", vl->pads);
			put_opt(&s, &len, "vl_pads", g);
		}
	}
	if (vl && vl->file)
		put_opt(&s, &len, "vl_file", vl->file);
	if (vl && vl->dump)
		put_opt(&s, &len, "vl_dump", vl->dump);
	if (blocks)
		put_opt(&s, &len, "blocks", blocks);
	if (calls)
		put_opt(&s, &len, "calls", calls);
	return s;
}

int kb_sim_probe_plugin(const char *qemu, const char *plugin, char **why)
{
	char *logpath = NULL, *outpath = NULL;
	struct kb_sim_geom l1i = { 32768, 8, 64 }, l2 = { 0, 0, 0 };
	char *bios = NULL, *spec = NULL, *msg = NULL;
	const char *argv[3] = { "-plugin", NULL, NULL };
	struct kb_vm_result res;
	int lfd, ofd, ok = 0;

	if (access(plugin, R_OK) < 0) {
		*why = kb_xasprintf("plugin '%s': %s (build kbench, or set KBENCH_PLUGIN)", plugin,
				    strerror(errno));
		return 0;
	}
	lfd = kb_mkstemp("sim-log", &logpath);
	ofd = kb_mkstemp("sim-out", &outpath);
	bios = kb_probe_bios();
	if (lfd < 0 || ofd < 0 || !bios) {
		*why = kb_xasprintf("cannot write probe files in '%s'", kb_tmpdir());
		goto out;
	}
	spec = kb_sim_plugin_spec(plugin, outpath, NULL, &l1i, &l2, NULL, NULL, NULL);
	argv[1] = spec;
	struct kb_vm_opts o = {
		.qemu = qemu, .accel = KB_ACCEL_TCG, .bios = bios, .memory_mb = 32, .timeout = 20,
		.qemu_log = logpath, .max_bytes = 1 << 16, .extra_argv = argv,
	};
	if (kb_vm_boot(&o, &res) < 0) {
		*why = kb_xasprintf("cannot run '%s'", qemu);
		goto out;
	}
	if (res.exited && res.status == KB_PROBE_BIOS_STATUS) {
		ok = 1;
		*why = kb_xasprintf("QEMU loads '%s' (plugin API %d)", plugin, KB_QEMU_PLUGIN_API);
		goto out;
	}
	if (kb_read_file(logpath, &msg, NULL) == 0 && *msg) {
		char *nl;

		/* QEMU's own words, e.g. "plugin requires API version 2, but this QEMU supports only ..." */
		while ((nl = strrchr(msg, '\n')) && !nl[1])
			*nl = '\0';
		for (char *p = msg; *p; p++)
			if (*p == '\n')
				*p = ' ';
		*why = kb_xasprintf("QEMU refused the plugin '%s' (this kbench builds it for QEMU plugin API %d; "
				    "rebuild kbench against the QEMU installed): %s", plugin, KB_QEMU_PLUGIN_API, msg);
	} else if (res.timed_out) {
		*why = kb_xasprintf("QEMU with the plugin '%s' did not finish a trivial guest", plugin);
	} else if (res.signal) {
		*why = kb_xasprintf("QEMU with the plugin '%s' died of signal %d", plugin, res.signal);
	} else {
		*why = kb_xasprintf("QEMU with the plugin '%s' failed (exit status %d)", plugin,
				    res.status);
	}
out:
	if (lfd >= 0) {
		close(lfd);
		unlink(logpath);
	}
	if (ofd >= 0) {
		close(ofd);
		unlink(outpath);
	}
	if (bios)
		unlink(bios);
	free(bios);
	free(logpath);
	free(outpath);
	free(spec);
	free(msg);
	return ok;
}

/* ---- one boot ---- */

/* One vCPU and an instruction-paced clock: the same guest runs the same way each boot. */
const char *const kb_sim_qemu_args[] = {
	"-icount", "shift=0,sleep=off", "-rtc", "base=2020-01-01T00:00:00,clock=vm", NULL
};

char *kb_sim_geom_text(const struct kb_sim_geom *g)
{
	if (!g->size)
		return kb_xstrdup("off");
	if (g->size % 1024 == 0)
		return kb_xasprintf("%u KiB, %u-way, %u-byte lines", g->size >> 10, g->ways, g->line);
	return kb_xasprintf("%u bytes, %u-way, %u-byte lines", g->size, g->ways, g->line);
}

struct kb_sim_boot {
	const struct kb_sim_run *sr;
	char *out;
	char *spec;
	char *vl_dump;			/* the layouts' placements, beside out */
	char *blocks;			/* the blocks' counts, beside out */
	char *calls;			/* the call edges' counts, beside out */
	unsigned npred;			/* the plugin's first layouts: the prediction's (0 or 1) */
	const char *argv[8];
	struct kb_sim_out o;
	struct kb_store *store;
	char *variant;
	long boot, vboot;
	size_t next[KB_ARRAY_SIZE(workload_names)];	/* first region not yet claimed */
	long unmatched;
	struct kb_blocks *bin;		/* the blocks file as it grows: block costs */
	struct kb_mca_stats st0[KB_SIM_NMCA];	/* the models' pricing when the boot began */
	long mca_missing;		/* samples without block costs */
	struct pending *pend;		/* samples whose block costs wait for the boot's end */
	size_t n_pend;
};

/* A sample of a boot priced at its end (kb_sim_boot_settle): its region
 * (an index: the array grows), the fields the boot stores it with, and its
 * sim.jsonl line. */
struct pending {
	size_t region;
	json_t *fields, *line;
};

struct kb_sim_boot *kb_sim_boot_new(const struct kb_sim_run *sr, const char *out, const char *map,
				    int layout, struct kb_store *store, const char *variant, long boot,
				    long vboot, const char *pred)
{
	struct kb_sim_boot *sb = kb_xcalloc(1, sizeof(*sb));
	size_t len = strlen(out);
	int n = 0;

	sb->sr = sr;
	sb->out = kb_xstrdup(out);
	if (len > 4 && !strcmp(out + len - 4, ".sim"))
		len -= 4;
	sb->blocks = kb_xasprintf("%.*s.blocks", (int)len, out);
	sb->calls = kb_xasprintf("%.*s.calls", (int)len, out);
	if (sr->vl.n || pred) {	/* which placement gave which misses stays on record */
		struct kb_sim_vl vl = sr->vl;

		sb->vl_dump = kb_xasprintf("%.*s.vl", (int)len, out);
		vl.dump = sb->vl_dump;
		/* the plugin reads vl_file's layouts first: the prediction is
		 * layout 0, the seeded ones (drawn as without it) after it */
		vl.file = pred;
		sb->npred = pred != NULL;
		vl.seed += (unsigned long long)layout * 0x9e3779b97f4a7c15ull;
		sb->spec = kb_sim_plugin_spec(sr->plugin, out, map, &sr->l1i, &sr->l2, &vl, sb->blocks, sb->calls);
	} else {
		sb->spec = kb_sim_plugin_spec(sr->plugin, out, map, &sr->l1i, &sr->l2, NULL, sb->blocks, sb->calls);
	}
	if (sr->mca[0]) {
		sb->bin = kb_blocks_new();
		for (size_t i = 0; i < KB_SIM_NMCA; i++)
			if (sr->mca[i])
				sb->st0[i] = *kb_mca_stats(sr->mca[i]);
	}
	unlink(sb->blocks);	/* as out: an earlier attempt's regions are not this boot's */
	unlink(sb->calls);
	sb->store = store;
	sb->variant = kb_xstrdup(variant);
	sb->boot = boot;
	sb->vboot = vboot;
	kb_sim_out_init(&sb->o);
	unlink(out);	/* a resumed boot must not read an earlier attempt */
	for (; kb_sim_qemu_args[n]; n++)
		sb->argv[n] = kb_sim_qemu_args[n];
	sb->argv[n++] = "-plugin";
	sb->argv[n++] = sb->spec;
	sb->argv[n] = NULL;
	return sb;
}

const char *const *kb_sim_boot_argv(const struct kb_sim_boot *sb)
{
	return sb->argv;
}

static int cmp_func(const void *a, const void *b)
{
	const struct kb_sim_func *x = a, *y = b;

	if (x->insn != y->insn)
		return x->insn < y->insn ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Region r's block cycles under each model into bc[] (have[i]: there),
 * from the boot's whole blocks file (read: kb_blocks_poll's result). */
static void block_costs(struct kb_sim_boot *sb, int read, const struct kb_sim_region *r,
			double bc[KB_SIM_NMCA], int have[KB_SIM_NMCA])
{
	int missing = 0;

	for (size_t i = 0; i < KB_SIM_NMCA; i++) {
		struct kb_mca_region g;

		have[i] = 0;
		if (!sb->sr->mca[i])
			continue;
		if (read < 0 || kb_mca_region_of(sb->sr->mca[i], sb->bin, r->seq, &g) != 0) {
			missing = 1;
			continue;
		}
		/* the blocks' instructions are the region's, exactly (simfmt.h) */
		if (g.insns != r->c[KB_SIM_insn_k] + r->c[KB_SIM_insn_u]) {
			kb_warn("variant '%s' boot %ld: sim: region %" PRIu64 ": its blocks hold %" PRIu64
				" instructions, the region %" PRIu64 ": no %s", sb->variant, sb->vboot, r->seq,
				g.insns, r->c[KB_SIM_insn_k] + r->c[KB_SIM_insn_u], kb_sim_mca_fields[i]);
			missing = 1;
			continue;
		}
		bc[i] = g.cycles;
		have[i] = 1;
	}
	sb->mca_missing += missing;
}

/* Region r as its layouts of one kind: the seeded ones (pred 0) or the
 * prediction's (pred 1), the plugin's first sb->npred. */
static struct kb_sim_region layouts_of(const struct kb_sim_boot *sb, const struct kb_sim_region *r, int pred)
{
	struct kb_sim_region v = *r;
	size_t np = sb->npred <= r->n_vl ? sb->npred : r->n_vl;

	v.vl = pred ? r->vl : r->vl + np;
	v.n_vl = pred ? np : r->n_vl - np;
	if (!v.n_vl)
		v.vl = NULL;
	return v;
}

/* The prediction's figures: each "vl_<name>": [x] of from (its one layout)
 * as "pred_<name>": x into to. */
static void pred_fields(json_t *from, json_t *to)
{
	const char *key;
	json_t *v;

	json_object_foreach(from, key, v) {
		char name[64];

		if (strncmp(key, "vl_", 3) || !json_is_array(v) || json_array_size(v) != 1)
			continue;
		snprintf(name, sizeof(name), "pred_%s", key + 3);
		json_object_set(to, name, json_array_get(v, 0));
	}
}

/* fn's figures of the prediction's one layout (pred), as "pred_<name>",
 * into to; nothing where the region has no prediction. */
static void pred_put(void (*fn)(const struct kb_sim_region *, const struct kb_sim_model *, json_t *),
		     const struct kb_sim_region *pred, const struct kb_sim_model *m, json_t *to)
{
	json_t *t;

	if (!pred->n_vl)
		return;
	t = json_object();
	fn(pred, m, t);
	pred_fields(t, to);
	json_decref(t);
}

/* Region r's block costs into its sample's fields and its sim.jsonl line. */
static void mca_fill(struct kb_sim_boot *sb, int read, const struct kb_sim_region *r, json_t *fields,
		     json_t *j)
{
	struct kb_sim_region seeded = layouts_of(sb, r, 0), pred = layouts_of(sb, r, 1);
	double bc[KB_SIM_NMCA];
	int have[KB_SIM_NMCA];

	block_costs(sb, read, r, bc, have);
	for (size_t i = 0; i < KB_SIM_NMCA; i++) {
		char vname[64];

		if (!have[i])
			continue;
		kb_sim_mca_fields_of(&seeded, &sb->sr->model, kb_sim_mca_fields[i], bc[i], fields);
		if (pred.n_vl) {
			json_t *t = json_object();

			kb_sim_mca_fields_of(&pred, &sb->sr->model, kb_sim_mca_fields[i], bc[i], t);
			pred_fields(t, fields);
			pred_fields(t, j);
			json_decref(t);
		}
		json_object_set_new(j, i ? KB_RD_MCA_BLOCK_CYCLES_ALT : KB_RD_MCA_BLOCK_CYCLES, json_real(bc[i]));
		json_object_set(j, kb_sim_mca_fields[i], json_object_get(fields, kb_sim_mca_fields[i]));
		snprintf(vname, sizeof(vname), "vl_%s", kb_sim_mca_fields[i]);
		if (json_object_get(fields, vname))
			json_object_set(j, vname, json_object_get(fields, vname));
	}
}

int kb_sim_boot_sample(struct kb_sim_boot *sb, const char *wl, const char *cas, long rep,
		       json_t *fields, const char **why)
{
	struct kb_sim_region *r = NULL, seeded, pred;
	size_t w;
	json_t *j, *funcs;

	for (w = 0; w < KB_ARRAY_SIZE(workload_names); w++)
		if (!strcmp(workload_names[w], wl))
			break;
	if (w == KB_ARRAY_SIZE(workload_names)) {
		*why = "sample of an unknown workload";
		return -1;
	}
	kb_sim_out_poll(&sb->o, sb->out);
	for (size_t i = sb->next[w]; i < sb->o.n_regions; i++) {
		struct kb_sim_region *c = &sb->o.regions[i];

		if (c->claimed || kb_sim_marker_workload(c->id) != workload_names[w])
			continue;
		r = c;
		sb->next[w] = i + 1;
		break;
	}
	if (!r) {
		sb->unmatched++;
		*why = "sample without a simulated region (the workload's markers are missing, "
		       "or the plugin's output is cut short)";
		return -1;
	}
	if (r->n_vl != sb->o.vl) {
		sb->unmatched++;
		*why = "simulated region without its virtual layouts (the plugin's output is cut short)";
		return -1;
	}
	r->claimed = 1;
	kb_sim_fields(r, &sb->sr->model, fields);
	seeded = layouts_of(sb, r, 0);
	pred = layouts_of(sb, r, 1);
	kb_sim_vl_fields(&seeded, &sb->sr->model, fields);
	pred_put(kb_sim_vl_fields, &pred, &sb->sr->model, fields);

	/* footprint and attribution: one line per sample in sim.jsonl */
	if (r->n_funcs)	/* qsort's base must not be NULL, even for 0 items */
		qsort(r->funcs, r->n_funcs, sizeof(*r->funcs), cmp_func);
	funcs = json_array();
	for (size_t i = 0; i < r->n_funcs; i++)
		json_array_append_new(funcs, json_pack("[s,I,I]", r->funcs[i].name,
						       (json_int_t)r->funcs[i].insn,
						       (json_int_t)r->funcs[i].miss));
	j = json_pack("{s:s,s:I,s:I,s:s,s:s,s:I,s:I,s:s}", KB_RD_VARIANT, sb->variant,
		      KB_RD_BOOT, (json_int_t)sb->boot, KB_RD_VBOOT, (json_int_t)sb->vboot, KB_RD_WORKLOAD, wl,
		      KB_RD_CASE, cas, KB_RD_REP, (json_int_t)rep, KB_RD_REGION, (json_int_t)r->seq,
		      KB_RD_BACKEND, KB_SIM_BACKEND);
	for (int i = 0; i < KB_SIM_NCOUNTERS; i++)
		json_object_set_new(j, kb_sim_counter_names[i], json_integer((json_int_t)r->c[i]));
	json_object_set_new(j, KB_RD_MODEL_CYCLES,
			    json_integer((json_int_t)kb_sim_model_cycles(r, &sb->sr->model)));
	kb_sim_vl_arrays(&seeded, &sb->sr->model, j);
	pred_put(kb_sim_vl_arrays, &pred, &sb->sr->model, j);
	json_object_set_new(j, KB_RD_FUNCTIONS, funcs);
	region_free(r);	/* its functions are in j; the counts stay */
	if (sb->bin) {	/* block costs: the boot's, at its end, in one batch */
		sb->pend = kb_xrealloc(sb->pend, (sb->n_pend + 1) * sizeof(*sb->pend));
		sb->pend[sb->n_pend++] = (struct pending){ (size_t)(r - sb->o.regions),
							  json_incref(fields), j };
		return 0;
	}
	if (sb->store)
		kb_store_append(sb->store, KB_RD_SIM, j);
	json_decref(j);
	return 0;
}

void kb_sim_boot_settle(struct kb_sim_boot *sb)
{
	int polled = sb->n_pend ? kb_blocks_poll(sb->bin, sb->blocks) : -1;

	/* every block of the boot at once: a few llvm-mca calls a model, not
	 * a few a region (a model that fails here fails region by region
	 * below, each sample then counted without its costs) */
	for (size_t i = 0; polled == 0 && i < KB_SIM_NMCA; i++)
		if (sb->sr->mca[i])
			kb_mca_price_all(sb->sr->mca[i], sb->bin);
	for (size_t i = 0; i < sb->n_pend; i++) {
		struct pending *p = &sb->pend[i];

		mca_fill(sb, polled, &sb->o.regions[p->region], p->fields, p->line);
		if (sb->store)
			kb_store_append(sb->store, KB_RD_SIM, p->line);
		json_decref(p->line);
		json_decref(p->fields);
	}
	free(sb->pend);
	sb->pend = NULL;
	sb->n_pend = 0;
}

int kb_sim_boot_finish(struct kb_sim_boot *sb)
{
	int problems = 0;
	int r = kb_sim_out_poll(&sb->o, sb->out);

	if (r < 0) {
		kb_warn("variant '%s' boot %ld: sim: no plugin output '%s': %s", sb->variant, sb->vboot,
			sb->out, strerror(-r));
		return 1;
	}
	for (size_t i = 0; i < sb->o.n_errors; i++) {
		char *t = kb_sim_error_text(&sb->o.errors[i]);

		kb_warn("variant '%s' boot %ld: sim: %s", sb->variant, sb->vboot, t);
		free(t);
		problems++;
	}
	for (size_t i = 0; i < sb->o.n_regions; i++)
		if (!kb_sim_marker_workload(sb->o.regions[i].id)) {
			kb_warn("variant '%s' boot %ld: sim: region %" PRIu64 " has unknown marker 0x%08x",
				sb->variant, sb->vboot, sb->o.regions[i].seq, sb->o.regions[i].id);
			problems++;
		}
	if (sb->unmatched) {
		kb_warn("variant '%s' boot %ld: sim: %ld samples had no simulated region: are the "
			"workloads' begin and end markers there?", sb->variant, sb->vboot, sb->unmatched);
		problems++;
	}
	if (sb->o.bad) {
		kb_warn("variant '%s' boot %ld: sim: %zu lines of '%s' not understood, first: '%s'",
			sb->variant, sb->vboot, sb->o.bad, sb->out, sb->o.first_bad);
		problems++;
	}
	if (!sb->o.ended) {
		kb_warn("variant '%s' boot %ld: sim: '%s' ends early (QEMU did not exit normally)",
			sb->variant, sb->vboot, sb->out);
		problems++;
	}
	if (sb->mca_missing) {
		kb_warn("variant '%s' boot %ld: sim: %ld samples without their block costs (%s): "
			"model_cycles only for them", sb->variant, sb->vboot, sb->mca_missing, sb->blocks);
		problems++;
	}
	return problems;
}

json_t *kb_sim_boot_mca_json(const struct kb_sim_boot *sb)
{
	json_t *j;

	if (!sb->bin)
		return NULL;
	j = json_object();
	for (size_t i = 0; i < KB_SIM_NMCA; i++) {
		const struct kb_mca_stats *s;

		if (!sb->sr->mca[i])
			continue;
		s = kb_mca_stats(sb->sr->mca[i]);
		json_object_set_new(j, kb_mca_cpu(sb->sr->mca[i]),
				    json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:f,s:f}", "calls",
					      (json_int_t)(s->calls - sb->st0[i].calls), "priced",
					      (json_int_t)(s->priced - sb->st0[i].priced), "cache_hits",
					      (json_int_t)(s->hits - sb->st0[i].hits), "unpriced",
					      (json_int_t)(s->unpriced - sb->st0[i].unpriced), "same_text",
					      (json_int_t)(s->shared - sb->st0[i].shared), "unmodeled",
					      (json_int_t)(s->unmodeled - sb->st0[i].unmodeled), "rare",
					      (json_int_t)(s->rare - sb->st0[i].rare), "seconds",
					      s->seconds - sb->st0[i].seconds, "cpu_seconds",
					      s->cpu_seconds - sb->st0[i].cpu_seconds));
	}
	return j;
}

void kb_sim_boot_free(struct kb_sim_boot *sb)
{
	if (!sb)
		return;
	for (size_t i = 0; i < sb->n_pend; i++) {	/* not settled: an interrupted boot */
		json_decref(sb->pend[i].line);
		json_decref(sb->pend[i].fields);
	}
	free(sb->pend);
	kb_sim_out_release(&sb->o);
	kb_blocks_free(sb->bin);
	free(sb->out);
	free(sb->spec);
	free(sb->vl_dump);
	free(sb->blocks);
	free(sb->calls);
	free(sb->variant);
	free(sb);
}

