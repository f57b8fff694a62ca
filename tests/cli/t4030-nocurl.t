#!/bin/sh
# libcurl is opened by the first HTTP request, not at start-up: commands that
# need no HTTP never load it, and without it a summary fails cleanly
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

test_expect 'convctl does not load libcurl at start-up' '
	LD_TRACE_LOADED_OBJECTS=1 "$CONVCTL_BIN" >libs &&
	holds libc.so libs &&
	lacks libcurl libs
'

# a preloaded dlopen that sends libcurl to a path that does not exist: the
# error is the dynamic loader's own
cat >"$T/nocurl.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>

void *
dlopen(const char *name, int flags)
{
	void *(*real)(const char *, int);

	*(void **)&real = dlsym(RTLD_NEXT, "dlopen");
	if (name != NULL && strstr(name, "libcurl") != NULL)
		name = "/nonexistent/libcurl.so.4";
	return real(name, flags);
}
C
${CC:-cc} -shared -fPIC -o "$T/nocurl.so" "$T/nocurl.c" || exit 1
nocurl="$T/nocurl.so"
gone="cannot load libcurl: /nonexistent/libcurl.so.4: cannot open shared object file"
export CONVCTL_API_BASE=http://127.0.0.1:9/v1

test_expect 'without libcurl, add, prompt, recent and an offline end work' '
	export LD_PRELOAD=$nocurl &&
	convctl add "hello there" >id && read -r id <id &&
	convctl prompt >out && holds "hello there" out &&
	convctl end --summarizer offline >/dev/null &&
	convctl recent >out && line_like "$id	*" out
'

test_expect 'without libcurl, end ends the conversation, says why and exits 3' '
	convctl add "what is the capital of France?" >/dev/null &&
	LD_PRELOAD=$nocurl fails_with 3 convctl end &&
	stderr_has "$gone" &&
	stderr_has "summary is pending" &&
	store_jq "$CONVCTL_STORE" -e ".conversations[-1] | .endedAt != null and .summary == null" \
	    >/dev/null
'

test_expect 'without libcurl, summarize --pending fails and changes nothing' '
	snapshot "$CONVCTL_STORE" &&
	LD_PRELOAD=$nocurl fails_with 1 convctl summarize --pending &&
	stderr_has "$gone" &&
	unchanged "$CONVCTL_STORE"
'
test_done
