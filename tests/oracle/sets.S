/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Oracle program: conflict and capacity misses, from chains of jumps whose
 * links sit at chosen addresses (one link per line touched).
 * Regions (t0225 checks each against reference.py, several geometries):
 *   N = 2, 4, 8, 9, 16 (regions 12, 14, 18, 19, 26): N links 4 KiB apart,
 *      so all in one set of any cache whose way (size / ways) divides 4 KiB,
 *      run 10 times: under LRU only the N cold misses when N <= ways, every
 *      link every time when N > ways (32K:8:64: N = 8 hits, N = 9 thrashes)
 *   27  16 links 4 KiB apart that each call one function in their set, 10
 *      times: under LRU the function, used every other fetch, always hits
 *      with 2 ways or more while the 16 links miss each pass; a cache that
 *      does not move a line it hits to the front (FIFO) evicts it
 *   32  256 links 64 bytes apart (16 KiB), in address order, 3 times
 *   33  1024 links 64 bytes apart (64 KiB, above every cache tried), 3 times:
 *      LRU misses every line of every pass
 *   34  the 256 links of 32 visited in the order i * 37 mod 256, 3 times
 * A chain's last link holds its loop: dec %ecx, jnz to the first, jmp out.
 */
#include "oracle.h"

#define PASSES	10

/* region n: the chain from FIRST, PASSES times (its last link's loop), then
 * back to done<n> */
#define RUN(n, first, passes) \
	mov $passes, %ecx; falign 16; BEGIN(n); jmp first; done##n: END(n)

	.text
	.globl _start
_start:
	RUN(12, conflict + 0x100, PASSES)
	RUN(14, conflict + 0x200, PASSES)
	RUN(18, conflict + 0x300, PASSES)
	RUN(19, conflict + 0x400, PASSES)
	RUN(26, conflict + 0x500, PASSES)
	RUN(27, conflict + 0x600, PASSES)
	RUN(32, seq16k, 3)
	RUN(33, seq64k, 3)
	RUN(34, seq16k_scattered, 3)
	EXIT

/* link N, OFF, ID, PAGE: chain N's link on page PAGE of conflict, OFF bytes
 * in; the chain leaves to done ID */
.macro link n, off, id, page
	.if \page < \n
	at conflict+\page*4096+\off
	.if \page < \n - 1
	jmp conflict + (\page + 1) * 4096 + \off
	.else
	dec %ecx
	jnz conflict + \off
	jmp done\id
	.endif
	.endif
.endm

/* hot_link PAGE: region 27's link on page PAGE, which calls hot */
.macro hot_link page
	at conflict+\page*4096+0x600
	call hot
	.if \page < 15
	jmp conflict + (\page + 1) * 4096 + 0x600
	.else
	dec %ecx
	jnz conflict + 0x600
	jmp done27
	.endif
.endm

	.balign 4096, 0xcc
conflict:
	.set page, 0
	.rept 16
	link 2, 0x100, 12, %page
	link 4, 0x200, 14, %page
	link 8, 0x300, 18, %page
	link 9, 0x400, 19, %page
	link 16, 0x500, 26, %page
	hot_link %page
	.set page, page + 1
	.endr
	at conflict+16*4096+0x600
hot:
	ret

/* chain BASE, LINKS, STEP, ID: LINKS links 64 bytes apart from BASE, link s
 * jumping to link (s + STEP) mod LINKS; the one whose successor is link 0
 * holds the loop, and leaves to done ID */
.macro chain base, links, step, id
	.set slot, 0
	.rept \links
	chain_link \base, \links, \step, \id, %slot
	.set slot, slot + 1
	.endr
.endm
.macro chain_link base, links, step, id, s
	at \base+\s*64
	.if (\s + \step) % \links
	jmp \base + ((\s + \step) % \links) * 64
	.else
	dec %ecx
	jnz \base
	jmp done\id
	.endif
.endm

	.balign 4096, 0xcc
seq16k:
	chain seq16k, 256, 1, 32
	.balign 4096, 0xcc
seq64k:
	chain seq64k, 1024, 1, 33
	.balign 4096, 0xcc
seq16k_scattered:
	chain seq16k_scattered, 256, 37, 34
