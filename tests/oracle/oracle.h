/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Assembler macros for the oracle programs (tests/oracle/*.S, t0225): kbench's
 * marker NOPs, NOPs of every length from 1 to 11 bytes, and the exit.  Only
 * instructions that reference.py interprets may run: NOPs, mov $imm32 to a
 * register, inc/dec of a register, jmp, jz/jnz, call, ret and int $0x80.
 * Space that never runs is filled with int3 (0xcc): control flow that went
 * astray traps in QEMU and stops the reference, instead of sliding through.
 */
#ifndef KB_ORACLE_H
#define KB_ORACLE_H

/* src/base/proto.h's KB_MARK_BEGIN/KB_MARK_END as the assembler writes them: region
 * n's markers are 0f 1f 84 00 with displacement 0x4b42nn01 / 0x4b42nn02 */
#define BEGIN(n)	.byte 0x0f, 0x1f, 0x84, 0x00; .long 0x4b420001 | ((n) << 8)
#define END(n)		.byte 0x0f, 0x1f, 0x84, 0x00; .long 0x4b420002 | ((n) << 8)
#define EXIT		mov $1, %eax; mov $0, %ebx; int $0x80

	.altmacro

/* nopn N: one NOP of N bytes (1 to 11), the encodings compilers pad with;
 * the 8-byte one has displacement 0, so it is no marker */
.macro nopn n
	.if \n == 1
	.byte 0x90
	.elseif \n == 2
	.byte 0x66, 0x90
	.elseif \n == 3
	.byte 0x0f, 0x1f, 0x00
	.elseif \n == 4
	.byte 0x0f, 0x1f, 0x40, 0x00
	.elseif \n == 5
	.byte 0x0f, 0x1f, 0x44, 0x00, 0x00
	.elseif \n == 6
	.byte 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00
	.elseif \n == 7
	.byte 0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00
	.elseif \n == 8
	.byte 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00
	.elseif \n == 9
	.byte 0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00
	.elseif \n == 10
	.byte 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00
	.elseif \n == 11
	.byte 0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00
	.else
	.error "nopn: 1 to 11 bytes"
	.endif
.endm

/* sled CYCLES: NOPs of 1, 2, ... 11 bytes, CYCLES times over (66 bytes and 11
 * instructions a cycle): instructions start at every offset in a line, and
 * many span two lines */
.macro sled cycles
	.rept \cycles
	nopn 1; nopn 2; nopn 3; nopn 4; nopn 5; nopn 6; nopn 7; nopn 8; nopn 9; nopn 10; nopn 11
	.endr
.endm

/* falign N: jump to the next multiple of N bytes (gas pads code with NOPs of
 * its own choosing, some of them lea, which the reference does not know) */
.macro falign n
	jmp .Lfalign\@
	.balign \n, 0xcc
.Lfalign\@:
.endm

/* at ADDR: fill with int3 up to ADDR (in this section) */
.macro at addr
	.org \addr, 0xcc
.endm

#endif
