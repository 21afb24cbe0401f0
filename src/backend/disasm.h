/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_DISASM_H
#define KB_DISASM_H

/*
 * The instructions of blocks of i386 code, as LLVM's disassembler reads
 * them (llvm-mc --disassemble --show-encoding, one call for many blocks):
 * each one's mnemonic with its prefix ("divl", "rep movsl", "lock incl")
 * and where its bytes lie in the block, so that a block can be priced
 * again without some of them (mca.h prices bytes).
 */

#include <stddef.h>

struct kb_insn {
	const char *mnemonic;
	unsigned off, len;	/* its bytes in the block */
};

/* For each block hex[i] (lowercase hex) that llvm-mc reads whole, its
 * instructions in order: fn(ctx, i, insns, n).  A block it cannot read to
 * its last byte (an instruction cut short) is left out.  0, or -1 after a
 * message (no llvm-mc: it names Debian's package).  triple: llvm-mc's
 * (i386-linux-gnu, x86_64-linux-gnu: kb_mca_triple). */
int kb_disasm_blocks(const char *triple, const char *const *hex, size_t n,
		     void (*fn)(void *ctx, size_t i, const struct kb_insn *insns, size_t ninsns), void *ctx);

/* llvm-mc's input for blocks hex[0..n) into path: each block's bytes, then
 * KB_MC_PAD_N one-byte nops, then nopl 0xdeadbeef(%eax,%eax), which no
 * compiler emits: the disassembly is cut where it appears (kb_mc_separator).
 * A block whose last instruction lacks bytes (one the plugin read across a
 * page, say) eats into the nops, not into the next block.  0, or -1 after a
 * message. */
#define KB_MC_PAD_N	16
int kb_mc_write_blocks(const char *path, const char *const *hex, size_t n);
/* The separator as llvm-mc prints it for triple: its registers are the mode's. */
const char *kb_mc_separator(const char *triple);

#endif
