# convctl - keep LLM conversations on disk and script them from the shell

VERSION = 0.1.0
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d

CC ?= cc
CFLAGS ?= -O2 -g
WARNINGS = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wpointer-arith -Wformat=2 -Wno-format-nonliteral
AR ?= ar

# Building needs jansson, libcurl and libpq through pkg-config. Nothing is
# installed while make reads this file: before the first compile, the
# recipe of build-deps runs `scripts/install-deps build`, which installs
# what is missing (as root) or says how, when pkg-config cannot find them.
# `make check` and `make bench` install their tools too, in their recipes.
# Both are asked of pkg-config once, when first used (a compile's recipe,
# after build-deps), not when make reads this file nor at every compile
PKGS = jansson libcurl libpq sqlite3
DEP_CFLAGS = $(eval DEP_CFLAGS := $$(shell pkg-config --cflags $$(PKGS)))$(DEP_CFLAGS)
# libcurl and libpq are not linked: lib/summary/llm.c opens libcurl with dlopen (in
# libc since glibc 2.34) on the first HTTP request, lib/store/pg-libpq.c libpq on the
# first PostgreSQL store, so no other command pays for loading them
DEP_LIBS = $(eval DEP_LIBS := $$(shell pkg-config --libs jansson sqlite3))$(DEP_LIBS)

ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARNINGS) $(DEP_CFLAGS) $(CFLAGS)

# What the system has that not every system has (Linux's splice,
# copy_file_range, O_TMPFILE, ...) is found by scripts/configure, compiling a
# line that uses each, into build/config.h, which only lib/base/os.c reads.
# PORTABLE=1 assumes only what POSIX.1-2008, macOS and FreeBSD all have
# (README, "Where it runs"). It is made again when the compiler, its flags or
# PORTABLE change: build/config.flags holds them, rewritten while make reads
# this file only when they differ, so `make -n` on a built tree compiles
# nothing; and never for goals that build nothing in this tree (deb builds
# in a copy: `make deb CC=false` must leave the tree's convctl alone).
.DEFAULT_GOAL := all
CONFIG_FLAGS := $(CC) $(CFLAGS) $(if $(filter 1,$(PORTABLE)),--portable)
NO_BUILD_GOALS = deb clean uninstall
ifneq ($(filter-out $(NO_BUILD_GOALS),$(or $(MAKECMDGOALS),all)),)
ifneq ($(CONFIG_FLAGS),$(shell cat build/config.flags 2>/dev/null))
$(shell mkdir -p build && echo '$(CONFIG_FLAGS)' >build/config.flags)
endif
endif
build/config.flags:
build/config.h: build/config.flags scripts/configure
	scripts/configure $(if $(filter 1,$(PORTABLE)),--portable) $(CC) \
	    $(CFLAGS) >$@.new && mv $@.new $@
lib/base/os.o: build/config.h
lib/base/os.o: ALL_CFLAGS += -Ibuild

