// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kbench-sim: a QEMU TCG plugin that counts, per measured region of the guest
 * (the marker NOPs of src/base/proto.h), instructions split kernel/user, L1i
 * accesses and misses in a set-associative LRU model with an L2 behind it,
 * the dynamic kernel footprint, and instructions and misses per function of a
 * symbol map (System.map, or `nm` output of a user program).
 *
 * Speed comes from doing the work at translation time: each translation
 * block gets a descriptor with the cache lines it covers (in fetch order), its
 * instruction counts per function, and its markers; one callback per executed
 * block then replays that.  The result equals a per-instruction fetch model
 * such as cachegrind's, because the lines of a block are consecutive and each
 * is looked up once where the first instruction touching it is fetched; the
 * only imprecision is a block cut short by an exception (a page fault in mid
 * block), whose remaining instructions are counted although they run again.
 *
 * Virtual layouts: the same run also feeds N further L1i/L2 models, each
 * seeing every instruction fetch at the address it would have in another
 * placement of the code (instruction counts unchanged).  A placement is a
 * table of disjoint ranges (start, size, new start); an address outside every
 * range stays where it is.  vl=K makes K seeded ones from the map (SplitMix64,
 * seeded with vl_seed and the layout's index).  vl_place=pad (the default)
 * keeps the map's order and inserts 16 to 4080 bytes (steps of 16) before
 * vl_pads (8) functions, each drawn with a chance proportional to its size:
 * every function after a point moves on by its padding, as the code after a
 * layout replica's padding objects does, so code keeps its neighbours but at
 * the few points.  vl_place=shuffle: in each
 * run of functions that are contiguous in the map (a gap, i.e. a symbol that
 * is not text, ends a run), the functions are shuffled (Fisher-Yates driven
 * by the same generator) and laid out
 * one after the other from the run's start, each at the first address not
 * below the previous one's end with the same alignment as its own: the
 * largest power of two that divides its address, KB_SIM_VL_ALIGN (16) at
 * most.  So an -O2 function (16-aligned) moves by a multiple of 16 and the
 * alignment gcc gives its loops and jumps on x86 stays what a linker would
 * keep; an -Os one (not aligned) keeps what alignment it has; and the
 * identity placement is one of the possible ones.  A run that grew by that
 * padding pushes the next runs on, so no two functions ever overlap.  A
 * function's size is the distance to the next symbol of any kind.  In system mode only kernel functions move; in user mode (kbench
 * sim) the program's own.  vl_file=FILE adds placements written out
 * ("layout" starts one; then "START SIZE NEW" per range); they come first.
 * The translation is done at translation time, one lookup per instruction
 * there, never when a block runs.
 *
 * Usage: -plugin file=kbench-sim.so,out=FILE[,l1i=SIZE:WAYS:LINE]
 *        [,l2=SIZE:WAYS:LINE|off][,map=System.map][,page_offset=HEX]
 *        [,mode=full|markers][,vl=K][,vl_seed=N][,vl_place=pad|shuffle][,vl_pads=N]
 *        [,vl_file=FILE][,vl_dump=FILE][,blocks=FILE][,calls=FILE]
 * mode=markers only times the regions (host wall clock): the reference for
 * the plugin's overhead.  vl_dump writes every layout's placement.  blocks
 * writes, per region, how often each run of instructions counted together
 * ran, with its bytes (plugin/simfmt.h): what src/backend/mca.c prices.
 * calls writes, per region, each call site's callees and how often each
 * was called from it (simfmt.h): what kbench profile orders functions by.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cachesim.h"
#include "proto.h"
#include "qemu-api.h"
#include "simfmt.h"

KB_PLUGIN_EXPORT int qemu_plugin_version = KB_QEMU_PLUGIN_API;

#define NAME		"kbench-sim"
#define MARKER_LEN	8		/* 0f 1f 84 00 imm32 */
#define MARKER_KIND(id)	((id) & 0xffu)
#define MARKER_REGION(id) ((id) & ~0xffu)
#define MAX_LAST_SYMBOL	(64u << 10)	/* extent given to the map's last symbol */
#define FUNC_USER	0		/* user code outside the map */
#define FUNC_KERNEL	1		/* kernel code outside the map */
#define FUNC_FIRST	2

/* ---- configuration and state (one vCPU: no locking) ---- */

static struct {
	FILE *out;
	int markers_only;
	int system;
	uint64_t page_offset;
	unsigned l1_size, l1_ways, l1_line;
	unsigned l2_size, l2_ways, l2_line;	/* l2_size 0: no L2 */
	unsigned vl_seeded;			/* seeded virtual layouts */
	uint64_t vl_seed;
	int vl_shuffle;				/* vl_place=shuffle, else pad */
	unsigned vl_pads;			/* vl_place=pad: padding points */
	const char *vl_file, *vl_dump;
	FILE *blocks;				/* blocks=FILE: per-region block counts */
	FILE *calls;				/* calls=FILE: per-region call edges */
	int x86_64;
} cfg = {
	.page_offset = 0xc0000000u,
	.vl_pads = 8,
	.l1_size = 32768, .l1_ways = 8, .l1_line = 64,
	.l2_size = 1u << 20, .l2_ways = 16, .l2_line = 64,
};

static struct kb_cache l1, l2;

/* ---- virtual layouts ---- */

struct vl_table {		/* disjoint ranges, sorted by start */
	size_t n;
	uint64_t *start, *size;
};

struct vlayout {
	const struct vl_table *tab;	/* the map's functions (shared), or its own */
	uint64_t *to;			/* new start of each range */
	struct kb_cache l1, l2;
	uint64_t c[KB_SIM_VL_NCOUNTERS];	/* running totals */
	uint64_t s[KB_SIM_VL_NCOUNTERS];	/* their values when the region opened */
	int prev_miss;
};

static struct vl_table ftab;	/* the map's movable functions */
static uint64_t vl_unmoved;	/* instructions translated between ftab's functions */
static struct vlayout *vls;
static unsigned n_vl;

struct func {
	uint64_t addr;
	char *name;
	int label;	/* a label (_end, __bss_start...) names this address too */
};
static struct func *funcs;	/* sorted by address, from FUNC_FIRST on */
static size_t n_funcs;
static uint64_t *bounds;	/* addresses of the map's other symbols, sorted */
static size_t n_bounds;
static uint64_t *f_insn, *f_miss;	/* running totals per function */
static uint64_t *s_insn, *s_miss;	/* their values when the region opened */

static uint64_t tot[KB_SIM_NCOUNTERS];	/* running totals */
static uint64_t snap[KB_SIM_NCOUNTERS];	/* their values when the region opened */
static uint32_t open_id;		/* marker ID of the open region, 0: none */
static uint64_t seq;			/* begin markers seen */
static uint32_t epoch;			/* footprint generation, one per region */
static uint64_t t_begin;
static int prev_miss;
static int saw_other_vcpu;
static uint64_t n_errors;

static void fold(void);
static void blocks_snap(void);
static void blocks_emit(uint64_t s, uint32_t id);
static void calls_snap(void);
static void calls_emit(uint64_t s, uint32_t id);

/* ---- output ---- */

