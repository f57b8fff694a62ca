# tests/serve-client.sh - convctl's commands for a test's shell: through
# the file's server (test-tool serve, tests/tool/serve.c), which lib.sh
# starts and names in $cv_serve, or as processes ($CONVCTL_BIN under
# $CONVCTL_WRAPPER). Sourced by lib.sh; a bash a test starts (the README's
# examples, the completions) sources it too, with cv_serve, CONVCTL_BIN and
# CONVCTL_WRAPPER in its environment. POSIX sh and bash alike: the server
# reads either's `export -p`.

# convctl ARG...: convctl's command, as a process of its own or, in make
# check, run by the test tool's server for this file (test-tool serve:
# tests/tool/serve.c, tests/README.md "convctl in one process"): with this
# shell's standard input, output and error, directory, umask and exported
# variables, its status this function's, and no process started. The
# request is the lock file the shell makes with noclobber (set -C): the
# call that cannot make it (another command holds the server: one in the
# background, say) starts a process, as does one the server says to
# (`ulimit` set, a descriptor closed). What must be a process of its own,
# to be signalled, timed out or watched in /proc, is convctl_exec's
convctl_exec() {
	$CONVCTL_WRAPPER "$CONVCTL_BIN" "$@"
}
# convctl_tool ARG...: convctl for the harness's own reading and seeding
# (store_json, store_seed): never under $CONVCTL_WRAPPER, the server's
# when there is one
convctl_tool() {
	if [ -n "${cv_serve:-}" ]; then convctl "$@"; else "$CONVCTL_BIN" "$@"; fi
}
convctl() {
	[ -n "${cv_serve:-}" ] && [ -p "$cv_serve/req" ] || {
		convctl_exec "$@"
		return
	}
	read -r cv_me cv_x </proc/self/stat	# this (sub)shell's pid
	set -C	# (each step a condition: a caller's set -e ends nothing here)
	if { printf '%s\n%s\n' "$cv_me" "$#" >"$cv_serve/lock"; } 2>/dev/null
	then cv_x=0
	else cv_x=1
	fi
	set +C
	[ "$cv_x" -eq 0 ] || {
		convctl_exec "$@"
		return
	}
	# under a case's `ulimit -f`, a request cut short (EFBIG, not the
	# signal that would end this shell): its end line missing, the
	# server says exec
	trap '' XFSZ
	{
		for cv_x; do printf '%s\n%s\n' "${#cv_x}" "$cv_x"; done
		export -p
		echo .
	} >>"$cv_serve/lock" 2>/dev/null || :
	trap - XFSZ
	echo "$cv_me" 1<>"$cv_serve/req"
	# the answer read with stdin on resp, the command's stdin on fd 7: the
	# server takes the descriptors once fd 0 is resp; the end of resp
	# before an answer is the server gone (killed: a crash answers)
	cv_st=
	while read -r cv_x cv_st; do
		[ "$cv_x" != "$cv_me" ] || break
		cv_st=
	done 7<&0 8<"$cv_serve/resp" <&8
	case $cv_st in
	exec) convctl_exec "$@" ;;
	"")
		echo "convctl: the test tool's server ended before it answered" >&2
		return 125
		;;
	*) return "$cv_st" ;;
	esac
}
