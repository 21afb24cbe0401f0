/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A code footprint of known shape for the cache model's tests: FUNCS
 * functions of BODY three-byte instructions and a ret, each at a multiple of
 * STRIDE bytes, called ROUNDS times over, in order (ORDER 0) or in the order
 * i * 37 mod FUNCS (ORDER 1; FUNCS a power of two).  No libc: the same
 * instructions under qemu-i386 and valgrind.
 */
#ifndef FUNCS
#define FUNCS 64
#endif
#ifndef BODY
#define BODY 40
#endif
#ifndef STRIDE
#define STRIDE 128
#endif
#ifndef ROUNDS
#define ROUNDS 20
#endif
#ifndef ORDER
#define ORDER 0
#endif

	.text
	.globl _start
_start:
	mov $ROUNDS, %ebp
round:
	xor %esi, %esi
call_one:
	mov %esi, %eax
#if ORDER
	imul $37, %eax, %eax
	and $(FUNCS - 1), %eax
#endif
	imul $STRIDE, %eax, %eax
	add $funcs, %eax
	call *%eax
	inc %esi
	cmp $FUNCS, %esi
	jne call_one
	dec %ebp
	jnz round
	mov $1, %eax
	xor %ebx, %ebx
	int $0x80

	.balign STRIDE
funcs:
	.rept FUNCS
	.balign STRIDE
	.rept BODY
	add $1, %ecx
	.endr
	ret
	.endr