static void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void emit(const char *fmt, ...)
{
	va_list ap;

	if (!cfg.out)
		return;
	va_start(ap, fmt);
	vfprintf(cfg.out, fmt, ap);
	va_end(ap);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void emit_counters(const uint64_t *c, const uint64_t *base)
{
#define KB_SIM_COUNTER(name, help) \
	emit(" " #name "=%" PRIu64, c[KB_SIM_##name] - (base ? base[KB_SIM_##name] : 0));
	KB_SIM_COUNTERS
#undef KB_SIM_COUNTER
}

static void emit_funcs(uint64_t s, const uint64_t *bi, const uint64_t *bm)
{
	for (size_t i = 0; i < n_funcs; i++) {
		uint64_t di = f_insn[i] - (bi ? bi[i] : 0), dm = f_miss[i] - (bm ? bm[i] : 0);

		if (di || dm)
			emit("func seq=%" PRIu64 " insn=%" PRIu64 " l1i_miss=%" PRIu64 " name=%s\n",
			     s, di, dm, funcs[i].name);
	}
}

/* One "vl" line per virtual layout: since the region opened, or in all. */
static void emit_vl(uint64_t s, int since_open)
{
	for (unsigned k = 0; k < n_vl; k++) {
		emit("vl seq=%" PRIu64 " layout=%u", s, k);
#define KB_SIM_VL_COUNTER(name, help) \
		emit(" " #name "=%" PRIu64, vls[k].c[KB_SIM_VL_##name] - \
		     (since_open ? vls[k].s[KB_SIM_VL_##name] : 0));
		KB_SIM_VL_COUNTERS
#undef KB_SIM_VL_COUNTER
		emit("\n");
	}
}

static void marker_error(const char *kind, uint32_t id)
{
	n_errors++;
	emit("error seq=%" PRIu64 " kind=%s id=0x%08x open=0x%08x\n", seq, kind, id, open_id);
	if (cfg.out)
		fflush(cfg.out);
	if (open_id)
		fprintf(stderr, NAME ": %s markers: 0x%08x while region 0x%08x is open\n", kind, id,
			open_id);
	else
		fprintf(stderr, NAME ": %s markers: 0x%08x with no region open\n", kind, id);
}

/* ---- regions ---- */

static void region_begin(uint32_t id)
{
	if (open_id)
		marker_error(KB_SIM_ERR_NESTED, id);	/* the inner begin wins */
	seq++;
	epoch++;
	open_id = id;
	if (!cfg.markers_only)
		fold();
	if (cfg.blocks)
		blocks_snap();
	if (cfg.calls)
		calls_snap();
	memcpy(snap, tot, sizeof(tot));
	if (!cfg.markers_only) {
		memcpy(s_insn, f_insn, n_funcs * sizeof(*s_insn));
		memcpy(s_miss, f_miss, n_funcs * sizeof(*s_miss));
	}
	for (unsigned k = 0; k < n_vl; k++)
		memcpy(vls[k].s, vls[k].c, sizeof(vls[k].s));
	t_begin = now_ns();
}

static void region_end(uint32_t id)
{
	uint64_t t = now_ns();

	if (!open_id) {
		marker_error(KB_SIM_ERR_UNBALANCED, id);
		return;
	}
	if (MARKER_REGION(id) != MARKER_REGION(open_id)) {
		marker_error(KB_SIM_ERR_MISMATCHED, id);
		open_id = 0;
		return;
	}
	if (cfg.blocks)
		blocks_emit(seq, MARKER_REGION(id) | 1u);	/* before fold: it reads count - folded */
	if (cfg.calls)
		calls_emit(seq, MARKER_REGION(id) | 1u);
	if (!cfg.markers_only)
		fold();
	emit("region seq=%" PRIu64 " id=0x%08x", seq, MARKER_REGION(id) | 1u);
	emit_counters(tot, snap);
	emit(" host_ns=%" PRIu64 "\n", t - t_begin);
	emit_vl(seq, 1);
	if (!cfg.markers_only)
		emit_funcs(seq, s_insn, s_miss);
	if (cfg.out)
		fflush(cfg.out);	/* the host reads it when the guest reports the sample */
	open_id = 0;
}

static void marker(uint32_t id)
{
	if (MARKER_KIND(id) == 0x01)
		region_begin(id);
	else
		region_end(id);
}

/* ---- dynamic kernel footprint: a bit per byte and per line, per 4 KiB page ---- */

struct fp_page {
	uint32_t epoch;
	uint8_t lines[4096 / 16 / 8];	/* lines of 16 bytes or more */
	uint8_t bytes[4096 / 8];
};
static struct fp_page **fp_pages;	/* (addr - fp_base) >> 12 */
static size_t fp_n;
static uint64_t fp_base;

static unsigned mark_bits(uint8_t *map, unsigned from, unsigned to)
{
	unsigned n = 0;

	for (unsigned i = from; i < to; i++) {
		uint8_t bit = (uint8_t)(1u << (i & 7));

		if (!(map[i >> 3] & bit)) {
			map[i >> 3] |= bit;
			n++;
		}
	}
	return n;
}

static void footprint(uint64_t start, uint64_t end)
{
	while (start < end) {
		uint64_t pg = (start - fp_base) >> 12, pend = ((start >> 12) + 1) << 12;
		uint64_t stop = end < pend ? end : pend;
		unsigned off = (unsigned)(start & 4095), lim = (unsigned)(stop - (start & ~4095ull));
		struct fp_page *p;

		if (pg >= fp_n)
			return;
		p = fp_pages[pg];
		if (!p) {
			p = fp_pages[pg] = calloc(1, sizeof(*p));
			if (!p)
				return;
		}
		if (p->epoch != epoch) {
			memset(p->lines, 0, sizeof(p->lines));
			memset(p->bytes, 0, sizeof(p->bytes));
			p->epoch = epoch;
		}
		tot[KB_SIM_kfoot_bytes] += mark_bits(p->bytes, off, lim);
		tot[KB_SIM_kfoot_lines] += mark_bits(p->lines, off >> l1.line_shift,
						     ((lim - 1) >> l1.line_shift) + 1);
		start = stop;
	}
}

/* ---- translation blocks ---- */

struct lref {			/* one L1i line, looked up where it is first fetched */
	uint64_t ln;		/* line number */
	uint32_t set;		/* its set's first entry in l1.tags */
	uint32_t func;		/* function of the instruction that fetches it first */
	uint8_t pair;		/* that instruction also fetched the previous line first */
	uint8_t kern;
};

struct fcnt {
	uint32_t func;
	uint32_t n;
};

struct piece {			/* instructions between markers */
	uint32_t n_k, n_u;
	uint16_t l0, l1, f0, f1;
	uint32_t mark;		/* marker acted on after this piece, 0: none */
};

/*
 * A block without markers only counts its executions; its instructions go
 * into the totals (and per function) when the regions' edges fold the counts
 * in.  A block with a marker is counted piece by piece as it runs.
 */
struct tbd {
	uint64_t count, folded;	/* executions; those already in the totals */
	struct tbd *next;	/* every lazily counted block */
	uint64_t start, end;	/* bytes of the block */
	uint32_t fp_epoch;
	uint32_t n_k, n_u;	/* instructions, less a tail */
	uint16_t n_pieces, n_lines, n_f;
	uint8_t kernel;
	uint8_t first_size;	/* bytes of the first instruction */
	/* The last instruction when it ends near the end of the block's first
	 * page: QEMU 7.2 lists an instruction that crosses into the next page
	 * at the end of this block although it runs (whole) as the first of
	 * the next one, so it counts only if the next block does not start
	 * with it. */
	uint8_t has_tail, tail_size, tail_kern;
	uint32_t tail_func;
	uint64_t tail;
	struct piece *p;
	struct lref *l;
	struct fcnt *f;
	struct vline *vl;	/* virtual layouts' lines, layout after layout */
	uint32_t *vl_off;	/* per layout, n_pieces + 1 offsets into vl */
	struct bunit *u;	/* blocks=FILE: n_pieces units and the tail's, else NULL */
	struct tbd *unext;	/* every block with counted units (pieces or a tail) */
	/* calls=FILE: the block ends with a call at call_va (0: not), to
	 * call_to where the instruction names it (0: an indirect call) */
	uint64_t call_va, call_to;
};

/*
 * blocks=FILE: a unit is a run of instructions the totals count together:
 * a lazily counted block less its tail, a piece of a block with markers, or
 * a tail (one instruction).  Executions of a lazy block's unit are its
 * count; the others count their own, so that in every region the sum over
 * units of executions x instructions is insn_k + insn_u, exactly.
 */
struct bunit {
	uint64_t va;
	uint64_t count, snap;	/* executions; their value when the region opened */
	uint32_t id;		/* in the blocks file, 0: not yet described */
	uint32_t n_k, n_u;
	uint16_t len;		/* bytes */
	const uint8_t *bytes;
};
static struct tbd *unit_list;
static uint32_t n_units_out;

static struct tbd *lazy_list;

/* Descriptors live as long as QEMU may run their block: an arena, never freed. */
static char *arena;
static size_t arena_left;
static uint64_t n_blocks, arena_bytes;	/* translated blocks described, their bytes */

static void *arena_alloc(size_t n)
{
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (n > arena_left) {
		size_t chunk = n > (1u << 20) ? n : (1u << 20);

		arena = malloc(chunk);
		if (!arena) {
			fprintf(stderr, NAME ": out of memory\n");
			abort();
		}
		arena_left = chunk;
	}
	p = arena;
	arena += n;
	arena_left -= n;
	arena_bytes += n;
	n_blocks++;
	return p;
}

/* Bring the lazily counted blocks into tot[] and f_insn[]. */
static void fold(void)
{
	for (struct tbd *t = lazy_list; t; t = t->next) {
		uint64_t d = t->count - t->folded;

		if (!d)
			continue;
		t->folded = t->count;
		tot[KB_SIM_insn_k] += d * t->n_k;
		tot[KB_SIM_insn_u] += d * t->n_u;
		for (unsigned j = 0; j < t->n_f; j++)
			f_insn[t->f[j].func] += d * t->f[j].n;
	}
	tot[KB_SIM_l1i_access] = tot[KB_SIM_insn_k] + tot[KB_SIM_insn_u];
}

/* ---- calls=FILE ---- */

/*
 * A call ends a translation block, so the block that runs next is the
 * callee's entry: each (call site, next block) pair is counted.  An
 * interrupt or exception taken between the two would put its handler
 * there: for a direct call (e8 rel32, whose target the instruction names)
 * such a pair is not counted but tallied as cut; an indirect call's
 * target is whatever ran next.
 */
struct cedge {
	uint64_t from, to;	/* the call instruction's address, the callee's entry */
	uint64_t count, snap;	/* calls; their value when the region opened */
};
static struct cedge *edges;	/* open addressing, from == 0: empty */
static size_t edges_cap, edges_n;
static uint64_t call_from, call_to;	/* the call just run (0: none), a direct one's target */
static uint64_t n_calls, n_calls_cut;

static size_t edge_hash(uint64_t from, uint64_t to, size_t cap)
{
	uint64_t h = (from * 0x9e3779b97f4a7c15ull) ^ (to * 0xc2b2ae3d27d4eb4full);

	return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

static void edge_add(uint64_t from, uint64_t to)
{
	size_t i;

	if (2 * (edges_n + 1) > edges_cap) {	/* grow: at most half full */
		size_t cap = edges_cap ? 2 * edges_cap : 4096;
		struct cedge *e = calloc(cap, sizeof(*e));

		if (!e) {
			fprintf(stderr, NAME ": out of memory\n");
			abort();
		}
		for (size_t k = 0; k < edges_cap; k++) {
			if (!edges[k].from)
				continue;
			for (i = edge_hash(edges[k].from, edges[k].to, cap); e[i].from; i = (i + 1) & (cap - 1))
				;
			e[i] = edges[k];
		}
		free(edges);
		edges = e;
		edges_cap = cap;
	}
	for (i = edge_hash(from, to, edges_cap); edges[i].from; i = (i + 1) & (edges_cap - 1))
		if (edges[i].from == from && edges[i].to == to) {
			edges[i].count++;
			return;
		}
	edges[i] = (struct cedge){ from, to, 1, 0 };
	edges_n++;
}

/* the block t runs after a call (call_from set): count the edge */
static void call_arrive(const struct tbd *t)
{
	if (call_to && t->start != call_to)
		n_calls_cut++;
	else
		edge_add(call_from, t->start), n_calls++;
	call_from = 0;
}

static void calls_snap(void)
{
	for (size_t i = 0; i < edges_cap; i++)
		edges[i].snap = edges[i].count;
}

/* One "c" line per edge called in the region, then its "r" line. */
static void calls_emit(uint64_t s, uint32_t id)
{
	for (size_t i = 0; i < edges_cap; i++)
		if (edges[i].from && edges[i].count > edges[i].snap)
			fprintf(cfg.calls, "c %" PRIu64 " 0x%" PRIx64 " 0x%" PRIx64 " %" PRIu64 "\n", s,
				edges[i].from, edges[i].to, edges[i].count - edges[i].snap);
	fprintf(cfg.calls, "r %" PRIu64 " 0x%08" PRIx32 "\n", s, id);
	fflush(cfg.calls);
}

/* Whether the instruction b[0..n) is a near call: 1 direct (*to its
 * target, from its address va), 2 indirect (ff /2), else 0.  Legacy
 * prefixes and a REX prefix (x86_64) are skipped. */
static int insn_call(const uint8_t *b, size_t n, uint64_t va, uint64_t *to)
{
	size_t i = 0;

	while (i < n && (b[i] == 0x66 || b[i] == 0x67 || b[i] == 0xf2 || b[i] == 0xf3 ||
			 b[i] == 0x2e || b[i] == 0x3e || b[i] == 0x26 || b[i] == 0x36 ||
			 b[i] == 0x64 || b[i] == 0x65 || b[i] == 0xf0))
		i++;
	if (cfg.x86_64 && i < n && (b[i] & 0xf0) == 0x40)
		i++;
	if (i < n && b[i] == 0xe8 && i + 5 == n) {
		int32_t rel = (int32_t)((uint32_t)b[i + 1] | (uint32_t)b[i + 2] << 8 |
					(uint32_t)b[i + 3] << 16 | (uint32_t)b[i + 4] << 24);

		*to = va + n + (uint64_t)(int64_t)rel;
		if (!cfg.x86_64)
			*to &= 0xffffffffu;
		return 1;
	}
	if (i + 1 < n && b[i] == 0xff && ((b[i + 1] >> 3) & 7) == 2) {
		*to = 0;
		return 2;
	}
	return 0;
}

/* ---- blocks=FILE ---- */

static void blocks_snap(void)
{
	for (struct tbd *t = unit_list; t; t = t->unext)
		for (unsigned k = 0; k <= t->n_pieces; k++)
			t->u[k].snap = t->u[k].count;
}

/* One "x" line per unit that ran in the region (described by a "b" line the
 * first time), then the region's line: see plugin/simfmt.h. */
static void blocks_unit(struct bunit *u, uint64_t s, uint64_t d)
{
	if (!d || !(u->n_k + u->n_u))
		return;
	if (!u->id) {
		u->id = ++n_units_out;
		fprintf(cfg.blocks, "b %" PRIu32 " 0x%" PRIx64 " %" PRIu32 " %" PRIu32 " ", u->id,
			u->va, u->n_k, u->n_u);
		for (unsigned i = 0; i < u->len; i++)
			fprintf(cfg.blocks, "%02x", u->bytes[i]);
		fputc('\n', cfg.blocks);
	}
	fprintf(cfg.blocks, "x %" PRIu64 " %" PRIu32 " %" PRIu64 "\n", s, u->id, d);
}

static void blocks_emit(uint64_t s, uint32_t id)
{
	for (struct tbd *t = lazy_list; t; t = t->next)
		if (t->u)
			blocks_unit(&t->u[0], s, t->count - t->folded);
	for (struct tbd *t = unit_list; t; t = t->unext)
		for (unsigned k = t->n_pieces > 1 ? 0 : 1; k <= t->n_pieces; k++)
			blocks_unit(&t->u[k], s, t->u[k].count - t->u[k].snap);
	fprintf(cfg.blocks, "r %" PRIu64 " 0x%08" PRIx32 "\n", s, id);
	fflush(cfg.blocks);
}

static uint32_t func_of(uint64_t va)
{
	size_t lo = 0, hi = n_funcs;
	int kern = va >= cfg.page_offset;

	if (n_funcs <= FUNC_FIRST || va < funcs[FUNC_FIRST].addr)
		return kern ? FUNC_KERNEL : FUNC_USER;
	lo = FUNC_FIRST;
	while (hi - lo > 1) {	/* last symbol at or below va */
		size_t mid = lo + (hi - lo) / 2;

		if (funcs[mid].addr <= va)
			lo = mid;
		else
			hi = mid;
	}
	if (lo == n_funcs - 1 && va - funcs[lo].addr >= MAX_LAST_SYMBOL)
		return kern ? FUNC_KERNEL : FUNC_USER;
	if ((funcs[lo].addr >= cfg.page_offset) != kern)
		return kern ? FUNC_KERNEL : FUNC_USER;
	return (uint32_t)lo;
}

static int marker_id(const struct qemu_plugin_insn *insn, uint32_t *id)
{
	unsigned char b[MARKER_LEN];

	if (qemu_plugin_insn_size(insn) != MARKER_LEN ||
	    kb_insn_bytes(insn, b, sizeof(b)) != MARKER_LEN)
		return 0;
	if (b[0] != 0x0f || b[1] != 0x1f || b[2] != 0x84 || b[3] != 0x00)
		return 0;
	*id = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24;
	/* compilers pad with the same NOP and displacement 0: only kbench's IDs count */
	return (*id & 0xffff0000u) == KB_MARK_BASE && (MARKER_KIND(*id) == 1 || MARKER_KIND(*id) == 2);
}

static struct tbd *pending;	/* a block whose tail is not yet counted */

static void resolve_tail(const struct tbd *next)
{
	struct tbd *a = pending;

	pending = NULL;
	if (next && next->start == a->tail && next->first_size > a->tail_size)
		return;	/* the same instruction, whole this time: it is counted there */
	if (a->u)
		a->u[a->n_pieces].count++;
	tot[a->tail_kern ? KB_SIM_insn_k : KB_SIM_insn_u]++;
	f_insn[a->tail_func]++;
}

static inline void fetch_lines(const struct lref *r, const struct lref *end)
{
	for (; r < end; r++) {
		uint64_t *tags = l1.tags + r->set;
		int m;

		if (tags[0] == r->ln) {	/* the common case: most recently used */
			prev_miss = 0;
			continue;
		}
		m = kb_cache_access_set(&l1, tags, r->ln);
		if (m) {
			tot[KB_SIM_l1i_fill]++;
			if (cfg.l2_size && kb_cache_access(&l2, r->ln << l1.line_shift))
				tot[KB_SIM_l2_miss]++;
			/* a fetch spanning two lines is one miss, as cachegrind counts it */
			if (!(r->pair && prev_miss)) {
				tot[r->kern ? KB_SIM_l1i_miss_k : KB_SIM_l1i_miss_u]++;
				f_miss[r->func]++;
			}
		}
		prev_miss = m;
	}
}

struct vline {			/* one line of a virtual layout, as struct lref */
	uint64_t ln;
	uint32_t set;
	uint8_t pair, kern;
};

/* fetch_lines for a virtual layout: the same counting, its own caches */
static inline void vl_fetch(struct vlayout *v, const struct vline *r, const struct vline *end)
{
	uint64_t *const tags0 = v->l1.tags;
	int prev = v->prev_miss;

	for (; r < end; r++) {
		uint64_t *tags = tags0 + r->set;
		int m;

		if (tags[0] == r->ln) {	/* kept in registers: this is most lines */
			prev = 0;
			continue;
		}
		m = kb_cache_access_set(&v->l1, tags, r->ln);
		if (m) {
			v->c[KB_SIM_VL_l1i_fill]++;
			if (cfg.l2_size && kb_cache_access(&v->l2, r->ln << v->l1.line_shift))
				v->c[r->kern ? KB_SIM_VL_l2_miss_k : KB_SIM_VL_l2_miss_u]++;
			if (!(r->pair && prev))
				v->c[r->kern ? KB_SIM_VL_l1i_miss_k : KB_SIM_VL_l1i_miss_u]++;
		}
		prev = m;
	}
	v->prev_miss = prev;
}

/* piece j of a block for every layout (off: n_vl rows of stride entries) */
static inline void vl_fetch_piece(const struct vline *vl, const uint32_t *off, unsigned stride,
				  unsigned j)
{
	for (unsigned k = 0; k < n_vl; k++, off += stride)
		vl_fetch(&vls[k], vl + off[j], vl + off[j + 1]);
}

static void tb_exec(unsigned int vcpu, void *udata)
{
	struct tbd *t = udata;

	if (vcpu)
		saw_other_vcpu = 1;
	if (pending)
		resolve_tail(t);
	if (call_from)
		call_arrive(t);
	t->count++;
	fetch_lines(t->l, t->l + t->n_lines);
	if (n_vl)
		vl_fetch_piece(t->vl, t->vl_off, 2, 0);
	if (open_id && t->kernel && t->fp_epoch != epoch) {
		t->fp_epoch = epoch;
		footprint(t->start, t->end);
	}
	if (t->has_tail)
		pending = t;
	if (t->call_va)
		call_from = t->call_va, call_to = t->call_to;
}

/* A block with markers: piece by piece, the markers acted on in between. */
static void tb_exec_pieces(unsigned int vcpu, void *udata)
{
	struct tbd *t = udata;

	if (vcpu)
		saw_other_vcpu = 1;
	if (pending)
		resolve_tail(t);
	if (call_from)
		call_arrive(t);
	for (unsigned k = 0; k < t->n_pieces; k++) {
		const struct piece *p = &t->p[k];

		fetch_lines(t->l + p->l0, t->l + p->l1);
		if (n_vl)
			vl_fetch_piece(t->vl, t->vl_off, t->n_pieces + 1u, k);
		tot[KB_SIM_insn_k] += p->n_k;
		tot[KB_SIM_insn_u] += p->n_u;
		for (unsigned j = p->f0; j < p->f1; j++)
			f_insn[t->f[j].func] += t->f[j].n;
		if (t->u)
			t->u[k].count++;
		if (open_id && t->kernel && t->fp_epoch != epoch) {
			t->fp_epoch = epoch;
			footprint(t->start, t->end);
		}
		if (p->mark)
			marker(p->mark);
	}
	if (t->has_tail)
		pending = t;
	if (t->call_va)
		call_from = t->call_va, call_to = t->call_to;
}

static void tb_exec_markers(unsigned int vcpu, void *udata)
{
	struct tbd *t = udata;

	(void)vcpu;
	for (unsigned k = 0; k < t->n_pieces; k++)
		if (t->p[k].mark)
			marker(t->p[k].mark);
}

/* ---- virtual layouts at translation time ---- */

struct vinsn {
	uint64_t va;
	size_t func;		/* its range in ftab, SIZE_MAX: none */
	uint32_t piece;
	uint8_t size, kern;
};

/* The range of t holding va, or SIZE_MAX. */
static size_t vl_lookup(const struct vl_table *t, uint64_t va)
{
	size_t lo = 0, hi = t->n;

	if (!t->n || va < t->start[0])
		return SIZE_MAX;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->start[mid] <= va)
			lo = mid;
		else
			hi = mid;
	}
	return va - t->start[lo] < t->size[lo] ? lo : SIZE_MAX;
}

static uint64_t vl_translate(const struct vlayout *v, const struct vinsn *in)
{
	size_t i = v->tab == &ftab ? in->func : vl_lookup(v->tab, in->va);

	return i == SIZE_MAX ? in->va : v->to[i] + (in->va - v->tab->start[i]);
}

/* Layout v's lines for a block's n instructions, as tb_trans finds the real
 * ones (each line where it is first fetched, a fetch across two lines
 * paired), appended to vl from nvl; off gets the start of each of the np
 * pieces and the end.  Returns the new nvl. */
static size_t vl_lines(const struct vlayout *v, const struct vinsn *in, size_t n, size_t np,
		       struct vline *vl, size_t nvl, uint32_t *off)
{
	uint64_t last_ln = UINT64_MAX;
	size_t j = 0;

	off[0] = (uint32_t)nvl;
	for (size_t i = 0; i < n; i++) {
		uint64_t a = vl_translate(v, &in[i]);
		uint64_t lf = a >> v->l1.line_shift;
		uint64_t ll = (a + (in[i].size ? in[i].size : 1) - 1) >> v->l1.line_shift;
		int first_new = 0;

		while (j < in[i].piece)
			off[++j] = (uint32_t)nvl;
		for (uint64_t ln = lf; ln <= ll; ln++) {
			if (ln == last_ln)
				continue;
			vl[nvl].ln = ln;
			vl[nvl].set = (uint32_t)(kb_cache_set(&v->l1, ln) * v->l1.ways);
			vl[nvl].kern = in[i].kern;
			vl[nvl].pair = (uint8_t)(ln != lf && first_new);
			if (ln == lf)
				first_new = 1;
			nvl++;
			last_ln = ln;
		}
	}
	while (j < np)
		off[++j] = (uint32_t)nvl;
	return nvl;
}

static void close_piece(struct piece *p, size_t *np, size_t nl, size_t nf, uint32_t mark)
{
	p[*np].mark = mark;
	p[*np].l1 = (uint16_t)nl;
	p[*np].f1 = (uint16_t)nf;
	(*np)++;
	p[*np].l0 = (uint16_t)nl;
	p[*np].f0 = (uint16_t)nf;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), np = 0, nl = 0, nf = 0;
	uint64_t va0 = qemu_plugin_tb_vaddr(tb), last_ln = UINT64_MAX, end = va0;
	/* worst case: every instruction a marker, spanning two lines, its own function */
	struct piece *p = calloc(n + 1, sizeof(*p));
	struct lref *l = calloc(2 * n + 1, sizeof(*l));
	struct fcnt *f = calloc(n + 1, sizeof(*f));
	uint32_t n_k = 0, n_u = 0, last_fn = 0;
	uint64_t last_va = 0, last_sz = 0, first_sz = 0, call_va = 0, call_dst = 0;
	int last_marker = 0, tail = 0;
	struct tbd *t;
	/* for the virtual layouts: each instruction's address, size and piece */
	struct vinsn *vi = n_vl ? calloc(n + 1, sizeof(*vi)) : NULL;
	struct vline *vl = NULL;
	uint32_t *vo = NULL;
	size_t nvl = 0, shared = SIZE_MAX;
	/* blocks=FILE: the block's bytes, and each piece's first address and length */
	uint8_t *bb = cfg.blocks ? malloc(16 * n + 16) : NULL;
	struct bunit *bu = cfg.blocks ? calloc(n + 2, sizeof(*bu)) : NULL;
	size_t nbb = 0;

	(void)id;
	if (!p || !l || !f || (n_vl && !vi) || (cfg.blocks && (!bb || !bu))) {
		fprintf(stderr, NAME ": out of memory\n");
		abort();
	}
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t va = qemu_plugin_insn_vaddr(insn), sz = qemu_plugin_insn_size(insn);
		uint64_t lf = va >> l1.line_shift, ll = (va + (sz ? sz : 1) - 1) >> l1.line_shift;
		int kern = va >= cfg.page_offset;
		uint32_t fn = cfg.markers_only ? 0 : func_of(va), mid = 0;
		int is_marker = marker_id(insn, &mid);
		struct piece *cur;
		int first_new = 0;

		if (is_marker && MARKER_KIND(mid) == 2)	/* an end closes before it runs */
			close_piece(p, &np, nl, nf, mid);
		if (vi) {
			if (shared == SIZE_MAX || va - ftab.start[shared] >= ftab.size[shared])
				shared = vl_lookup(&ftab, va);	/* mostly once a block */
			vi[i] = (struct vinsn){ va, shared, (uint32_t)np, (uint8_t)sz, (uint8_t)kern };
			if (shared == SIZE_MAX && ftab.n && va >= ftab.start[0] &&
			    va < ftab.start[ftab.n - 1] + ftab.size[ftab.n - 1])
				vl_unmoved++;
		}
		cur = &p[np];
		if (bu) {
			size_t got = kb_insn_bytes(insn, bb + nbb, sz < 16 ? sz : 16);

			if (!bu[np].len)
				bu[np].va = va;
			bu[np].len = (uint16_t)(bu[np].len + got);
			nbb += got;
			if (kern)
				bu[np].n_k++;
			else
				bu[np].n_u++;
		}
		if (kern)
			cur->n_k++, n_k++;
		else
			cur->n_u++, n_u++;
		for (uint64_t ln = lf; ln <= ll; ln++) {
			if (ln == last_ln)
				continue;
			l[nl].ln = ln;
			l[nl].set = (uint32_t)(kb_cache_set(&l1, ln) * l1.ways);
			l[nl].func = fn;
			l[nl].kern = (uint8_t)kern;
			l[nl].pair = (uint8_t)(ln != lf && first_new);
			if (ln == lf)
				first_new = 1;
			nl++;
			last_ln = ln;
		}
		if (nf > cur->f0 && f[nf - 1].func == fn) {
			f[nf - 1].n++;
		} else {
			f[nf].func = fn;
			f[nf].n = 1;
			nf++;
		}
		if (va + sz > end)
			end = va + sz;
		if (is_marker && MARKER_KIND(mid) == 1)	/* a begin opens after it runs */
			close_piece(p, &np, nl, nf, mid);
		if (i == 0)
			first_sz = sz;
		last_va = va;
		last_sz = sz;
		last_fn = fn;
		last_marker = is_marker;
	}
	/* a possible tail (see struct tbd): counted when the next block runs */
	if (n > 1 && !last_marker && last_va + last_sz + 8 > (va0 | 4095) + 1) {
		struct piece *cur = &p[np];

		if (last_va >= cfg.page_offset)
			cur->n_k--, n_k--;
		else
			cur->n_u--, n_u--;
		if (--f[nf - 1].n == 0)
			nf--;
		tail = 1;
		if (bu) {	/* the tail, a unit of its own (index np + 1 before np++ below) */
			struct bunit *b = &bu[np], *tu = &bu[np + 1];
			uint16_t tl = (uint16_t)(last_sz < 16 ? last_sz : 16);

			tu->va = last_va;
			tu->len = tl;
			b->len = (uint16_t)(b->len - tl);
			if (last_va >= cfg.page_offset)
				b->n_k--, tu->n_k = 1;
			else
				b->n_u--, tu->n_u = 1;
		}
	}
	p[np].l1 = (uint16_t)nl;
	p[np].f1 = (uint16_t)nf;
	np++;
	/* calls=FILE: a block that ends with a call (not a tail: the next
	 * block runs that instruction) */
	if (cfg.calls && n && !tail && !last_marker) {
		uint8_t cb[16];
		struct qemu_plugin_insn *li = qemu_plugin_tb_get_insn(tb, n - 1);
		size_t got = kb_insn_bytes(li, cb, last_sz < 16 ? last_sz : 16);

		if (got == last_sz && insn_call(cb, got, last_va, &call_dst))
			call_va = last_va;
		else
			call_dst = 0;
	}

	if (vi) {
		vl = malloc(n_vl * (2 * n + 1) * sizeof(*vl));
		vo = malloc(n_vl * (np + 1) * sizeof(*vo));
		if (!vl || !vo) {
			fprintf(stderr, NAME ": out of memory\n");
			abort();
		}
		for (unsigned k = 0; k < n_vl; k++)
			nvl = vl_lines(&vls[k], vi, n, np, vl, nvl, vo + k * (np + 1));
	}
	if (cfg.markers_only && np == 1)
		goto out;
	t = arena_alloc(sizeof(*t) + np * sizeof(*p) + nl * sizeof(*l) + nf * sizeof(*f) +
			nvl * sizeof(*vl) + n_vl * (np + 1) * sizeof(*vo));
	memset(t, 0, sizeof(*t));
	t->start = va0;
	t->end = end;
	t->kernel = va0 >= cfg.page_offset;
	t->n_k = n_k;
	t->n_u = n_u;
	t->n_pieces = (uint16_t)np;
	t->n_lines = (uint16_t)nl;
	t->n_f = (uint16_t)nf;
	t->first_size = (uint8_t)first_sz;
	t->call_va = call_va;
	t->call_to = call_dst;
	if (tail) {
		t->has_tail = 1;
		t->tail = last_va;
		t->tail_size = (uint8_t)last_sz;
		t->tail_kern = last_va >= cfg.page_offset;
		t->tail_func = last_fn;
	}
	t->l = (struct lref *)(t + 1);
	t->vl = (struct vline *)(t->l + nl);	/* 8-byte members first */
	t->p = (struct piece *)(t->vl + nvl);
	t->f = (struct fcnt *)(t->p + np);
	t->vl_off = (uint32_t *)(t->f + nf);
	memcpy(t->l, l, nl * sizeof(*l));
	memcpy(t->p, p, np * sizeof(*p));
	memcpy(t->f, f, nf * sizeof(*f));
	if (n_vl) {
		memcpy(t->vl, vl, nvl * sizeof(*vl));
		memcpy(t->vl_off, vo, n_vl * (np + 1) * sizeof(*vo));
	}
	if (!cfg.markers_only && np == 1) {
		t->next = lazy_list;
		lazy_list = t;
	}
	if (bu) {	/* units and bytes live as long as the descriptor */
		uint8_t *keep = malloc(nbb + 1);
		size_t off = 0;

		if (!keep) {
			fprintf(stderr, NAME ": out of memory\n");
			abort();
		}
		memcpy(keep, bb, nbb);
		for (size_t k = 0; k <= np; k++) {	/* pieces in order, then the tail */
			bu[k].bytes = keep + off;
			off += bu[k].len;
		}
		t->u = realloc(bu, (np + 1) * sizeof(*bu));
		bu = NULL;
		if (np > 1 || tail) {
			t->unext = unit_list;
			unit_list = t;
		}
	}
	qemu_plugin_register_vcpu_tb_exec_cb(tb, cfg.markers_only ? tb_exec_markers :
					     np == 1 ? tb_exec : tb_exec_pieces,
					     QEMU_PLUGIN_CB_NO_REGS, t);
out:
	free(p);
	free(l);
	free(f);
	free(vi);
	free(vl);
	free(vo);
	free(bb);
	free(bu);
}

/* ---- the symbol map ---- */

static int is_label(const char *s)
{
	static const char *const labels[] = { "_text", "_stext", "_etext", "_sinittext",
					      "_einittext", "_start_text", "_end" };
	size_t n = strlen(s);

	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		if (!strcmp(s, labels[i]))
			return 1;
	return (n > 6 && !strcmp(s + n - 6, "_start")) || (n > 4 && !strcmp(s + n - 4, "_end")) ||
	       !strncmp(s, "__begin_", 8) || !strncmp(s, "__end_", 6);
}

struct sym {
	uint64_t addr;
	int rank;	/* which alias names an address: 0 best */
	size_t order;
	char *name;
};

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* System.map or `nm` output: "ADDR TYPE NAME"; text symbols (T t W w) only. */
static int load_map(const char *path)
{
	FILE *f = fopen(path, "r");
	struct sym *s = NULL;
	size_t n = 0, cap = 0, cap_bounds = 0;
	char line[512];

	if (!f) {
		fprintf(stderr, NAME ": cannot open map '%s': %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char type, name[256];
		unsigned long long addr;

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (type != 'T' && type != 't' && type != 'W' && type != 'w') {
			/* any other symbol with an address ends the function before it */
			if (!strchr("aAUN", type)) {
				if (n_bounds == cap_bounds) {
					cap_bounds = cap_bounds ? 2 * cap_bounds : 4096;
					bounds = realloc(bounds, cap_bounds * sizeof(*bounds));
					if (!bounds)
						abort();
				}
				bounds[n_bounds++] = addr;
			}
			continue;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 4096;
			s = realloc(s, cap * sizeof(*s));
			if (!s)
				abort();
		}
		s[n].addr = addr;
		s[n].rank = is_label(name) ? 2 : type == 'T' ? 0 : 1;
		s[n].order = n;
		s[n].name = strdup(name);
		n++;
	}
	fclose(f);
	qsort(s, n, sizeof(*s), sym_cmp);
	funcs = realloc(funcs, (FUNC_FIRST + n) * sizeof(*funcs));
	if (!funcs)
		abort();
	n_funcs = FUNC_FIRST;
	for (size_t i = 0; i < n; i++) {
		if (n_funcs > FUNC_FIRST && funcs[n_funcs - 1].addr == s[i].addr) {
			funcs[n_funcs - 1].label |= s[i].rank == 2;
			free(s[i].name);	/* an alias of a better name */
			continue;
		}
		funcs[n_funcs].addr = s[i].addr;
		funcs[n_funcs].name = s[i].name;
		funcs[n_funcs].label = s[i].rank == 2;
		n_funcs++;
	}
	free(s);
	return 0;
}

/* ---- virtual layouts: the placements ---- */

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The map's functions that move: kernel ones in system mode, all in user
 * mode; each up to the next symbol of any kind (the last text symbol, when
 * nothing follows it, gets MAX_LAST_SYMBOL as func_of gives it, or nothing
 * if a label such as _end names its address). */
static int vl_functions(void)
{
	ftab.start = calloc(n_funcs + 1, sizeof(*ftab.start));
	ftab.size = calloc(n_funcs + 1, sizeof(*ftab.size));
	if (!ftab.start || !ftab.size)
		return -1;
	if (n_bounds)
		qsort(bounds, n_bounds, sizeof(*bounds), u64_cmp);
	for (size_t i = FUNC_FIRST; i < n_funcs; i++) {
		uint64_t a = funcs[i].addr, e = i + 1 < n_funcs ? funcs[i + 1].addr : UINT64_MAX;
		size_t lo = 0, hi = n_bounds;

		if (cfg.system && a < cfg.page_offset)
			continue;
		while (lo < hi) {	/* first bound above a */
			size_t mid = lo + (hi - lo) / 2;

			if (bounds[mid] <= a)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < n_bounds && bounds[lo] < e)
			e = bounds[lo];
		if (e == UINT64_MAX)
			e = funcs[i].label ? a : a + MAX_LAST_SYMBOL;
		if (e <= a)
			continue;
		ftab.start[ftab.n] = a;
		ftab.size[ftab.n] = e - a;
		ftab.n++;
	}
	return 0;
}

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Layout k of the seeded ones, vl_place=pad: the map's order kept, and
 * padding inserted before vl_pads functions, each drawn with a chance
 * proportional to its size (a uniform byte of the movable text), of 16 to
 * 4080 bytes in steps of 16 (as a layout replica's build pads the text):
 * every function after a point moves on by its padding, so code keeps its
 * neighbours but for the few points, as a real link's does. */
static void vl_padded(struct vlayout *v, unsigned k)
{
	uint64_t st = cfg.vl_seed ^ (0xd1b54a32d192ed03ull * (k + 1)), total = 0, shift = 0;
	uint64_t *pad = calloc(ftab.n + 1, sizeof(*pad));

	if (!pad)
		abort();
	for (size_t i = 0; i < ftab.n; i++)
		total += ftab.size[i];
	for (unsigned j = 0; j < cfg.vl_pads && total; j++) {
		uint64_t at = (uint64_t)(((unsigned __int128)splitmix64(&st) * total) >> 64), sum = 0;
		size_t f = 0;

		while (f + 1 < ftab.n && sum + ftab.size[f] <= at)
			sum += ftab.size[f++];
		pad[f] += 16 * (1 + splitmix64(&st) % 255);	/* 16 to 4080 */
	}
	for (size_t i = 0; i < ftab.n; i++) {
		shift += pad[i];
		v->to[i] = ftab.start[i] + shift;
	}
	free(pad);
}

/* Layout k of the seeded ones: each run of contiguous functions shuffled
 * and packed from the run's start (or the previous run's end, if that grew
 * past it), every function keeping its alignment, 16 at most. */
static void vl_seeded(struct vlayout *v, unsigned k, size_t *perm)
{
	uint64_t st = cfg.vl_seed ^ (0xd1b54a32d192ed03ull * (k + 1)), at = 0;

	for (size_t r0 = 0, r1; r0 < ftab.n; r0 = r1) {
		if (at < ftab.start[r0])
			at = ftab.start[r0];

		for (r1 = r0 + 1; r1 < ftab.n && ftab.start[r1 - 1] + ftab.size[r1 - 1] == ftab.start[r1]; r1++)
			;
		for (size_t i = r0; i < r1; i++)
			perm[i - r0] = i;
		for (size_t i = r1 - r0 - 1; i > 0; i--) {	/* Fisher-Yates */
			size_t j = (size_t)(((unsigned __int128)splitmix64(&st) * (i + 1)) >> 64);
			size_t x = perm[i];

			perm[i] = perm[j];
			perm[j] = x;
		}
		for (size_t i = 0; i < r1 - r0; i++) {
			size_t f = perm[i];
			uint64_t align = ftab.start[f] & (~ftab.start[f] + 1);	/* lowest set bit */

			if (!align || align > KB_SIM_VL_ALIGN)
				align = KB_SIM_VL_ALIGN;
			at += (ftab.start[f] - at) & (align - 1);
			v->to[f] = at;
			at += ftab.size[f];
		}
	}
}

struct vl_range {
	uint64_t start, size, to;
	unsigned line;
};

static int range_by_start(const void *a, const void *b)
{
	const struct vl_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static int range_by_to(const void *a, const void *b)
{
	const struct vl_range *x = a, *y = b;

	return x->to < y->to ? -1 : x->to > y->to;
}

/* Check one layout of vl_file (disjoint ranges before and after) and make
 * it a layout with its own table. */
static int vl_file_layout(const char *path, struct vl_range *r, size_t n, struct vlayout *v)
{
	struct vl_table *t = calloc(1, sizeof(*t));

	qsort(r, n, sizeof(*r), range_by_to);
	for (size_t i = 1; i < n; i++)
		if (r[i - 1].to + r[i - 1].size > r[i].to) {
			fprintf(stderr, NAME ": %s:%u: range placed at 0x%" PRIx64 " overlaps that of "
				"line %u\n", path, r[i].line, r[i].to, r[i - 1].line);
			return -1;
		}
	qsort(r, n, sizeof(*r), range_by_start);
	for (size_t i = 1; i < n; i++)
		if (r[i - 1].start + r[i - 1].size > r[i].start) {
			fprintf(stderr, NAME ": %s:%u: range at 0x%" PRIx64 " overlaps that of line %u\n",
				path, r[i].line, r[i].start, r[i - 1].line);
			return -1;
		}
	if (!t || !(t->start = calloc(n + 1, 8)) || !(t->size = calloc(n + 1, 8)) ||
	    !(v->to = calloc(n + 1, 8)))
		abort();
	for (size_t i = 0; i < n; i++) {
		t->start[i] = r[i].start;
		t->size[i] = r[i].size;
		v->to[i] = r[i].to;
	}
	t->n = n;
	v->tab = t;
	return 0;
}

/* vl_file: "layout [anything]" starts a placement; "START SIZE NEW" (numbers
 * as C writes them) is one range of it; # starts a comment.  The layouts
 * are appended to vls. */
static int vl_load_file(const char *path)
{
	FILE *f = fopen(path, "r");
	struct vl_range *r = NULL;
	size_t n = 0, cap = 0;
	unsigned lineno = 0, open = 0;
	char line[512];
	int ret = 0;

	if (!f) {
		fprintf(stderr, NAME ": cannot open vl_file '%s': %s\n", path, strerror(errno));
		return -1;
	}
	while (ret == 0 && fgets(line, sizeof(line), f)) {
		char *c = strchr(line, '#'), *p = line, *end;
		unsigned long long x[3];
		int k;

		lineno++;
		if (c)
			*c = '\0';
		p += strspn(p, " \t\r\n");
		if (!*p)
			continue;
		if (!strncmp(p, "layout", 6) && (!p[6] || strchr(" \t\r\n", p[6]))) {
			if (open)
				ret = vl_file_layout(path, r, n, &vls[n_vl++]);
			if (n_vl == KB_SIM_VL_MAX) {
				fprintf(stderr, NAME ": %s:%u: more than %d layouts\n", path, lineno,
					KB_SIM_VL_MAX);
				ret = -1;
			}
			open = 1;
			n = 0;
			continue;
		}
		for (k = 0; k < 3; k++) {
			p += strspn(p, " \t");
			errno = 0;
			x[k] = strtoull(p, &end, 0);
			if (end == p || errno || *p == '-')
				break;
			p = end;
		}
		p += strspn(p, " \t\r\n");
		if (k < 3 || *p || !open || x[1] == 0 || x[0] + x[1] < x[0] || x[2] + x[1] < x[2]) {
			fprintf(stderr, NAME ": %s:%u: %s\n", path, lineno,
				!open ? "a range before any 'layout' line"
				      : "expected START SIZE NEW (numbers, SIZE > 0, no wrap-around)");
			ret = -1;
			break;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			r = realloc(r, cap * sizeof(*r));
			if (!r)
				abort();
		}
		r[n++] = (struct vl_range){ x[0], x[1], x[2], lineno };
	}
	if (ret == 0 && open)
		ret = vl_file_layout(path, r, n, &vls[n_vl++]);
	fclose(f);
	free(r);
	return ret;
}

static int vl_dump(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, NAME ": cannot create '%s': %s\n", path, strerror(errno));
		return -1;
	}
	fprintf(f, "# kbench-sim virtual layouts (vl_file format): START SIZE NEW\n");
	for (unsigned k = 0; k < n_vl; k++) {
		fprintf(f, "layout %u %s\n", k, vls[k].tab == &ftab ? "seeded" : "vl_file");
		for (size_t i = 0; i < vls[k].tab->n; i++)
			fprintf(f, "0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 "\n", vls[k].tab->start[i],
				vls[k].tab->size[i], vls[k].to[i]);
	}
	return fclose(f) ? -1 : 0;
}

static int vl_setup(void)
{
	size_t *perm;

	vls = calloc(KB_SIM_VL_MAX, sizeof(*vls));
	if (!vls || vl_functions() < 0)
		return -1;
	if (cfg.vl_file && vl_load_file(cfg.vl_file) < 0)
		return -1;
	if (n_vl + cfg.vl_seeded > KB_SIM_VL_MAX) {
		fprintf(stderr, NAME ": %u virtual layouts: at most %d\n", n_vl + cfg.vl_seeded,
			KB_SIM_VL_MAX);
		return -1;
	}
	perm = calloc(ftab.n + 1, sizeof(*perm));
	if (!perm)
		return -1;
	for (unsigned k = 0; k < cfg.vl_seeded; k++) {
		struct vlayout *v = &vls[n_vl++];

		v->tab = &ftab;
		v->to = calloc(ftab.n + 1, sizeof(*v->to));
		if (!v->to)
			return -1;
		if (cfg.vl_shuffle)
			vl_seeded(v, k, perm);
		else
			vl_padded(v, k);
	}
	free(perm);
	for (unsigned k = 0; k < n_vl; k++)
		if (kb_cache_init(&vls[k].l1, cfg.l1_size, cfg.l1_ways, cfg.l1_line) < 0 ||
		    (cfg.l2_size && kb_cache_init(&vls[k].l2, cfg.l2_size, cfg.l2_ways, cfg.l2_line) < 0))
			return -1;
	return cfg.vl_dump ? vl_dump(cfg.vl_dump) : 0;
}

/* ---- set-up and the end ---- */

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	if (pending)
		resolve_tail(NULL);
	if (saw_other_vcpu) {
		n_errors++;
		emit("error seq=%" PRIu64 " kind=%s id=0x0 open=0x0\n", seq, KB_SIM_ERR_VCPUS);
		fprintf(stderr, NAME ": more than one vCPU ran: counts are not per CPU\n");
	}
	if (open_id)
		marker_error(KB_SIM_ERR_UNCLOSED, open_id);
	if (!cfg.markers_only)
		fold();
	emit("total regions=%" PRIu64, seq);
	emit_counters(tot, NULL);
	emit("\n");
	emit_vl(0, 0);
	if (!cfg.markers_only)
		emit_funcs(0, NULL, NULL);
	emit("end errors=%" PRIu64 " blocks=%" PRIu64 " descriptor_bytes=%" PRIu64, n_errors,
	     n_blocks, arena_bytes);
	if (n_vl)	/* code the seeded layouts leave in place: it must not meet moved code */
		emit(" vl_unmoved=%" PRIu64, vl_unmoved);
	emit("\n");
	fclose(cfg.out);
	cfg.out = NULL;
	if (cfg.blocks) {
		fprintf(cfg.blocks, "end units=%" PRIu32 "\n", n_units_out);
		fclose(cfg.blocks);
		cfg.blocks = NULL;
	}
	if (cfg.calls) {
		fprintf(cfg.calls, "end calls=%" PRIu64 " cut=%" PRIu64 " edges=%zu\n", n_calls,
			n_calls_cut, edges_n);
		fclose(cfg.calls);
		cfg.calls = NULL;
	}
}

static int parse_geometry(const char *v, unsigned *size, unsigned *ways, unsigned *line)
{
	char tail;

	if (!strcmp(v, "off") || !strcmp(v, "0")) {
		*size = 0;
		return 0;
	}
	return sscanf(v, "%u:%u:%u%c", size, ways, line, &tail) == 3 ? 0 : -1;
}

KB_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					 int argc, char **argv)
{
	const char *out = NULL, *map = NULL, *blocks = NULL, *calls = NULL;
	int page_offset_given = 0;

	if (info->version.cur < KB_QEMU_PLUGIN_API || info->version.min > KB_QEMU_PLUGIN_API) {
		fprintf(stderr, NAME ": built for QEMU plugin API %d, but this QEMU offers %d to %d: "
			"rebuild kbench against it (configure reads qemu-system-i386 --version)\n",
			KB_QEMU_PLUGIN_API, info->version.min, info->version.cur);
		return -1;
	}
	if (strcmp(info->target_name, "i386") && strcmp(info->target_name, "x86_64")) {
		fprintf(stderr, NAME ": target '%s' is not x86\n", info->target_name);
		return -1;
	}
	cfg.system = info->system_emulation;
	cfg.x86_64 = !strcmp(info->target_name, "x86_64");
	if (cfg.system && info->system.smp_vcpus != 1) {
		fprintf(stderr, NAME ": needs exactly one vCPU (-smp 1), got %d\n",
			info->system.smp_vcpus);
		return -1;
	}
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v = strchr(a, '=');
		size_t k = v ? (size_t)(v - a) : strlen(a);
		int bad = !v;

		if (v)
			v++;
		if (bad)
			;
		else if (k == 3 && !strncmp(a, "out", k))
			out = v;
		else if (k == 3 && !strncmp(a, "map", k))
			map = v;
		else if (k == 3 && !strncmp(a, "l1i", k))
			bad = parse_geometry(v, &cfg.l1_size, &cfg.l1_ways, &cfg.l1_line) || !cfg.l1_size;
		else if (k == 2 && !strncmp(a, "l2", k))
			bad = parse_geometry(v, &cfg.l2_size, &cfg.l2_ways, &cfg.l2_line);
		else if (k == 11 && !strncmp(a, "page_offset", k))
			bad = sscanf(v, "%" SCNx64, &cfg.page_offset) != 1 || !(page_offset_given = 1);
		else if (k == 4 && !strncmp(a, "mode", k) && (!strcmp(v, "full") || !strcmp(v, "markers")))
			cfg.markers_only = !strcmp(v, "markers");
		else if (k == 2 && !strncmp(a, "vl", k))
			bad = sscanf(v, "%u%c", &cfg.vl_seeded, &(char){ 0 }) != 1 ||
			      cfg.vl_seeded > KB_SIM_VL_MAX;
		else if (k == 7 && !strncmp(a, "vl_seed", k))
			bad = sscanf(v, "%" SCNu64 "%c", &cfg.vl_seed, &(char){ 0 }) != 1;
		else if (k == 7 && !strncmp(a, "vl_file", k))
			cfg.vl_file = v;
		else if (k == 8 && !strncmp(a, "vl_place", k) && (!strcmp(v, "pad") || !strcmp(v, "shuffle")))
			cfg.vl_shuffle = !strcmp(v, "shuffle");
		else if (k == 7 && !strncmp(a, "vl_pads", k))
			bad = sscanf(v, "%u%c", &cfg.vl_pads, &(char){ 0 }) != 1 || !cfg.vl_pads ||
			      cfg.vl_pads > 4096;
		else if (k == 7 && !strncmp(a, "vl_dump", k))
			cfg.vl_dump = v;
		else if (k == 6 && !strncmp(a, "blocks", k))
			blocks = v;
		else if (k == 5 && !strncmp(a, "calls", k))
			calls = v;
		else
			bad = 1;
		if (bad) {
			fprintf(stderr, NAME ": bad argument '%s' (out=FILE, map=FILE, l1i=SIZE:WAYS:LINE, "
				"l2=SIZE:WAYS:LINE|off, page_offset=HEX, mode=full|markers, vl=K (0 to %d), "
				"vl_seed=N, vl_place=pad|shuffle, vl_pads=N, vl_file=FILE, vl_dump=FILE, "
				"blocks=FILE)\n", a,
				KB_SIM_VL_MAX);
			return -1;
		}
	}
	if (!out) {
		fprintf(stderr, NAME ": needs out=FILE\n");
		return -1;
	}
	/* Where kernel addresses start: i386's 3G/1G split (PAGE_OFFSET), or
	 * x86_64's upper canonical half, which holds all kernel mappings. */
	if (!page_offset_given && !strcmp(info->target_name, "x86_64"))
		cfg.page_offset = KB_SIM_PAGE_OFFSET_X86_64;
	if (!cfg.system)
		cfg.page_offset = UINT64_MAX;	/* user mode: everything is user code */
	if (kb_cache_init(&l1, cfg.l1_size, cfg.l1_ways, cfg.l1_line) < 0 ||
	    (cfg.l2_size && kb_cache_init(&l2, cfg.l2_size, cfg.l2_ways, cfg.l2_line) < 0)) {
		fprintf(stderr, NAME ": impossible cache geometry l1i=%u:%u:%u l2=%u:%u:%u "
			"(line a power of two, size a multiple of ways x line)\n", cfg.l1_size,
			cfg.l1_ways, cfg.l1_line, cfg.l2_size, cfg.l2_ways, cfg.l2_line);
		return -1;
	}
	funcs = calloc(FUNC_FIRST, sizeof(*funcs));
	funcs[FUNC_USER].name = strdup("[user]");
	funcs[FUNC_KERNEL].name = strdup("[kernel]");
	n_funcs = FUNC_FIRST;
	if (map && load_map(map) < 0)
		return -1;
	if (!cfg.markers_only && (cfg.vl_seeded || cfg.vl_file) && vl_setup() < 0) {
		fprintf(stderr, NAME ": cannot set up the virtual layouts\n");
		return -1;
	}
	f_insn = calloc(n_funcs, sizeof(*f_insn));
	f_miss = calloc(n_funcs, sizeof(*f_miss));
	s_insn = calloc(n_funcs, sizeof(*s_insn));
	s_miss = calloc(n_funcs, sizeof(*s_miss));
	/* The footprint's pages: i386's from page_offset to 4 GiB; x86_64's the
	 * kernel image mapping, its top 2 GiB (__START_KERNEL_map), where the
	 * kernel's code runs (code elsewhere is not counted). */
	if (cfg.page_offset < UINT64_MAX) {
		fp_base = cfg.page_offset;
		if (!strcmp(info->target_name, "x86_64") && fp_base < KB_SIM_KERNEL_MAP_X86_64)
			fp_base = KB_SIM_KERNEL_MAP_X86_64;
		if (strcmp(info->target_name, "x86_64") && fp_base >= (uint64_t)1 << 32) {
			fprintf(stderr, NAME ": page_offset=0x%" PRIx64 " is above i386's 4 GiB\n",
				cfg.page_offset);
			return -1;
		}
		fp_n = (size_t)(((strcmp(info->target_name, "x86_64") ? (uint64_t)1 << 32 : 0) - fp_base) >> 12);
		fp_pages = calloc(fp_n, sizeof(*fp_pages));
	}
	if (!f_insn || !f_miss || !s_insn || !s_miss || (fp_n && !fp_pages)) {
		fprintf(stderr, NAME ": out of memory\n");
		return -1;
	}
	cfg.out = fopen(out, "w");
	if (!cfg.out) {
		fprintf(stderr, NAME ": cannot create '%s': %s\n", out, strerror(errno));
		return -1;
	}
	emit("%s %d api=%d target=%s system=%d mode=%s l1i=%u:%u:%u l2=%u:%u:%u "
	     "page_offset=0x%" PRIx64 " symbols=%zu", KB_SIM_MAGIC, KB_SIM_FORMAT,
	     KB_QEMU_PLUGIN_API, info->target_name, cfg.system, cfg.markers_only ? "markers" : "full",
	     cfg.l1_size, cfg.l1_ways, cfg.l1_line, cfg.l2_size, cfg.l2_size ? cfg.l2_ways : 0,
	     cfg.l2_size ? cfg.l2_line : 0, cfg.page_offset == UINT64_MAX ? 0 : cfg.page_offset,
	     n_funcs - FUNC_FIRST);
	if (n_vl)
		emit(" vl=%u vl_seeded=%u vl_seed=%" PRIu64 " vl_funcs=%zu vl_place=%s vl_pads=%u", n_vl,
		     cfg.vl_seeded, cfg.vl_seed, ftab.n, cfg.vl_shuffle ? "shuffle" : "pad", cfg.vl_pads);
	emit("\n");
	fflush(cfg.out);
	if (blocks && !cfg.markers_only) {
		cfg.blocks = fopen(blocks, "w");
		if (!cfg.blocks) {
			fprintf(stderr, NAME ": cannot create '%s': %s\n", blocks, strerror(errno));
			return -1;
		}
		fprintf(cfg.blocks, "%s %d page_offset=0x%" PRIx64 "\n", KB_BLOCKS_MAGIC, KB_SIM_FORMAT,
			cfg.page_offset == UINT64_MAX ? 0 : cfg.page_offset);
	}
	if (calls && !cfg.markers_only) {
		cfg.calls = fopen(calls, "w");
		if (!cfg.calls) {
			fprintf(stderr, NAME ": cannot create '%s': %s\n", calls, strerror(errno));
			return -1;
		}
		fprintf(cfg.calls, "%s %d target=%s page_offset=0x%" PRIx64 "\n", KB_CALLS_MAGIC,
			KB_SIM_FORMAT, info->target_name, cfg.page_offset == UINT64_MAX ? 0 : cfg.page_offset);
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
