// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Marker patterns for the simulator's tests: markers.c PATTERN, where
 * PATTERN is good, tight, nested, unbalanced, mismatched or unclosed.
 * "good" runs regions whose instruction counts are known exactly: a region
 * holds "mov $n, %ecx" and a two-instruction loop run n times, 2n + 1
 * instructions, with both markers in the same asm statement.
 */
#include "rt.h"

#define W0 0	/* marker IDs of workloads 0 and 1 (getppid, pipe) */
#define W1 1

/* 2n + 1 instructions between the markers of workload wl */
#define REGION(wl, n) \
	__asm__ volatile(".byte 0x0f, 0x1f, 0x84, 0x00\n\t.long %c0\n\t" \
			 "mov %2, %%ecx\n" \
			 "1:\tdec %%ecx\n\tjnz 1b\n\t" \
			 ".byte 0x0f, 0x1f, 0x84, 0x00\n\t.long %c1" \
			 : : "i" (KB_MARK_BEGIN(wl)), "i" (KB_MARK_END(wl)), "i" (n) \
			 : "ecx", "cc", "memory")

static int streq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

__attribute__((noinline)) static void pad(void)
{
	/* code between regions: not counted in any */
	__asm__ volatile("mov $50, %%ecx\n1:\tdec %%ecx\n\tjnz 1b" : : : "ecx", "cc");
}

int main(int argc, char **argv)
{
	const char *p = argc > 1 ? argv[1] : "good";

	if (streq(p, "good")) {
		REGION(W0, 1000);	/* 2001 */
		pad();
		REGION(W0, 5000);	/* 10001 */
		pad();
		REGION(W1, 7);		/* 15 */
	} else if (streq(p, "tight")) {
		/* both markers in one block, nothing between */
		RT_MARK(KB_MARK_BEGIN(W0));
		RT_MARK(KB_MARK_END(W0));
	} else if (streq(p, "nested")) {
		RT_MARK(KB_MARK_BEGIN(W0));
		REGION(W1, 10);
		RT_MARK(KB_MARK_END(W0));
	} else if (streq(p, "unbalanced")) {
		pad();
		RT_MARK(KB_MARK_END(W0));
	} else if (streq(p, "mismatched")) {
		RT_MARK(KB_MARK_BEGIN(W0));
		pad();
		RT_MARK(KB_MARK_END(W1));
	} else if (streq(p, "unclosed")) {
		RT_MARK(KB_MARK_BEGIN(W1));
		pad();
	} else {
		return 2;
	}
	return 0;
}
