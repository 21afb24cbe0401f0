// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A hostile /init for the reliability tests, built with -DMODE=...:
 * flood (serial output without end), garbage (bytes and malformed or forged
 * records, then a valid done), hang (never ends), exit (init returns: the
 * kernel panics), markup (injection payloads in every string the guest
 * controls, then a forged panic line, then init returns; -DCANARY="path"
 * names the file the payloads' commands would create).
 */
#include <stdio.h>
#include <string.h>
#include <sys/reboot.h>
#include <unistd.h>

#include "proto.h"

#define FLOOD 1
#define GARBAGE 2
#define HANG 3
#define EXIT 4
#define MARKUP 5

#ifndef CANARY
#define CANARY "/nonexistent/kbench-canary"
#endif

static void say(const char *s)
{
	if (write(1, s, strlen(s)) < 0)
		_exit(1);
}

/* A record with a correct checksum: the parser must still judge its content. */
static void sealed(const char *body)
{
	char line[KB_PROTO_MAX_LINE * 2];
	static const char hex[] = "0123456789abcdef";
	unsigned int sum = kb_proto_sum(body, strlen(body));
	size_t n = strlen(body);

	memcpy(line, body, n);
	line[n++] = ' ';
	line[n++] = '#';
	for (int i = 7; i >= 0; i--)
		line[n++] = hex[(sum >> (4 * i)) & 0xf];
	line[n++] = '\n';
	line[n] = '\0';
	say(line);
}

/* Markup and commands for each writer that could take a guest string:
 * HTML, a Markdown table, a Markdown code span, a shell, gnuplot.  Record
 * fields cannot hold a space, so these have none. */
static const char *const payloads[] = {
	"<script>alert(1)</script>", "a|b", "`id`", "$(id)", "';system(\"id\");'",
};

static int n_refused;

/* A sealed record the host must refuse, counted. */
static void refused(const char *body)
{
	sealed(body);
	n_refused++;
}

/* Each payload in every string field of every record kind: the host must
 * refuse all of these (proto.h's alphabet), then take the plain records
 * that follow.  The guest says how many it sent, so no count is kept twice. */
static void markup(void)
{
	char b[KB_PROTO_MAX_LINE];

	for (size_t i = 0; i < sizeof(payloads) / sizeof(payloads[0]); i++) {
		const char *p = payloads[i];

		snprintf(b, sizeof(b), "@KB1 sample wl=getppid rep=1 iter=10 ns=999 %s=1", p);
		refused(b);
		snprintf(b, sizeof(b), "@KB1 sample wl=%s rep=1 iter=10 ns=999", p);
		refused(b);
		snprintf(b, sizeof(b), "@KB1 hello proto=1 pmu=%s pmu_why=%s", p, p);
		refused(b);
		snprintf(b, sizeof(b), "@KB1 error wl=%s reason=%s errno=%s", p, p, p);
		refused(b);
	}
	/* a key in the value alphabet but no plain name: metric names come from keys */
	refused("@KB1 sample wl=getppid rep=1 iter=10 ns=999 x.y:z+w-=1");
	snprintf(b, sizeof(b), "hostile: %d refused records sent\n", n_refused);
	say(b);

	sealed("@KB1 hello proto=1 runner=hostile pmu=none pmu_why=no_PMU:x.y+z-1");
	/* well formed, but with fields the runner never sends: a made-up
	 * metric, and one posing as the host's counters (rejected) */
	sealed("@KB1 sample wl=getppid rep=1 iter=10 ns=999 hostile_1=5");
	sealed("@KB1 sample wl=getppid rep=1 iter=10 ns=999 host_cyc_k=7");
	/* a guest counter the runner does send (taken) */
	sealed("@KB1 sample wl=getppid rep=1 iter=10 ns=999 ins_k=5");
	sealed("@KB1 error wl=getppid reason=x_y errno=5");
	/* Terminal control (a window title, a cleared screen) for whoever
	 * shows this serial log on a terminal. */
	say("hostile: \033]0;kbench-pwned\007\033[2J\n");
	/* Console text: only the first line with "Kernel panic" is kept, as
	 * the boot's reason, whole and printable. */
	say("Kernel panic - hostile: <script>alert(1)</script> | a | b | `touch " CANARY "` "
	    "$(touch " CANARY ") '; system(\"touch " CANARY "\"); ' *x* [l](javascript:alert(2))\n");
}

int main(void)
{
	char junk[300];

	sealed("@KB1 hello proto=1 runner=hostile");
	switch (MODE) {
	case FLOOD:
		memset(junk, 'x', sizeof(junk) - 1);
		junk[sizeof(junk) - 2] = '\n';
		junk[sizeof(junk) - 1] = '\0';
		for (;;)
			say(junk);
	case GARBAGE:
		for (int i = 0; i < (int)sizeof(junk) - 1; i++)
			junk[i] = (char)(i * 37 + 11) ? (char)(i * 37 + 11) : 1;
		junk[sizeof(junk) - 1] = '\0';
		say(junk);
		say("\n@KB1 sample wl=getppid rep=1 iter=10 ns=999 #00000000\n");
		say("@KB1 sample wl=getppid rep=1 iter=10 ns=99<script>alert(1)</script> #12345678\n");
		sealed("@KB1 sample wl=rm-rf rep=1 iter=10 ns=999");
		sealed("@KB1 sample wl=getppid rep=9999 iter=10 ns=999");
		sealed("@KB1 sample wl=getppid rep=1 iter=0 ns=999");
		sealed("@KB1 sample wl=getppid rep=1 iter=10 ns=999 extra=notanumber");
		memset(junk, 'a', sizeof(junk) - 1);
		say("@KB1 sample wl=");
		say(junk);
		say(" #00000000\n");
		sealed("@KB1 done samples=0 errors=0");
		sync();
		reboot(RB_AUTOBOOT);
		break;
	case HANG:
		for (;;)
			pause();
	case EXIT:
		return 0;
	case MARKUP:
		markup();
		return 0;
	}
	return 0;
}
