// SPDX-License-Identifier: GPL-2.0-or-later
/* An order file (orderfile.h): one function name a line. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "orderfile.h"
#include "pool.h"
#include "util.h"

static int name_ok(const char *w)
{
	return *w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") ==
			     strlen(w);
}

int kb_order_file_read(const char *path, struct kb_order_file *o)
{
	struct kb_names idx = { 0 };
	struct kb_pool pool = { 0 };
	size_t cap = 0, lcap = 0, lineno = 0;
	char *line = NULL;
	FILE *f;
	int ret = -1;

	memset(o, 0, sizeof(*o));
	o->path = kb_xstrdup(path);
	f = fopen(path, "r");
	if (!f)
		return kb_error_errno(errno, "cannot open the order '%s'", path);
	while (getline(&line, &lcap, f) > 0) {
		char *w = line + strspn(line, " \t");
		size_t i;

		lineno++;
		w[strcspn(w, " \t\r\n#")] = '\0';
		if (!*w)
			continue;
		if (!name_ok(w)) {
			kb_error("%s:%zu: '%.80s' is no function name (letters, digits, '_' and '.' only)",
				 path, lineno, w);
			goto out;
		}
		i = kb_names_find(&idx, w);
		if (i < idx.n) {
			kb_error("%s:%zu: '%s' named again (line %zu first)", path, lineno, w, o->lines[i]);
			goto out;
		}
		kb_names_add(&idx, &pool, w);
		if (o->n == cap) {
			cap = cap ? 2 * cap : 1024;
			o->names = kb_xrealloc(o->names, cap * sizeof(*o->names));
			o->lines = kb_xrealloc(o->lines, cap * sizeof(*o->lines));
		}
		o->lines[o->n] = lineno;
		o->names[o->n++] = kb_xstrdup(w);
	}
	if (ferror(f)) {
		kb_error_errno(errno, "cannot read the order '%s'", path);
		goto out;
	}
	if (!o->n) {
		kb_error("%s: names no function: not an order", path);
		goto out;
	}
	ret = 0;
out:
	fclose(f);
	free(line);
	kb_names_release(&idx);
	kb_pool_release(&pool);
	if (ret < 0)
		kb_order_file_release(o);
	return ret;
}

void kb_order_file_release(struct kb_order_file *o)
{
	for (size_t i = 0; i < o->n; i++)
		free(o->names[i]);
	free(o->names);
	free(o->lines);
	free(o->path);
	memset(o, 0, sizeof(*o));
}
