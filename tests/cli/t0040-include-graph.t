#!/bin/sh
# The include graph: no circle between source files (a .c file using a name
# another defines, read by nm from the objects built) nor between headers,
# none between folders, and no folder using one above it in the layers
# lib/README.md declares; scripts/include-graph draws it and says where
# check: plain-only (the sources' include graph)
. "$(dirname "$0")/../lib.sh"
file_store_only "the source tree, no store"

test_expect 'the tree has no circle, of files or folders, and keeps its layers' '
	"$top/scripts/include-graph" "$top" >out 2>&1 || { cat out; return 1; }
	has_line "0 circles" out && has_line "0 folder circles" out &&
	has_line "0 order violations" out
'

# a tree of its own: a.c and b.c call each other, c.c only calls a.c;
# x.h and y.h include each other
test_expect 'a circle is named, with the names that draw it, and exit 1' '
	mkdir -p t/lib t/cmd &&
	printf "int b(void);\nint a(void) { return b(); }\n" >t/lib/a.c &&
	printf "int a(void);\nint b(void) { return a() + 1; }\n" >t/lib/b.c &&
	printf "int a(void);\nint c(void) { return a(); }\n" >t/cmd/c.c &&
	printf "#include \"y.h\"\n" >t/lib/x.h &&
	printf "#include \"x.h\"\n" >t/lib/y.h &&
	for f in t/lib/a t/lib/b t/cmd/c; do cc -c -o $f.o $f.c || return 1; done &&
	fails_with 1 "$top/scripts/include-graph" t && out=$T/stdout &&
	grep -qx "circle of 2 source files: lib/a.c lib/b.c" "$out" &&
	grep -qx "  lib/a.c -> lib/b.c (b)" "$out" &&
	grep -qx "  lib/b.c -> lib/a.c (a)" "$out" &&
	grep -qx "circle of 2 header files: lib/x.h lib/y.h" "$out" &&
	has_line "2 circles" "$out" && ! grep -q "cmd/c.c" "$out"
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
	for f in u/lib/a/x u/lib/b/y u/lib/a/z u/lib/c/w u/cmd/c; do
		cc -c -o $f.o $f.c || return 1
	done &&
	fails_with 1 "$top/scripts/include-graph" u && out=$T/stdout &&
	has_line "0 circles" "$out" &&
	has_line "circle of 2 folders: lib/a lib/b" "$out" &&
	grep -qx "  lib/a -> lib/b (lib/a/x.c -> lib/b/y.c: y)" "$out" &&
	grep -qx "  lib/b -> lib/a (lib/b/y.c -> lib/a/z.c: z)" "$out" &&
	has_line "1 folder circle" "$out" &&
	grep -qx "against the layers: lib/a -> lib/b: up the layers (lib/a/x.c -> lib/b/y.c: y)" "$out" &&
	grep -qx "against the layers: cmd -> lib/c: lib/c in no layer (cmd/c.c -> lib/c/w.c: w)" "$out" &&
	has_line "2 order violations" "$out"
'

test_expect 'an unbuilt tree is an error, not "0 circles"' '
	mkdir -p empty/lib &&
	fails_with 2 "$top/scripts/include-graph" empty &&
	stderr_has "no objects"
'
test_done
