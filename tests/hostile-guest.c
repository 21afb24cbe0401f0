// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A hostile /init for the reliability tests, built with -DMODE=...:
 * flood (serial output without end), garbage (bytes and malformed or forged
 * records, then a valid done), hang (never ends), exit (init returns: the
 * kernel panics).
 */
#include <string.h>
#include <sys/reboot.h>
#include <unistd.h>

#include "proto.h"

#define FLOOD 1
#define GARBAGE 2
#define HANG 3
#define EXIT 4

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
	}
	return 0;
}
