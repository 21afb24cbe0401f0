// SPDX-License-Identifier: GPL-2.0-or-later
/* The miss-o-meter's modeled cycles (miss-o-meter.h): the functions whose
 * cycles grow while their instructions do not, and the instruction that
 * explains it where one does. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "disasm.h"
#include "mca.h"
#include "miss-o-meter.h"
#include "util.h"

/* A growth counts where it is more than rounding: a part in 10^9. */
static int grows(double old, double new)
{
	return new - old > 1e-9 * fabs(old) && new - old > 1e-12;
}

static int cmp_cyc(const void *a, const void *b)
{
	const struct kb_miss_cyc *x = a, *y = b;

	if (x->d_cyc != y->d_cyc)
		return x->d_cyc < y->d_cyc ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* ---- why: the instruction behind the growth ---- */

/* One unit's executions in one row's side. */
struct use {
	uint32_t row, side, hex;
	double n;
};

/* One mnemonic's count in one block. */
struct inst {
	uint32_t hex, mn;
	unsigned n;
};

/* One instruction of a block: its mnemonic and bytes. */
struct piece {
	uint32_t mn;
	unsigned off, len;
};

struct why {
	struct kb_miss_cyc *rows;
	size_t nrows;
	struct kb_names keys;		/* "case\tname": row i is id i */
	struct kb_pool pool;
	struct kb_names hex;		/* distinct blocks */
	unsigned *insns;		/* by hex id */
	double *cost;
	size_t cap_hex;
	struct kb_htab use_index;	/* (hex + 1, row * 2 + side + 1) -> uses[] */
	struct use *uses;
	size_t nuses, cap_uses;
	struct kb_names mns;		/* mnemonics */
	struct kb_htab inst_index;	/* (hex + 1, mn + 1) -> insts[] */
	struct inst *insts;
	size_t ninsts, cap_insts;
	struct piece *pieces;		/* every block's, in order */
	size_t npieces, cap_pieces;
	size_t *first, *count;		/* by hex id: its pieces */
	int side;
};

static void collect(void *ctx, const char *cas, const struct kb_blocks_unit *u, uint64_t n)
{
	struct why *w = ctx;
	char *name = kb_bloat_name(u->function), *key = kb_xasprintf("%s\t%s", cas, name);
	size_t row = kb_names_find(&w->keys, key);
	uint32_t h, before;
	int added = 0;

	free(name);
	free(key);
	/* a rare block is priced by its instructions, not llvm-mca (mca.h):
	 * no instruction of it explains cycles */
	if (row >= w->keys.n || !n || u->rare)
		return;
	before = (uint32_t)w->hex.n;
	h = kb_names_add(&w->hex, &w->pool, u->hex);
	if (h == before) {
		if (h >= w->cap_hex) {
			w->cap_hex = 2 * (h + 1);
			w->insns = kb_xrealloc(w->insns, w->cap_hex * sizeof(*w->insns));
			w->cost = kb_xrealloc(w->cost, w->cap_hex * sizeof(*w->cost));
		}
		w->insns[h] = u->insn_k + u->insn_u;
		w->cost[h] = u->cycles;
	}
	{
		uint32_t i = kb_htab_get(&w->use_index, h + 1, row * 2 + (uint64_t)w->side + 1, NULL, NULL,
					 (uint32_t)w->nuses, &added);

		if (added) {
			if (w->nuses == w->cap_uses)
				w->uses = kb_xrealloc(w->uses, (w->cap_uses = w->cap_uses ? 2 * w->cap_uses : 256) *
							       sizeof(*w->uses));
			w->uses[w->nuses++] = (struct use){ (uint32_t)row, (uint32_t)w->side, h, 0 };
		}
		w->uses[i].n += (double)n;
	}
}

static void count_insns(void *ctx, size_t i, const struct kb_insn *in, size_t n)
{
	struct why *w = ctx;

	w->first[i] = w->npieces;
	w->count[i] = n;
	for (size_t j = 0; j < n; j++) {
		uint32_t mn = kb_names_add(&w->mns, &w->pool, in[j].mnemonic), k;
		int added = 0;

		if (w->npieces == w->cap_pieces)
			w->pieces = kb_xrealloc(w->pieces, (w->cap_pieces = w->cap_pieces ? 2 * w->cap_pieces : 4096) *
							   sizeof(*w->pieces));
		w->pieces[w->npieces++] = (struct piece){ mn, in[j].off, in[j].len };
		k = kb_htab_get(&w->inst_index, i + 1, (uint64_t)mn + 1, NULL, NULL, (uint32_t)w->ninsts, &added);
		if (added) {
			if (w->ninsts == w->cap_insts)
				w->insts = kb_xrealloc(w->insts, (w->cap_insts = w->cap_insts ? 2 * w->cap_insts : 1024) *
								 sizeof(*w->insts));
			w->insts[w->ninsts++] = (struct inst){ (uint32_t)i, mn, 0 };
		}
		w->insts[k].n++;
	}
}

/* Block h without its instructions of mnemonic mn: its bytes (malloc'd),
 * and in *left its instructions left. */
static char *without_mnemonic(const struct why *w, uint32_t h, uint32_t mn, unsigned *left)
{
	const char *hex = w->hex.v[h];
	char *out = kb_xcalloc(strlen(hex) + 1, 1), *o = out;

	*left = w->insns[h];
	for (size_t j = w->first[h]; j < w->first[h] + w->count[h]; j++) {
		const struct piece *p = &w->pieces[j];

		if (p->mn == mn) {
			(*left)--;
			continue;
		}
		memcpy(o, hex + 2 * p->off, 2 * (size_t)p->len);
		o += 2 * p->len;
	}
	*o = '\0';
	return out;
}

/* per row, side and mnemonic: executions per operation */
static double *histogram(const struct why *w, const double (*iters)[2])
{
	size_t nm = w->mns.n;
	double *hist = kb_xcalloc(w->nrows * 2 * nm + 1, sizeof(*hist));
	/* the mnemonics of each block, as a list per hex */
	size_t *first = kb_xcalloc(w->hex.n + 1, sizeof(*first)), *next = kb_xcalloc(w->ninsts + 1, sizeof(*next));

	for (size_t h = 0; h <= w->hex.n; h++)
		first[h] = SIZE_MAX;
	for (size_t k = 0; k < w->ninsts; k++) {
		next[k] = first[w->insts[k].hex];
		first[w->insts[k].hex] = k;
	}
	for (size_t u = 0; u < w->nuses; u++) {
		const struct use *us = &w->uses[u];

		for (size_t k = first[us->hex]; k != SIZE_MAX; k = next[k])
			hist[(us->row * 2 + us->side) * nm + w->insts[k].mn] +=
				us->n * w->insts[k].n / iters[us->row][us->side];
	}
	free(first);
	free(next);
	return hist;
}

#define NONE	UINT32_MAX		/* a block without the mnemonic */
#define HAS	(UINT32_MAX - 1)	/* with it, not yet in the list */

/* For each row: the mnemonic whose executions grew and whose removal takes
 * the most cycles away, new minus old; kept where it is half the growth. */
static int explain_rows(struct kb_miss *m, struct why *w, const double (*iters)[2])
{
	size_t nm = w->mns.n;
	double *hist = histogram(w, iters), *best = kb_xcalloc(w->nrows + 1, sizeof(*best));
	struct kb_mca_block *blk = kb_xcalloc(w->hex.n + 1, sizeof(*blk));
	double *without = kb_xcalloc(w->hex.n + 1, sizeof(*without)), *share;
	uint32_t *pos = kb_xcalloc(w->hex.n + 1, sizeof(*pos));
	unsigned char *cand = kb_xcalloc(w->nrows + 1, 1);
	int ret = 0;

	share = kb_xcalloc(2 * w->nrows + 1, sizeof(*share));
	for (size_t h = 0; h < w->hex.n; h++)
		pos[h] = NONE;
	for (size_t mn = 0; mn < nm && ret == 0; mn++) {
		size_t nh = 0, any = 0;

		for (size_t r = 0; r < w->nrows; r++) {
			cand[r] = grows(hist[(r * 2) * nm + mn], hist[(r * 2 + 1) * nm + mn]);
			any += cand[r];
		}
		if (!any)
			continue;
		/* the blocks of those rows that hold it */
		for (size_t k = 0; k < w->ninsts; k++)
			if (w->insts[k].mn == mn)
				pos[w->insts[k].hex] = HAS;
		for (size_t u = 0; u < w->nuses; u++) {
			uint32_t h = w->uses[u].hex;

			if (cand[w->uses[u].row] && pos[h] == HAS) {
				pos[h] = (uint32_t)nh;
				blk[nh].hex = without_mnemonic(w, h, (uint32_t)mn, &blk[nh].insns);
				nh++;
			}
		}
		/* priced as every block is (mca.h): the model's charge for the
		 * mnemonic there is the block's cost minus this */
		{
			size_t np = 0;
			struct kb_mca_block *tp = kb_xcalloc(nh + 1, sizeof(*tp));
			size_t *of = kb_xcalloc(nh + 1, sizeof(*of));

			for (size_t i = 0; i < nh; i++) {
				without[i] = 0;	/* nothing left: no cost */
				if (*blk[i].hex) {
					tp[np] = blk[i];
					of[np++] = i;
				}
			}
			if (kb_mca_price(m->mca, tp, np) < 0)
				ret = -1;
			for (size_t i = 0; ret == 0 && i < np; i++)
				without[of[i]] = tp[i].cycles;
			for (size_t i = 0; i < nh; i++)
				free((char *)blk[i].hex);
			free(tp);
			free(of);
			if (ret < 0)
				break;
		}
		memset(share, 0, 2 * w->nrows * sizeof(*share));
		for (size_t u = 0; u < w->nuses; u++) {
			const struct use *us = &w->uses[u];
			uint32_t p = pos[us->hex];

			if (cand[us->row] && p < nh && !isnan(without[p]))
				share[us->row * 2 + us->side] +=
					us->n * (w->cost[us->hex] - without[p]) / iters[us->row][us->side];
		}
		for (size_t r = 0; r < w->nrows; r++) {
			double d = share[r * 2 + 1] - share[r * 2];

			if (cand[r] && d > best[r]) {
				best[r] = d;
				if (d >= 0.5 * w->rows[r].d_cyc) {
					w->rows[r].why = w->mns.v[mn];
					w->rows[r].why_n = hist[(r * 2 + 1) * nm + mn] - hist[(r * 2) * nm + mn];
					w->rows[r].why_cyc = d;
				} else {
					w->rows[r].why = NULL;
				}
			}
		}
		for (size_t k = 0; k < w->ninsts; k++)
			pos[w->insts[k].hex] = NONE;
	}
	free(hist);
	free(best);
	free(blk);
	free(without);
	free(pos);
	free(cand);
	free(share);
	return ret;
}

static int reasons(struct kb_miss *m, struct kb_miss_cyc *rows, size_t n, const char *old, const char *new,
		   const double (*iters)[2], struct kb_pool *p)
{
	struct why w = { .rows = rows, .nrows = n, .pool = KB_POOL_INIT };
	int ret = 0;

	for (size_t r = 0; r < n; r++) {
		char *k = kb_xasprintf("%s\t%s", rows[r].cas, rows[r].name);

		kb_names_add(&w.keys, &w.pool, k);
		free(k);
	}
	for (w.side = 0; w.side < 2 && ret == 0; w.side++)
		ret = kb_miss_each_unit(m, w.side ? new : old, collect, &w);
	w.first = kb_xcalloc(w.hex.n + 1, sizeof(*w.first));
	w.count = kb_xcalloc(w.hex.n + 1, sizeof(*w.count));
	if (ret == 0)
		ret = kb_disasm_blocks(kb_mca_triple(m->mca), w.hex.v, w.hex.n, count_insns, &w);
	if (ret == 0)
		ret = explain_rows(m, &w, iters);
	for (size_t r = 0; r < n; r++)	/* the names live in w's pool */
		if (rows[r].why)
			rows[r].why = kb_pool_strdup(p, rows[r].why);
	kb_names_release(&w.keys);
	kb_names_release(&w.hex);
	kb_names_release(&w.mns);
	kb_htab_release(&w.use_index);
	kb_htab_release(&w.inst_index);
	free(w.insns);
	free(w.cost);
	free(w.uses);
	free(w.insts);
	free(w.pieces);
	free(w.first);
	free(w.count);
	kb_pool_release(&w.pool);
	return ret;
}

int kb_miss_cycles_top(struct kb_miss *m, const char *old, const char *new, size_t top, struct kb_pool *p,
		       struct kb_miss_cyc **out, size_t *n)
{
	struct kb_names names = { 0 };
	struct kb_pool tmp = KB_POOL_INIT;
	struct kb_miss_cyc *all = NULL;
	double (*iters)[2] = NULL, (*it)[2];
	size_t cap = 0;
	int ret = 0;

	*out = NULL;
	*n = 0;
	if (!m->cycles_model || !top)
		return 0;
	for (size_t c = 0; c < m->cases.n; c++) {
		struct kb_pool cp = KB_POOL_INIT;
		struct kb_miss_case mc;

		if (kb_miss_case(m, m->cases.v[c], old, new, NULL, 0, NULL, 0, &cp, &mc) < 0 ||
		    isnan(mc.cyc_k[0]) || isnan(mc.cyc_k[1])) {
			kb_pool_release(&cp);
			continue;
		}
		for (size_t i = 0; i < mc.n; i++) {
			const struct kb_miss_row *r = &mc.rows[i];
			size_t before = names.n;
			uint32_t id;

			if (!strcmp(r->name, "[kernel]") || !grows(r->cyc[0], r->cyc[1]) || r->ins[1] > r->ins[0])
				continue;
			id = kb_names_add(&names, &tmp, r->name);
			if (id == before) {
				if (id >= cap) {
					cap = 2 * (id + 1);
					all = kb_xrealloc(all, cap * sizeof(*all));
					iters = kb_xrealloc(iters, cap * sizeof(*iters));
				}
				memset(&all[id], 0, sizeof(all[id]));
			}
			all[id].cases++;
			if (all[id].cases == 1 || r->d_cyc > all[id].d_cyc) {
				size_t cases = all[id].cases;

				all[id] = (struct kb_miss_cyc){ names.v[id], m->cases.v[c], { r->ins[0], r->ins[1] },
								{ r->cyc[0], r->cyc[1] }, r->d_ins, r->d_cyc, cases,
								NULL, 0, 0 };
				iters[id][0] = mc.iters[0];
				iters[id][1] = mc.iters[1];
			}
		}
		kb_pool_release(&cp);
	}
	/* sort the rows and their iterations together */
	{
		size_t k = names.n;
		struct kb_miss_cyc *sorted;
		struct { struct kb_miss_cyc c; double it[2]; } *pair = kb_xcalloc(k + 1, sizeof(*pair));

		for (size_t i = 0; i < k; i++) {
			pair[i].c = all[i];
			pair[i].it[0] = iters[i][0];
			pair[i].it[1] = iters[i][1];
		}
		if (k)
			qsort(pair, k, sizeof(*pair), cmp_cyc);	/* the row comes first in pair */
		*n = k < top ? k : top;
		sorted = kb_pool_array(p, *n + 1, sizeof(*sorted));
		it = kb_xcalloc(*n + 1, sizeof(*it));
		for (size_t i = 0; i < *n; i++) {
			sorted[i] = pair[i].c;
			sorted[i].name = kb_pool_strdup(p, pair[i].c.name);
			sorted[i].cas = kb_pool_strdup(p, pair[i].c.cas);
			it[i][0] = pair[i].it[0];
			it[i][1] = pair[i].it[1];
		}
		free(pair);
		*out = sorted;
	}
	if (*n)
		ret = reasons(m, *out, *n, old, new, (const double (*)[2])it, p);
	free(it);
	free(all);
	free(iters);
	kb_names_release(&names);
	kb_pool_release(&tmp);
	return ret;
}

void kb_miss_cycles_print(FILE *f, const struct kb_miss_cyc *c, size_t n, const char *old, const char *new,
			  const char *cycles_model)
{
	fprintf(f, "cycles grow, instructions do not: %s -> %s, the %zu kernel functions whose modeled cycles per "
		"operation grow most while their simulated instructions do not, each in the case where its "
		"cycles grow most (modeled: block costs by %s)\n", old, new, n,
		cycles_model ? cycles_model : "none");
	fprintf(f, "%-32s %-12s %10s %10s %8s %10s %10s %9s %5s  %s\n", "Function", "case", "ins old", "ins new",
		"delta", "cyc old", "cyc new", "delta", "cases", "because");
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%-32s %-12s %10.1f %10.1f %+8.1f %10.1f %10.1f %+9.1f %5zu  ", c[i].name, c[i].cas,
			c[i].ins[0], c[i].ins[1], c[i].d_ins, c[i].cyc[0], c[i].cyc[1], c[i].d_cyc, c[i].cases);
		if (c[i].why)
			fprintf(f, "%s: %+.2f executed, %+.1f cycles\n", c[i].why, c[i].why_n, c[i].why_cyc);
		else
			fprintf(f, "-\n");
	}
}
