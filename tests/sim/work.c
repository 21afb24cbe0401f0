// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Compiled code of a chosen footprint for the cache model's tests: 500
 * distinct functions of straight-line mixing arithmetic (about 150 bytes
 * each at -O2) with a data-dependent branch; work.c N ROUNDS calls the first
 * N of them ROUNDS times over, so N sets the executed footprint (N = 100 is
 * below a 32 KiB L1i, N = 500 well above it).  No libc (rt.h).
 */
#include "rt.h"

#define MIX(n, k) \
	x ^= x >> ((n + k) % 13 + 1); \
	x *= 0x9e3779b1u ^ ((n) * 0x10001u + (k)); \
	x += (n) * 7u + (k);
#define F(n) \
	static __attribute__((noinline)) unsigned f##n(unsigned x) \
	{ \
		MIX(n, 1) MIX(n, 2) MIX(n, 3) MIX(n, 4) MIX(n, 5) MIX(n, 6) \
		if (x & (1u << ((n) % 31))) \
			x = (x << ((n) % 5 + 1)) | (x >> 3); \
		else \
			x ^= (n) * 2654435761u; \
		MIX(n, 7) MIX(n, 8) \
		return x ^ (x >> 7); \
	}
/* 1##a##b##c: decimal names and constants 1000 to 1499 */
#define D(a, b, c) F(1##a##b##c)
#define ROW(a, b) D(a, b, 0) D(a, b, 1) D(a, b, 2) D(a, b, 3) D(a, b, 4) \
		  D(a, b, 5) D(a, b, 6) D(a, b, 7) D(a, b, 8) D(a, b, 9)
#define BLOCK(a) ROW(a, 0) ROW(a, 1) ROW(a, 2) ROW(a, 3) ROW(a, 4) \
		 ROW(a, 5) ROW(a, 6) ROW(a, 7) ROW(a, 8) ROW(a, 9)
BLOCK(0) BLOCK(1) BLOCK(2) BLOCK(3) BLOCK(4)
#undef D
#define D(a, b, c) f1##a##b##c,
static unsigned (*const table[])(unsigned) = { BLOCK(0) BLOCK(1) BLOCK(2) BLOCK(3) BLOCK(4) };

#define NTABLE (sizeof(table) / sizeof(table[0]))

static unsigned number(const char *s, unsigned def)
{
	unsigned v = 0;

	if (!s || !*s)
		return def;
	for (; *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (unsigned)(*s - '0');
	return v;
}

volatile unsigned sink;

int main(int argc, char **argv)
{
	unsigned n = number(argc > 1 ? argv[1] : 0, 100), rounds = number(argc > 2 ? argv[2] : 0, 20);
	unsigned x = 12345;

	if (n > NTABLE)
		n = NTABLE;
	for (unsigned r = 0; r < rounds; r++)
		for (unsigned i = 0; i < n; i++)
			x = table[i](x + r);
	sink = x;
	return 0;
}
