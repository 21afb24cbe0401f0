/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_PLOT_H
#define KB_PLOT_H

/* Plots by gnuplot as SVG text, for inlining in report.html.  kbench writes
 * the script itself; text from the config or the guest reaches gnuplot only
 * through kb_plot_label, so it cannot become a gnuplot command or markup. */

#include <stddef.h>

/* The one way a string from the run reaches gnuplot: a label safe inside a
 * quoted gnuplot string ('...' or "..."), as one column of a data file and
 * as SVG text: letters, digits and ._/=+- kept, anything else '_'
 * (malloc'd). */
char *kb_plot_label(const char *s);
/* The same for an axis label: inside a quoted gnuplot string and as SVG
 * text only, never a data column, so spaces and ( ) , : are kept too
 * ("mca_cycles/op (LLVM skylake)"). */
char *kb_plot_text(const char *s);

/* Run gnuplot (KBENCH_GNUPLOT, else the one configure found; "none": no
 * plots, as the fuzz harnesses want) on script in a new temporary
 * directory holding "plot.dat" with data; the script writes "plot.svg".
 * Returns the SVG element (XML prolog and doctype removed; malloc'd), or
 * NULL with *why set (malloc'd). */
char *kb_plot_svg(const char *script, const char *data, char **why);

/* gnuplot's SVG made compact in place, the drawing unchanged: its title
 * and description, empty groups and the white space between elements
 * dropped, and in attribute values numbers without trailing zeros
 * ("387.00" is "387") and runs of spaces as one.  Text shown stays as
 * written. */
void kb_plot_compact(char *svg);

#endif
