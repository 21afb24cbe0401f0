// SPDX-License-Identifier: GPL-2.0-or-later
/* What this host can measure, found out by trying rather than assuming. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libcpuid/libcpuid.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "counters.h"
#include "probe.h"
#include "util.h"
#include "vm.h"

/* Real-mode code at the reset vector F000:FFF0: mov al, 0x2a; out 0xf4, al;
 * then halt forever. */
static const unsigned char reset_code[] = { 0xb0, KB_PROBE_BIOS_VALUE, 0xe6, 0xf4, 0xfa, 0xf4, 0xeb, 0xfd };

char *kb_probe_bios(void)
{
	static unsigned char img[65536];
	char *path;
	int fd = kb_mkstemp("probe-bios", &path);

	if (fd < 0)
		return NULL;
	memset(img, 0xf4, sizeof(img));	/* hlt everywhere else */
	memcpy(img + 0xfff0, reset_code, sizeof(reset_code));
	if (write(fd, img, sizeof(img)) != (ssize_t)sizeof(img)) {
		close(fd);
		unlink(path);
		free(path);
		return NULL;
	}
	close(fd);
	return path;
}

int kb_probe_accel(const char *qemu, enum kb_accel accel, double timeout, char **why)
{
	const char *name = kb_accel_name(accel);
	char *bios, *logpath = NULL;
	struct kb_vm_result res;
	int fd, ok = 0;

	if (accel == KB_ACCEL_KVM) {
		fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			*why = kb_xasprintf("cannot open /dev/kvm: %s", strerror(errno));
			return 0;
		}
		close(fd);
	}
	bios = kb_probe_bios();
	fd = kb_mkstemp("probe-log", &logpath);
	if (!bios || fd < 0) {
		*why = kb_xasprintf("cannot write probe files in '%s'", kb_tmpdir());
		if (bios)
			unlink(bios);
		free(bios);
		if (fd >= 0)
			close(fd);
		free(logpath);
		return 0;
	}
	close(fd);
	struct kb_vm_opts o = {
		.qemu = qemu, .accel = accel, .bios = bios, .memory_mb = 32,
		.timeout = timeout, .qemu_log = logpath, .max_bytes = 1 << 16,
	};
	if (kb_vm_boot(&o, &res) < 0) {
		*why = kb_xasprintf("cannot run '%s'", qemu);
	} else if (res.exited && res.status == KB_PROBE_BIOS_STATUS) {
		ok = 1;
		*why = kb_xasprintf("a guest ran to completion under %s in %.2f s", name, res.seconds);
	} else if (res.timed_out) {
		*why = kb_xasprintf("a guest made no progress under %s within %.0f s "
				    "(nested virtualization without hardware support?)", name, timeout);
	} else {
		char *msg = NULL;
		size_t len;

		if (kb_read_file(logpath, &msg, &len) == 0 && len) {
			msg[strcspn(msg, "\n")] = '\0';
		} else {
			free(msg);
			msg = NULL;
		}
		*why = kb_xasprintf("QEMU -accel %s failed (exit %d%s%s)", name, res.status,
				    msg ? ": " : "", msg ? msg : "");
		free(msg);
	}
	unlink(bios);
	unlink(logpath);
	free(bios);
	free(logpath);
	return ok;
}

/* Software events open here (host_counters = software). */
static int host_sw(void)
{
	struct kb_counters c;

	if (kb_counters_open(&c, kb_perf_sw_events, kb_perf_n_sw_events, 0, -1) < 0)
		return 0;
	kb_counters_close(&c);
	return 1;
}

/* Can this process count hardware cycles?  NULL if yes, else the reason. */
static char *host_pmu(void)
{
	struct perf_event_attr attr;
	uint64_t count = 0;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT || errno == EOPNOTSUPP)
			return kb_xasprintf("no hardware PMU (perf_event_open: %s)", strerror(errno));
		return kb_xasprintf("perf_event_open: %s", strerror(errno));
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (volatile int i = 0; i < 100000; i++)
		;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &count, sizeof(count)) != sizeof(count) || count == 0) {
		close(fd);
		return kb_xstrdup("hardware counter opens but counts nothing");
	}
	close(fd);
	return NULL;
}

/* Ask QEMU to load a plugin that does not exist: a QEMU built with plugin
 * support says it could not load it; one without rejects the option. */
