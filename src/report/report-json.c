// SPDX-License-Identifier: GPL-2.0-or-later
/* summary.json: the result model serialized (model-json.c), for machines. */
#include "config.h"

#include <jansson.h>

#include "report.h"
#include "util.h"

static int write_json(FILE *f, const struct kb_report_ctx *ctx)
{
	json_t *j = kb_model_json(ctx->model);
	int r = json_dumpf(j, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));

	json_decref(j);
	if (r < 0)
		return kb_error("cannot serialize the summary");
	fputc('\n', f);
	return 0;
}

const struct kb_report_writer kb_report_json = { "JSON summary", "summary.json", write_json };