LIB_SRC = $(wildcard lib/*.c lib/*/*.c)
CMD_SRC = $(wildcard cmd/*.c)
UNIT_SRC = $(wildcard tests/unit/*.c)
LIB_OBJ = $(LIB_SRC:.c=.o)
CMD_OBJ = $(CMD_SRC:.c=.o)
UNIT_OBJ = $(UNIT_SRC:.c=.o)
UNIT_BIN = $(UNIT_SRC:.c=)
# the test tool (tests/README.md): tests/tool/*.c and cmd/ (cmd/main.c with
# its main renamed convctl_main) over lib/, checks run in one process
TOOL_SRC = $(wildcard tests/tool/*.c)
TOOL_OBJ = $(TOOL_SRC:.c=.o) tests/tool/cmd-main.o
TOOL_BIN = tests/tool/test-tool
MAN1 = $(wildcard man/*.1)
MAN5 = $(wildcard man/*.5)

all: convctl

build-deps:
	@pkg-config --exists jansson libcurl libpq sqlite3 2>/dev/null || \
	    scripts/install-deps build

# Header dependencies: each compile writes what it included to a .d file
# beside its object (-MMD -MP), read back below, so editing a header
# recompiles exactly what includes it. A missing .d (a first build, an
# object from before) counts as changed, so that object is rebuilt and gets one.
# clang writes the .d after the object, which would then look out of date
# for ever: the object is touched last.
DEPFLAGS = -MMD -MP
# CPPFLAGS: the preprocessor's (dpkg-buildflags puts -D_FORTIFY_SOURCE there)
COMPILE = $(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(DEPFLAGS)

lib/%.o: lib/%.c lib/%.d
	$(COMPILE) -c -o $@ $< && touch $@

cmd/%.o: cmd/%.c cmd/%.d
	$(COMPILE) -c -o $@ $< && touch $@

lib/libconvctl.a: $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJ)

convctl: $(CMD_OBJ) lib/libconvctl.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(CMD_OBJ) lib/libconvctl.a $(DEP_LIBS)

$(UNIT_OBJ): tests/unit/%.o: tests/unit/%.c tests/unit/%.d
	$(COMPILE) -Ilib -c -o $@ $< && touch $@

$(UNIT_BIN): tests/unit/%: tests/unit/%.o lib/libconvctl.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< lib/libconvctl.a $(DEP_LIBS)

$(TOOL_SRC:.c=.o): tests/tool/%.o: tests/tool/%.c tests/tool/%.d
	$(COMPILE) -Ilib -c -o $@ $< && touch $@

tests/tool/cmd-main.o: cmd/main.c tests/tool/cmd-main.d
	$(COMPILE) -Dmain=convctl_main -include tests/tool/convctl-main.h \
	    -c -o $@ cmd/main.c && touch $@

$(TOOL_BIN): $(TOOL_OBJ) $(filter-out cmd/main.o,$(CMD_OBJ)) lib/libconvctl.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(TOOL_OBJ) \
	    $(filter-out cmd/main.o,$(CMD_OBJ)) lib/libconvctl.a $(DEP_LIBS)

# the libFuzzer harnesses, fuzz/fuzz_NAME.c (`make fuzz`); `make check`
# replays their seeds and past crashes, tests/fuzz-corpus/NAME/, through
# build/replay/NAME: the harness linked with fuzz/replay.c instead of libFuzzer
FUZZ_HARNESSES = $(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c))
REPLAY_BIN = $(FUZZ_HARNESSES:%=build/replay/%)
REPLAY_OBJ = $(FUZZ_HARNESSES:%=build/replay/fuzz_%.o) build/replay/replay.o

$(REPLAY_OBJ): build/replay/%.o: fuzz/%.c build/replay/%.d
	@mkdir -p build/replay
	$(COMPILE) -c -o $@ $< && touch $@

$(REPLAY_BIN): build/replay/%: build/replay/fuzz_%.o build/replay/replay.o \
    lib/libconvctl.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< build/replay/replay.o \
	    lib/libconvctl.a $(DEP_LIBS)

# every compile after build-deps (order only: it never makes one out of date)
$(LIB_OBJ) $(CMD_OBJ) $(UNIT_OBJ) $(REPLAY_OBJ) $(TOOL_OBJ): | build-deps

DEP_FILES = $(LIB_OBJ:.o=.d) $(CMD_OBJ:.o=.d) $(UNIT_OBJ:.o=.d) \
	$(REPLAY_OBJ:.o=.d) $(TOOL_OBJ:.o=.d)
$(DEP_FILES):
include $(wildcard $(DEP_FILES))

# Two tiers, one runner (scripts/run-tests; tests/README.md says which to
# run when):
#   make check      every unit test, every CLI file on the file engine but
#                   those with a line "# check: all-only", on PostgreSQL
#                   the files with a line "# check: pg" and on SQLite those
#                   with "# check: sqlite" (each engine's contract), the
#                   randomized suites at quick counts: what to run before a
#                   commit (about two minutes)
#   make check-all  every unit test, every CLI file on all three engines, at
#                   full counts (TEST_FULL=1): what CI runs
# A new tests/cli file needs nothing more to be in all; one that starts
# with file_store_only never runs on pg or sqlite. The pg files share one cluster,
# which tests/with-pg starts for the run. The files are named by family, as
# git's t/: tNNNN-NAME.t, t0 the harness and build, t1 the file store, t2
# the commands, t3 search, t4 summaries, t5 run, t6 migrate, t7 mcp, t8
# the database engines. TESTS="add t2020-end t6" runs only
# tests/cli/t2000-add.t, t2020-end.t and the t6 family (a file by its
# name, whole or without its number, or a family by its number's start;
# no unit test) on each engine of CHECK_ENGINES, in either tier.
CHECK_ENGINES ?= file pg sqlite
CLI_TESTS = $(wildcard tests/cli/*.t)
# test_files WORD: the files TESTS's WORD names
test_files = $(sort $(wildcard tests/cli/$(1).t \
	tests/cli/t[0-9][0-9][0-9][0-9]-$(1).t $(if $(filter t%,$(1)), \
	tests/cli/$(1)[0-9]*-*.t)))
CHECK_CLI = $(if $(TESTS),$(foreach w,$(TESTS),$(call \
	test_files,$(w))),$(CLI_TESTS))
# MARKS: every file's markers, FILE@WORD, read once a run and only when
# asked (scripts/test-marks); marked WORD[,FILES]: the files (of
# CHECK_CLI) with a line "# check: ... WORD ... (why)"; PG_CLI: those that
# do not start with file_store_only
MARKS = $(eval MARKS := $$(shell scripts/test-marks))$(MARKS)
marked = $(filter $(or $(2),$(CHECK_CLI)),$(patsubst %@$(1),%,$(filter \
	%@$(1),$(MARKS))))
PG_CLI = $(filter-out $(call marked,file_store_only),$(CHECK_CLI))
# LEAVE_OUT=WORD...: make check leaves out the files marked so too (make
# check-asan and check-portable leave out plain-only: those check the tree,
# not the build)
check: CHECK_FILE = $(if $(TESTS),$(CHECK_CLI),$(filter-out \
	$(foreach w,all-only $(LEAVE_OUT),$(call marked,$(w))),$(CHECK_CLI)))
check: CHECK_PG = $(if $(TESTS),$(PG_CLI),$(filter $(call marked,pg),$(PG_CLI)))
check: CHECK_SQLITE = $(if $(TESTS),$(PG_CLI),$(filter $(call \
	marked,sqlite),$(PG_CLI)))
check-all: CHECK_FILE = $(CHECK_CLI)
check-all: CHECK_PG = $(PG_CLI)
check-all: CHECK_SQLITE = $(PG_CLI)
check-all: export TEST_FULL = 1
CHECK_ALL = $(if $(filter file,$(CHECK_ENGINES)),$(CHECK_FILE)) \
	$(if $(filter pg,$(CHECK_ENGINES)),$(addprefix pg:,$(CHECK_PG))) \
	$(if $(filter sqlite,$(CHECK_ENGINES)),$(addprefix sqlite:,$(CHECK_SQLITE)))
# the slowest files, on either engine, start first, longest first, so that
# the short ones fill the processors at the end: tests/times, measured
# (scripts/test-times, make test-times), not a list kept by hand; only an
# order: a file not named there runs all the same, after those named
SLOW_TESTS := $(if $(wildcard tests/times),$(shell sed -n \
	's/^[0-9][0-9]*	//p' tests/times))
CHECK_TESTS = $(filter $(CHECK_ALL),$(SLOW_TESTS)) \
	$(if $(TESTS),,$(UNIT_BIN)) $(filter-out $(SLOW_TESTS),$(CHECK_ALL))
check check-all: convctl $(UNIT_BIN) $(REPLAY_BIN) $(TOOL_BIN)
	$(foreach w,$(TESTS),$(if $(call test_files,$(w)),,$(error \
	    TESTS: no such file or family: $(w))))
	@scripts/install-deps
	@$(if $(filter pg:%,$(CHECK_TESTS)),tests/with-pg) scripts/run-tests \
	    $(CHECK_TESTS)

# Robustness (tests/README.md): thousands of kills; make check's suite under
# AddressSanitizer + UBSan in its own tree, build/asan; under valgrind, the
# unit tests and the CLI files with a line "# check: valgrind", chosen so
# that every lib/ file runs under it; libFuzzer harnesses fuzz/fuzz_NAME.c
# for FUZZ_SECONDS each.
STRESS_TRIALS ?= 2000
SAN_FLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined
SAN_ENV = ASAN_OPTIONS=detect_leaks=1:exitcode=86 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=87
VALGRIND = valgrind --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=definite,indirect -q
FUZZ_SECONDS ?= 60

# t1070-crash.t, t1080-concurrency.t and t1030-badinput.t on more inputs than make check-all
stress: convctl
	@CRASH_TRIALS=$(STRESS_TRIALS) CONCURRENCY_ADDS=200 BADINPUT_FULL=1 \
	    scripts/run-tests tests/cli/t1070-crash.t tests/cli/t1080-concurrency.t \
	    tests/cli/t1030-badinput.t

# a convctl under ASan with leak checking takes ~70 ms to start and exit,
# ten times the plain build: t1030-badinput.t tries one bad store in 12 and one
# bad source in 24 here (check-all tries all on the plain build, and the
# fuzzers feed the same parsers under ASan)
check-asan:
	rm -rf build/asan
	mkdir -p build/asan
	tar --exclude=./build --exclude=./.git -cf - . | tar -C build/asan -xf -
	$(MAKE) -C build/asan clean
	$(SAN_ENV) BADINPUT_STRIDE=12 SOURCES_STRIDE=24 \
	    $(MAKE) -C build/asan CC=clang CFLAGS="$(SAN_FLAGS)" \
	    CHECK_ENGINES=file LEAVE_OUT=plain-only check

# the portable build (README, "Where it runs") in a tree of its own,
# build/portable, and its CLI suite on the file engine
build/portable/convctl: FORCE
	mkdir -p build/portable
	tar --exclude=./build --exclude=./.git --exclude='*.o' --exclude='*.d' \
	    --exclude=./convctl -cf - . | tar -C build/portable -xf -
	$(MAKE) -C build/portable PORTABLE=1 convctl

check-portable: build/portable/convctl
	$(MAKE) -C build/portable PORTABLE=1 CHECK_ENGINES=file \
	    LEAVE_OUT=plain-only check

check-valgrind: convctl $(UNIT_BIN) $(REPLAY_BIN) $(TOOL_BIN)
	@CONVCTL_WRAPPER="$(VALGRIND)" scripts/run-tests \
	    $(filter $(call marked,valgrind,$(CLI_TESTS)),$(SLOW_TESTS)) $(UNIT_BIN) \
	    $(filter-out $(SLOW_TESTS),$(call marked,valgrind,$(CLI_TESTS)))

# tests/times anew from a whole check-all's files' times
test-times: convctl $(UNIT_BIN) $(REPLAY_BIN) $(TOOL_BIN)
	mkdir -p build && $(MAKE) check-all | tee build/check-all.log
	scripts/test-times build/check-all.log

fuzz:
	@FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz $(FUZZ_HARNESSES)

# built quietly, as make -s builds (warnings and errors still shown), so the
# demo's transcript is what is read
demo:
	@$(MAKE) -s convctl
	@scripts/demo ./convctl

# the benchmark: stores of 100, 1000 and 5000 conversations, convctl against
# the write and read floors, jq and python3; the table goes to bench/out/
bench: convctl bench/floor bench/pgfloor bench/sqlitefloor \
	build/portable/convctl
	@scripts/install-deps bench pg
	@scripts/bench
	@scripts/bench-portable
	@scripts/bench-index
	@scripts/bench-pg
	@scripts/bench-sqlite

bench/floor: bench/floor.c
	$(CC) -std=c11 -D_GNU_SOURCE $(WARNINGS) -O2 -o $@ bench/floor.c

# the same on SQLite stores of 1000 and 100000 conversations
# (BENCH_SQLITE_N), against a bare libsqlite3 client's durable one-row
# commit and read of the same rows, and the sqlite3 shell's import
bench-sqlite: convctl bench/sqlitefloor
	@scripts/install-deps bench
	@scripts/bench-sqlite

bench/sqlitefloor: bench/sqlitefloor.c
	$(CC) -std=c11 $(WARNINGS) -O2 $(shell pkg-config --cflags sqlite3) \
	    -o $@ bench/sqlitefloor.c $(shell pkg-config --libs sqlite3)

# the same on a PostgreSQL store of 20000 conversations (BENCH_PG_N), against
# a bare libpq client's connect and select 1, and psql's \copy
bench-pg: convctl bench/pgfloor
	@scripts/install-deps bench pg
	@scripts/bench-pg

bench/pgfloor: bench/pgfloor.c
	$(CC) -std=c11 $(WARNINGS) -O2 $(shell pkg-config --cflags libpq) \
	    -o $@ bench/pgfloor.c $(shell pkg-config --libs libpq)

# every page, warnings included; the style notes (pages not installed yet) are not
lint:
	mandoc -Tlint -Wwarning man/*.1 man/*.5

# The command is the interface: lib/ is convctl's own, its header and its
# static library are not installed (README, "How the code is laid out").
install: convctl
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(BASHCOMPDIR) \
	    $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	install -m 0755 convctl $(DESTDIR)$(BINDIR)/convctl
	$(if $(MAN1),install -m 0644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/)
	$(if $(MAN5),install -m 0644 $(MAN5) $(DESTDIR)$(MANDIR)/man5/)
	install -m 0644 completions/convctl.bash $(DESTDIR)$(BASHCOMPDIR)/convctl
	install -m 0644 completions/_convctl $(DESTDIR)$(ZSHCOMPDIR)/_convctl
	install -m 0644 completions/convctl.fish $(DESTDIR)$(FISHCOMPDIR)/convctl.fish

# The Debian package (debian/, README "Build and install"): dpkg-buildpackage
# cleans the tree it builds and writes beside it, so it builds a copy of this
# tree in DEB_BUILD (under build/ or outside the tree); the .deb lands in
# DEB_OUT. Variables given to this make (CC=clang, CFLAGS for ASan) stay
# out: the package is built the way debian/rules says, with dpkg-buildflags'
# hardening flags.
DEB_BUILD ?= build/deb
DEB_OUT ?= .
deb:
	@scripts/install-deps deb
	rm -rf $(DEB_BUILD)/convctl-$(VERSION)
	rm -f $(DEB_BUILD)/convctl_$(VERSION)_* $(DEB_BUILD)/convctl-dbgsym_$(VERSION)_*
	mkdir -p $(DEB_BUILD)/convctl-$(VERSION)
	tar --exclude=./build --exclude=./.git --exclude='./convctl_*' -cf - . | \
	    tar -C $(DEB_BUILD)/convctl-$(VERSION) -xf -
	cd $(DEB_BUILD)/convctl-$(VERSION) && \
	    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CC -u CFLAGS -u CPPFLAGS \
	    -u LDFLAGS dpkg-buildpackage -us -uc -b
	deb=convctl_$(VERSION)_$$(dpkg --print-architecture).deb && \
	    { [ $(DEB_BUILD)/$$deb -ef $(DEB_OUT)/$$deb ] || \
	    cp $(DEB_BUILD)/$$deb $(DEB_OUT)/; }

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/convctl
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1)))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(MAN5)))
	rm -f $(DESTDIR)$(BASHCOMPDIR)/convctl $(DESTDIR)$(ZSHCOMPDIR)/_convctl
	rm -f $(DESTDIR)$(FISHCOMPDIR)/convctl.fish

clean:
	rm -f convctl $(LIB_OBJ) $(CMD_OBJ) lib/libconvctl.a $(UNIT_BIN)
	rm -f $(UNIT_OBJ) $(DEP_FILES) $(TOOL_BIN) $(TOOL_OBJ)
	rm -f bench/floor bench/pgfloor bench/sqlitefloor
	rm -rf build
	@# what make deb leaves, and dpkg-buildpackage run here by hand
	rm -f convctl_*.deb debian/files debian/*.substvars \
	    debian/*.debhelper debian/*.debhelper.log debian/debhelper-build-stamp
	rm -rf debian/convctl debian/.debhelper debian/tmp

FORCE:

.PHONY: FORCE all build-deps check check-all demo lint test-times bench bench-pg bench-sqlite install \
	uninstall clean stress check-asan check-valgrind check-portable fuzz deb
