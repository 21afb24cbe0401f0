// SPDX-License-Identifier: GPL-2.0-or-later
/* The variants' builds and the accelerator, for `kbench run` and `kbench
 * build` (run.h); the shape of the whole is in README.md, "How it works". */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "backend.h"
#include "build.h"
#include "executor.h"
#include "manifest.h"
#include "order.h"
#include "probe.h"
#include "progress.h"
#include "report.h"
#include "run.h"
#include "size.h"
#include "util.h"
#include "vm.h"

unsigned long long kb_run_layout_seed(const struct kb_conf *conf)
{
	return kb_conf_key_line(conf, KB_SEC_RUN, "seed") ? conf->seed : 0;
}

struct kb_run_variant *kb_run_variants_new(const struct kb_conf *conf)
{
	size_t n = kb_run_n(conf), per = n / (conf->n_variants ? conf->n_variants : 1);
	struct kb_run_variant *vs = kb_xcalloc(n + 1, sizeof(*vs));

	for (size_t u = 0; u < n; u++) {
		vs[u].vi = u / per;
		vs[u].v = &conf->variants[vs[u].vi];
		kb_layout_draw(&vs[u].layout, kb_run_layout_seed(conf), vs[u].v->name, (int)(u % per));
	}
	return vs;
}

void kb_run_variants_free(const struct kb_conf *conf, struct kb_run_variant *vs)
{
	for (size_t i = 0; vs && i < kb_run_n(conf); i++) {
		kb_kernel_release(&vs[i].k);
		free(vs[i].not_built);
	}
	free(vs);
}

