/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A freestanding i386 runtime for the simulator's test programs: no libc, so
 * qemu-i386 and valgrind run exactly the same instructions (no CPUID-chosen
 * string functions, no auxv or environment dependent start-up).
 * Build: cc -m32 -O2 -static -nostdlib -no-pie -ffreestanding -fno-pic
 *        -fno-stack-protector -fno-asynchronous-unwind-tables
 */
#ifndef KB_SIM_RT_H
#define KB_SIM_RT_H

#include "proto.h"

int main(int argc, char **argv);

static inline void __attribute__((noreturn)) rt_exit(int status)
{
	__asm__ volatile("int $0x80" : : "a"(1), "b"(status));
	__builtin_unreachable();
}

/* _start: argc at (%esp), argv after it; main's status to exit(2). */
__asm__(".text\n\t.globl _start\n_start:\n\t"
	"xor %ebp, %ebp\n\t"
	"mov (%esp), %eax\n\t"
	"lea 4(%esp), %edx\n\t"
	"and $-16, %esp\n\t"
	"sub $8, %esp\n\t"
	"push %edx\n\t"
	"push %eax\n\t"
	"call main\n\t"
	"mov %eax, %ebx\n\t"
	"mov $1, %eax\n\t"
	"int $0x80\n\t"
	"hlt");

#define RT_MARK(id) \
	__asm__ __volatile__(".byte 0x0f, 0x1f, 0x84, 0x00\n\t.long %c0" : : "i" (id) : "memory")

#endif