static int qemu_has_plugins(const char *qemu)
{
	char *argv[] = { (char *)qemu, "-plugin", "/nonexistent/kbench-probe.so", "-display",
			 "none", "-nodefaults", NULL };
	char *line = kb_capture_line(argv, 1);
	int yes = line && strstr(line, "Could not load plugin");

	free(line);
	return yes;
}

static void probe_cpu(struct kb_host *h)
{
	struct cpu_raw_data_t raw;
	struct cpu_id_t id;

	if (!cpuid_present() || cpuid_get_raw_data(&raw) < 0 || cpu_identify(&raw, &id) < 0) {
		h->cpu.error = cpuid_error();
		return;
	}
	h->cpu.vendor = kb_xstrdup(id.vendor_str);
	for (size_t n = strlen(id.brand_str); n && id.brand_str[n - 1] == ' '; n--)
		id.brand_str[n - 1] = '\0';
	h->cpu.brand = kb_xstrdup(id.brand_str);
	h->cpu.family = id.family;
	h->cpu.model = id.model;
	h->cpu.stepping = id.stepping;
	h->cpu.cores = id.num_cores;
	h->cpu.logical_cpus = id.num_logical_cpus;
	h->cpu.hypervisor = id.flags[CPU_FEATURE_HYPERVISOR];
	struct kb_host_cache caches[] = {
		{ "l1i", id.l1_instruction_cache, id.l1_instruction_assoc, id.l1_instruction_cacheline },
		{ "l1d", id.l1_data_cache, id.l1_data_assoc, id.l1_data_cacheline },
		{ "l2", id.l2_cache, id.l2_assoc, id.l2_cacheline },
		{ "l3", id.l3_cache, id.l3_assoc, id.l3_cacheline },
	};
	for (size_t i = 0; i < KB_ARRAY_SIZE(caches); i++)
		if (caches[i].size_kib > 0)
			h->cpu.caches[h->cpu.n_caches++] = caches[i];
}

/* A guest architecture's QEMU: found, its version, plugins, KVM and TCG. */
static void probe_arch(struct kb_host_arch *a, const char *arch, int check_kvm)
{
	char *qv[] = { NULL, "--version", NULL };

	a->arch = arch;
	a->path = kb_qemu_path(arch);
	qv[0] = (char *)a->path;
	a->version = kb_capture_line(qv, 0);
	if (!a->version) {
		a->kvm = (struct kb_host_check){ 0, kb_xasprintf("'%s' does not run", a->path) };
		a->tcg = (struct kb_host_check){ 0, kb_xasprintf("'%s' does not run", a->path) };
		return;
	}
	a->plugins = qemu_has_plugins(a->path);
	if (check_kvm)
		a->kvm.usable = kb_probe_accel(a->path, KB_ACCEL_KVM, 5, &a->kvm.why);
	else
		a->kvm = (struct kb_host_check){ -1, kb_xstrdup("not probed") };
	a->tcg.usable = kb_probe_accel(a->path, KB_ACCEL_TCG, 10, &a->tcg.why);
}

void kb_probe_host(struct kb_host *h, int check_kvm)
{
	char *qv[] = { (char *)kb_qemu_path("i386"), "--version", NULL };
	char *cv[] = { "gcc", "--version", NULL };
	char *par = NULL;

	memset(h, 0, sizeof(*h));
	probe_cpu(h);
	if (check_kvm) {
		h->kvm.usable = kb_probe_accel(kb_qemu_path("i386"), KB_ACCEL_KVM, 5, &h->kvm.why);
	} else {
		h->kvm.usable = -1;
		h->kvm.why = kb_xstrdup("not probed");
	}
	/* The same probe under TCG shows that the probe itself works. */
	h->tcg.usable = kb_probe_accel(kb_qemu_path("i386"), KB_ACCEL_TCG, 10, &h->tcg.why);
	h->host_sw = host_sw();
	h->host_pmu.why = host_pmu();
	h->host_pmu.usable = h->host_pmu.why == NULL;
	if (kb_read_file("/proc/sys/kernel/perf_event_paranoid", &par, NULL) == 0) {
		h->has_paranoid = 1;
		h->paranoid = strtol(par, NULL, 10);
		free(par);
	}
	h->qemu.path = kb_qemu_path("i386");
	h->qemu.version = kb_capture_line(qv, 0);
	h->qemu.plugins = qemu_has_plugins(kb_qemu_path("i386"));
	h->arches[0] = (struct kb_host_arch){ "i386", h->qemu.path,
					      h->qemu.version ? kb_xstrdup(h->qemu.version) : NULL,
					      h->qemu.plugins,
					      { h->kvm.usable, h->kvm.why ? kb_xstrdup(h->kvm.why) : NULL },
					      { h->tcg.usable, h->tcg.why ? kb_xstrdup(h->tcg.why) : NULL } };
	probe_arch(&h->arches[1], "x86_64", check_kvm);
	h->compiler = kb_capture_line(cv, 0);
}

