// SPDX-License-Identifier: GPL-2.0-or-later
/* Scratch directories of the cmocka unit tests (scratch.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "scratch.h"
#include "util.h"

int kb_test_scratch(char *buf, size_t size, const char *name)
{
	const char *base = getenv("TEST_BUILDDIR");
	char *tmpl;
	int r = -1;

	if (base && *base) {
		char *out = kb_xasprintf("%s/out", base);

		kb_mkdir_p(out, 0755);
		tmpl = kb_xasprintf("%s/%s.XXXXXX", out, name);
		free(out);
	} else {
		tmpl = kb_xasprintf("/tmp/kbench-%s.XXXXXX", name);
	}
	if (mkdtemp(tmpl) && (size_t)snprintf(buf, size, "%s", tmpl) < size)
		r = 0;
	free(tmpl);
	return r;
}

int kb_test_scratch_remove(const char *dir)
{
	char *cmd = kb_xasprintf("rm -rf -- '%s'", dir);
	int r = system(cmd);

	free(cmd);
	return r == 0 ? 0 : -1;
}

int kb_test_conf_text(struct kb_conf *c, const char *dir, const char *text)
{
	char *path = kb_xasprintf("%s/v.conf", dir);
	int r;

	if (kb_write_file_atomic(path, text, strlen(text)) < 0)
		abort();	/* not the configuration's fault: no result to test */
	r = kb_conf_load(c, path);
	free(path);
	return r;
}
