// SPDX-License-Identifier: GPL-2.0-or-later
/* t0021-bloat.sh: the new side of old.c: grown, shrunk, added and removed symbols */
int data_g = 1, bss_g[2], common_g;
static int data_l = 2, bss_l;
const int rodata_g[8] = { 1, 2, 3, 4 };
static const char rodata_l[] = "read only, longer";
__thread int tls_data[2] = { 3 };
__thread int tls_bss;
__attribute__((weak)) int weak_data = 4;
__attribute__((weak)) int weak_func(void) { return 5; }
int linux_banner[5] = { 1 }, vermagic[2] = { 1 }, __mod_x[4] = { 1 }, __addressable_y[2] = { 1 };
int __se_sys_getppid(void) { return 6; }
int shrinks(int x) { return x + data_l + bss_l; }
int grows(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * x * grows(i - 1); return s; }
int added(int x) { return x * 9 + 1; }
int same(int x) { return x - 1; }
static int counter(void) { static int n; static long long m = 4; return n++ + m++; }
int use_counter(void) { return counter() + rodata_l[1]; }
int in_idata __attribute__((section(".idata$5"))) = 1;
int in_idatax[2] __attribute__((section(".idatax"))) = { 1 };
const int in_ro_custom[5] __attribute__((section(".myro"))) = { 1 };