void kb_probe_host_release(struct kb_host *h)
{
	free(h->cpu.vendor);
	free(h->cpu.brand);
	free(h->kvm.why);
	free(h->tcg.why);
	free(h->host_pmu.why);
	free(h->qemu.version);
	for (size_t i = 0; i < KB_ARRAY_SIZE(h->arches); i++) {
		free(h->arches[i].version);
		free(h->arches[i].kvm.why);
		free(h->arches[i].tcg.why);
	}
	free(h->compiler);
	memset(h, 0, sizeof(*h));
}

static json_t *cpu_json(const struct kb_host *h)
{
	json_t *j = json_object(), *c;

	if (h->cpu.error) {
		json_object_set_new(j, "error", json_string(h->cpu.error));
		return j;
	}
	json_object_set_new(j, "vendor", json_string(h->cpu.vendor));
	json_object_set_new(j, "brand", json_string(h->cpu.brand));
	json_object_set_new(j, "family", json_integer(h->cpu.family));
	json_object_set_new(j, "model", json_integer(h->cpu.model));
	json_object_set_new(j, "stepping", json_integer(h->cpu.stepping));
	json_object_set_new(j, "cores", json_integer(h->cpu.cores));
	json_object_set_new(j, "logical_cpus", json_integer(h->cpu.logical_cpus));
	json_object_set_new(j, "hypervisor", json_boolean(h->cpu.hypervisor));
	c = json_object();
	for (size_t i = 0; i < h->cpu.n_caches; i++) {
		const struct kb_host_cache *x = &h->cpu.caches[i];

		json_object_set_new(c, x->name, json_pack("{s:i,s:i,s:i}", "size_kib", x->size_kib,
							  "ways", x->ways, "line", x->line));
	}
	json_object_set_new(j, "caches", c);
	return j;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *kb_probe_host_json(const struct kb_host *h)
{
	json_t *j = json_object(), *kvm = json_object(), *q = json_object(), *arches;

	json_object_set_new(j, "cpu", cpu_json(h));
	json_object_set_new(kvm, "usable", h->kvm.usable < 0 ? json_null() : json_boolean(h->kvm.usable));
	json_object_set_new(kvm, "why", str_or_null(h->kvm.why));
	json_object_set_new(j, "kvm", kvm);
	json_object_set_new(j, "tcg", json_pack("{s:b,s:o}", "usable", h->tcg.usable, "why",
						str_or_null(h->tcg.why)));
	json_object_set_new(j, "host_sw", json_boolean(h->host_sw));
	json_object_set_new(j, "host_pmu", json_pack("{s:b,s:o}", "usable", h->host_pmu.usable,
						     "why", str_or_null(h->host_pmu.why)));
	json_object_set_new(j, "perf_event_paranoid",
			    h->has_paranoid ? json_integer(h->paranoid) : json_null());
	json_object_set_new(q, "path", json_string(h->qemu.path));
	json_object_set_new(q, "version", str_or_null(h->qemu.version));
	json_object_set_new(q, "plugins", json_boolean(h->qemu.plugins));
	json_object_set_new(j, "qemu", q);
	arches = json_array();
	for (size_t i = 0; i < KB_ARRAY_SIZE(h->arches); i++) {
		const struct kb_host_arch *a = &h->arches[i];

		if (!a->arch)
			continue;
		json_array_append_new(arches, json_pack(
			"{s:s,s:s,s:o,s:b,s:{s:o,s:o},s:{s:b,s:o}}", "arch", a->arch, "qemu", a->path,
			"version", str_or_null(a->version), "plugins", a->plugins,
			"kvm", "usable", a->kvm.usable < 0 ? json_null() : json_boolean(a->kvm.usable),
			"why", str_or_null(a->kvm.why),
			"tcg", "usable", a->tcg.usable, "why", str_or_null(a->tcg.why)));
	}
	json_object_set_new(j, "arches", arches);
	json_object_set_new(j, "compiler", str_or_null(h->compiler));
	return j;
}
