#!/bin/sh
# The build: editing a header recompiles exactly the files that include it;
# scripts/install-deps installs only what is missing, one line saying what
# and why, and `make` asks it for the build group only
# check: plain-only (the Makefile and install-deps: a build of another kind adds nothing)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "the build, no store"

# a copy of the built tree, timestamps kept, so touching a header there
# leaves the real tree alone: one cp of what there is, each at its path
# (--parents), from the top
tree=$T/tree
mkdir -p "$tree/build"
cd "$top" || exit 1
set -- Makefile lib cmd fuzz scripts tests/unit
[ -d build/replay ] && set -- "$@" build/replay
# and the configuration the objects were built with: without it the copy
# would run scripts/configure's probes again and rebuild lib/base/os.o
for f in build/config.flags build/config.h convctl; do
	[ -e "$f" ] && set -- "$@" "$f"
done
cp -pR --parents "$@" "$tree/"
cd "$T" || exit 1
unit= replay=
for f in "$tree"/tests/unit/*.c; do
	f=${f#"$tree"/} unit="$unit ${f%.c}"
done
for f in "$tree"/fuzz/fuzz_*.c; do
	f=${f##*/fuzz_} replay="$replay build/replay/${f%.c}"
done

# compiled: the objects `make -n` would compile, a line each (make's
# order: same_set compares them)
compiled() {
	# shellcheck disable=SC2086
	make --no-print-directory -C "$tree" -n all $unit $replay >"$T/.make-n" ||
	    return 1
	while IFS= read -r l; do
		case $l in
		*" -c -o "*) l=${l#*" -c -o "} && echo "${l%% *}" ;;
		esac
	done <"$T/.make-n"
}

# empty FILE: FILE is empty, else it is shown
empty() {
	[ ! -s "$1" ] || { echo "$1 is not empty:"; cat "$1"; return 1; }
}

# t_words FILE: the words of FILE that end in .t (make -n check's test
# files), a line each, split by the shell
t_words() {
	set -f
	while IFS= read -r l; do
		for w in $l; do
			case $w in *.t) echo "$w" ;; esac
		done
	done <"$1"
	set +f
}

# prefixed PREFIX FILE: each line of FILE, "$top/" taken off it and PREFIX
# put before it
prefixed() {
	while IFS= read -r l; do
		echo "$1${l#"$top"/}"
	done <"$2"
}

# a_line PATTERN FILE...: a line of a FILE matches the shell's PATTERN,
# read by the shell (no grep); no_line PATTERN FILE...: none does, else the
# one that does is shown
a_line() {
	al_pat=$1
	shift
	for al_f; do
		while IFS= read -r l || [ -n "$l" ]; do
			# shellcheck disable=SC2254
			case $l in $al_pat) return 0 ;; esac
		done <"$al_f"
	done
	echo "no line matches '$al_pat' in $*"
	return 1
}
no_line() {
	al_pat=$1
	shift
	for al_f; do
		while IFS= read -r l || [ -n "$l" ]; do
			# shellcheck disable=SC2254
			case $l in $al_pat) echo "$al_f: $l"; return 1 ;; esac
		done <"$al_f"
	done
}

test_expect 'a built tree has nothing to recompile' '
	make -s --no-print-directory -C "$tree" all $unit $replay >log 2>&1 ||
	    { cat log; return 1; }
	compiled >got &&
	empty got
'

# touched FILE: compiled after touching FILE, whose time is then put back
touched() {
	touch -r "$tree/$1" "$T/stamp" && touch "$tree/$1" &&
	compiled && touch -r "$T/stamp" "$tree/$1"
}

