#!/bin/sh
# The include graph: no circle between source files (a .c file using a name
# another defines, read by nm from the objects built) nor between headers;
# scripts/include-graph draws it and says where a circle is
# check: plain-only (the sources' include graph)
. "$(dirname "$0")/../lib.sh"
file_store_only "the source tree, no store"

test_expect 'the tree has no circle' '
	"$top/scripts/include-graph" "$top" >out 2>&1 || { cat out; exit 1; }
	grep -qx "0 circles" out
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
	for f in t/lib/a t/lib/b t/cmd/c; do cc -c -o $f.o $f.c || exit 1; done &&
	fails_with 1 "$top/scripts/include-graph" t && out=$T/stdout &&
	grep -qx "circle of 2 source files: lib/a.c lib/b.c" "$out" &&
	grep -qx "  lib/a.c -> lib/b.c (b)" "$out" &&
	grep -qx "  lib/b.c -> lib/a.c (a)" "$out" &&
	grep -qx "circle of 2 header files: lib/x.h lib/y.h" "$out" &&
	grep -qx "2 circles" "$out" && ! grep -q "cmd/c.c" "$out"
'

test_expect 'an unbuilt tree is an error, not "0 circles"' '
	mkdir -p empty/lib &&
	fails_with 2 "$top/scripts/include-graph" empty &&
	stderr_has "no objects"
'
test_done
