// SPDX-License-Identifier: GPL-2.0-or-later
/* The table of executors (executors.def, executor.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "executor.h"
#include "util.h"

static const struct kb_executor *const table[] = {
#define KB_EXECUTOR(id, ops) &ops,
#include "executors.def"
#undef KB_EXECUTOR
};

/* the .def's names, which conf.c's [run] executor allows */
static const char *const names[] = {
#define KB_EXECUTOR(id, ops) #id,
#include "executors.def"
#undef KB_EXECUTOR
};

const struct kb_executor *const *kb_executors(size_t *n)
{
	*n = KB_ARRAY_SIZE(table);
	return table;
}

const struct kb_executor *kb_executor_find(const char *name)
{
	for (size_t i = 0; name && i < KB_ARRAY_SIZE(table); i++)
		if (!strcmp(table[i]->name, name))
			return table[i];
	return NULL;
}

size_t kb_executor_index(const struct kb_executor *e)
{
	for (size_t i = 0; i < KB_ARRAY_SIZE(table); i++)
		if (table[i] == e)
			return i;
	abort();	/* not registered: a bug */
}

const char *kb_executor_check(const struct kb_executor *e)
{
	size_t n = 0;

	if (!e->name || !*e->name)
		return "no name";
	if (e->api != KB_EXECUTOR_API)
		return "built for another executor API version";
	if (!e->builds || !e->boots)
		return "missing builds or boots";
	if (!!e->init != !!e->release)
		return "init without release (or the reverse)";
	if (e->options && e->options->name && !e->opts_size)
		return "options without an options struct (opts_size 0)";
	for (const struct kb_option *o = e->options; o && o->name; o++, n++)
		if (o->section != KB_SEC_RUN || o->off >= e->opts_size)
			return "an option outside [run] or past its options struct";
	if (n > KB_EXECUTOR_MAX_OPTIONS)
		return "more options than KB_EXECUTOR_MAX_OPTIONS";
	return NULL;
}

void kb_executor_check_table(void)
{
	for (size_t i = 0; i < KB_ARRAY_SIZE(table); i++) {
		const char *why = kb_executor_check(table[i]);

		if (!why && strcmp(table[i]->name, names[i]))
			why = "not named as in executors.def";
		for (size_t j = 0; !why && j < i; j++)
			if (!strcmp(table[i]->name, table[j]->name))
				why = "registered twice";
		if (why) {
			fprintf(stderr, "kbench: executor '%s': %s\n", table[i]->name ? table[i]->name : "?", why);
			abort();
		}
	}
}

const char *kb_executor_names(void)
{
	static char list[128];

	if (!list[0])
		for (size_t i = 0; i < KB_ARRAY_SIZE(names); i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i ? i + 1 == KB_ARRAY_SIZE(names) ? " or " : ", " : "", names[i]);
	return list;
}
