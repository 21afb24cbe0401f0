// SPDX-License-Identifier: GPL-2.0-or-later
/* Variants built at the same time into the cache (run.h): each in a process
 * of its own, every make sharing one jobserver, so that one build's
 * configure, link and compression steps overlap the others' compiling
 * instead of leaving cores idle.  The run's own build pass then finds each
 * kernel in the cache and says how it went, exactly as for a cached one. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "build.h"
#include "progress.h"
#include "run.h"
#include "util.h"

struct job {
	pid_t pid;
	size_t i;
	char *log, *result, *what;
	struct kb_build_watch w;	/* its steps, read from its log */
};

/* One variant's builds in a child, its layout replicas one after another
 * (they share its object directory): its messages go to its own log (the
 * run's build pass says how it went), so nothing is printed twice. */
static pid_t start(const struct kb_conf *conf, const struct kb_source *src,
		   const struct kb_run_variant *rs, size_t per, const struct job *j)
{
	pid_t parent = getpid(), pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		FILE *res;
		int fd, failed = 0;

		prctl(PR_SET_PDEATHSIG, SIGKILL);	/* dies with a killed kbench */
		if (getppid() != parent)
			_exit(KB_EXIT_FAILED);
		/* appended to, as make's output and the step lines are: its own
		 * offset would write over them */
		fd = open(j->log, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
		if (fd >= 0)
			dup2(fd, 2);
		res = fopen(j->result, "we");
		if (!res)
			_exit(KB_EXIT_FAILED);
		for (size_t r = 0; r < per; r++) {
			struct kb_kernel k;

			if (kb_build_variant(conf, src, rs[r].v, &rs[r].layout, j->log, &k) < 0) {
				failed = 1;	/* built nothing, found nothing: never a cache hit */
				break;		/* its replicas would fail the same way */
			}
			/* what the build pass cannot see in the cache: that it was built now;
			 * the seconds in full, so that the one rounding to a tenth in the
			 * run's line is the build log's own (%.3f then %.1f gave 25.6
			 * where the log said 25.5) */
			fprintf(res, "%zu %d %ld %ld %.17g\n", r, !k.cached, k.ccache_hits,
				k.ccache_misses, k.seconds);
			kb_kernel_release(&k);
		}
		_exit(fclose(res) == 0 && !failed ? KB_EXIT_OK : KB_EXIT_FAILED);
	}
	if (pid < 0)
		kb_error_errno(errno, "cannot fork to build variant '%s'", rs[0].v->name);
	return pid;
}

/* A child's results (start), a line per replica built or found complete in
 * the cache, into their pre; how many replicas it reported. */
static size_t take_result(const struct job *j, struct kb_run_variant *rs, size_t per)
{
	char *text = NULL, *save = NULL;
	size_t reported = 0;

	if (kb_read_file(j->result, &text, NULL) == 0)
		for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			size_t r;
			int built;
			long h, m;
			double s;

			if (sscanf(l, "%zu %d %ld %ld %lf", &r, &built, &h, &m, &s) == 5 && r < per) {
				rs[r].pre = (__typeof__(rs[r].pre)){ built, h, m, s, 1 };
				reported++;
			}
		}
	free(text);
	unlink(j->result);
	return reported;
}

/* The builds' progress, once a second: their steps and objects. */
static void show(struct job *j, size_t n)
{
	struct kb_build_watch w[n + 1];

	for (size_t k = 0; k < n; k++) {
		while (kb_build_watch_scan(&j[k].w))	/* each step, in a log */
			kb_build_watch_show(&j[k].w, 1, 1);
		w[k] = j[k].w;
	}
	kb_build_watch_show(w, n, 1);
	for (size_t k = 0; k < n; k++) {	/* what it said, for the next time */
		j[k].w.said = w[k].said;
		j[k].w.said_layout = w[k].said_layout;
		j[k].w.said_at = w[k].said_at;
	}
}

/* kb_wait_one, showing the builds' progress while they run: the index of
 * the job that ended (*status), or n when none was running. */
