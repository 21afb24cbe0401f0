/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_IMAGE_H
#define KB_IMAGE_H

/*
 * Write a cpio "newc" initramfs to path (atomically: temporary file, fsync,
 * rename) with libarchive: directories /dev /proc /sys /tmp, the character
 * device /dev/console (5,1, mode 0600), and /init = the runner binary (mode
 * 0755), which must be a static ELF executable for arch ("i386" or
 * "x86_64", [kernel] arch).  Same inputs, same bytes.  0 or a negative
 * errno after a message.
 */
int kb_image_write(const char *path, const char *runner_path, const char *arch);

#endif
