// SPDX-License-Identifier: GPL-2.0-or-later
/* The guest image: an uncompressed cpio newc initramfs with the runner as /init. */
#include "config.h"

#include <archive.h>
#include <archive_entry.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image.h"
#include "util.h"

static const struct image_entry {
	const char *name;
	mode_t type;		/* AE_IF* */
	mode_t perm;
	unsigned dev_major, dev_minor;
	bool is_init;		/* contents: the runner */
} image_entries[] = {
	{ .name = "dev",	 .type = AE_IFDIR, .perm = 0755 },
	{ .name = "dev/console", .type = AE_IFCHR, .perm = 0600, .dev_major = 5, .dev_minor = 1 },
	{ .name = "init",	 .type = AE_IFREG, .perm = 0755, .is_init = true },
	{ .name = "proc",	 .type = AE_IFDIR, .perm = 0755 },
	{ .name = "sys",	 .type = AE_IFDIR, .perm = 0755 },
	{ .name = "tmp",	 .type = AE_IFDIR, .perm = 01777 },
};

/* A dynamic /init, or one for the other architecture, would only show as
 * a kernel panic in the guest; say what is wrong here instead. */
static int check_runner(const char *path, const char *arch, const unsigned char *buf, size_t len)
{
	int x86_64 = !strcmp(arch, "x86_64");
	Elf64_Ehdr eh;		/* the fields read are where Elf32_Ehdr has them up to e_type */
	uint64_t phoff;
	unsigned phnum, phentsize;

	if (strcmp(arch, "i386") && !x86_64)
		return kb_error("guest runner '%s': no guest architecture '%s' (i386 or x86_64)",
				path, arch);
	if (len < sizeof(Elf32_Ehdr) || memcmp(buf, ELFMAG, SELFMAG))
		return kb_error("guest runner '%s': not an ELF file", path);
	if (buf[EI_CLASS] != (x86_64 ? ELFCLASS64 : ELFCLASS32) || buf[EI_DATA] != ELFDATA2LSB ||
	    (x86_64 && len < sizeof(Elf64_Ehdr)))
		goto wrong;
	if (x86_64) {
		memcpy(&eh, buf, sizeof(eh));
		phoff = eh.e_phoff;
		phnum = eh.e_phnum;
		phentsize = eh.e_phentsize;
	} else {
		Elf32_Ehdr e32;

		memcpy(&e32, buf, sizeof(e32));
		eh.e_type = e32.e_type;
		eh.e_machine = e32.e_machine;
		phoff = e32.e_phoff;
		phnum = e32.e_phnum;
		phentsize = e32.e_phentsize;
	}
	if (eh.e_machine != (x86_64 ? EM_X86_64 : EM_386) ||
	    (eh.e_type != ET_EXEC && eh.e_type != ET_DYN))
		goto wrong;
	if (phentsize != (x86_64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr)) || phoff > len ||
	    phnum > (len - phoff) / phentsize)
		return kb_error("guest runner '%s': truncated program headers", path);
	for (unsigned i = 0; i < phnum; i++) {
		uint32_t type;	/* p_type comes first in both classes */

		memcpy(&type, buf + phoff + (uint64_t)i * phentsize, sizeof(type));
		if (type == PT_INTERP)
			return kb_error("guest runner '%s': dynamically linked (build it with -static)",
					path);
	}
	return 0;
wrong:
	return kb_error("guest runner '%s': not an %s executable (build it with %s -static)", path,
			arch, x86_64 ? "-m64" : "-m32");
}

/* What went wrong in libarchive: the system's own words where it names an
 * errno ("No space left on device", not libarchive's "Write error"). */
static const char *archive_why(struct archive *a)
{
	int e = archive_errno(a);

	return e > 0 ? strerror(e) : archive_error_string(a) ? archive_error_string(a) : "unknown error";
}

