#!/bin/sh
# options: each command's table is what it accepts, spelled out in full
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

CONVCTL_NOW=2026-02-04T10:00:00Z convctl add 'first' >/dev/null
CONVCTL_NOW=2026-02-04T10:01:00Z convctl end --no-summary >/dev/null
CONVCTL_NOW=2026-02-04T12:00:00Z convctl add 'second, active' >/dev/null
a=conv-1770199200000

test_expect 'a long option is never abbreviated: show --id is not --idle-timeout' '
	fails_with 2 convctl show --id $a &&
	stderr_has "show: unknown option '\''--id'\''" &&
	test ! -s "$T/stdout" &&
	fails_with 2 convctl recent --js &&
	stderr_has "unknown option '\''--js'\''" &&
	fails_with 2 convctl prompt --form text &&
	fails_with 2 convctl summarize --id $a &&
	fails_with 2 convctl add --idle 5 hello
'

test_expect 'an option another command has is unknown here' '
	fails_with 2 convctl recent --format json &&
	stderr_has "recent: unknown option '\''--format'\''" &&
	fails_with 2 convctl show --dry-run
'

test_expect '-f is --format everywhere; delete takes --force only in full' '
	keep_store "$CONVCTL_STORE" &&
	fails_with 2 convctl delete -f $a &&
	stderr_has "delete: unknown option '\''-f'\''" &&
	store_kept "$CONVCTL_STORE" &&
	convctl show -f json $a >j && jq_is j -r .id "$a"
'

test_expect 'values: in the same word, the next word, or after =' '
	convctl recent -n1 >one && lines_are 1 one &&
	convctl recent -n 1 >two && same_file one two &&
	convctl show --format=json $a >j1 && convctl show -fjson $a >j2 &&
	jq_is j1 -r .id "$a" && same_file j1 j2
'

test_expect 'short options cluster, and a value ends the cluster' '
	convctl search -En1 "fir.t" >out &&
	holds "first" out && lines_are 1 out
'

test_expect 'a value that is missing or not wanted is a usage error' '
	fails_with 2 convctl recent -n && stderr_has "option '\''-n'\'' needs a value" &&
	fails_with 2 convctl show --format && stderr_has "option '\''--format'\'' needs a value" &&
	fails_with 2 convctl recent --json=yes &&
	stderr_has "option '\''--json'\'' takes no value"
'

test_expect 'options may follow operands, and -- ends the options' '
	convctl delete $a --dry-run >out && file_is $a out &&
	CONVCTL_NOW=2026-02-04T12:00:01Z convctl add -- --not-an-option -n >/dev/null &&
	convctl prompt --last 1 >out && has_line "User: --not-an-option -n" out
'

test_expect 'a mistyped command or long option gets the closest as a suggestion' '
	keep_store "$CONVCTL_STORE" &&
	fails_with 2 convctl ad hello &&
	echo "convctl: unknown command '\''ad'\''; did you mean '\''add'\''?" >want &&
	same_file want "$T/err" &&
	fails_with 2 convctl shwo && stderr_has "unknown command '\''shwo'\''; did you mean '\''show'\''?" &&
	fails_with 2 convctl help recnet && stderr_has "help: unknown command '\''recnet'\''; did you mean '\''recent'\''?" &&
	fails_with 2 convctl frobnicate &&
	echo "convctl: unknown command '\''frobnicate'\''; see '\''convctl --help'\''" >want &&
	same_file want "$T/err" &&
	fails_with 2 convctl recent --jsno &&
	printf "%s\n" "convctl: recent: unknown option '\''--jsno'\''; did you mean '\''--json'\''?" \
	    "usage: convctl recent [-n N] [--json] [--tag TAG]" >want && same_file want "$T/err" &&
	fails_with 2 convctl add --idle-timout=3 hi &&
	stderr_has "add: unknown option '\''--idle-timout'\''; did you mean '\''--idle-timeout'\''?" &&
	fails_with 2 convctl --stroe x recent &&
	stderr_has "convctl: unknown option '\''--stroe'\''; did you mean '\''--store'\''?" &&
	fails_with 2 convctl prune --dryrun &&
	stderr_has "prune: unknown option '\''--dryrun'\''; did you mean '\''--dry-run'\''?" &&
	fails_with 2 convctl show --frobnicate &&
	stderr_has "show: unknown option '\''--frobnicate'\''" && lacks "did you mean" "$T/err" &&
	store_kept "$CONVCTL_STORE"
'

test_expect 'global options before the command are read the same way' '
	convctl --store "$CONVCTL_STORE" recent -n 1 >out && test -s out &&
	fails_with 2 convctl --sto "$CONVCTL_STORE" recent &&
	stderr_has "unknown option '\''--sto'\''" &&
	fails_with 2 convctl --wait &&
	stderr_has "option '\''--wait'\'' needs a value"
'

