/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_COMMANDS_H
#define KB_COMMANDS_H

/* Each subcommand: argv[0] is the subcommand name; returns an exit code. */
int kb_cmd_run(int argc, char **argv);
int kb_cmd_build(int argc, char **argv);
int kb_cmd_size(int argc, char **argv);
int kb_cmd_bloat(int argc, char **argv);
int kb_cmd_probe(int argc, char **argv);
int kb_cmd_report(int argc, char **argv);
int kb_cmd_sim(int argc, char **argv);
int kb_cmd_compare(int argc, char **argv);
/* hidden: one verified boot, the command hyperfine times (boottime.c) */
int kb_cmd_boot_check(int argc, char **argv);

#endif