static size_t wait_one(struct job *j, size_t n, int *status)
{
	struct timespec nap = { 0, 250000000 };
	int forwarded = 0;
	double shown = 0;

	for (;;) {
		pid_t pid = waitpid(-1, status, WNOHANG);

		if (pid > 0) {
			for (size_t k = 0; k < n; k++)
				if (j[k].pid == pid)
					return k;
			continue;	/* not a build's */
		}
		if (pid < 0 && errno != EINTR)
			return n;
		if (kb_interrupted && !forwarded++)
			for (size_t k = 0; k < n; k++)
				kill(j[k].pid, SIGTERM);
		if (kb_now() - shown >= 1) {
			show(j, n);
			shown = kb_now();
		}
		nanosleep(&nap, NULL);
	}
}

/* Wait for one variant's builds; its slot is freed.  -1 when none was
 * running. */
static int reap(struct job *j, size_t *n, struct kb_run_variant *vs, size_t per)
{
	int status, ok;
	size_t k = wait_one(j, *n, &status), built = 0;
	struct kb_run_variant *rs;

	if (k == *n)
		return -1;
	/* its last steps (done), alone: the others' line follows */
	while (kb_build_watch_scan(&j[k].w))
		kb_build_watch_show(&j[k].w, 1, 1);
	rs = &vs[j[k].i * per];
	/* done only where the child ended well and said so of every replica: a
	 * build stopped or refused is no cache hit */
	ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	if (take_result(&j[k], rs, per) < per)
		ok = 0;
	for (size_t r = 0; r < per; r++)
		built += rs[r].pre.built != 0;
	/* each kernel's one duration is its own (its done step, and the build
	 * pass's line): the child's wall time would be the sum of its replicas */
	if (!ok)
		kb_info("build of variant '%s' failed (the build pass says why)", rs->v->name);
	else if (built && built < per)
		kb_info("build of variant '%s': %zu of %zu kernels built, the others from the cache",
			rs->v->name, built, per);
	unlink(j[k].log);
	free(j[k].log);
	free(j[k].result);
	free(j[k].what);
	j[k] = j[--*n];
	return 0;
}

void kb_run_prebuild(const struct kb_conf *conf, struct kb_run_variant *vs, const char *logdir)
{
	size_t at_once = conf->builds_at_once ? (size_t)conf->builds_at_once : (size_t)conf->jobs;
	size_t per = kb_run_n(conf) / (conf->n_variants ? conf->n_variants : 1);
	struct kb_source src;
	struct job *j;
	size_t running = 0;

	if (at_once > conf->n_variants)
		at_once = conf->n_variants;
	if (at_once < 2 || kb_source_prepare(conf, &src) < 0)
		return;		/* one at a time: the build pass does it all */
	if (kb_build_jobserver(conf->jobs, 1) < 0) {
		kb_source_release(&src);
		return;
	}
	kb_info("builds: up to %zu variants at once, sharing one make jobserver of -j%ld",
		at_once, conf->jobs);
	j = kb_xcalloc(at_once, sizeof(*j));
	for (size_t i = 0; i < conf->n_variants && !kb_interrupted; i++) {
		const struct kb_variant *v = &conf->variants[i];
		char *dir = kb_xasprintf("%s/%s", logdir, v->name);
		pid_t pid;

		if (running == at_once)
			reap(j, &running, vs, per);
		if (kb_interrupted || kb_mkdir_p(dir, 0755) < 0) {
			free(dir);
			break;
		}
		j[running].log = kb_xasprintf("%s/prebuild.log", dir);
		j[running].result = kb_xasprintf("%s/prebuild.result", dir);
		j[running].what = kb_xasprintf("'%s'", v->name);
		free(dir);
		unlink(j[running].log);		/* a stale one's steps are not this build's */
		kb_build_watch_init(&j[running].w, j[running].what, j[running].log);
		pid = start(conf, &src, &vs[i * per], per, &j[running]);
		if (pid < 0) {
			free(j[running].log);
			free(j[running].result);
			free(j[running].what);
			continue;
		}
		j[running].pid = pid;
		j[running++].i = i;
	}
	while (reap(j, &running, vs, per) == 0)
		;
	kb_build_watch_end();
	free(j);
	kb_build_jobserver_end();
	kb_source_release(&src);
}
