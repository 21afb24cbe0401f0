/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_OPTION_H
#define KB_OPTION_H

/*
 * One entry of a variants.conf option table (fio's struct fio_option): the
 * parser writes the value through the offset and never knows the struct.
 * conf.c has the core table; each measurement backend brings its own [run]
 * keys in the same form, with offsets into its own options struct
 * (backend.h), so a backend's keys live beside its code.
 */

#include <stddef.h>

/* [claim] last: the sections --help-config and the man page list, in order */
enum kb_opt_section { KB_SEC_KERNEL, KB_SEC_RUN, KB_SEC_VARIANT, KB_SEC_CLAIM };
#define KB_SEC_LAST KB_SEC_CLAIM

enum kb_opt_type {
	KB_OPT_STR,		/* char *, owned, freed in release */
	KB_OPT_FLAGS,		/* char *: compiler flags or command, shell- and make-inert characters */
	KB_OPT_PATH,		/* char *, made absolute against the file's directory */
	KB_OPT_LONG,		/* long within [min, max] */
	KB_OPT_U64,		/* unsigned long long */
	KB_OPT_DOUBLE,		/* double within (0, max] */
	KB_OPT_ENUM,		/* long: index into allowed[] */
	KB_OPT_CHOICE,		/* char *: one of allowed[] */
	KB_OPT_WORKLOADS,	/* char *: comma-separated workload names */
	KB_OPT_ULIST,		/* char *: comma-separated distinct integers in [min, max] */
	KB_OPT_KOPTS,		/* Kconfig assignments, appended (variant only) */
	KB_OPT_PREDICTION,	/* "A vs B [on CASES]", appended ([claim] only; the key is its kind) */
};

struct kb_option {
	const char *name;
	enum kb_opt_section section;
	enum kb_opt_type type;
	size_t off;
	const char *def;
	const char *help;
	const char *allowed[6];
	long min, max;
	/* more checking of a string value: NULL if good, else what is wrong
	 * (static text); the parser names file, line and key */
	const char *(*check)(const char *value);
	/* KB_OPT_STR: a value that starts with this prefix ("order:") has the
	 * rest made absolute as KB_OPT_PATH's are, before the check */
	const char *path_after;
};

#endif
