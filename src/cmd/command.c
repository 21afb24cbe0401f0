// SPDX-License-Identifier: GPL-2.0-or-later
/* One command's options, from its table (commands.h): parsed with
 * getopt_long, listed by --help and the man page, refused one way. */
#include "config.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "conf.h"
#include "fail-on.h"
#include "util.h"

static int has_short(const struct kb_command_option *o)
{
	return o->key > 0 && o->key < 0x100;
}

/* "-k, --name ARG", "-k ARG" or "--name ARG"; shorts: the table has short
 * options, so a long one alone is indented under them. */
static char *label(const struct kb_command_option *o, int shorts)
{
	char s[8] = "";

	if (has_short(o))
		snprintf(s, sizeof(s), "-%c%s", o->key, o->name ? ", " : "");
	else if (shorts)
		strcpy(s, "    ");
	return kb_xasprintf("%s%s%s%s%s", s, o->name ? "--" : "", o->name ? o->name : "",
			    o->arg ? " " : "", o->arg ? o->arg : "");
}

char *kb_command_help(const struct kb_command *c)
{
	const struct kb_command_option *o;
	int width = 0, shorts = 0;
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	fputs(c->usage, f);
	for (o = c->options; o && o->key; o++)
		shorts |= has_short(o);
	for (o = c->options; o && o->key; o++) {
		char *l = label(o, shorts);

		if ((int)strlen(l) > width)
			width = (int)strlen(l);
		free(l);
	}
	if (c->options && c->options->key)
		fputc('\n', f);
	for (o = c->options; o && o->key; o++) {
		char *l = label(o, shorts);

		/* two spaces at least between an option and its help */
		fprintf(f, "  %-*s  ", width, l);
		for (const char *h = o->help; *h; h++)
			if (*h == '\n')
				fprintf(f, "\n  %-*s  ", width, "");
			else
				fputc(*h, f);
		fputc('\n', f);
		free(l);
	}
	if (c->footer)
		fprintf(f, "\n%s", c->footer);
	if (fclose(f) != 0)
		abort();
	return text;
}

int kb_command_usage(const struct kb_command *c, int ret)
{
	char *text = kb_command_help(c);

	fputs(text, ret ? stderr : stdout);
	free(text);
	return ret;
}

int kb_command_usage_error(const struct kb_command *c, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = kb_xvasprintf(fmt, ap);
	va_end(ap);
	kb_error("%s: %s", c->name, msg);
	free(msg);
	return kb_command_usage(c, KB_EXIT_USAGE);
}

const char *kb_command_closest(const char *name, const char *const *cands, size_t n)
{
	const char *best = kb_closest(name, cands, n);
	size_t d = best ? kb_edit_distance(name, best) : 0;

	/* conf.c's bound; and a slip keeps something of the name */
	return best && d < strlen(name) && d < strlen(best) ? best : NULL;
}

/* Candidates listed where none is close: a few only. */
#define KB_UNKNOWN_LIST_MAX 8

int kb_command_unknown(const struct kb_command *c, const char *what, const char *name,
		       const char *const *cands, size_t n)
{
	const char *near = kb_command_closest(name, cands, n);
	char *hint;

	if (near) {
		hint = kb_xasprintf(" (did you mean '%s'?)", near);
	} else if (n && n <= KB_UNKNOWN_LIST_MAX) {
		hint = kb_xstrdup(" (one of: ");
		for (size_t i = 0; i < n; i++) {
			char *h = kb_xasprintf("%s%s%s", hint, cands[i], i + 1 < n ? ", " : ")");

			free(hint);
			hint = h;
		}
	} else {
		hint = kb_xstrdup("");
	}
	kb_error("%s%sunknown %s '%s'%s", c ? c->name : "", c ? ": " : "", what, name, hint);
	free(hint);
	return KB_EXIT_USAGE;
}

int kb_command_fail_on(const struct kb_command *c, struct kb_fail_on *f, const char *list)
{
	size_t n;
	const char *const *words = kb_fail_on_words(&n);
	char *bad;
	int ret;

	if (kb_fail_on_parse(f, list, &bad) == 0)
		return KB_GO_ON;
	if (!*bad)
		ret = kb_command_usage_error(c, "--fail-on '%s': an empty word", list);
	else
		ret = kb_command_unknown(c, "--fail-on", bad, words, n);
	free(bad);
	return ret;
}

