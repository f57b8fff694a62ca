#!/bin/sh
# The include graph: no circle between source files (a .c file using a name
# another defines, read by nm from the objects built) nor between headers,
# none between folders, and no folder using one above it in the layers
# lib/README.md declares; scripts/include-graph draws it and says where
# check: plain-only (the sources' include graph)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "the source tree, no store"

test_expect 'the tree has no circle, of files or folders, and keeps its layers' '
	"$top/scripts/include-graph" "$top" >out 2>&1 || { cat out; return 1; }
	has_line "0 circles" out && has_line "0 folder circles" out &&
	has_line "0 order violations" out
'

# obj FILE.c NAME USED...: FILE.o as cc -c makes it of FILE.c, which
# defines NAME and calls each USED: what the graph reads of it, its
# names (nm), made by as alone from a few lines of assembly (one process,
# not cc's three: cc, cc1 and as)
obj() {
	o_base=${1%.c} o_name=$2
	shift 2
	{
		printf '\t.globl %s\n\t.data\n%s:\n' "$o_name" "$o_name"
		for o_used; do printf '\t.quad %s\n' "$o_used"; done
		[ $# -gt 0 ] || printf '\t.quad 0\n'
	} >"$o_base.s" &&
	as -o "$o_base.o" "$o_base.s"
}

# a tree of its own: a.c and b.c call each other, c.c only calls a.c;
# x.h and y.h include each other
test_expect 'a circle is named, with the names that draw it, and exit 1' '
	mkdir -p t/lib t/cmd &&
	printf "int b(void);\nint a(void) { return b(); }\n" >t/lib/a.c &&
	printf "int a(void);\nint b(void) { return a() + 1; }\n" >t/lib/b.c &&
	printf "int a(void);\nint c(void) { return a(); }\n" >t/cmd/c.c &&
	printf "#include \"y.h\"\n" >t/lib/x.h &&
	printf "#include \"x.h\"\n" >t/lib/y.h &&
	obj t/lib/a.c a b && obj t/lib/b.c b a && obj t/cmd/c.c c a &&
	fails_with 1 "$top/scripts/include-graph" t && out=$T/stdout &&
	has_line "circle of 2 source files: lib/a.c lib/b.c" "$out" &&
	has_line "  lib/a.c -> lib/b.c (b)" "$out" &&
	has_line "  lib/b.c -> lib/a.c (a)" "$out" &&
	has_line "circle of 2 header files: lib/x.h lib/y.h" "$out" &&
	has_line "2 circles" "$out" && lacks "cmd/c.c" "$out"
'

# folders lib/a below lib/b: x.c (lib/a) calls y.c (lib/b), which calls
# z.c (lib/a): no file circle, a folder circle, an edge up the layers; and
# cmd/c.c calls lib/c, a folder in no layer
test_expect 'a folder circle and edges against the layers are named, exit 1' '
	mkdir -p u/lib/a u/lib/b u/lib/c u/cmd &&
	printf "## Layers\n\nlowest first:\n\n\140\140\140\nlib/a\nlib/b\ncmd\n\140\140\140\n" >u/lib/README.md &&
	printf "int y(void);\nint x(void) { return y(); }\n" >u/lib/a/x.c &&
	printf "int z(void);\nint y(void) { return z(); }\n" >u/lib/b/y.c &&
	printf "int z(void) { return 1; }\n" >u/lib/a/z.c &&
	printf "int w(void) { return 2; }\n" >u/lib/c/w.c &&
	printf "int w(void);\nint c(void) { return w(); }\n" >u/cmd/c.c &&
	obj u/lib/a/x.c x y && obj u/lib/b/y.c y z && obj u/lib/a/z.c z &&
	obj u/lib/c/w.c w && obj u/cmd/c.c c w &&
	fails_with 1 "$top/scripts/include-graph" u && out=$T/stdout &&
	has_line "0 circles" "$out" &&
	has_line "circle of 2 folders: lib/a lib/b" "$out" &&
	has_line "  lib/a -> lib/b (lib/a/x.c -> lib/b/y.c: y)" "$out" &&
	has_line "  lib/b -> lib/a (lib/b/y.c -> lib/a/z.c: z)" "$out" &&
	has_line "1 folder circle" "$out" &&
	has_line "against the layers: lib/a -> lib/b: up the layers (lib/a/x.c -> lib/b/y.c: y)" "$out" &&
	has_line "against the layers: cmd -> lib/c: lib/c in no layer (cmd/c.c -> lib/c/w.c: w)" "$out" &&
	has_line "2 order violations" "$out"
'

test_expect 'an unbuilt tree is an error, not "0 circles"' '
	mkdir -p empty/lib &&
	fails_with 2 "$top/scripts/include-graph" empty &&
	stderr_has "no objects"
'
test_done