static int add_entry(struct archive *a, struct archive_entry *ae, const struct image_entry *ie,
		     unsigned ino, const char *data, size_t len, const char *path)
{
	archive_entry_clear(ae);
	archive_entry_set_pathname(ae, ie->name);
	archive_entry_set_filetype(ae, ie->type);
	archive_entry_set_perm(ae, ie->perm);
	archive_entry_set_uid(ae, 0);
	archive_entry_set_gid(ae, 0);
	/* fixed times and inode numbers: the image depends on its inputs only */
	archive_entry_set_mtime(ae, 0, 0);
	archive_entry_set_ino(ae, ino);
	archive_entry_set_nlink(ae, ie->type == AE_IFDIR ? 2 : 1);
	if (ie->type == AE_IFCHR) {
		archive_entry_set_rdevmajor(ae, ie->dev_major);
		archive_entry_set_rdevminor(ae, ie->dev_minor);
	}
	archive_entry_set_size(ae, ie->is_init ? (la_int64_t)len : 0);
	if (archive_write_header(a, ae) != ARCHIVE_OK)
		return kb_error("'%s': cannot add '%s': %s", path, ie->name, archive_why(a));
	if (ie->is_init && archive_write_data(a, data, len) != (la_ssize_t)len)
		return kb_error("'%s': cannot write '%s': %s", path, ie->name, archive_why(a));
	return 0;
}

int kb_image_write(const char *path, const char *runner_path, const char *arch)
{
	struct archive_entry *ae = NULL;
	struct archive *a = NULL;
	char *runner = NULL, *tmp;
	size_t runner_len = 0;
	int fd = -1, ret;

	tmp = kb_xasprintf("%s.tmp.%ld", path, (long)getpid());
	ret = kb_read_file(runner_path, &runner, &runner_len);
	if (ret < 0) {
		ret = kb_error_errno(-ret, "cannot read guest runner '%s'", runner_path);
		goto out;
	}
	ret = check_runner(runner_path, arch, (const unsigned char *)runner, runner_len);
	if (ret < 0) {
		ret = -ENOEXEC;
		goto out;
	}

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = kb_error_errno(errno, "cannot create '%s'", path);
		goto out;
	}
	a = archive_write_new();
	ae = archive_entry_new();
	if (!a || !ae) {
		ret = kb_error_errno(ENOMEM, "'%s'", path);
		goto out_unlink;
	}
	if (archive_write_set_format_cpio_newc(a) != ARCHIVE_OK ||
	    archive_write_add_filter_none(a) != ARCHIVE_OK ||
	    archive_write_set_bytes_in_last_block(a, 1) != ARCHIVE_OK ||
	    archive_write_open_fd(a, fd) != ARCHIVE_OK) {
		kb_error("'%s': %s", path, archive_why(a));
		ret = -EIO;
		goto out_unlink;
	}
	for (size_t i = 0; i < KB_ARRAY_SIZE(image_entries); i++) {
		if (add_entry(a, ae, &image_entries[i], (unsigned)i + 1, runner, runner_len,
			      path) < 0) {
			ret = -EIO;
			goto out_unlink;
		}
	}
	if (archive_write_close(a) != ARCHIVE_OK) {
		kb_error("'%s': %s", path, archive_why(a));
		ret = -EIO;
		goto out_unlink;
	}
	if (fsync(fd) < 0) {
		ret = kb_error_errno(errno, "cannot write '%s'", path);
		goto out_unlink;
	}
	ret = close(fd);
	fd = -1;
	if (ret < 0) {
		ret = kb_error_errno(errno, "cannot write '%s'", path);
		goto out_unlink;
	}
	if (rename(tmp, path) < 0) {
		ret = kb_error_errno(errno, "cannot rename '%s' to '%s'", tmp, path);
		goto out_unlink;
	}
	ret = 0;
	goto out;

out_unlink:
	unlink(tmp);
out:
	if (a)
		archive_write_free(a);
	if (ae)
		archive_entry_free(ae);
	if (fd >= 0)
		close(fd);
	free(runner);
	free(tmp);
	return ret;
}
