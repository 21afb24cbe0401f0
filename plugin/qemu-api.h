/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kbench's own declarations of the few QEMU TCG plugin API entry points the
 * simulator uses, written from QEMU's documented interface (docs/devel/
 * tcg-plugins.rst and the API reference).  QEMU resolves them when it loads
 * the plugin; nothing here links against QEMU.
 *
 * KB_QEMU_PLUGIN_API is the API version this build targets; configure derives
 * it from `qemu-system-i386 --version` (QEMU up to 8.x: 1; 9.0: 2; 9.1 and
 * later: 3, where instruction bytes are copied out instead of pointed to).
 * Everything that differs between versions is in the block marked below.
 */
#ifndef KB_QEMU_API_H
#define KB_QEMU_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef KB_QEMU_PLUGIN_API
#define KB_QEMU_PLUGIN_API 1
#endif

#define KB_PLUGIN_EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;

/* What QEMU tells the plugin at install time. */
typedef struct {
	const char *target_name;
	struct {
		int min;	/* oldest API version this QEMU still accepts */
		int cur;	/* its own API version */
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;

/* Opaque handles, valid only inside the callback that received them. */
struct qemu_plugin_tb;
struct qemu_plugin_insn;

enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,	/* the callback reads no guest registers */
};

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *udata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *udata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags, void *udata);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags, void *udata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *udata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_outs(const char *string);

/* ---- what differs between API versions: only this block ---- */
#if KB_QEMU_PLUGIN_API >= 3
/* 9.1 and later copy the bytes out; returns how many were copied. */
size_t qemu_plugin_insn_data(const struct qemu_plugin_insn *insn, void *dest, size_t len);

static inline size_t kb_insn_bytes(const struct qemu_plugin_insn *insn, void *dest, size_t len)
{
	return qemu_plugin_insn_data(insn, dest, len);
}
#else
/* 1 and 2 return a pointer to the instruction's bytes. */
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);

static inline size_t kb_insn_bytes(const struct qemu_plugin_insn *insn, void *dest, size_t len)
{
	const unsigned char *p = qemu_plugin_insn_data(insn);
	size_t n = qemu_plugin_insn_size(insn);

	n = n < len ? n : len;
	for (size_t i = 0; i < n; i++)
		((unsigned char *)dest)[i] = p[i];
	return n;
}
#endif
/* ---- end of the version-dependent block ---- */

#endif
