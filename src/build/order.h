/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Ordered kernels: a variant's order = FILE (a function order, as kbench
 * order writes it) built into the kernel's text.  The objects that define
 * the order's functions are compiled with -ffunction-sections, so that
 * each of their functions has a section of its own (".text.NAME"); every
 * other object is the unordered build's, byte for byte (the ordered
 * kernel is a hybrid of the unordered build with itself, those objects
 * compiled with the flag: hybrid.h, kb_order_objects).  The kernel's
 * linker script takes the sections the order names first, in its order,
 * ahead of the rest of the main text:
 * kbench's copy of the tree has a hook in include/asm-generic/vmlinux.lds.h
 * (inert in every object directory but an ordered build's), and the
 * ordered build's object directory the rule, include/generated/
 * kbench-order.h.  GNU ld in binutils 2.40 has no --section-ordering-file:
 * the linker script is the way. */
#ifndef KBENCH_ORDER_H
#define KBENCH_ORDER_H

#include <gelf.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "orderfile.h"

/* What an ordered build changes; in the kernel's cache key. */
#define KB_ORDER_RECIPE	"kbench-order-4"
/* The compiler flag an ordered build adds to the objects that define the
 * order's functions. */
#define KB_ORDER_CFLAGS	"-ffunction-sections"


/* What an order file says of how it was made, from the comments kbench
 * order writes at its top ("# kbench order: method M, from profile P",
 * "# profile: variant V, cases LIST, ..."): *method, *variant and *cases
 * (LIST as written: "all", or case names separated by commas), each
 * malloc'd or NULL where the file does not say.  0, or -1 after a message
 * when the file cannot be read. */
int kb_order_made(const char *path, char **method, char **variant, char **cases);

/* The text of include/generated/kbench-order.h for o: TEXT_MAIN takes
 * every ".text.NAME" section of a function, but not the cold and unknown
 * parts (".text.unlikely*", ".text.unknown*"), which stay where the
 * unordered build has them, and KBENCH_ORDERED_TEXT names
 * each ordered function's section, in order (NAME's ".text.NAME"; a split
 * cold part, NAME.cold, is in ".text.unlikely.NAME"; a syscall's entry
 * __ia32_sys_X, __x64_sys_X or __x32_sys_X also takes __do_sys_X's, whose
 * alias it is where the syscall has no arguments). */
char *kb_order_header(const struct kb_order_file *o);

/* Add the hook to include/asm-generic/vmlinux.lds.h of tree (kbench's own
 * copy of a kernel source), or bring it up to date: 0, or -1 after a
 * message (no such file, or its TEXT_TEXT is not the one kbench knows). */
int kb_order_install(const char *tree);

/* The objects of a built kernel's object directory (objdir) that define
 * a function o names in their main text (".text", or ".text.*" such as
 * ".text.unlikely": the sections -ffunction-sections splits; a function
 * in .init.text, .noinstr.text or .entry.text is where the kernel says
 * and stays there), sorted, relative to objdir as Kbuild names them
 * ("kernel/fork.o"), in *objs (malloc'd, *n of them); how many of o's
 * names some object defines in *defined.  Host programs (scripts/,
 * tools/), the boot and real-mode code and the vDSO, linked into no
 * vmlinux, are not read.  0, or -1 after a message. */
int kb_order_objects(const struct kb_order_file *o, const char *objdir, char ***objs, size_t *n,
		     size_t *defined);
void kb_order_objects_free(char **objs, size_t n);
/* For each of o's names, the object of objdir that defines it in its main
 * text as kb_order_objects finds them (the first by name where several
 * do; NULL where none: a name of no C object's main text), in *where
 * (o->n entries, each malloc'd; freed with kb_order_objects_free).  0, or
 * -1 after a message. */
int kb_order_where(const struct kb_order_file *o, const char *objdir, char ***where);

/* Open path as a relocatable ELF object (libelf, elf_version called):
 * 1 with *e, *fd and its section names' index; 0 where it is no such
 * object; -1 after a message where it cannot be opened.  Closed with
 * kb_elf_object_close. */
int kb_elf_object(const char *path, Elf **e, int *fd, size_t *shstrndx);
void kb_elf_object_close(Elf *e, int fd);
/* Each symbol of e's symbol table, with its name ("" where it has none):
 * fn(ctx, e, sym, name). */
void kb_elf_symbols(Elf *e, void (*fn)(void *ctx, Elf *e, const GElf_Sym *sym, const char *name), void *ctx);

/* Each object of objdir (a ".o" file, not a hidden one nor the top's
 * vmlinux.o), outside the directories skipped names (relative to objdir):
 * fn(ctx, path, rel), which returns -1 (after a message) to stop.  0, or
 * -1. */
int kb_objdir_objects(const char *objdir, const char *const *skipped, size_t nskipped,
		      int (*fn)(void *ctx, const char *path, const char *rel), void *ctx);

/* Where the functions o names sit in a built kernel's System.map (each
 * name's first text symbol): *found of them are there, and *rising of the
 * *found - 1 pairs of one found and the next found in o's order are at
 * rising addresses (all of them in a kernel the order placed, but where a
 * function sits in a section the order cannot move: .entry.text,
 * .noinstr.text, .sched.text...; about half in one it did not).  0, or -1
 * when the map cannot be read. */
int kb_order_check(const struct kb_order_file *o, const char *system_map, size_t *found,
		   size_t *rising);


/* Where the ordered build of o will put the code of the kernel whose
 * System.map is system_map and whose objects are in objdir (the
 * unordered build's), worked out from those alone (order-place.c: the
 * objects' sections found in the map, laid out again as the ordered
 * build's linker script and -ffunction-sections make them): the ranges
 * of the unordered kernel's code that move, "START SIZE NEW" after a line
 * "layout order", the sim plugin's vl_file.  Not exact where a function's
 * own inline assembly aligns its code and the object cannot be compiled
 * here (such an object, whose section is more aligned than any of its
 * functions, is compiled once with its recorded command and
 * -ffunction-sections into a scratch file, and its functions take the
 * sizes and alignments of their sections there: counted, compiled; where
 * that fails its section may take other padding: counted, self_aligned),
 * for a listed cold part (NAME.cold: left where it is), and
 * for bytes of the unordered kernel no section here explains (counted).
 * A name of o that system_map has not: -1 after a message with o's file
 * and line; -1 after a message when the objects cannot be read or
 * llvm-mc (which reads the functions' tail calls) is missing. */
struct kb_order_place {
	size_t objects;		/* objects whose code the kernel has */
	size_t split;		/* of them compiled with -ffunction-sections */
	size_t listed;		/* of o's names, those placed first */
	size_t functions;	/* functions they took */
	size_t unmovable;	/* o's names in no split object's main text */
	size_t cold;		/* o's cold parts, not modeled */
	size_t grown;		/* tail calls a function's own section makes longer */
	uint64_t grow_bytes;
	size_t unread;		/* split functions LLVM's disassembler could not read */
	size_t unexplained;	/* gaps in the unordered kernel's text no alignment explains */
	uint64_t unexplained_bytes;
	size_t overlaps;	/* sections found where another is: left in place */
	size_t self_aligned;	/* split objects whose functions' asm aligns its code, not compiled */
	size_t compiled;	/* such objects compiled here with -ffunction-sections: exact */
	char self_aligned_objects[3][128];	/* the first of them */
	uint64_t main_start, main_end, main_end_new, etext, etext_new;
};
int kb_order_place(const struct kb_order_file *o, const char *objdir, const char *system_map, FILE *out,
		   struct kb_order_place *st);

#endif
