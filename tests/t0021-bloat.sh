#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kbench bloat prints exactly what the kernel's scripts/bloat-o-meter prints
# (python3 running binutils nm), byte for byte, in each mode (default, -c,
# -d, -t): on object files compiled here with every kind of symbol, 32-bit
# objects, archives, shared objects, programs, and an O2/Os vmlinux pair;
# bad files (not ELF, truncated, a symbol table linked past the section
# table, a FIFO) give exit status 1 and a message naming them.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

d=$(scratch)
src=$TEST_SRCDIR/bloat
CC=${CC:-cc}

# The reference: the kernel's own scripts/bloat-o-meter.
find_bloat_o_meter "$d"
need=
command -v python3 >/dev/null 2>&1 || need=python3
command -v nm >/dev/null 2>&1 || need=binutils
[ -n "$bom" ] || need=bloat-o-meter
[ -n "$bom" ] && diag "reference: $bom"

# same_as_bom NAME ARG...: stdout of `kbench bloat ARG...` is bloat-o-meter's
bom() { python3 "$bom" "$@"; }
same_as_bom() {
	local name=$1
	shift
	if [ -n "$need" ]; then
		skip "needs:$need" "$name"
		return
	fi
	same_output "$name" bom bloat "$@"
}

# Objects with every kind of symbol: local and global data, bss, common,
# rodata, TLS, weak, IFUNC, the generated names bloat-o-meter drops, ".N"
# statics, MSVC-named sections; and in assembly what C cannot spell.
built=yes
for f in old new; do
	$CC -fcommon -O2 -c -o "$d/$f.o" "$src/$f.c" 2>>"$d/cc.err" &&
		$CC -c -o "$d/$f-asm.o" "$src/$f.s" 2>>"$d/cc.err" || built=no
done
if [ $built = yes ]; then
	same_as_bom "objects" "$d/old.o" "$d/new.o"
	same_as_bom "objects, -c" -c "$d/old.o" "$d/new.o"
	same_as_bom "objects, -d" -d "$d/old.o" "$d/new.o"
	same_as_bom "objects, -t" -t "$d/old.o" "$d/new.o"
	same_as_bom "objects, new against old" -c "$d/new.o" "$d/old.o"
	same_as_bom "odd symbols (assembly)" "$d/old-asm.o" "$d/new-asm.o"
	same_as_bom "odd symbols (assembly), -c" -c "$d/old-asm.o" "$d/new-asm.o"
else
	sed 's/^/# /' "$d/cc.err"
	for i in 1 2 3 4 5 6 7; do skip needs:cc "objects $i"; done
fi

if $CC -m32 -fcommon -O2 -c -o "$d/old32.o" "$src/old.c" 2>/dev/null &&
	$CC -m32 -fcommon -Os -c -o "$d/new32.o" "$src/new.c" 2>/dev/null; then
	same_as_bom "32-bit objects, -c" -c "$d/old32.o" "$d/new32.o"
else
	skip_32 "32-bit objects, -c"
fi

if [ $built = yes ] && ar rc "$d/old.a" "$d/old.o" "$d/old-asm.o" &&
	ar rc "$d/new.a" "$d/new.o" "$d/new-asm.o"; then
	same_as_bom "archives (every member), -c" -c "$d/old.a" "$d/new.a"
else
	skip needs:ar "archives (every member), -c"
fi

# Shared objects: one with a version script, one without.
printf 'V1 { global: api1; local: *; };\nV2 { global: api2; } V1;\n' >"$d/ver.map"
cat >"$d/so.c" <<-'EOF'
int api1(void) { return 1; }
int api2(int x) { return x * 2; }
static int helper(int x) { return x + 3; }
int api3(int x) { return helper(x); }
EOF
if $CC -shared -fPIC -O2 -Wl,--version-script="$d/ver.map" -o "$d/old.so" "$d/so.c" 2>/dev/null &&
	$CC -shared -fPIC -Os -o "$d/new.so" "$d/so.c" 2>/dev/null; then
	same_as_bom "shared objects, -c" -c "$d/old.so" "$d/new.so"
else
	skip needs:cc "shared objects, -c"
fi

# Programs: kbench itself against a stripped copy (no symbol table) and
# against a 32-bit static program (libc: IFUNCs, TLS, weak symbols).
cp "$KBENCH" "$d/kbench.stripped" && strip "$d/kbench.stripped" 2>/dev/null
same_as_bom "a program against its stripped copy" "$KBENCH" "$d/kbench.stripped"
printf '#include <stdio.h>\nint main(void) { puts("x"); return 0; }\n' >"$d/prog.c"
if $CC -m32 -static -O2 -o "$d/prog32" "$d/prog.c" 2>/dev/null; then
	same_as_bom "a 32-bit static program against kbench, -c" -c "$d/prog32" "$KBENCH"
