// SPDX-License-Identifier: GPL-2.0-or-later
/* The share of the machine's CPU time other processes used (hostload.h). */
#include "config.h"

#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "hostload.h"

/* The first line of /proc/stat: "cpu  user nice system idle iowait irq
 * softirq steal guest guest_nice", in USER_HZ ticks; guest time is already
 * in user, so it is not added twice. */
static int read_stat(unsigned long long *busy, unsigned long long *all)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "re");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 4)
		return -1;
	*busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	*all = *busy + v[3] + v[4];
	return 0;
}

static double tv(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

/* CPU seconds of kbench and of the children it has waited for. */
static double own_seconds(void)
{
	struct rusage self, kids;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	return tv(self.ru_utime) + tv(self.ru_stime) + tv(kids.ru_utime) + tv(kids.ru_stime);
}

void kb_hostload_begin(struct kb_hostload *h)
{
	h->ok = read_stat(&h->busy, &h->all) == 0;
	h->own = own_seconds();
}

double kb_hostload_other(const struct kb_hostload *h)
{
	unsigned long long busy, all;
	long hz = sysconf(_SC_CLK_TCK);
	double d_busy, d_all, share;

	if (!h->ok || hz <= 0 || read_stat(&busy, &all) < 0 || all <= h->all)
		return -1;
	d_busy = (double)(busy - h->busy) / (double)hz;
	d_all = (double)(all - h->all) / (double)hz;
	share = (d_busy - (own_seconds() - h->own)) / d_all;
	/* tick accounting against exact rusage: a little below 0 is 0 */
	return share < 0 ? 0 : share > 1 ? 1 : share;
}
