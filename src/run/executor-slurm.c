// SPDX-License-Identifier: GPL-2.0-or-later
/* executor = slurm (executor.h): the run's builds and boots as two Slurm job
 * arrays, submitted with sbatch and followed with squeue and scontrol. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "boot.h"
#include "executor.h"
#include "executor-slurm.h"
#include "plan.h"
#include "run.h"
#include "util.h"

#define SLURM_DEADLINE 120.0	/* seconds an sbatch, squeue or scancel may take */
#define POLL_MS 1000		/* between two looks at the queue */

/* its [run] keys */
struct slurm_opts {
	char *partition;	/* sbatch --partition, --account, --time, or NULL */
	char *account;
	char *time;
	char *args;		/* more sbatch options, split at spaces */
};

struct kb_slurm {
	const struct kb_conf *conf;
	const struct slurm_opts *o;
	struct kb_store *store;
	char *dir;		/* RUN/slurm: scripts, plan, kernels, Slurm's output */
	char *self;		/* this kbench, which the jobs run */
	char builds[32];	/* the arrays' job ids; "" none */
	char boots[32];
	int exclusive;		/* timed boots: whole nodes */
	double t0;
};

/* A partition or account name: one word. */
static const char *slurm_word(const char *v)
{
	return strchr(v, ' ') ? "one name, no spaces" : NULL;
}

/* sbatch --time: digits with ':' and at most one '-' before them, or
 * "infinite"/"unlimited" (sbatch checks the rest). */
static const char *slurm_time_check(const char *v)
{
	if (!strcmp(v, "infinite") || !strcmp(v, "unlimited"))
		return NULL;
	if (!isdigit((unsigned char)v[0]) || v[strspn(v, "0123456789:-")] ||
	    strchr(v, '-') != strrchr(v, '-') || (strchr(v, '-') && strchr(v, ':') &&
						  strchr(v, ':') < strchr(v, '-')))
		return "not a Slurm time limit (minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, "
		       "D-HH:MM:SS or infinite)";
	return NULL;
}

/* Options only: kbench gives the array, the dependency, the output files
 * and the script itself.  sbatch takes any unambiguous prefix of a long
 * option (--outp for --output), so a prefix of one of kbench's is refused
 * too, and so is "--", after which sbatch would take the next word for the
 * script. */
static const char *slurm_args_check(const char *v)
{
	static const char *const own[] = { "--array", "-a", "--dependency", "-d", "--output",
					   "-o", "--error", "-e", "--parsable", "--wrap",
					   "--job-name", "-J", "--chdir", "-D", "--wait", "-W" };

	for (const char *p = v; *p; ) {
		size_t n, name;

		p += strspn(p, " ");
		n = strcspn(p, " ");
		if (!n)
			break;
		if (p[0] != '-')
			return "every word an sbatch option starting with '-' (the job script is kbench's)";
		if (n == 2 && p[1] == '-')
			return "no '--': sbatch would take the word after it for the job script, which is kbench's";
		name = strcspn(p, " =");
		for (size_t i = 0; i < KB_ARRAY_SIZE(own); i++) {
			size_t l = strlen(own[i]);
			int is_long = own[i][1] == '-';

			if ((!strncmp(p, own[i], l) && (n == l || p[l] == '=' || !is_long)) ||
			    (is_long && p[1] == '-' && name < l && !strncmp(p, own[i], name)))
				return "kbench gives --array, --dependency, --output, --error, "
				       "--job-name, --chdir and the script itself (nor a prefix of them, "
				       "which sbatch takes for them)";
		}
		p += n;
	}
	return NULL;
}

#define SOFF(f) offsetof(struct slurm_opts, f)
/* slurm_partition first: its line is key_line[0] */
static const struct kb_option options[] = {
	{ .name = "slurm_partition", .section = KB_SEC_RUN, .type = KB_OPT_FLAGS,
	  .off = SOFF(partition), .check = slurm_word,
	  .help = "executor = slurm: the partition of every job (sbatch --partition; default: the "
		  "cluster's)" },
	{ .name = "slurm_account", .section = KB_SEC_RUN, .type = KB_OPT_FLAGS,
	  .off = SOFF(account), .check = slurm_word,
	  .help = "executor = slurm: the account jobs are charged to (sbatch --account)" },
	{ .name = "slurm_time", .section = KB_SEC_RUN, .type = KB_OPT_FLAGS, .off = SOFF(time),
	  .check = slurm_time_check,
	  .help = "executor = slurm: time limit of each job, as sbatch --time takes it (MM, "
		  "HH:MM:SS, D-HH:MM...; default: the partition's)" },
	{ .name = "slurm_args", .section = KB_SEC_RUN, .type = KB_OPT_FLAGS, .off = SOFF(args),
	  .check = slurm_args_check,
	  .help = "executor = slurm: more sbatch options for every job, split at spaces, e.g. "
		  "--cpus-per-task=4 --qos=short" },
	{ NULL },
};

