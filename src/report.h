/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_REPORT_H
#define KB_REPORT_H

/* Write <run_dir>/report.md from manifest.json, samples.jsonl and
 * boots.jsonl (atomically).  0 or -1 after a message. */
int kb_report_write(const char *run_dir);

#endif
