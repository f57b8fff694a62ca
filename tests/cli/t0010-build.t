#!/bin/sh
# The build: editing a header recompiles exactly the files that include it;
# scripts/install-deps installs only what is missing, one line saying what
# and why, and `make` asks it for the build group only
# check: plain-only (the Makefile and install-deps: a build of another kind adds nothing)
. "$(dirname "$0")/../lib.sh"
file_store_only "the build, no store"

# a copy of the built tree, timestamps kept, so touching a header there
# leaves the real tree alone
tree=$T/tree
mkdir -p "$tree/tests" "$tree/build"
cp -pR "$top/Makefile" "$top/lib" "$top/cmd" "$top/fuzz" "$top/scripts" "$tree/"
cp -pR "$top/tests/unit" "$tree/tests/"
[ -d "$top/build/replay" ] && cp -pR "$top/build/replay" "$tree/build/"
# and the configuration the objects were built with: without it the copy
# would run scripts/configure's probes again and rebuild lib/base/os.o
for f in config.flags config.h; do
	[ -e "$top/build/$f" ] && cp -p "$top/build/$f" "$tree/build/"
done
[ -e "$top/convctl" ] && cp -p "$top/convctl" "$tree/"
unit=$(cd "$tree" && ls tests/unit/*.c | sed 's/\.c$//')
replay=$(cd "$tree" && ls fuzz/fuzz_*.c | sed 's|^fuzz/fuzz_\(.*\)\.c$|build/replay/\1|')

# compiled: the objects `make -n` would compile, sorted
compiled() {
	(cd "$tree" && make -n all $unit $replay) |
	    sed -n 's/.* -c -o \([^ ]*\) .*/\1/p' | sort
}

test_expect 'a built tree has nothing to recompile' '
	(cd "$tree" && make -s all $unit $replay) >log 2>&1 || { cat log; return 1; }
	compiled >got &&
	test_cmp /dev/null got
'

# touched FILE: compiled after touching FILE, whose time is then put back
touched() {
	touch -r "$tree/$1" "$T/stamp" && touch "$tree/$1" &&
	compiled && touch -r "$T/stamp" "$tree/$1"
}