/* Run argv (kb_capture: its own process group, so a ^C reaches kbench
 * alone and it can still scancel); what it prints in *out (malloc'd).  Its
 * exit status, or -1 when it could not run, hung, or died of a signal. */
static int capture(char *const argv[], char **out)
{
	int r = kb_capture(argv, SLURM_DEADLINE, (size_t)1 << 24, out);

	return r >= 128 ? -1 : r;
}

/* The first line of text, for a message. */
static const char *first_line(char *text)
{
	text[strcspn(text, "\n")] = '\0';
	return text[0] ? text : "(no output)";
}

static int is_tool(const char *name)
{
	char *argv[] = { (char *)name, "--version", NULL }, *out;
	int r = capture(argv, &out);

	free(out);
	return r == 0;
}

/* Nodes of the partition, or of the default one (sinfo -N: one line per
 * node and partition, the default partition's name marked with '*'). */
static long count_nodes(const struct slurm_opts *o)
{
	char *argv[] = { "sinfo", "-h", "-N", "-o", "%P %N", NULL }, *out, *line, *save;
	char *names[4096];
	size_t n = 0;
	int r = capture(argv, &out);

	if (r != 0) {
		kb_error("executor = slurm, but 'sinfo' failed: %s", first_line(out));
		free(out);
		return -1;
	}
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *node = strchr(line, ' ');
		size_t pl;
		int seen = 0;

		if (!node)
			continue;
		*node++ = '\0';
		pl = strlen(line);
		if (o->partition ? strcmp(line, o->partition) &&
					    !(line[pl - 1] == '*' && pl - 1 == strlen(o->partition) &&
					      !strncmp(line, o->partition, pl - 1))
					  : line[pl - 1] != '*')
			continue;
		for (size_t i = 0; i < n && !seen; i++)
			seen = !strcmp(names[i], node);
		if (!seen && n < KB_ARRAY_SIZE(names))
			names[n++] = node;
	}
	free(out);
	return (long)n;
}

/* Why path, a real path, is seen by this machine alone: on a memory
 * filesystem, or under a directory each machine has its own of; NULL when
 * nothing says so.  Into buf. */
static const char *local_only(const char *path, char *buf, size_t size)
{
	static const char *const local_dirs[] = { "/tmp", "/var/tmp", "/dev/shm", "/run" };
	struct statfs sf;

	if (statfs(path, &sf) == 0 && (sf.f_type == TMPFS_MAGIC || sf.f_type == RAMFS_MAGIC))
		return "on tmpfs, in this machine's memory";
	for (size_t i = 0; i < KB_ARRAY_SIZE(local_dirs); i++) {
		size_t n = strlen(local_dirs[i]);

		if (!strncmp(path, local_dirs[i], n) && (path[n] == '/' || !path[n])) {
			snprintf(buf, size, "under %s, which each machine has its own of", local_dirs[i]);
			return buf;
		}
	}
	return NULL;
}

/* The token build jobs look for: they fail naming the path when their node
 * does not see the run directory as this machine does. */
static int write_probe(struct kb_slurm *s)
{
	char *p = kb_xasprintf("%s/probe", s->dir), *text;
	int r;

	text = kb_xasprintf("%s %ld\n", s->store->id, (long)getpid());
	r = kb_write_file_atomic(p, text, strlen(text));
	free(text);
	free(p);
	return r;
}

/* The real path of path, or of its nearest existing ancestor (an output
 * directory made later); malloc'd. */
static char *real_or_parent(const char *path)
{
	char *p = kb_xstrdup(path), *real;

	while (!(real = realpath(p, NULL))) {
		char *slash = strrchr(p, '/');

		if (!slash || slash == p) {
			free(p);
			return kb_xstrdup(path);
		}
		*slash = '\0';
	}
	free(p);
	return real;
}

/* Before a run directory is made: sbatch, squeue, scontrol, scancel and
 * sinfo at hand and a controller that answers (else -ENOTSUP), the
 * partition has nodes, and dir and the build cache are not local to this
 * machine when it has more than one (else -EINVAL). */
