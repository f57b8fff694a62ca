# zsh-complete.zsh COMPDIR OUT LINE: what zsh's completion offers for LINE
# (the cursor at its end), typed in a pseudo-terminal: each candidate
# compadd is given, a line of OUT (a candidate may come twice)
zmodload zsh/zpty || exit 2
compdir=$1 out=$2 line=$3
zpty z zsh -f -i
zpty -w z "PS1=''; fpath=($compdir \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z "compadd() { local -a __h; builtin compadd -A __h \"\$@\"; print -rl -- \$__h >>$out; builtin compadd \"\$@\"; }"
zpty -w z "zstyle ':completion:*' menu no; print -r -- READY"
zpty -r z got '*READY*' || exit 2
zpty -n -w z "$line"$'\t'
zpty -w z $'\C-u'"print -r -- DONE"
zpty -r z got '*DONE*' || exit 2
zpty -d z