# every command, every common option taking a number, before and after
# the command's name: in the test tool (the one-line error and exit status
# of a process: the cases below)
test_expect 'a malformed number in any option is exit 2 naming option and value' '
	keep_store "$CONVCTL_STORE" &&
	for cmd in add end show recent prompt prune summarize search delete migrate config; do
		for opt in "--wait abc" "--idle-timeout abc" "--max-conversations 1x" "--idle-timeout -1"; do
			o=${opt%% *} v=${opt#* }
			printf "2 %s %s %s\n\t%s\n\t%s\n\t%s\n" "$cmd" "$o" "$v" \
			    "convctl: $cmd: $o expects a" " from 0 to " ", not '\''$v'\''"
			printf "2 %s %s %s\n\t%s\n" "$o" "$v" "$cmd" "convctl: $cmd: $o expects a"
		done
	done >numbers &&
	for v in abc -1 1e400; do
		printf "2 add --wait %s hi\n\t%s\n" "$v" \
		    "convctl: add: --wait expects a number from 0 to 86400, not '\''$v'\''"
	done >>numbers &&
	for bad in "prompt --last abc" "prompt --max-tokens 1e3" "prune --max abc" \
	    "prune --older-than 3x" "search -n x first" "recent -n 99999999999999999999"; do
		o=${bad#* } && v=${o#* } && o=${o%% *}
		printf "2 %s\n\t%s expects\n\t'\''%s'\''\n" "$bad" "$o" "${v%% *}"
	done >>numbers &&
	commands_table numbers &&
	fails_with 2 convctl show --wait inf &&
	line_is 1 "convctl: show: --wait expects a number from 0 to 86400, not '\''inf'\''" "$T/err" &&
	fails_with 2 convctl --idle-timeout -1 end &&
	stderr_has "convctl: end: --idle-timeout expects a" &&
	store_kept "$CONVCTL_STORE"
'

test_expect 'one wording for a bad number; a common option'\''s error shows the common options' '
	fails_with 2 convctl recent -n abc &&
	printf "%s\n" "convctl: recent: -n expects a whole number from 0 to 100000000, not '\''abc'\''" \
	    "usage: convctl recent [-n N] [--json] [--tag TAG]" >want && same_file want "$T/err" &&
	fails_with 2 convctl prune --max -1 &&
	stderr_has "prune: --max expects a whole number from 0 to 100000000, not '\''-1'\''" &&
	fails_with 2 convctl recent --wait -1 &&
	# the two lines, then the common options as -h gives them, from its
	# line "common options:" on, read by the shell
	printf "%s\n" "convctl: recent: --wait expects a number from 0 to 86400, not '\''-1'\''" \
	    "usage: convctl recent [-n N] [--json] [--tag TAG]" >want &&
	convctl recent -h >help && on= wait= store= &&
	while IFS= read -r l; do
		case $l in "common options:"*) on=1 ;; esac
		[ -n "$on" ] || continue
		printf "%s\n" "$l"
		case ${l#"${l%%[! ]*}"} in "--wait SECONDS"*) wait=1 ;; esac
		case $l in "  -s, --store PATH"*) store=1 ;; esac
	done <help >>want &&
	same_file want "$T/err" && test -n "$on" && test -n "$wait" && test -n "$store"
'

test_expect 'an ID is an operand: --id is no option of any command' '
	for cmd in show summarize delete end prompt add; do
		printf "2 %s --id %s\n\t%s\n" $cmd $a "$cmd: unknown option '\''--id'\''"
	done >ids &&
	commands_table ids
'

# names_in_help CMD OPTION BAD-ARGS...: each name the library lists when
# CMD refuses BAD-ARGS ("expected a, b or c") is in the -h text of OPTION;
# the help texts list them by hand, the errors from the enums' tables. The
# shell reads both (no sed, tr, awk nor grep): the list from the last
# "(expected " of a line that ends in ")", the option's text from its line
# (led by a blank, holding "--OPTION ") to the next line led by 1 to 6
# blanks and a "-", or an empty one
names_in_help() {
	c=$1 o=$2 && shift 2 &&
	fails_with 2 convctl "$c" "$@" &&
	names= &&
	while IFS= read -r l; do
		case $l in *"(expected "*")") ;; *) continue ;; esac
		l=${l##*"(expected "} && names="$names ${l%")"}"
	done <"$T/err" &&
	test -n "$names" || { echo "$c: no list in:"; cat "$T/err"; return 1; }
	convctl "$c" -h >"$T/help" && help= on= &&
	while IFS= read -r l; do
		case $l in " "*"--$o "*) on=1 help="$help$l
" && continue ;; esac
		[ -n "$on" ] || continue
		case $l in "" | " -"* | "  -"* | "   -"* | "    -"* | "     -"* | "      -"*) break ;; esac
		help="$help$l
"
	done <"$T/help" &&
	ifs=$IFS && IFS=", " && set -- $names && IFS=$ifs &&
	for n; do
		[ "$n" != or ] || continue
		word_in "$n" "$help" || { echo "$c --$o -h lacks $n: $help"; return 1; }
	done
}

# word_in WORD TEXT: TEXT holds WORD with no letter, digit or _ either side,
# as grep -w finds it
word_in() {
	wi_t=$2 wi_pre=
	while :; do
		case $wi_t in *"$1"*) ;; *) return 1 ;; esac
		wi_pre=$wi_pre${wi_t%%"$1"*} wi_t=${wi_t#*"$1"}
		case $wi_pre in
		*[A-Za-z0-9_]) ;;
		*) case $wi_t in [A-Za-z0-9_]*) ;; *) return 0 ;; esac ;;
		esac
		wi_pre=$wi_pre$1
	done
}

test_expect 'the names an option takes, listed by -h, are all the table has' '
	names_in_help show format -f bogus &&
	names_in_help prompt format -f bogus &&
	names_in_help migrate format -f bogus x.json &&
	names_in_help summarize summarizer --summarizer bogus &&
	names_in_help add role -r bogus hi &&
	names_in_help search role -r bogus hi
'

test_expect '-h wins over what follows it' '
	convctl show -h --no-such-option >out && IFS= read -r l <out &&
	case $l in "usage: convctl show"*) ;; *) echo "out: $l" && false ;; esac
'

test_done