static int slurm_check(const struct kb_executor_run *x, const char *dir)
{
	const struct kb_conf *conf = x->conf;
	const struct slurm_opts *o = x->opts;
	static const char *const tools[] = { "sbatch", "squeue", "scontrol", "scancel", "sinfo" };
	const char *const paths[] = { dir, conf->cache };
	const char *const what[] = { "the results directory ([run] output)",
				     "the build cache ([kernel] cache)" };
	long nodes;

	for (size_t i = 0; i < KB_ARRAY_SIZE(tools); i++)
		if (!is_tool(tools[i])) {
			kb_error("executor = slurm, but '%s' does not run here (apt-get install "
				 "slurm-client; SLURM_CONF names the cluster's slurm.conf)", tools[i]);
			return -ENOTSUP;
		}
	nodes = count_nodes(o);
	if (nodes < 0)
		return -ENOTSUP;
	if (nodes == 0) {
		if (o->partition) {
			char *where = kb_conf_where(conf, x->key_line[0]);	/* a line or a --set */

			kb_error("%s: 'slurm_partition': partition '%s' has no nodes (sinfo)", where,
				 o->partition);
			free(where);
		} else
			kb_error("executor = slurm, but the cluster has no default partition with "
				 "nodes (sinfo); name one with slurm_partition");
		return -EINVAL;
	}
	if (nodes == 1) {
		kb_info("slurm: one node in the partition: the run directory and the build cache are "
			"seen by every node (trivially)");
		return 0;
	}
	for (size_t i = 0; i < KB_ARRAY_SIZE(paths); i++) {
		char *real = real_or_parent(paths[i]), buf[96];
		const char *why = local_only(real, buf, sizeof(buf));

		if (why) {
			kb_error("executor = slurm: %s '%s' is %s, but partition '%s' has %ld nodes: "
				 "put it on a filesystem every node sees (NFS, Lustre...)",
				 what[i], paths[i], why,
				 o->partition ? o->partition : "(the default)", nodes);
			free(real);
			return -EINVAL;
		}
		free(real);
	}
	kb_info("slurm: %ld nodes in the partition; each job checks that it sees the run directory",
		nodes);
	return 0;
}

static int slurm_init_state(struct kb_slurm *s, const struct kb_conf *conf,
			    const struct slurm_opts *o, struct kb_store *store)
{
	memset(s, 0, sizeof(*s));
	s->conf = conf;
	s->o = o;
	s->store = store;
	s->t0 = kb_now();
	s->dir = kb_store_path(store, "slurm");
	s->self = kb_self_path() ? kb_xstrdup(kb_self_path()) : NULL;
	if (!s->self)
		return kb_error_errno(errno, "cannot find the kbench binary the jobs run");
	if (kb_mkdir_p(s->dir, 0755) < 0 || write_probe(s) < 0)
		return -1;
	return 0;
}

static void slurm_release(struct kb_slurm *s)
{
	free(s->dir);
	free(s->self);
	memset(s, 0, sizeof(*s));
}

/* The job script: one kbench job, the task's id its argument. */
static char *write_script(struct kb_slurm *s, const char *kind)
{
	char *path = kb_xasprintf("%s/%s.sh", s->dir, kind), *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	/* paths as shell words: a run directory may hold any character */
	fprintf(f, "#!/bin/sh\n# kbench run %s: one %s per task of the array\nexec ", s->store->id, kind);
	kb_shell_quote(f, s->self);
	fprintf(f, " job %s ", kind);
	kb_shell_quote(f, s->store->dir);
	fputs(" \"$SLURM_ARRAY_TASK_ID\"\n", f);
	fclose(f);
	if (kb_write_file_atomic(path, text, len) < 0 || chmod(path, 0755) < 0) {
		free(path);
		path = NULL;
	}
	free(text);
	return path;
}

/* Task ids as sbatch --array takes them: "1-3,7,9-10". */
static char *array_spec(const long *ids, size_t n)
{
	size_t cap = 64, len = 0;
	char *out = kb_xcalloc(1, cap);

	for (size_t i = 0; i < n; ) {
		size_t j = i;
		char buf[48];
		int w;

		while (j + 1 < n && ids[j + 1] == ids[j] + 1)
			j++;
		w = j > i ? snprintf(buf, sizeof(buf), "%s%ld-%ld", len ? "," : "", ids[i], ids[j])
			  : snprintf(buf, sizeof(buf), "%s%ld", len ? "," : "", ids[i]);
		if (len + (size_t)w + 1 > cap)
			out = kb_xrealloc(out, cap = cap * 2 + (size_t)w);
		memcpy(out + len, buf, (size_t)w + 1);
		len += (size_t)w;
		i = j + 1;
	}
	return out;
}

/* sbatch an array of kind ("build" or "boot") over ids; its job id into
 * id.  0, or -1 after a message. */
