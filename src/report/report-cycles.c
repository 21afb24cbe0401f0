// SPDX-License-Identifier: GPL-2.0-or-later
/* The report's section on the kernel functions whose modeled cycles grow
 * while their instructions do not (report.h, miss-o-meter.h). */
#include "config.h"

#include "miss-o-meter.h"
#include "report.h"
#include "util.h"

int kb_report_cycles_present(const struct kb_model *m)
{
	return m->nmiss && (m->cycles_model || m->cycles_why);
}

void kb_report_cycles_section(struct kb_doc *d, const struct kb_model *m)
{
	struct kb_doc_table *t;
	struct kb_inline *in;

	in = kb_doc_para(d);
	if (!m->cycles_model) {
		kb_doc_fmt(in, "No modeled cycles per function: ");
		kb_doc_str(in, m->cycles_why);
		kb_doc_fmt(in, ".");
		return;
	}
	kb_doc_fmt(in, "Against ");
	kb_doc_code(in, m->baseline_name);
	kb_doc_fmt(in, ", the %d functions whose cycles per operation grow most while their "
		   "instructions do not, each in its case of largest growth (\"cases\": how many cases it "
		   "grows in). Cycles modeled: each block the sim plugin counted, priced by ", KB_MISS_TOP_CYC);
	kb_doc_str(in, m->cycles_model);
	kb_doc_fmt(in, ", times its executions, to the function of its first instruction; no branch "
		   "mispredictions or cache misses. \"Because\": the instruction without which the growth "
		   "halves, priced again. Every function: ");
	kb_doc_code(in, "kbench miss-o-meter RUN_DIR");
	kb_doc_fmt(in, ".");
	if (m->cycles_why) {
		in = kb_doc_para(d);
		kb_doc_fmt(in, "Not every case has modeled cycles: ");
		kb_doc_str(in, m->cycles_why);
		kb_doc_fmt(in, ".");
	}
	if (!m->ncyc) {
		kb_doc_fmt(kb_doc_para(d), "No function's modeled cycles grow while its instructions do not.");
		return;
	}
	t = kb_doc_table_heads(d, "variant|function|case|>instructions/op (simulated)|>Δ|"
			       ">cycles/op (modeled)|>Δ|>cases|because", NULL);
	for (size_t i = 0; i < m->ncyc; i++) {
		const struct kb_cyc_model *c = &m->cyc[i];

		for (size_t k = 0; k < c->n; k++) {
			const struct kb_miss_cyc *r = &c->rows[k];

			kb_doc_str(kb_doc_td(t), k ? "" : m->variants[c->variant].name);
			kb_doc_code(kb_doc_td(t), r->name);
			kb_doc_str(kb_doc_td(t), r->cas);
			kb_doc_fmt(kb_doc_td(t), "%.1f → %.1f", r->ins[0], r->ins[1]);
			kb_doc_fmt(kb_doc_td(t), "%+.1f", r->d_ins);
			kb_doc_fmt(kb_doc_td(t), "%.1f → %.1f", r->cyc[0], r->cyc[1]);
			kb_doc_fmt(kb_doc_td(t), "%+.1f", r->d_cyc);
			kb_doc_fmt(kb_doc_td(t), "%zu", r->cases);
			in = kb_doc_td(t);
			if (r->why) {
				kb_doc_code(in, r->why);
				kb_doc_fmt(in, ": %+.2f executed/op, %+.1f cycles/op", r->why_n, r->why_cyc);
			} else {
				kb_doc_fmt(in, "-");
			}
		}
	}
}