# object FILE.c: the object make builds of it, once in $T/expected
object() {
	case $1 in
	fuzz/*) set -- "build/replay/${1#fuzz/}" ;;
	esac
	case $objects in *" ${1%.c}.o "*) return 0 ;; esac
	objects="$objects${1%.c}.o "
	echo "${1%.c}.o" >>"$T/expected"
}

test_expect 'touching lib/store/scan.h recompiles exactly the files that include it' '
	# the files that include it, and those including a header that does
	t=$tree &&
	grep -l "[\"/]scan\.h\"" "$t"/lib/*.h "$t"/lib/*/*.c "$t"/lib/*/*.h \
	    "$t"/cmd/*.c "$t"/cmd/*.h "$t"/tests/unit/*.c "$t"/fuzz/*.c \
	    "$t"/fuzz/*.inc >direct &&
	: >expected && objects=" " &&
	while IFS= read -r f; do
		f=${f#"$t"/}
		case $f in
		*.c) object "$f" ;;
		*) grep -l "[\"/]${f##*/}\"" "$t"/lib/*/*.c "$t"/cmd/*.c \
		    "$t"/tests/unit/*.c "$t"/fuzz/*.c >indirect
			while IFS= read -r g; do
				object "${g#"$t"/}"
			done <indirect ;;
		esac
	done <direct &&
	has_line lib/store/scan.o expected && has_line tests/unit/scan.o expected &&
	touched lib/store/scan.h >got &&
	same_set expected got
'

test_expect 'touching lib/base/base.h, which lib/convctl.h includes, recompiles every object' '
	touched lib/base/base.h >got &&
	has_line cmd/main.o got && has_line lib/base/buf.o got &&
	has_line tests/unit/time.o got && has_line build/replay/fuzz_store.o got
'

# as a user types it: not under the make that runs the tests
demo() {
	(cd "$tree" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make demo)
}

test_expect 'make demo builds quietly: the transcript, no compiler lines; an error still shows' '
	touch "$tree/cmd/main.c" &&
	{ demo >demo1.out 2>demo1.err || { cat demo1.out demo1.err; return 1; }; } &&
	no_line "* -c -o *" demo1.out demo1.err &&
	no_line "cc *" demo1.out demo1.err && no_line "gcc *" demo1.out demo1.err &&
	no_line "clang *" demo1.out demo1.err && no_line "ar *" demo1.out demo1.err &&
	no_line "rm *" demo1.out demo1.err &&
	test ! -s demo1.err &&
	{ IFS= read -r first <demo1.out || [ -n "$first" ]; } &&
	case $first in
	"A store in a temporary directory: "*) ;;
	*) echo "first line: $first"; return 1 ;;
	esac &&
	cp -p "$tree/cmd/main.c" main.c.kept &&
	echo "int broken(void) { return }" >>"$tree/cmd/main.c" &&
	demo >demo.out 2>demo.err; rc=$?;
	cp -p main.c.kept "$tree/cmd/main.c" &&
	make -s --no-print-directory -C "$tree" convctl &&
	test "$rc" -ne 0 && a_line "*cmd/main.c:*error*" demo.err &&
	no_line "A store in a temporary directory*" demo.out
'

# milk_line FILE: FILE has the line recent prints of the demo's first
# conversation, "conv-DIGITS<TAB>2026-02-04T17:28:02.000Z<TAB>4<TAB>Add
# milk to my grocery list"
milk_line() {
	while IFS= read -r l; do
		case $l in
		conv-[0-9]*"	2026-02-04T17:28:02.000Z	4	Add milk to my grocery list")
			l=${l%%"	"*} l=${l#conv-}
			case $l in *[!0-9]*) ;; *) return 0 ;; esac ;;
		esac
	done <"$1"
	echo "no line of the conversation ended, Add milk to my grocery list, in $1"
	return 1
}

# the transcript of the make demo above (scripts/demo ./convctl), which
# runs on its own store, not the caller's ($CONVCTL_STORE)
test_expect 'make demo runs to the end on its own scratch store' '
	test -e demo1.out && test ! -s demo1.err && test ! -e "$CONVCTL_STORE" &&
	has_line "Assistant: Added eggs. [used: edit_file]" demo1.out &&
	milk_line demo1.out || { cat demo1.out; return 1; }
'

test_expect 'make check TESTS="add end" runs those two files on both engines, nothing else' '
	# the engines named, not taken from a make this runs under (check-asan)
	make -s -n -C "$top" check TESTS="add end" CHECK_ENGINES="file pg" \
	    >out 2>&1 &&
	t_words out >got &&
	printf "%s\n" pg:tests/cli/t2000-add.t pg:tests/cli/t2020-end.t tests/cli/t2000-add.t \
	    tests/cli/t2020-end.t >want && same_set want got &&
	! make -s -n -C "$top" check TESTS="add nosuch" >out 2>&1 &&
	holds "TESTS: no such file or family: nosuch" out
'

test_expect 'TESTS names a file whole, by its name without the number, or a family by its number' '
	make -s -n -C "$top" check TESTS="t2020-end add t30" CHECK_ENGINES=file \
	    >out 2>&1 &&
	t_words out >got &&
	n=0 && for f in "$top"/tests/cli/t30[0-9]*-*.t; do
		echo "${f#"$top"/}" && n=$((n + 1))
	done >want &&
	printf "%s\n" tests/cli/t2000-add.t tests/cli/t2020-end.t >>want &&
	test "$n" -ge 2 && same_set want got
'

test_expect 'make check runs on SQLite the files marked sqlite, make check-all every file not file_store_only' '
	grep -l "^# check:.* sqlite\( \|\$\)" "$top"/tests/cli/*.t >marked &&
	prefixed sqlite: marked >want &&
	test -s want &&
	make -s -n -C "$top" check CHECK_ENGINES=sqlite >out 2>&1 &&
	t_words out >got &&
	same_set want got &&
	{ grep -L "^file_store_only " "$top"/tests/cli/*.t >all || :; } &&
	prefixed sqlite: all >want &&
	make -s -n -C "$top" check-all CHECK_ENGINES=sqlite >out 2>&1 &&
	t_words out >got &&
	same_set want got
'

test_expect 'LEAVE_OUT=plain-only (make check-asan, check-portable) leaves out exactly the files so marked' '
	grep -l "^# check:.* plain-only" "$top"/tests/cli/*.t >files &&
	prefixed "" files >marked &&
	test -s marked &&
	make -s -n -C "$top" check CHECK_ENGINES=file LEAVE_OUT= >out 2>&1 &&
	t_words out >all &&
	make -s -n -C "$top" check CHECK_ENGINES=file LEAVE_OUT=plain-only >out 2>&1 &&
	t_words out >left &&
	# gone: the files of all that left lacks
	left_list=" " && while IFS= read -r f; do left_list="$left_list$f "; done <left &&
	while IFS= read -r f; do
		case $left_list in *" $f "*) ;; *) echo "$f" ;; esac
	done <all >gone &&
	same_set marked gone &&
	has_line tests/cli/t2000-add.t left
'

test_expect 'a lost .d file recompiles its object' '
	mv "$tree/lib/render/render.d" render.d &&
	compiled >got &&
	mv render.d "$tree/lib/render/render.d" &&
	echo lib/render/render.o >expected &&
	same_file expected got
'

test_expect 'make asks scripts/install-deps for the build group only, in a recipe, never while reading the Makefile' '
	mkdir -p fakebin &&
	printf "#!/bin/sh\nexit 1\n" >fakebin/pkg-config &&
	printf "#!/bin/sh\necho \"\$*\" >>\"%s\"\n" "$T/asked" >"$tree/scripts/install-deps" &&
	chmod +x fakebin/pkg-config "$tree/scripts/install-deps" &&
	PATH=$T/fakebin:$PATH make --no-print-directory -C "$tree" -n >log 2>&1 &&
	test ! -e asked &&
	PATH=$T/fakebin:$PATH make -s --no-print-directory -C "$tree" >log 2>&1 &&
	echo build >expected &&
	same_file expected asked
'

test_expect 'the fuzz harnesses are every fuzz/fuzz_NAME.c, none named by hand' '
	cp "$tree/fuzz/fuzz_time.c" "$tree/fuzz/fuzz_newone.c" &&
	make -s -n --no-print-directory -C "$tree" fuzz >log 2>&1 &&
	holds " newone" log && holds " store" log &&
	rm "$tree/fuzz/fuzz_newone.c"
'

# scripts/install-deps against a fake package database: dpkg-query -W
# lists, as installed, every package install-deps names but those in
# $T/absent, and the versioned ones in $T/versioned (which its patterns,
# such as postgresql-[0-9]*, match), and the lines of $T/provides as they
# are (a package and what it provides); the installer only records its calls.
# The fakes are shell scripts of builtins: a process each call, no more
installer=apt
installer=$installer-get
mkdir -p "$T/pkgbin"
"$top/scripts/install-deps" --list >"$T/groups"
# universe: every name of every group's packages (A|B: both), but patterns
set -f
universe=" "
while read -r g pkgs; do
	for p in $pkgs; do
		while :; do
			q=${p%%|*}
			case $q in
			*[*[]*) ;;
			*) case $universe in *" $q "*) ;; *) universe="$universe$q " ;; esac ;;
			esac
			case $p in *"|"*) p=${p#*|} ;; *) break ;; esac
		done
	done
done <"$T/groups"
set +f
for p in $universe; do echo "$p"; done >"$T/universe"
: >"$T/versioned"
: >"$T/provides"
cat >"$T/pkgbin/dpkg-query" <<EOF
#!/bin/sh
absent="
"
while IFS= read -r p; do absent="\$absent\$p
"; done <"$T/absent"
while IFS= read -r p; do
	case \$absent in *"
\$p
"*) continue ;; esac
	printf 'ii  %s, \n' "\$p"
done <"$T/universe"
while IFS= read -r p; do printf 'ii  %s, \n' "\$p"; done <"$T/versioned"
while IFS= read -r p; do printf '%s\n' "\$p"; done <"$T/provides"
EOF
printf '#!/bin/sh\necho "$*" >>"%s"\n' "$T/installed" >"$T/pkgbin/$installer"
# deps ARGS...: runs scripts/install-deps on the fake database, as root
# (a fake id says so), the installer's calls recorded afresh
printf '#!/bin/sh\necho 0\n' >"$T/pkgbin/id"
chmod +x "$T/pkgbin/dpkg-query" "$T/pkgbin/$installer" "$T/pkgbin/id"
deps() {
	: >"$T/installed"
	PATH=$T/pkgbin:$PATH "$top/scripts/install-deps" "$@"
}

test_expect 'install-deps does nothing, silently, when all is there' '
	: >absent &&
	deps >out 2>&1 &&
	empty out &&
	empty installed
'

test_expect 'install-deps installs only what is missing, in one line saying why' '
	printf "jq\npostgresql-client\n" >absent &&
	deps >out 2>&1 &&
	echo "install-deps: installing jq for make check; postgresql-client for the PostgreSQL store'"'"'s tests" >expected &&
	same_file expected out &&
	has_line "install -y -q --no-install-recommends jq postgresql-client" installed
'

test_expect 'install-deps build asks only for the build group' '
	printf "jq\nhyperfine\n" >absent &&
	deps build >out 2>&1 &&
	empty out && empty installed &&
	printf "jq\npkg-config\n" >absent &&
	deps build >out 2>&1 &&
	echo "install-deps: installing pkg-config for building convctl" >expected &&
	same_file expected out &&
	has_line "install -y -q --no-install-recommends pkg-config" installed
'

test_expect 'install-deps --check reports and installs nothing' '
	printf "hyperfine\n" >absent &&
	fails_with 1 deps --check &&
	stderr_has "install-deps: missing: hyperfine for make bench" &&
	empty installed &&
	fails_with 2 deps nonsense
'

test_expect 'install-deps --check takes postgresql-client-NN for psql, postgresql-NN for the server' '
	printf "postgresql\npostgresql-client\n" >absent &&
	printf "postgresql-15\npostgresql-client-15\n" >versioned &&
	deps --check pg >out 2>&1 && empty out &&
	: >versioned &&
	fails_with 1 deps --check pg &&
	stderr_has "install-deps: missing: postgresql postgresql-client for" &&
	deps pg >out 2>&1 &&
	has_line "install -y -q --no-install-recommends postgresql postgresql-client" installed
'

test_expect 'install-deps takes a package another provides (npm by NodeSource'"'"'s nodejs); not one removed' '
	printf "npm\nnodejs\n" >absent &&
	printf "%s\n" "ii  nodejs, npm (= 10.2.4), nodejs-dev" "rc  jq, " >provides &&
	deps --check test >out 2>&1 && empty out &&
	printf "npm\njq\n" >absent &&
	fails_with 1 deps --check test && stderr_has "install-deps: missing: jq for make check" &&
	: >provides
'

# group_words WORDS: $want, the first name of each package of WORDS
# (A|B: A), the words as they are (no file names: set -f)
group_words() {
	want=
	set -f
	for w in $1; do want="$want${want:+ }${w%%|*}"; done
	set +f
}

test_expect 'the README lists each group of install-deps as the script has it' '
	lines_are 5 groups &&
	while read -r g pkgs; do
		g=${g%:} && group_words "$pkgs" &&
		# the README line "- `GROUP`: A, B (why)": A B
		got= && while IFS= read -r l; do
			case $l in
			"- \`$g\`: "*) ;;
			*) continue ;;
			esac
			l=${l#"- \`$g\`: "} && l=${l%%" ("*} &&
			while :; do
				case $l in
				*", "*) l="${l%%", "*} ${l#*", "}" ;;
				*) break ;;
				esac
			done
			got="$got${got:+
}$l"
		done <"$top/README.md"
		[ "$got" = "$want" ] ||
		    { echo "group $g: README has \"$got\", want \"$want\""; return 1; }
	done <groups
'

test_expect "only scripts/install-deps runs the package manager" '
	(cd "$top" && grep -rl --exclude-dir=.git --exclude-dir=build \
	    --exclude="*.o" --exclude=convctl "$installer" .) >got
	file_is ./scripts/install-deps got
'

test_done