static int submit(struct kb_slurm *s, const char *kind, const long *ids, size_t n,
		  const char *after, int exclusive, char id[32], int quiet)
{
	const struct slurm_opts *c = s->o;
	char *script = write_script(s, kind), *spec = array_spec(ids, n), *out = NULL, *args = NULL;
	char **argv, *own[8] = { 0 };
	size_t na = 0, no = 0, words = 0;
	int r = -1;

	/* room for kbench's own (at most 13 with the script) and every word of
	 * slurm_args: none is cut */
	for (const char *w = c->args ? c->args : ""; *w; w++)
		words += *w != ' ' && (w == c->args || w[-1] == ' ');
	argv = kb_xcalloc(words + 16, sizeof(*argv));
	if (!script)
		goto out;
	argv[na++] = "sbatch";
	argv[na++] = "--parsable";
	argv[na++] = own[no++] = kb_xasprintf("--array=%s", spec);
	argv[na++] = own[no++] = kb_xasprintf("--job-name=kbench-%s", kind);
	argv[na++] = own[no++] = kb_xasprintf("--output=%s/%s-%%a.out", s->dir, kind);
	argv[na++] = own[no++] = kb_xasprintf("--chdir=%s", s->store->dir);
	if (after)
		argv[na++] = own[no++] = kb_xasprintf("--dependency=afterok:%s", after);
	if (exclusive)
		argv[na++] = "--exclusive";
	if (c->partition)
		argv[na++] = own[no++] = kb_xasprintf("--partition=%s", c->partition);
	if (c->account)
		argv[na++] = own[no++] = kb_xasprintf("--account=%s", c->account);
	if (c->time)
		argv[na++] = own[no++] = kb_xasprintf("--time=%s", c->time);
	if (c->args) {
		char *save;

		args = kb_xstrdup(c->args);
		for (char *w = strtok_r(args, " ", &save); w; w = strtok_r(NULL, " ", &save))
			argv[na++] = w;
	}
	argv[na++] = script;
	argv[na] = NULL;
	r = capture(argv, &out);
	/* --parsable: "JOBID" or "JOBID;CLUSTER" */
	out[strcspn(out, ";\n")] = '\0';
	if (r != 0 || !out[0] || out[strspn(out, "0123456789")]) {
		if (!quiet)
			kb_error("slurm: sbatch of the %s array failed: %s", kind, first_line(out));
		r = -1;
		goto out;
	}
	snprintf(id, 32, "%s", out);
	kb_info("slurm: %zu %s job%s submitted as array %s%s%s%s", n, kind, n == 1 ? "" : "s", id,
		after ? ", after " : "", after ? after : "",
		exclusive ? "; whole nodes (--exclusive): the boots measure time" : "");
	r = 0;
out:
	for (size_t i = 0; i < no; i++)
		free(own[i]);
	free(argv);
	free(args);
	free(out);
	free(script);
	free(spec);
	return r;
}

static char *kernel_json(const char *run_dir, size_t index)
{
	return kb_xasprintf("%s/slurm/kernel-%zu.json", run_dir, index);
}

static int slurm_submit_builds(struct kb_slurm *s, const struct kb_run_variant *vs)
{
	size_t n = kb_run_n(s->conf), nb = 0;
	long *ids = kb_xcalloc(n, sizeof(*ids));
	int r = 0;

	for (size_t i = 0; i < n; i++) {
		char *p = kernel_json(s->store->dir, i);

		unlink(p);	/* a job says anew that it built */
		free(p);
		if (!vs[i].v->bzimage)
			ids[nb++] = (long)i;
	}
	if (nb)
		r = submit(s, "build", ids, nb, NULL, 0, s->builds, 0);
	free(ids);
	return r;
}