else
	skip_32 "a 32-bit static program against kbench, -c"
fi

# The kernels: an O2 and an Os vmlinux from kbench's build cache.
o2= os=
for c in "$kernel_cache"/kernels/*/config; do
	[ -f "${c%/config}/vmlinux" ] || continue
	grep -q '^CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y' "$c" && [ -z "$o2" ] && o2=${c%/config}/vmlinux
	grep -q '^CONFIG_CC_OPTIMIZE_FOR_SIZE=y' "$c" && [ -z "$os" ] && os=${c%/config}/vmlinux
done
if [ -n "$o2" ] && [ -n "$os" ]; then
	same_as_bom "vmlinux O2 against Os" "$o2" "$os"
	same_as_bom "vmlinux O2 against Os, -c" -c "$o2" "$os"
	same_as_bom "vmlinux O2 against Os, -d" -d "$o2" "$os"
	same_as_bom "vmlinux O2 against Os, -t" -t "$o2" "$os"
else
	for m in "" ", -c" ", -d" ", -t"; do
		skip "needs:vmlinux (O2 and Os in $kernel_cache)" "vmlinux O2 against Os$m"
	done
fi

printf 'not an ELF file\n' >"$d/notelf.txt"
fails_naming "a text file fails, naming it" "$d/notelf.txt" "$KBENCH" bloat "$KBENCH" "$d/notelf.txt"
fails_naming "a missing file fails, naming it" "$d/missing" "$KBENCH" bloat "$d/missing" "$KBENCH"
head -c 3000 "$KBENCH" >"$d/truncated"
fails_naming "a truncated program fails, naming it" "$d/truncated" "$KBENCH" bloat "$d/truncated" "$KBENCH"

# A symbol table whose sh_link points past the section table printed a
# symbol named "(null)" and exited 0; one that links to a section that is
# no string table, and a symbol whose name is past its string table, the same.
# Each is a copy of a real object with one field patched (ELF64, little endian).
patch_elf() {	# patch_elf IN OUT WHAT: WHAT = past | notstrtab | name
	python3 - "$@" <<-'PY'
	import struct, sys
	src, dst, what = sys.argv[1:]
	b = bytearray(open(src, "rb").read())
	shoff, = struct.unpack_from("<Q", b, 0x28)
	shentsize, shnum = struct.unpack_from("<HH", b, 0x3a)
	for i in range(shnum):
	    sh = shoff + i * shentsize
	    if struct.unpack_from("<I", b, sh + 4)[0] != 2:	# SHT_SYMTAB
	        continue
	    if what == "past":
	        struct.pack_into("<I", b, sh + 40, shnum + 200)
	    elif what == "notstrtab":
	        struct.pack_into("<I", b, sh + 40, i)
	    else:	# the last symbol's st_name past the end of its string table
	        off, size, entsize = struct.unpack_from("<QQ", b, sh + 24) + struct.unpack_from("<Q", b, sh + 56)
	        struct.pack_into("<I", b, off + size - entsize, 0x7fffffff)
	open(dst, "wb").write(b)
	PY
}
if [ $built = yes ] && command -v python3 >/dev/null 2>&1; then
	for what in past notstrtab name; do
		patch_elf "$d/old.o" "$d/bad-$what.o" "$what"
		fails_naming "a symbol table with a bad link ($what) fails, naming the file" "$d/bad-$what.o" \
			"$KBENCH" bloat "$d/bad-$what.o" "$d/new.o"
		check "... and prints no symbol named (null)" sh -c "! grep -q '(null)' '$d/got' '$d/err'"
	done
else
	for what in past notstrtab name; do
		skip needs:cc,python3 "a symbol table with a bad link ($what) fails, naming the file"
		skip needs:cc,python3 "... and prints no symbol named (null)"
	done
fi
rm -f "$d/fifo" && mkfifo "$d/fifo"
timeout 20 "$KBENCH" bloat "$d/fifo" "$KBENCH" >"$d/got" 2>"$d/err"
rc=$?
check "a FIFO is refused at once, naming it (exit status $rc)" sh -c \
	"[ $rc -eq 1 ] && grep -qF \"'$d/fifo': not a regular file\" '$d/err'"

"$KBENCH" bloat "$KBENCH" >/dev/null 2>&1
check "one file is a usage error" [ $? -eq 2 ]
"$KBENCH" bloat -c -t "$KBENCH" "$KBENCH" >/dev/null 2>&1
check "-c with -t is a usage error" [ $? -eq 2 ]
"$KBENCH" bloat --help >"$d/help" 2>&1
check "--help says how" grep -q '^usage: kbench bloat' "$d/help"
test_done
