/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_TEST_SCRATCH_H
#define KB_TEST_SCRATCH_H

#include <stddef.h>

/* A fresh directory for one unit-test program, its path into buf: under
 * make check $TEST_BUILDDIR/out/NAME.XXXXXX (beside the shell tests'
 * output), else /tmp/kbench-NAME.XXXXXX.  0, or -1. */
int kb_test_scratch(char *buf, size_t size, const char *name);
/* The directory and everything in it gone (rm -rf); 0, or -1. */
int kb_test_scratch_remove(const char *dir);

struct kb_conf;
/* text written to dir/v.conf (a failed write aborts) and loaded into c:
 * kb_conf_load's result. */
int kb_test_conf_text(struct kb_conf *c, const char *dir, const char *text);

#endif
