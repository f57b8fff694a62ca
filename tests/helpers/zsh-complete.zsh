# zsh-complete.zsh COMPDIR OUT LINE...: what zsh's completion offers for
# each LINE (the cursor at its end), typed in one pseudo-terminal: each
# candidate compadd is given, a line of OUT (a candidate may come twice);
# with several LINEs, those of the I-th go to OUT.I. A LINE "export
# NAME=VALUE" is run as a command, not completed (its OUT.I stays empty):
# the completions after it see NAME's new value. With cv_serve and
# zc_client (tests/serve-client.sh) in the environment, the completion's
# `command convctl` is that file's convctl (the test file's server), in
# zsh's sh emulation (its export -p as the server reads it)
zmodload zsh/zpty || exit 2
compdir=$1 out=$2
shift 2
zpty z zsh -f -i
zpty -w z "PS1=''; fpath=($compdir \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z '[[ -z $cv_serve || -z $zc_client ]] || { emulate sh -c ". \"\$zc_client\"" && command() { if [[ $1 == convctl ]]; then shift && convctl "$@"; else disable -f command; command "$@"; local r=$?; enable -f command; return $r; fi; }; }'
zpty -w z "compadd() { local -a __h; builtin compadd -A __h \"\$@\"; print -rl -- \$__h >>\$__out; builtin compadd \"\$@\"; }"
# each mark printed as ${:-X}Y, so that the terminal's echo of the command
# line is not taken for it. What is typed may reach the terminal before zle
# has put it in raw mode, while the kernel's line discipline still reads
# ^U as "kill the line": so the line is cleared with emacs's ^A^K, which
# the line discipline passes through, never with ^U.
zpty -w z "bindkey -e; zstyle ':completion:*' menu no; print -r -- \${:-REA}DY"
zpty -r z got '*READY*' || exit 2
i=0
for line; do
	i=$((i + 1))
	f=$out
	[ $# -eq 1 ] || f=$out.$i
	: >>$f
	if [[ $line == export\ * ]]; then
		zpty -w z "$line; print -r -- \${:-SE}T$i"
		zpty -r z got "*SET$i*" || exit 2
		continue
	fi
	zpty -w z "__out=${(q)f}; print -r -- \${:-SE}T$i"
	zpty -r z got "*SET$i*" || exit 2
	zpty -n -w z "$line"$'\t'
	zpty -w z $'\C-a\C-k'"print -r -- \${:-DO}NE$i"
	zpty -r z got "*DONE$i*" || exit 2
done
zpty -d z