/* dst holds src's bytes already (a resume of a run that copied them). */
static int same_bytes(const char *src, const char *dst)
{
	struct stat a, b;
	FILE *fa, *fb;
	int same = 0;

	if (stat(src, &a) < 0 || stat(dst, &b) < 0 || !S_ISREG(b.st_mode) || a.st_size != b.st_size)
		return 0;
	fa = fopen(src, "rb");
	fb = fopen(dst, "rb");
	if (fa && fb) {
		char x[65536], y[65536];
		size_t n;

		do {
			n = fread(x, 1, sizeof(x), fa);
			same = fread(y, 1, sizeof(y), fb) == n && !memcmp(x, y, n);
		} while (same && n == sizeof(x));
		same = same && !ferror(fa) && !ferror(fb);
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/* The run directory's own copies of a built kernel's files (a copy that
 * is there already, byte for byte, is kept: a resume needs no room for a
 * second one). */
static int keep_copies(const struct kb_run_variant *rv, const char *vdir)
{
	/* an ordered variant's order too: the report's miss-o-meter marks the
	 * functions it moved */
	const char *const src[] = { rv->k.vmlinux, rv->k.dotconfig, rv->k.system_map, rv->v->order };
	const char *const name[] = { "vmlinux", "config", "System.map", "order" };
	int r = 0;

	for (size_t i = 0; i < KB_ARRAY_SIZE(src) && r == 0; i++) {
		char *dst;

		if (!src[i])
			continue;
		dst = kb_xasprintf("%s/%s", vdir, name[i]);
		if (!same_bytes(src[i], dst))
			r = kb_copy_file(src[i], dst);
		free(dst);
	}
	return r;
}

int kb_run_build(const struct kb_conf *conf, struct kb_run_variant *vs, struct kb_store *store,
		 const char *logdir)
{
	struct kb_source src;
	int failed = 0;

	if (kb_source_prepare(conf, &src) < 0)
		return -1;
	if (store)
		kb_manifest_kernel(store, conf, &src);
	for (size_t u = 0; u < kb_run_n(conf) && !kb_interrupted; u++) {
		struct kb_run_variant *rv = &vs[u];
		int layout = rv->layout.layout;
		char *rel = kb_store_variant_dir(rv->v->name, layout), *what;
		/* logdir is the run's variants/ (or kbench build's own) */
		char *vdir = kb_xasprintf("%s%s", logdir, rel + strlen("variants"));
		char *log = kb_xasprintf("%s/build.log", vdir);
		struct kb_size sz;
		int ok, have_size = 0;

		free(rel);
		if (kb_mkdir_p(vdir, 0755) < 0) {
			free(vdir);
			free(log);
			kb_source_release(&src);
			return -1;
		}
		what = layout ? kb_xasprintf("'%s' layout %d", rv->v->name, layout)
			      : kb_xasprintf("'%s'", rv->v->name);
		if (layout && !vs[u - (size_t)layout].built) {
			/* the same configuration and flags: it would fail the same way */
			kb_warn("variant %s: not built, as layout 0 was not", what);
			rv->k.failure = "layout 0 of the variant was not built";
			ok = 0;
		} else if (rv->not_built) {
			/* its build job said why; building here would hide that */
			rv->k.failure = rv->not_built;
			ok = 0;
		} else {
			char *name = kb_xasprintf("'%s'", rv->v->name);
			struct kb_build_watch w;

			if (layout)
				kb_info("variant %zu/%zu %s: padding %ld and %ld bytes (seed %lu)",
					rv->vi + 1, conf->n_variants, what, rv->layout.pad[0],
					rv->layout.pad[1], rv->layout.seed);
			/* built beside the others (kb_run_prebuild), which showed its
			 * steps: here it is only found in the cache */
			kb_build_watch_init(&w, name, log);
			if (!rv->pre.reported)
				kb_build_watch_here(&w);
			ok = kb_build_variant(conf, &src, rv->v, &rv->layout, log, &rv->k) == 0;
			kb_build_watch_here(NULL);
			if (!rv->pre.reported) {
				while (kb_build_watch_scan(&w))	/* the line below says done */
					kb_build_watch_show(&w, 1, 0);
				kb_build_watch_end();
			}
			free(name);
		}
		/* built just now beside the others: not a kernel from the cache */
		if (ok && rv->k.cached && rv->pre.built) {
			rv->k.cached = 0;
			rv->k.seconds = rv->pre.seconds;
			rv->k.ccache_hits = rv->pre.ccache_hits;
			rv->k.ccache_misses = rv->pre.ccache_misses;
		}
		if (ok) {
			rv->built = 1;
			kb_info("variant %s: %s in %.1f s (%s)%s%s", what,
				rv->k.cached ? "cached" : "built", rv->k.seconds,
				rv->k.dir ? rv->k.dir : rv->k.bzimage,
				rv->k.objdir ? ", its objects in " : "", rv->k.objdir ? rv->k.objdir : "");
			/* results outlive the cache */
			if (store && keep_copies(rv, vdir) < 0) {
				rv->built = 0;
				rv->io_failed = 1;
			}
			have_size = rv->built && kb_size_read(rv->k.vmlinux, &sz) == 0;
		}
		failed += !rv->built;
		if (store)
			kb_manifest_variant(store, rv, ok, have_size ? &sz : NULL);
		free(what);
		free(vdir);
		free(log);
	}
	kb_source_release(&src);
	return failed;
}

/* Seconds a kernel may take to boot the runner to its end under KVM in
 * kb_run_choose_accel: a tinyconfig kernel takes about one; under a broken
 * nested KVM it never ends.  (No shorter limit on silence: under "quiet" the
 * first byte is the runner's, and a bigger or debugging kernel may need more
 * than a few seconds to get there.) */
#define KVM_CHECK_TIMEOUT 15

/* A kernel stuck under this host's KVM (not one serial byte in the whole
 * check) stays stuck until something it depends on changes: the check is
 * remembered in the cache directory under a key of the host's boot, the QEMU
 * binary, /dev/kvm, the kernel and initramfs bytes, the command line, the
 * memory and the check's timeout, so later runs skip its 15 s.  Only that
 * verdict is remembered: a panic or a crash may be the guest's, a working
 * KVM costs a second.  The memo's path (malloc'd), or NULL when an identity
 * cannot be read (then the check runs every time). */
static char *kvm_memo_path(const struct kb_conf *conf, const struct kb_vm_opts *o, char **boot_idp)
{
	char *boot_id = NULL, kz[65], iz[65], key[65], qemu[96], kvm[96], mem[32], tmo[32];
	struct stat qs, ks;
	char *path = NULL;

	if (!conf->cache || kb_read_file("/proc/sys/kernel/random/boot_id", &boot_id, NULL) < 0)
		return NULL;
	if (stat(o->qemu, &qs) == 0 && stat("/dev/kvm", &ks) == 0 &&
	    kb_sha256_file(o->kernel, kz) == 0 && kb_sha256_file(o->initrd, iz) == 0) {
		const char *fields[] = { "kbench-kvm-memo-1", boot_id, o->qemu, qemu, kvm, kz, iz,
					 o->append, mem, tmo };

		snprintf(qemu, sizeof(qemu), "%ju:%ju:%jd:%jd", (uintmax_t)qs.st_dev,
			 (uintmax_t)qs.st_ino, (intmax_t)qs.st_size, (intmax_t)qs.st_mtime);
		snprintf(kvm, sizeof(kvm), "%ju:%ju:%jd", (uintmax_t)ks.st_rdev, (uintmax_t)ks.st_ino,
			 (intmax_t)ks.st_ctime);
		snprintf(mem, sizeof(mem), "%ld", o->memory_mb);
		snprintf(tmo, sizeof(tmo), "%g", o->timeout);
		kb_sha256_fields(key, fields, KB_ARRAY_SIZE(fields));
		path = kb_xasprintf("%s/accel/kvm-stuck-%.16s.json", conf->cache, key);
		boot_id[strcspn(boot_id, "\n")] = '\0';
		*boot_idp = boot_id;
		return path;
	}
	free(boot_id);
	return path;
}

#define KVM_MEMO_MAX 4096	/* bytes a memo may have: kbench writes about 300 */

/* What is wrong with the memo's figures, or NULL: a time that is a real
 * UTC time, not later than now, and this host boot's ID. */
static const char *kvm_memo_invalid(const char *r, const char *when, const char *boot, const char *boot_id)
{
	struct tm tm = { 0 };
	const char *end = when ? strptime(when, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;
	char again[32];
	time_t t;

	if (!r || !*r || strlen(r) > 512)
		return "no reason, or one too long";
	if (!end || *end)
		return "its time is not YYYY-MM-DDTHH:MM:SSZ";
	t = timegm(&tm);
	strftime(again, sizeof(again), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	if (strcmp(again, when))
		return "its time is no real date";
	if (t > time(NULL) + 60)
		return "its time is in the future";
	if (!boot || strcmp(boot, boot_id))
		return "it was written in another host boot";
	return NULL;
}

/* The remembered verdict at path: its reason and where it comes from
 * (both malloc'd) and 0, or -1 (none).  Only a regular file of this user,
 * not a link, of a bounded size, with valid figures, is believed; anything
 * else is ignored with a warning (a FIFO there never blocks). */
static int kvm_memo_read(const char *path, const char *boot_id, char **reason, char **whence)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC), ret = -1;
	const char *bad = NULL, *r, *when;
	char buf[KVM_MEMO_MAX + 1];
	struct stat st;
	json_t *j = NULL;
	ssize_t n = 0;

	if (fd < 0) {
		if (errno != ENOENT)
			kb_warn("ignoring the KVM memo '%s': %s; checking again", path,
				errno == ELOOP ? "a symbolic link" : strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		bad = "not a regular file";
	else if (st.st_uid != geteuid())
		bad = "not this user's";
	else if (st.st_size > KVM_MEMO_MAX)
		bad = "larger than a memo";
	else if ((n = read(fd, buf, KVM_MEMO_MAX)) < 0 || !(j = json_loadb(buf, (size_t)n, 0, NULL)))
		bad = "not JSON";
	close(fd);
	r = json_string_value(json_object_get(j, "reason"));
	when = json_string_value(json_object_get(j, "when"));
	if (!bad)
		bad = kvm_memo_invalid(r, when, json_string_value(json_object_get(j, "boot_id")), boot_id);
	if (bad) {
		kb_warn("ignoring the KVM memo '%s': %s; checking again", path, bad);
	} else {
		*reason = kb_xstrdup(r);
		*whence = kb_xasprintf("checked at %s in this host boot; remembered in %s: delete it "
				       "to check again", when, path);
		ret = 0;
	}
	json_decref(j);
	return ret;
}

static void kvm_memo_write(const char *path, const char *boot_id, const char *reason, const char *serial)
{
	char when[32], *dir = kb_xstrdup(path), *text;
	time_t now = time(NULL);
	json_t *j;

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	*strrchr(dir, '/') = '\0';
	j = json_pack("{s:s,s:s,s:s,s:s}", "reason", reason, "when", when, "boot_id", boot_id, "serial_log",
		      serial);
	text = j ? json_dumps(j, JSON_INDENT(2)) : NULL;
	if (!text || kb_mkdir_p(dir, 0755) < 0 || kb_write_file_atomic(path, text, strlen(text)) < 0)
		kb_warn("cannot remember the KVM check in '%s': the next run checks again", path);
	free(text);
	json_decref(j);
	free(dir);
}

/* Does rv's kernel boot the runner to its end under KVM?  0, or -1 with
 * *why (malloc'd). */
static int kernel_boots_under_kvm(const struct kb_conf *conf, const struct kb_run_variant *rv,
				  const char *image, const char *logdir, char **why)
{
	char *serial = kb_xasprintf("%s/kvm-check.serial", logdir);
	char *qlog = kb_xasprintf("%s/kvm-check.qemu.log", logdir);
	char *append = kb_xasprintf("console=ttyS0 panic=-1 nokaslr quiet %s%skb_workloads=none",
				    rv->v->cmdline ? rv->v->cmdline : "", rv->v->cmdline ? " " : "");
	struct kb_vm_opts o = {
		.qemu = kb_qemu_path(conf->arch), .accel = KB_ACCEL_KVM, .kernel = rv->k.bzimage, .initrd = image,
		.append = append, .memory_mb = conf->memory,
		.timeout = conf->timeout < KVM_CHECK_TIMEOUT ? (double)conf->timeout : KVM_CHECK_TIMEOUT,
		.serial_log = serial, .qemu_log = qlog, .max_bytes = (size_t)conf->serial_limit,
	};
	char *boot_id = NULL, *reason = NULL, *whence = NULL, *memo = kvm_memo_path(conf, &o, &boot_id);
	struct kb_vm_result res;
	int r = -1;

	if (!memo || kvm_memo_read(memo, boot_id, &reason, &whence) < 0) {
		kb_mkdir_p(logdir, 0755);
		r = kb_vm_check(&o, &reason, &res);
		if (r < 0 && memo && res.timed_out && res.bytes == 0)
			kvm_memo_write(memo, boot_id, reason, serial);
		whence = kb_xasprintf("serial log %s", serial);
	}
	if (r < 0)
		*why = kb_xasprintf("KVM runs a BIOS, but kernel '%s' does not boot under it: %s (%s)",
				    rv->v->name, reason, whence);
	free(reason);
	free(whence);
	free(memo);
	free(boot_id);
	free(append);
	free(serial);
	free(qlog);
	return r;
}

int kb_run_choose_accel(const struct kb_conf *conf, const struct kb_run_variant *rv,
			const char *image, const char *logdir, enum kb_accel *accel, char **why)
{
	const struct kb_backend *want = kb_backend_find(conf->backend);
	char *k;

	if (conf->accel == KB_ACCEL_AUTO && want && (want->flags & KB_BACKEND_NEEDS_TCG)) {
		*why = kb_xasprintf("backend = %s: it runs under TCG only", want->name);
		*accel = KB_ACCEL_TCG;
		return 0;
	}
	if (conf->accel == KB_ACCEL_TCG) {
		*why = kb_xstrdup("accel = tcg in the configuration");
		*accel = KB_ACCEL_TCG;
		return 0;
	}
	if (kb_probe_accel(kb_qemu_path(conf->arch), KB_ACCEL_KVM, 5, why)) {
		*accel = KB_ACCEL_KVM;
		if (!rv || !image)
			return 0;
		k = *why;
		if (kernel_boots_under_kvm(conf, rv, image, logdir, why) == 0) {
			*why = kb_xasprintf("%s; kernel '%s' boots under it", k, rv->v->name);
			free(k);
			return 0;
		}
		free(k);
	}
	if (conf->accel == KB_ACCEL_KVM)
		return -1;
	k = *why;
	*why = kb_xasprintf("KVM not usable: %s; using TCG", k);
	free(k);
	*accel = KB_ACCEL_TCG;
	return 0;
}

/* One backend's answer; the run record filled when it accepts. */
static int ask(const struct kb_backend *b, struct kb_backend_env *env, const struct kb_conf *conf,
	       struct kb_backend_run *out, char **why)
{
	void *priv = NULL;
	int r;

	env->opts = kb_conf_backend_opts(conf, b);
	*why = NULL;
	r = b->choose(env, &priv, why);
	if (!*why)
		*why = kb_xstrdup("");
	if (r > 0) {
		out->b = b;
		out->priv = priv;
		out->why = *why;
		*why = NULL;
	}
	return r;
}

/* backend.h's place_order: build/order.h's placement, for the sim
 * backend's prediction of an ordered kernel. */
static int place_order(const struct kb_order_file *o, const char *objdir, const char *system_map,
		       const char *out, json_t *rec)
{
	struct kb_order_place st;
	FILE *f = fopen(out, "w");
	int r;

	if (!f)
		return kb_error_errno(errno, "cannot write '%s'", out);
	r = kb_order_place(o, objdir, system_map, f, &st);
	if (fclose(f) != 0 && r == 0)
		r = kb_error_errno(errno, "cannot write '%s'", out);
	if (r < 0)
		return -1;
	json_object_set_new(rec, "placed", json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
		"objects", (json_int_t)st.objects, "split", (json_int_t)st.split,
		"listed", (json_int_t)st.listed, "functions", (json_int_t)st.functions,
		"unmovable", (json_int_t)st.unmovable, "cold", (json_int_t)st.cold,
		"grown", (json_int_t)st.grown, "unexplained", (json_int_t)st.unexplained,
		"self_aligned", (json_int_t)st.self_aligned, "compiled", (json_int_t)st.compiled));
	return 0;
}

int kb_run_choose_backends(const struct kb_conf *conf, enum kb_accel accel,
			   struct kb_backends_chosen *c, char **failed_why)
{
	struct kb_backend_env env = { .qemu = kb_qemu_path(conf->arch), .arch = conf->arch,
				      .accel = accel, .want_primary = conf->backend,
				      .want_host = conf->host_counters, .seed = conf->seed,
				      .cache = conf->cache, .place_order = place_order };
	size_t n;
	const struct kb_backend *const *table = kb_backends(&n);
	char *why = NULL, *declined = NULL;
	int r = 0;

	memset(c, 0, sizeof(*c));
	*failed_why = NULL;
	for (size_t i = 0; i < n && !c->primary.b && r >= 0; i++) {
		if (table[i]->role != KB_ROLE_PRIMARY)
			continue;
		env.declined = declined;
		r = ask(table[i], &env, conf, &c->primary, &why);
		if (r == 0) {
			free(declined);
			declined = why;
			why = NULL;
		}
	}
	free(declined);
	if (r < 0 || !c->primary.b) {
		*failed_why = why ? why : kb_xstrdup("no primary backend can run here");
		kb_error("backend = %s, but %s", conf->backend, *failed_why);
		return -1;
	}
	env.primary = c->primary.b;
	for (size_t i = 0; i < n; i++) {
		const struct kb_backend *b = table[i];

		if (b->role == KB_ROLE_OVERLAY && !c->overlay.b) {
			r = ask(b, &env, conf, &c->overlay, &why);
			if (r < 0) {
				*failed_why = why;
				kb_error("%s", why);
				return -1;
			}
			/* the overlays' reasons for declining all say the same
			 * ("host_counters = off"): keep the first */
			if (!c->overlay_why || r > 0) {
				free(c->overlay_why);
				c->overlay_why = kb_xstrdup(r > 0 ? c->overlay.why : why);
			}
			free(why);
			why = NULL;
		} else if (b->role == KB_ROLE_STAGE) {
			struct kb_backend_run st = { 0 };

			r = ask(b, &env, conf, &st, &why);
			free(why);
			why = NULL;
			if (r > 0) {
				c->stages = kb_xrealloc(c->stages, (c->n_stages + 1) * sizeof(*c->stages));
				c->stages[c->n_stages++] = st;
			}
		}
	}
	return 0;
}