test_expect 'touching lib/store/scan.h recompiles exactly the files that include it' '
	# the files that include it, and those including a header that does
	(cd "$tree" && grep -l "[\"/]scan\.h\"" lib/*.h lib/*/*.c lib/*/*.h cmd/*.c cmd/*.h \
	    tests/unit/*.c fuzz/*.c fuzz/*.inc) >direct &&
	(cd "$tree" && for f in $(cat "$T/direct"); do
		case $f in
		*.c) echo "$f" ;;
		*) grep -l "[\"/]${f##*/}\"" lib/*/*.c cmd/*.c tests/unit/*.c \
		    fuzz/*.c ;;
		esac
	done) | sed "s|^fuzz/|build/replay/|; s|\.c$|.o|" | sort -u >expected &&
	grep -qx lib/store/scan.o expected && grep -qx tests/unit/scan.o expected &&
	touched lib/store/scan.h >got &&
	test_cmp expected got
'

test_expect 'touching lib/base/base.h, which lib/convctl.h includes, recompiles every object' '
	touched lib/base/base.h >got &&
	grep -qx cmd/main.o got && grep -qx lib/base/buf.o got &&
	grep -qx tests/unit/time.o got && grep -qx build/replay/fuzz_store.o got
'

# as a user types it: not under the make that runs the tests
demo() {
	(cd "$tree" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make demo)
}

test_expect 'make demo builds quietly: the transcript, no compiler lines; an error still shows' '
	touch "$tree/cmd/main.c" &&
	{ demo >demo.out 2>demo.err || { cat demo.out demo.err; return 1; }; } &&
	! grep -e " -c -o " -e "^cc \|^gcc \|^clang \|^ar \|^rm " demo.out demo.err &&
	test ! -s demo.err &&
	head -n 1 demo.out | grep -q "^A store in a temporary directory: " &&
	cp -p "$tree/cmd/main.c" main.c.kept &&
	echo "int broken(void) { return }" >>"$tree/cmd/main.c" &&
	demo >demo.out 2>demo.err; rc=$?;
	cp -p main.c.kept "$tree/cmd/main.c" &&
	(cd "$tree" && make -s convctl) &&
	test "$rc" -ne 0 && grep -q "cmd/main.c:.*error" demo.err &&
	! grep -q "^A store in a temporary directory" demo.out
'

test_expect 'make check TESTS="add end" runs those two files on both engines, nothing else' '
	# the engines named, not taken from a make this runs under (check-asan)
	make -s -n -C "$top" check TESTS="add end" CHECK_ENGINES="file pg" \
	    >out 2>&1 &&
	tr " " "\n" <out | grep "\.t$" | sort >got &&
	printf "%s\n" pg:tests/cli/t2000-add.t pg:tests/cli/t2020-end.t tests/cli/t2000-add.t \
	    tests/cli/t2020-end.t >want && test_cmp want got &&
	! make -s -n -C "$top" check TESTS="add nosuch" >out 2>&1 &&
	grep -q "TESTS: no such file or family: nosuch" out
'

test_expect 'TESTS names a file whole, by its name without the number, or a family by its number' '
	make -s -n -C "$top" check TESTS="t2020-end add t30" CHECK_ENGINES=file \
	    >out 2>&1 &&
	tr " " "\n" <out | grep "\.t$" | sort >got &&
	ls "$top"/tests/cli/t30[0-9]*-*.t | sed "s|^$top/||" >want &&
	printf "%s\n" tests/cli/t2000-add.t tests/cli/t2020-end.t >>want &&
	sort -o want want && test "$(wc -l <want)" -ge 4 && test_cmp want got
'

test_expect 'make check runs on SQLite the files marked sqlite, make check-all every file not file_store_only' '
	grep -l "^# check:.* sqlite\( \|\$\)" "$top"/tests/cli/*.t |
	    sed "s|^$top/|sqlite:|" | sort >want &&
	test -s want &&
	make -s -n -C "$top" check CHECK_ENGINES=sqlite >out 2>&1 &&
	tr " " "\n" <out | grep "\.t$" | sort >got &&
	test_cmp want got &&
	grep -L "^file_store_only " "$top"/tests/cli/*.t |
	    sed "s|^$top/|sqlite:|" | sort >want &&
	make -s -n -C "$top" check-all CHECK_ENGINES=sqlite >out 2>&1 &&
	tr " " "\n" <out | grep "\.t$" | sort >got &&
	test_cmp want got
'

test_expect 'LEAVE_OUT=plain-only (make check-asan, check-portable) leaves out exactly the files so marked' '
	grep -l "^# check:.* plain-only" "$top"/tests/cli/*.t | sed "s|^$top/||" |
	    sort >marked &&
	test -s marked &&
	make -s -n -C "$top" check CHECK_ENGINES=file LEAVE_OUT= >out 2>&1 &&
	tr " " "\n" <out | grep "\.t$" | sort >all &&
	make -s -n -C "$top" check CHECK_ENGINES=file LEAVE_OUT=plain-only >out 2>&1 &&
	tr " " "\n" <out | grep "\.t$" | sort >left &&
	comm -23 all left >gone && test_cmp marked gone &&
	grep -qx tests/cli/t2000-add.t left
'

test_expect 'a lost .d file recompiles its object' '
	mv "$tree/lib/render/render.d" render.d &&
	compiled >got &&
	mv render.d "$tree/lib/render/render.d" &&
	echo lib/render/render.o >expected &&
	test_cmp expected got
'

test_expect 'make asks scripts/install-deps for the build group only, in a recipe, never while reading the Makefile' '
	mkdir -p fakebin &&
	printf "#!/bin/sh\nexit 1\n" >fakebin/pkg-config &&
	printf "#!/bin/sh\necho \"\$*\" >>\"%s\"\n" "$T/asked" >"$tree/scripts/install-deps" &&
	chmod +x fakebin/pkg-config "$tree/scripts/install-deps" &&
	(cd "$tree" && PATH=$T/fakebin:$PATH make -n) >log 2>&1 &&
	test ! -e asked &&
	(cd "$tree" && PATH=$T/fakebin:$PATH make -s) >log 2>&1 &&
	echo build >expected &&
	test_cmp expected asked
'

test_expect 'the fuzz harnesses are every fuzz/fuzz_NAME.c, none named by hand' '
	cp "$tree/fuzz/fuzz_time.c" "$tree/fuzz/fuzz_newone.c" &&
	(cd "$tree" && make -s -n fuzz) >log 2>&1 &&
	holds " newone" log && holds " store" log &&
	rm "$tree/fuzz/fuzz_newone.c"
'

# scripts/install-deps against a fake package database: dpkg-query -W
# lists, as installed, every package install-deps names but those in
# $T/absent, and the versioned ones in $T/versioned (which its patterns,
# such as postgresql-[0-9]*, match), and the lines of $T/provides as they
# are (a package and what it provides); the installer only records its calls
installer=apt
installer=$installer-get
mkdir -p "$T/pkgbin"
"$top/scripts/install-deps" --list | sed 's/^[a-z]*://' | tr ' |' '\n\n' |
    grep -v '^$' | grep -v '[*[]' | sort -u >"$T/universe"
: >"$T/versioned"
: >"$T/provides"
cat >"$T/pkgbin/dpkg-query" <<EOF
#!/bin/sh
{ grep -vxF -f "$T/absent" "$T/universe"; cat "$T/versioned"; } | sed 's/^/ii  /; s/\$/, /'
cat "$T/provides"
EOF
printf '#!/bin/sh\necho "$*" >>"%s"\n' "$T/installed" >"$T/pkgbin/$installer"
chmod +x "$T/pkgbin/dpkg-query" "$T/pkgbin/$installer"
# deps ARGS...: runs scripts/install-deps on the fake database, as root
# (a fake id says so), the installer's calls recorded afresh
printf '#!/bin/sh\necho 0\n' >"$T/pkgbin/id"
chmod +x "$T/pkgbin/id"
deps() {
	: >"$T/installed"
	PATH=$T/pkgbin:$PATH "$top/scripts/install-deps" "$@"
}

test_expect 'install-deps does nothing, silently, when all is there' '
	: >absent &&
	deps >out 2>&1 &&
	test_cmp /dev/null out &&
	test_cmp /dev/null installed
'

test_expect 'install-deps installs only what is missing, in one line saying why' '
	printf "jq\npostgresql-client\n" >absent &&
	deps >out 2>&1 &&
	echo "install-deps: installing jq for make check; postgresql-client for the PostgreSQL store'"'"'s tests" >expected &&
	test_cmp expected out &&
	has_line "install -y -q --no-install-recommends jq postgresql-client" installed
'

test_expect 'install-deps build asks only for the build group' '
	printf "jq\nhyperfine\n" >absent &&
	deps build >out 2>&1 &&
	test_cmp /dev/null out && test_cmp /dev/null installed &&
	printf "jq\npkg-config\n" >absent &&
	deps build >out 2>&1 &&
	echo "install-deps: installing pkg-config for building convctl" >expected &&
	test_cmp expected out &&
	has_line "install -y -q --no-install-recommends pkg-config" installed
'

test_expect 'install-deps --check reports and installs nothing' '
	printf "hyperfine\n" >absent &&
	fails_with 1 deps --check &&
	stderr_has "install-deps: missing: hyperfine for make bench" &&
	test_cmp /dev/null installed &&
	fails_with 2 deps nonsense
'

test_expect 'install-deps --check takes postgresql-client-NN for psql, postgresql-NN for the server' '
	printf "postgresql\npostgresql-client\n" >absent &&
	printf "postgresql-15\npostgresql-client-15\n" >versioned &&
	deps --check pg >out 2>&1 && test_cmp /dev/null out &&
	: >versioned &&
	fails_with 1 deps --check pg &&
	stderr_has "install-deps: missing: postgresql postgresql-client for" &&
	deps pg >out 2>&1 &&
	has_line "install -y -q --no-install-recommends postgresql postgresql-client" installed
'

test_expect 'install-deps takes a package another provides (npm by NodeSource'"'"'s nodejs); not one removed' '
	printf "npm\nnodejs\n" >absent &&
	printf "%s\n" "ii  nodejs, npm (= 10.2.4), nodejs-dev" "rc  jq, " >provides &&
	deps --check test >out 2>&1 && test_cmp /dev/null out &&
	printf "npm\njq\n" >absent &&
	fails_with 1 deps --check test && stderr_has "install-deps: missing: jq for make check" &&
	: >provides
'

test_expect 'the README lists each group of install-deps as the script has it' '
	"$top/scripts/install-deps" --list >groups &&
	test "$(wc -l <groups)" = 5 &&
	while read -r g pkgs; do
		g=${g%:} &&
		grep "^- \`$g\`: " "$top/README.md" | sed "s/^- \`$g\`: //; s/ (.*//; s/, / /g" >got &&
		echo "$pkgs" | tr " " "\n" | sed "s/|.*//" | tr "\n" " " | sed "s/ $//" >want &&
		echo >>want && test_cmp want got || { echo "group $g"; return 1; }
	done <groups
'

test_expect "only scripts/install-deps runs the package manager" '
	(cd "$top" && grep -rl --exclude-dir=.git --exclude-dir=build \
	    --exclude="*.o" --exclude=convctl "$installer" .) >got
	echo ./scripts/install-deps >expected &&
	test_cmp expected got
'

test_done
