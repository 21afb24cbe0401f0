# SPDX-License-Identifier: GPL-2.0-or-later
# Symbols C cannot spell, for t0021-bloat.sh: names with a colon (bloat-o-meter
# skips them), UTF-8 (padded by characters), ".N" twins that merge, no size,
# absolute, a note, non-allocated code and NOBITS, read-only NOBITS, unique.
	.text
	.globl	"colon:name"
	.type	"colon:name", @function
"colon:name":
	ret
	.size	"colon:name", 3
	.globl	"café_ünï"
	.type	"café_ünï", @function
"café_ünï":
	nop
	ret
	.size	"café_ünï", 5
	.globl	nosize
nosize:
	ret
	.type	twin.1, @function
twin.1:
	nop
	ret
	.size	twin.1, 2
	.type	twin.22, @function
twin.22:
	ret
	.size	twin.22, 3
	.type	"a.12b.3.c.x4.", @function
"a.12b.3.c.x4.":
	ret
	.size	"a.12b.3.c.x4.", 3
	.set	abs_sym, 42
	.size	abs_sym, 4
	.globl	abs_sym
	.section .note.mine,"",@note
	.type	in_note, @object
in_note:
	.long	1
	.size	in_note, 4
	.section .execnoalloc,"x",@progbits
	.globl	exec_noalloc
	.type	exec_noalloc, @function
exec_noalloc:
	ret
	.size	exec_noalloc, 3
	.section .nobitsnoalloc,"w",@nobits
	.type	nobits_noalloc, @object
nobits_noalloc:
	.zero	8
	.size	nobits_noalloc, 8
	.section .robss,"a",@nobits
	.type	ro_bss, @object
ro_bss:
	.zero	32
	.size	ro_bss, 32
	.data
	.type	uniq, @gnu_unique_object
	.globl	uniq
uniq:
	.long	1
	.size	uniq, 4
	.type	twin, @object
twin:
	.long	1
	.size	twin, 4
