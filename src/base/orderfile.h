/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A function order as kbench order writes it (build/order.h builds one
 * into a kernel): read here, in the base layer, so that every layer that
 * takes an order's name from a configuration can check it. */
#ifndef KBENCH_ORDERFILE_H
#define KBENCH_ORDERFILE_H

#include <stddef.h>

struct kb_order_file {
	char *path;
	char **names;	/* the functions, in the order's order */
	size_t *lines;	/* the line of each */
	size_t n;
};

/* Read an order file: one function name a line, '#' comments and blank
 * lines skipped.  A name with a character a section name or a linker
 * script pattern cannot carry (other than letters, digits, '_' and '.'),
 * a name given twice, or a file with no name: -1 after a message naming
 * the file and line. */
int kb_order_file_read(const char *path, struct kb_order_file *o);
void kb_order_file_release(struct kb_order_file *o);

#endif