/* Whether arg is "--NAME=..." of the option whose key is key (a value to
 * one that takes none: getopt_long's optopt is then that key). */
static int long_of(const struct option *longopts, size_t nl, const char *arg, int key)
{
	for (size_t i = 0; i < nl; i++)
		if (longopts[i].val == key && !strncmp(arg, "--", 2) &&
		    !strncmp(arg + 2, longopts[i].name, strlen(longopts[i].name)) &&
		    arg[2 + strlen(longopts[i].name)] == '=')
			return 1;
	return 0;
}

/* An option getopt_long does not take (arg as given): a name of the table
 * with a value it takes none, or a name it does not have, with the nearest
 * one it has. */
static int bad_option(const struct kb_command *c, const struct option *longopts, size_t nl, const char *arg)
{
	const char **names, *near;
	char *name;
	int ret;

	if (strncmp(arg, "--", 2))
		return kb_command_usage_error(c, "unknown option '%s'", arg);
	name = kb_xstrndup(arg + 2, strcspn(arg + 2, "="));
	names = kb_xcalloc(nl, sizeof(*names));
	for (size_t i = 0; i < nl; i++) {
		names[i] = longopts[i].name;
		if (!strcmp(name, names[i]) && arg[2 + strlen(name)] == '=') {
			ret = kb_command_usage_error(c, "option '--%s' takes no value", name);
			goto out;
		}
	}
	near = kb_command_closest(name, names, nl);
	if (near)
		ret = kb_command_usage_error(c, "unknown option '%s' (did you mean '--%s'?)", arg, near);
	else
		ret = kb_command_usage_error(c, "unknown option '%s'", arg);
out:
	free(names);
	free(name);
	return ret;
}

int kb_command_parse(const struct kb_command *c, int *argc, char ***argv,
		     int (*fn)(void *ctx, int key, const char *value), void *ctx)
{
	const struct kb_command_option *o;
	struct option *longopts;
	char *shorts;
	size_t n = 0, nl = 1, ns = 0;
	int opt, ret = KB_GO_ON;

	for (o = c->options; o && o->key; o++)
		n++;
	longopts = kb_xcalloc(n + 2, sizeof(*longopts));
	shorts = kb_xmalloc(3 * n + 5);
	/* '+': the options end at the first operand; ':': a missing value is ':' */
	if (c->options_first)
		shorts[ns++] = '+';
	shorts[ns++] = ':';
	shorts[ns++] = 'h';
	longopts[0] = (struct option){ "help", no_argument, NULL, 'h' };
	for (size_t i = 0; i < n; i++) {
		o = &c->options[i];
		if (o->name)
			longopts[nl++] = (struct option){ o->name, o->arg ? required_argument : no_argument,
							  NULL, o->key };
		if (has_short(o)) {
			shorts[ns++] = (char)o->key;
			if (o->arg)
				shorts[ns++] = ':';
		}
	}
	shorts[ns] = '\0';
	optind = 0;	/* a fresh scan, whoever parsed before */
	opterr = 0;
	while (ret == KB_GO_ON && (opt = getopt_long(*argc, *argv, shorts, longopts, NULL)) != -1) {
		if (opt == 'h')
			ret = kb_command_usage(c, KB_EXIT_OK);
		else if (opt == ':')
			ret = kb_command_usage_error(c, "option '%s' needs a value", (*argv)[optind - 1]);
		else if (opt == '?' && optopt && optopt < 0x100 && !long_of(longopts, nl, (*argv)[optind - 1], optopt))
			ret = kb_command_usage_error(c, "unknown option '-%c'", optopt);
		else if (opt == '?')
			ret = bad_option(c, longopts, nl, (*argv)[optind - 1]);
		else
			ret = fn(ctx, opt, optarg);
	}
	if (ret == KB_GO_ON) {
		*argc -= optind;
		*argv += optind;
	}
	free(longopts);
	free(shorts);
	return ret;
}
