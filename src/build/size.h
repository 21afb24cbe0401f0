/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * size: text, data and bss of ELF files, counted and printed exactly as
 * binutils size(1) does, read with libelf so that kbench never runs size.
 */
#ifndef KB_SIZE_H
#define KB_SIZE_H

#include <stdbool.h>
#include <stdio.h>

struct kb_size {
	unsigned long long text, data, bss;
};

/*
 * Berkeley sums of an ELF file (32- or 64-bit, any endianness) read with
 * libelf.  0, or a negative errno after printing a clear message naming the
 * file ("kbench: 'x.o': not an ELF file", "...: truncated section header
 * table", ...).  An archive is refused: its members have sizes, it has none.
 */
int kb_size_read(const char *path, struct kb_size *out);

/* The "   text\t   data..." header line of size's Berkeley format. */
void kb_size_print_header(FILE *f);
/* One Berkeley row: text, data, bss, their sum in decimal and hex, filename. */
void kb_size_print_row(FILE *f, const struct kb_size *s, const char *filename);

/* What `kbench size` prints: Berkeley rows (with one header, and the sum in
 * total for a (TOTALS) line) or System V tables, on out. */
struct kb_size_printer {
	FILE *out;
	bool sysv, totals, header_done;
	struct kb_size total;
};
/* Print one file (an ELF file, an archive's members, a thin archive's).  0,
 * or a negative errno after a message naming it. */
int kb_size_show(struct kb_size_printer *p, const char *path);

#endif