static int slurm_submit_boots(struct kb_slurm *s, const struct kb_plan *plan,
			      const struct kb_run_variant *vs, int exclusive, int after_builds)
{
	json_t *boots = json_array(), *j;
	char *path = kb_xasprintf("%s/plan.json", s->dir), *text;
	/* a variant's boots are numbered across its replicas, as kb_boots_run does */
	long *vboot = kb_xcalloc(s->conf->n_variants + 1, sizeof(*vboot));
	int r;

	/* every built kernel as the driver recorded it, prebuilt pairs too */
	for (size_t u = 0; u < kb_run_n(s->conf); u++)
		if (vs[u].built && kb_slurm_write_kernel(s->store->dir, u, &vs[u]) < 0) {
			json_decref(boots);
			free(path);
			free(vboot);
			return -1;
		}
	/* the whole plan, so that a job finds its variant and vboot by seq */
	for (long seq = 1; seq <= plan->total; seq++) {
		size_t vi = plan->variant[seq - 1];

		json_array_append_new(boots, json_pack("{s:I,s:s,s:i,s:I}", "variant", (json_int_t)vi,
						       "name", vs[vi].v->name, "layout",
						       vs[vi].layout.layout,
						       "vboot", (json_int_t)++vboot[vs[vi].vi]));
	}
	free(vboot);
	j = json_pack("{s:I,s:o}", "total", (json_int_t)plan->total, "boots", boots);
	text = json_dumps(j, JSON_INDENT(1));
	json_decref(j);
	r = kb_write_file_atomic(path, text, strlen(text));
	free(text);
	free(path);
	if (r < 0)
		return -1;
	s->exclusive = exclusive;
	s->boots[0] = '\0';
	if (!plan->n_todo)
		return 0;
	if (after_builds && s->builds[0]) {
		r = submit(s, "boot", plan->todo, plan->n_todo, s->builds, exclusive, s->boots, 1);
		if (r == 0)
			return 0;
		/* a cluster that forgets ended jobs fast (MinJobAge) refuses the
		 * dependency on builds that are over: without it, then */
		kb_warn("slurm: sbatch refused the boots' dependency on array %s; submitting them "
			"without it (the builds are done)", s->builds);
	}
	return submit(s, "boot", plan->todo, plan->n_todo, NULL, exclusive, s->boots, 0);
}

/* A task of an array, as squeue or scontrol shows it. */
struct task {
	long id;
	char state[32];
	char reason[96];
	char node[64];
	char exit[16];
};

/* Value of "key=" in a line of scontrol -o (up to the next space). */
static void field(const char *line, const char *key, char *buf, size_t size)
{
	size_t kl = strlen(key);

	buf[0] = '\0';
	for (const char *p = line; (p = strstr(p, key)); p += kl)
		if ((p == line || p[-1] == ' ') && p[kl] == '=') {
			size_t n = strcspn(p + kl + 1, " \n");

			snprintf(buf, size, "%.*s", (int)n, p + kl + 1);
			return;
		}
}

/* The tasks of array id still queued or running (squeue -r): counts of
 * pending and running, each task's state in seen[task] (nseen of them);
 * -1 when squeue fails. */
static int queued(const char *id, long *pending, long *running, char (*seen)[12], long nseen)
{
	char *argv[] = { "squeue", "-h", "-r", "-j", (char *)id, "-o", "%K %T", NULL };
	char *out, *line, *save;
	int r = capture(argv, &out);

	*pending = *running = 0;
	if (r != 0) {
		/* a job no longer known is no error: it ended long ago */
		r = strstr(out, "Invalid job id") ? 0 : -1;
		free(out);
		return r;
	}
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *st = strchr(line, ' ');

		if (!st)
			continue;
		/* the last state each task was seen in: slurmctld keeps no
		 * record of a task cancelled before it started */
		long task = strtol(line, NULL, 10);
		if (seen && task >= 0 && task < nseen)
			snprintf(seen[task], sizeof(seen[task]), "%s", st + 1);
		if (!strcmp(st + 1, "PENDING"))
			++*pending;
		else
			++*running;	/* RUNNING, CONFIGURING, COMPLETING... */
	}
	free(out);
	return 0;
}

/* What scontrol still knows of task id of array job: state, reason, node,
 * exit code.  0, or -1 when it knows nothing (slurmctld forgot it, after
 * MinJobAge). */
