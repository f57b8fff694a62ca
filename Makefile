# convctl - keep LLM conversations on disk and script them from the shell

VERSION = 0.1.0
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man

CC ?= cc
CFLAGS ?= -O2 -g
WARNINGS = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wpointer-arith -Wformat=2 -Wno-format-nonliteral
AR ?= ar

# Building needs jansson and libcurl through pkg-config; when they are
# missing, scripts/install-deps installs them (as root) or says how.
NODEPS_GOALS = clean uninstall
ifeq ($(filter-out $(NODEPS_GOALS),$(or $(MAKECMDGOALS),all)),)
else ifneq ($(shell pkg-config --exists jansson libcurl 2>/dev/null && echo ok),ok)
$(info make: jansson or libcurl not found by pkg-config: running scripts/install-deps)
ifneq ($(shell scripts/install-deps >&2; echo $$?),0)
$(error dependencies missing; run the command above, then make again)
endif
endif
PKGS = jansson libcurl
DEP_CFLAGS = $(shell pkg-config --cflags $(PKGS))
DEP_LIBS = $(shell pkg-config --libs $(PKGS))

ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARNINGS) $(DEP_CFLAGS) $(CFLAGS)

LIB_SRC = $(wildcard lib/*.c)
CMD_SRC = $(wildcard cmd/*.c)
UNIT_SRC = $(wildcard tests/unit/*.c)
LIB_OBJ = $(LIB_SRC:.c=.o)
CMD_OBJ = $(CMD_SRC:.c=.o)
UNIT_BIN = $(UNIT_SRC:.c=)
MAN1 = $(wildcard man/*.1)
MAN5 = $(wildcard man/*.5)

all: convctl

lib/%.o: lib/%.c lib/convctl.h lib/internal.h
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

cmd/%.o: cmd/%.c cmd/cmd.h lib/convctl.h
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

lib/libconvctl.a: $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJ)

convctl: $(CMD_OBJ) lib/libconvctl.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(CMD_OBJ) lib/libconvctl.a $(DEP_LIBS)

tests/unit/%: tests/unit/%.c tests/unit/tap.h lib/libconvctl.a
	$(CC) $(ALL_CFLAGS) -Ilib $(LDFLAGS) -o $@ $< lib/libconvctl.a $(DEP_LIBS)

check: convctl $(UNIT_BIN)
	@scripts/install-deps
	@scripts/run-tests $(UNIT_BIN) tests/cli/*.t

# Robustness (tests/README.md): thousands of kills; the whole suite under
# AddressSanitizer + UBSan in its own tree, build/asan; the CLI tests under
# valgrind; libFuzzer harnesses fuzz/fuzz_NAME.c for FUZZ_SECONDS each.
CLI_TESTS = $(wildcard tests/cli/*.t)
STRESS_TRIALS ?= 2000
SAN_FLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined
SAN_ENV = ASAN_OPTIONS=detect_leaks=1:exitcode=86 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=87
VALGRIND = valgrind --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=definite,indirect -q
FUZZ_SECONDS ?= 60
# one name a harness; the migrate format parsers and the LLM reply parser
# join this list as fuzz/fuzz_migrate_FORMAT.c and fuzz/fuzz_llm_reply.c
FUZZ_HARNESSES = store settings time

stress: convctl
	@CRASH_TRIALS=$(STRESS_TRIALS) scripts/run-tests tests/cli/crash.t \
	    tests/cli/concurrency.t

check-asan:
	rm -rf build/asan
	mkdir -p build/asan
	tar --exclude=./build --exclude=./.git -cf - . | tar -C build/asan -xf -
	$(MAKE) -C build/asan clean
	$(SAN_ENV) $(MAKE) -C build/asan CC=clang CFLAGS="$(SAN_FLAGS)" check

check-valgrind: convctl
	@CONVCTL_WRAPPER="$(VALGRIND)" scripts/run-tests $(CLI_TESTS)

fuzz:
	@FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz $(FUZZ_HARNESSES)

demo: convctl
	@scripts/demo ./convctl

install: convctl
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5
	install -m 0755 convctl $(DESTDIR)$(BINDIR)/convctl
	install -m 0644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 $(MAN5) $(DESTDIR)$(MANDIR)/man5/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/convctl
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1)))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(MAN5)))

clean:
	rm -f convctl $(LIB_OBJ) $(CMD_OBJ) lib/libconvctl.a $(UNIT_BIN)
	rm -rf build

.PHONY: all check demo install uninstall clean stress check-asan check-valgrind fuzz
