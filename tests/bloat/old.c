// SPDX-License-Identifier: GPL-2.0-or-later
/* t0021-bloat.sh: every kind of symbol nm and bloat-o-meter tell apart (old side) */
int data_g = 1, bss_g, common_g;
static int data_l = 2, bss_l;
const int rodata_g[4] = { 1, 2, 3, 4 };
static const char rodata_l[] = "read only";
__thread int tls_data = 3;
__thread int tls_bss;
__attribute__((weak)) int weak_data = 4;
__attribute__((weak)) int weak_func(void) { return 5; }
int linux_banner[3] = { 1 }, vermagic[2] = { 1 }, __mod_x[4] = { 1 }, __addressable_y[2] = { 1 };
int __se_sys_getppid(void) { return 6; }
int __se_compat_sys_z(void) { return 7; }
int shrinks(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * x; return s + data_l + bss_l; }
int grows(int x) { return x + 1; }
int removed(int x) { return x * 9; }
int same(int x) { return x - 1; }
static int counter(void) { static int n; static int m = 4; return n++ + m++; }
int use_counter(void) { return counter() + rodata_l[1]; }
static int resolve_impl(void) { return 1; }
static void *resolver(void) { return (void *)resolve_impl; }
int ifunc_f(void) __attribute__((ifunc("resolver")));
int in_idata __attribute__((section(".idata$5"))) = 1;
int in_idatax __attribute__((section(".idatax"))) = 1;
int in_pdata __attribute__((section(".pdata"))) = 1;
int in_edata7 __attribute__((section(".edata7"))) = 1;
int in_drectve __attribute__((section(".drectve.x"))) = 1;
const int in_ro_custom[3] __attribute__((section(".myro"))) = { 1 };
int in_text_data __attribute__((section(".text.odd"))) = 1;