static int task_state(const char *job, long id, struct task *t)
{
	char *argv[] = { "scontrol", "-o", "show", "job", (char *)job, NULL };
	char *out, *line, *save, buf[32];
	int r = capture(argv, &out), found = -1;

	memset(t, 0, sizeof(*t));
	t->id = id;
	for (line = r == 0 ? strtok_r(out, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		field(line, "ArrayTaskId", buf, sizeof(buf));
		if (strtol(buf, NULL, 10) != id || strpbrk(buf, "-,"))
			continue;
		field(line, "JobState", t->state, sizeof(t->state));
		field(line, "Reason", t->reason, sizeof(t->reason));
		field(line, "NodeList", t->node, sizeof(t->node));
		field(line, "ExitCode", t->exit, sizeof(t->exit));
		found = 0;
		break;
	}
	free(out);
	if (found < 0)
		snprintf(t->state, sizeof(t->state), "UNKNOWN");
	return found;
}

/* "job 12_3 CANCELLED (exit 0:15, node n1, reason None)" into buf. */
static void describe(const char *job, const struct task *t, const char *seen, char *buf,
		     size_t size)
{
	if (!strcmp(t->state, "UNKNOWN")) {
		if (seen && seen[0])
			snprintf(buf, size, "job %s_%ld left the queue while %s, and slurmctld keeps "
				 "no record of it (cancelled before it started, or forgotten)", job,
				 t->id, seen);
		else
			snprintf(buf, size, "job %s_%ld: state no longer known to slurmctld", job, t->id);
		return;
	}
	snprintf(buf, size, "job %s_%ld %s (exit %s%s%s%s%s)", job, t->id, t->state,
		 t->exit[0] ? t->exit : "?", t->node[0] && strcmp(t->node, "(null)") ? ", node " : "",
		 t->node[0] && strcmp(t->node, "(null)") ? t->node : "",
		 t->reason[0] && strcmp(t->reason, "None") ? ", " : "",
		 t->reason[0] && strcmp(t->reason, "None") ? t->reason : "");
}

static void slurm_cancel(struct kb_slurm *s)
{
	char *ids[2] = { s->builds, s->boots };

	for (size_t i = 0; i < 2; i++) {
		char *argv[] = { "scancel", ids[i], NULL }, *out;
		long pending, running;

		if (!ids[i][0] || (queued(ids[i], &pending, &running, NULL, 0) == 0 && !pending && !running))
			continue;
		if (capture(argv, &out) != 0)
			kb_warn("slurm: 'scancel %s' failed: %s", ids[i], first_line(out));
		else
			kb_info("slurm: cancelled array %s", ids[i]);
		free(out);
		ids[i][0] = '\0';
	}
}

/* Sleep between two looks at the queue; a signal cuts it short. */
static void pause_poll(void)
{
	poll(NULL, 0, POLL_MS);
}

/* "'NAME'" or "'NAME' layout R" (malloc'd). */
static char *replica_name(const struct kb_run_variant *rv)
{
	return rv->layout.layout ? kb_xasprintf("'%s' layout %d", rv->v->name, rv->layout.layout)
				 : kb_xasprintf("'%s'", rv->v->name);
}

/* What the build job of vs[u] said in kernel-u.json: built now, how long,
 * ccache's counts; kb_run_build then records it as built now, not cached. */
static int read_built(const struct kb_slurm *s, size_t u, struct kb_run_variant *rv)
{
	char *path = kernel_json(s->store->dir, u);
	json_t *j = json_load_file(path, 0, NULL);

	free(path);
	if (!j)
		return -1;
	if (!json_is_true(json_object_get(j, "cached"))) {
		rv->pre.built = 1;
		rv->pre.seconds = json_number_value(json_object_get(j, "seconds"));
		rv->pre.ccache_hits = (long)json_integer_value(json_object_get(j, "ccache_hits"));
		rv->pre.ccache_misses = (long)json_integer_value(json_object_get(j, "ccache_misses"));
	}
	json_decref(j);
	return 0;
}

/* One look at job's tasks in the queue: 1 when none is left, 0 when some
 * are pending or running (*pending, *running), -1 when squeue failed (said
 * once it has failed 30 times in a row; *failures counts them). */
static int look(const char *job, long *pending, long *running, char (*seen)[12], long n, long *failures)
{
	if (queued(job, pending, running, seen, n) < 0) {
		if (++*failures == 30)
			kb_warn("slurm: squeue has failed for 30 s; still waiting (^C cancels)");
		return -1;
	}
	*failures = 0;
	return !*pending && !*running;
}

static int slurm_wait_builds(struct kb_slurm *s, struct kb_run_variant *vs)
{
	size_t n = kb_run_n(s->conf), nb = 0;
	long pending, running, last = -1, failures = 0;
	char (*seen)[12] = kb_xcalloc(n, sizeof(*seen));

	for (size_t u = 0; u < n; u++)
		nb += !vs[u].v->bzimage;
	while (s->builds[0] && !kb_interrupted) {
		int r = look(s->builds, &pending, &running, seen, (long)n, &failures);

		if (r > 0)
			break;
		if (r < 0) {
			pause_poll();
			continue;
		}
		if (pending * 1000 + running != last)
			kb_info("progress: slurm: builds: %ld running, %ld pending, %zu done; %.0f s "
				"elapsed", running, pending, nb - (size_t)(pending + running),
				kb_now() - s->t0);
		last = pending * 1000 + running;
		pause_poll();
	}
	if (kb_interrupted) {
		slurm_cancel(s);
		free(seen);
		return -1;
	}
	for (size_t u = 0; u < n; u++) {
		char *log, *name, what[256];
		struct task t;

		if (vs[u].v->bzimage || read_built(s, u, &vs[u]) == 0)
			continue;
		task_state(s->builds, (long)u, &t);
		describe(s->builds, &t, seen[u], what, sizeof(what));
		log = kb_xasprintf("%s/build-%zu.out", s->dir, u);
		name = replica_name(&vs[u]);
		free(vs[u].not_built);
		vs[u].not_built = kb_xasprintf("build %s; log %s", what, log);
		kb_error("variant %s: build %s; its log %s:", name, what, log);
		kb_print_tail(stderr, log, 10, "kbench:   | ");
		free(name);
		free(log);
	}
	free(seen);
	return 0;
}

/* The boots.jsonl line of each boot of the plan: its status, NULL when
 * none (unfinished).  A json array indexed by seq (owned by the caller). */
static json_t *read_outcomes(const struct kb_slurm *s, long total, long *n_done)
{
	char *path = kb_store_path(s->store, "boots.jsonl");
	json_t *by = json_array(), *l, *lines;
	int torn;

	lines = kb_store_read_lines(path, &torn);	/* a torn line: a boot still writing */
	size_t i;

	free(path);
	*n_done = 0;
	for (long k = 0; k <= total; k++)
		json_array_append_new(by, json_null());
	json_array_foreach(lines, i, l) {
		json_int_t seq = json_integer_value(json_object_get(l, "boot"));

		if (seq >= 1 && seq <= total && json_is_null(json_array_get(by, (size_t)seq))) {
			json_array_set(by, (size_t)seq, l);
			++*n_done;
		}
	}
	json_decref(lines);
	return by;
}

static long slurm_wait_boots(struct kb_slurm *s, const struct kb_plan *plan, struct kb_run_variant *vs,
			     long *ran, long *unfinished)
{
	long pending, running, done, before, failures = 0, bad = 0;
	char last[128] = "", (*seen)[12] = kb_xcalloc((size_t)plan->total + 1, sizeof(*seen));
	long *vboots = kb_xcalloc(s->conf->n_variants + 1, sizeof(*vboots));
	json_t *by;
	double tb = kb_now();

	*ran = (long)plan->n_todo;
	*unfinished = 0;
	by = read_outcomes(s, plan->total, &before);
	json_decref(by);
	while (s->boots[0] && !kb_interrupted) {
		char now[128];
		int r = look(s->boots, &pending, &running, seen, plan->total + 1, &failures);

		if (r > 0)
			break;
		if (r < 0) {
			pause_poll();
			continue;
		}
		json_decref(read_outcomes(s, plan->total, &done));
		done -= before;
		snprintf(now, sizeof(now), "%ld %ld %ld", running, pending, done);
		if (strcmp(now, last)) {
			double el = kb_now() - tb;

			if (done > 0)
				kb_info("progress: slurm: boots: %ld of %zu finished, %ld running, %ld "
					"pending; %.0f s elapsed, about %.0f s left", done, plan->n_todo,
					running, pending, kb_now() - s->t0,
					el / (double)done * (double)((long)plan->n_todo - done));
			else
				kb_info("progress: slurm: boots: none of %zu finished yet, %ld running, "
					"%ld pending; %.0f s elapsed", plan->n_todo, running, pending,
					kb_now() - s->t0);
		}
		snprintf(last, sizeof(last), "%s", now);
		pause_poll();
	}
	if (kb_interrupted)
		slurm_cancel(s);
	by = read_outcomes(s, plan->total, &done);
	for (long seq = 1; seq <= plan->total; seq++) {
		size_t vi = plan->variant[seq - 1];
		long vboot = ++vboots[vs[vi].vi];
		json_t *l = json_array_get(by, (size_t)seq);
		const char *st = json_string_value(json_object_get(l, "status"));

		vs[vi].boots_done++;
		if (plan->done[seq] || kb_interrupted)
			continue;
		if (!st) {
			struct task t;
			char what[256], *log = kb_xasprintf("%s/boot-%ld.out", s->dir, seq);

			task_state(s->boots, seq, &t);
			describe(s->boots, &t, seen[seq], what, sizeof(what));
			char *name = replica_name(&vs[vi]);

			kb_error("boot %ld/%ld: variant %s boot %ld did not finish: %s; its log %s:",
				 seq, plan->total, name, vboot, what, log);
			free(name);
			kb_print_tail(stderr, log, 10, "kbench:   | ");
			free(log);
			bad++;
			++*unfinished;
		} else if (strcmp(st, "ok")) {
			bad++;	/* the job said why in its log and boots.jsonl */
			kb_warn("boot %ld/%ld: variant '%s' boot %ld: %s: %s", seq, plan->total,
				vs[vi].v->name, vboot, st,
				json_string_value(json_object_get(l, "reason")) ?: "?");
		}
	}
	json_decref(by);
	free(seen);
	free(vboots);
	return bad;
}

int kb_slurm_write_kernel(const char *run_dir, size_t index, const struct kb_run_variant *rv)
{
	char *path = kernel_json(run_dir, index), *text;
	json_t *j = json_pack("{s:s,s:i,s:s,s:s?,s:s?,s:s,s:b,s:f,s:I,s:I}", "variant", rv->v->name,
			      "layout", rv->layout.layout, "bzimage", rv->k.bzimage, "system_map",
			      rv->k.system_map, "objdir", rv->k.objdir, "key", rv->k.key, "cached", rv->k.cached, "seconds",
			      rv->k.seconds, "ccache_hits", (json_int_t)rv->k.ccache_hits,
			      "ccache_misses", (json_int_t)rv->k.ccache_misses);
	int r;

	text = json_dumps(j, JSON_INDENT(1));
	r = kb_write_file_atomic(path, text, strlen(text));
	json_decref(j);
	free(text);
	free(path);
	return r;
}

int kb_slurm_read_kernel(const char *run_dir, size_t index, struct kb_run_variant *rv)
{
	char *path = kernel_json(run_dir, index);
	json_error_t e;
	json_t *j = json_load_file(path, 0, &e);
	const char *name = json_string_value(json_object_get(j, "variant"));
	const char *bz = json_string_value(json_object_get(j, "bzimage"));
	const char *map = json_string_value(json_object_get(j, "system_map"));
	const char *objdir = json_string_value(json_object_get(j, "objdir"));
	int r = 0;

	if (!j) {
		r = kb_error("'%s': %s", path, e.text);
	} else if (!name || !bz || strcmp(name, rv->v->name) ||
		   json_integer_value(json_object_get(j, "layout")) != rv->layout.layout) {
		r = kb_error("'%s': not the kernel of variant '%s'", path, rv->v->name);
	} else {
		rv->k.bzimage = kb_xstrdup(bz);
		rv->k.system_map = map ? kb_xstrdup(map) : NULL;
		rv->k.objdir = objdir ? kb_xstrdup(objdir) : NULL;
		rv->built = 1;
	}
	json_decref(j);
	free(path);
	return r;
}

int kb_slurm_read_plan(const char *run_dir, long seq, size_t *variant, long *vboot, long *total)
{
	char *path = kb_xasprintf("%s/slurm/plan.json", run_dir);
	json_error_t e;
	json_t *j = json_load_file(path, 0, &e), *b;
	int r = 0;

	*total = (long)json_integer_value(json_object_get(j, "total"));
	b = json_array_get(json_object_get(j, "boots"), (size_t)(seq - 1));
	if (!j || seq < 1 || !json_is_object(b)) {
		r = kb_error("'%s': %s", path, !j ? e.text : "no such boot in the plan");
	} else {
		*variant = (size_t)json_integer_value(json_object_get(b, "variant"));
		*vboot = (long)json_integer_value(json_object_get(b, "vboot"));
	}
	json_decref(j);
	free(path);
	return r;
}

/* ---- the executor's hooks ---- */

static int slurm_init(struct kb_executor_run *x)
{
	x->priv = kb_xcalloc(1, sizeof(struct kb_slurm));
	if (slurm_init_state(x->priv, x->conf, x->opts, x->store) < 0) {
		x->why = "the builds' Slurm jobs could not be run";
		return -1;
	}
	return 0;
}

/* the builds as Slurm jobs; kb_run_build then finds their kernels cached */
static int slurm_builds(struct kb_executor_run *x, struct kb_run_variant *vs)
{
	if (slurm_submit_builds(x->priv, vs) < 0 || slurm_wait_builds(x->priv, vs) < 0) {
		x->why = "the builds' Slurm jobs could not be run";
		return -1;
	}
	return 0;
}

static long slurm_boots(struct kb_executor_run *x, const struct kb_plan *plan,
			struct kb_run_variant *vs)
{
	if (slurm_submit_boots(x->priv, plan, vs, !kb_boots_concurrent(x->env->backends),
			       !x->builds_failed) < 0) {
		x->why = "the boots' Slurm jobs could not be submitted";
		return -1;
	}
	return slurm_wait_boots(x->priv, plan, vs, &x->ran, &x->unfinished);
}

static void slurm_exec_cancel(struct kb_executor_run *x)
{
	if (x->priv)
		slurm_cancel(x->priv);
}

static void slurm_exec_release(struct kb_executor_run *x)
{
	if (x->priv)
		slurm_release(x->priv);
	free(x->priv);
	x->priv = NULL;
}

const struct kb_executor kb_executor_slurm = {
	.name = "slurm", .api = KB_EXECUTOR_API, .options = options,
	.opts_size = sizeof(struct slurm_opts), .check = slurm_check, .init = slurm_init,
	.builds = slurm_builds, .boots = slurm_boots, .cancel = slurm_exec_cancel,
	.release = slurm_exec_release,
};
