#!/bin/sh
# config: every effective setting and where it came from
# check: pg valgrind (a URI in the config, its password masked)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

# last_lines N FILE: FILE's last N lines, as tail -n N prints them, read by
# the shell
last_lines() {
	ll_n=0
	while IFS= read -r l || [ -n "$l" ]; do ll_n=$((ll_n + 1)); done <"$2"
	ll_i=0
	while IFS= read -r l || [ -n "$l" ]; do
		ll_i=$((ll_i + 1))
		[ "$ll_i" -le $((ll_n - $1)) ] || printf "%s\n" "$l"
	done <"$2"
}

mkdir -p "$XDG_CONFIG_HOME/convctl" "$T/work"
cfg=$XDG_CONFIG_HOME/convctl/config
printf '%s\n' 'idle_timeout = 45' 'max_conversations = 50' 'model = "llama3"' >"$cfg"

test_expect 'defaults, the config file, the environment and a flag, each named' '
	CONVCTL_MAX_CONVERSATIONS=70 convctl --wait 3 config >out &&
	has_line "# config file: $cfg" out &&
	has_line "idle_timeout       45  (config file)" out &&
	has_line "max_conversations  70  (environment CONVCTL_MAX_CONVERSATIONS)" out &&
	has_line "wait               3  (flag)" out &&
	has_line "retries            3  (default)" out &&
	engine_note= && { ! is_pg "$CONVCTL_STORE" || engine_note="; postgresql store"; } &&
	{ [ "$engine" != sqlite ] || engine_note="; sqlite store"; } &&
	has_line "store              $CONVCTL_STORE  (environment CONVCTL_STORE$engine_note)" out
'

test_expect 'every setting is listed' '
	convctl config >out &&
	for k in store idle_timeout max_conversations wait summarizer api_base \
	    model api_key anthropic_api_key connect_timeout timeout retries \
	    ca_bundle context_chars max_input_bytes max_message_bytes; do
		line_starts "$k " out || { echo "no $k"; return 1; }
	done
'

test_expect 'API keys are masked whole, whatever their length, in text and JSON' '
	OPENAI_API_KEY=sk-proj-0123456789abcdefWXYZ ANTHROPIC_API_KEY=short \
	    convctl config >out &&
	OPENAI_API_KEY=sk-proj-0123456789abcdefWXYZ ANTHROPIC_API_KEY=short \
	    convctl config --json >out.json &&
	lacks 0123456789abcdef out out.json && lacks WXYZ out out.json &&
	lacks short out out.json &&
	has_line "api_key            ********  (environment OPENAI_API_KEY)" out &&
	has_line "anthropic_api_key  ********  (environment ANTHROPIC_API_KEY)" out &&
	jq -e ".settings.api_key.value == \"********\" and
	    .settings.anthropic_api_key.value == \"********\"" out.json >/dev/null
'

test_expect 'a key in the config file is masked too' '
	chmod 600 "$cfg" && echo "api_key = sk-file-secret-key-1234" >>"$cfg" &&
	convctl config >out && lacks file-secret out && lacks 1234 out &&
	has_line "api_key            ********  (config file)" out
'

test_expect '--json: value, source, env, secret, flag, default and from' '
	CONVCTL_IDLE_TIMEOUT=5 convctl config --json >out &&
	jq -e ".configFile == \"$cfg\" and .configFileExists and
	    .settings.idle_timeout == {value: \"5\", source: \"environment\",
	    env: \"CONVCTL_IDLE_TIMEOUT\", secret: false,
	    flag: \"--idle-timeout\", default: \"30\",
	    from: \"CONVCTL_IDLE_TIMEOUT\"} and
	    .settings.api_key.flag == null and .settings.api_key.default == null and
	    .settings.model.from == \"$cfg\" and
	    .settings.model.value == \"llama3\" and
	    .settings.ca_bundle.value == null and
	    .settings.api_key.secret and
	    (.settings | keys | length) >= 15" out >/dev/null
'

test_expect 'a missing config file is said to be missing' '
	CONVCTL_CONFIG=$T/none convctl config >out &&
	has_line "# config file: $T/none (not found)" out &&
	has_line "idle_timeout       30  (default)" out
'

test_expect 'a bad flag is named as it is typed, a bad key as it is spelt' '
	fails_with 2 convctl --idle-timeout abc add hi &&
	stderr_has "convctl: add: --idle-timeout expects a whole number from 0 to 52560000, not '"'"'abc'"'"'" &&
	fails_with 2 convctl --max-conversations -1 prune &&
	stderr_has "convctl: prune: --max-conversations expects a whole number from 0 to 100000000, not '"'"'-1'"'"'" &&
	printf "idle_timeout = soon\n" >bad.conf &&
	CONVCTL_CONFIG=$T/bad.conf fails_with 1 convctl add hi &&
	stderr_has "convctl: add: idle_timeout in '"'"'$T/bad.conf'"'"' expects a whole number from 0 to 52560000, not '"'"'soon'"'"'" &&
	CONVCTL_MAX_CONVERSATIONS=x fails_with 1 convctl prune &&
	stderr_has "convctl: prune: CONVCTL_MAX_CONVERSATIONS expects a whole number from 0 to 100000000, not '"'"'x'"'"'" &&
	! store_exists "$CONVCTL_STORE"
'

test_expect 'a default computed from other settings is shown, and why' '
	CONVCTL_CONFIG=$T/none convctl config >out &&
	has_line "summarizer         offline  (default: no API key is set)" out &&
	has_line "model              (not set)  (default: the summarizer asks no model)" out &&
	has_line "api_base           https://api.openai.com/v1  (default)" out &&
	CONVCTL_CONFIG=$T/none ANTHROPIC_API_KEY=short convctl config >out &&
	has_line "summarizer         anthropic  (default: anthropic_api_key is set)" out &&
	has_line "model              claude-haiku-4-5  (default: the anthropic summarizer'"'"'s)" out &&
	CONVCTL_CONFIG=$T/none CONVCTL_API_BASE=http://localhost:1/v1 \
	    convctl config --json >out.json &&
	jq -e ".settings.summarizer == {value: \"openai\", source: \"default\",
	    env: \"CONVCTL_SUMMARIZER\", secret: false, flag: \"--summarizer\",
	    default: null, from: \"api_base is set\"} and
	    .settings.model.value == \"gpt-4o-mini\"" out.json >/dev/null
'

test_expect 'the store default says where it was computed from' '
	(unset CONVCTL_STORE; XDG_DATA_HOME=$T/data convctl config) >out &&
	has_line "store              $T/data/convctl/store.json  (default: under XDG_DATA_HOME)" out &&
	(unset CONVCTL_STORE XDG_DATA_HOME; HOME=$T/home convctl config) >out &&
	has_line "store              $T/home/.local/share/convctl/store.json  (default: under HOME, XDG_DATA_HOME is not set)" out
'

test_expect 'an unknown key is a warning naming file and line, not a failure' '
	printf "idle_timeout = 7\nidle_timout = 9\n" >typo.conf &&
	CONVCTL_CONFIG=$T/typo.conf convctl add hi >out 2>err &&
	file_is "convctl: add: warning: $T/typo.conf:2: unknown setting '"'"'idle_timout'"'"'; did you mean '"'"'idle_timeout'"'"'?" err &&
	CONVCTL_CONFIG=$T/typo.conf convctl config >out 2>err &&
	has_line "idle_timeout       7  (config file)" out &&
	lines_are 1 err && holds "typo.conf:2: unknown setting" err
'

test_expect 'a mistyped key gets the closest key as a suggestion, a far one none' '
	printf "%s\n" "sumarizer = offline" "max_conversation = 5" "ca-bundle = x" \
	    "colour = blue" "api_kye = k" >typos.conf && chmod 600 typos.conf &&
	CONVCTL_CONFIG=$T/typos.conf convctl recent >out 2>err &&
	q="'"'"'" && printf "%s\n" \
	    "convctl: recent: warning: $T/typos.conf:1: unknown setting ${q}sumarizer${q}; did you mean ${q}summarizer${q}?" \
	    "convctl: recent: warning: $T/typos.conf:2: unknown setting ${q}max_conversation${q}; did you mean ${q}max_conversations${q}?" \
	    "convctl: recent: warning: $T/typos.conf:3: unknown setting ${q}ca-bundle${q}; did you mean ${q}ca_bundle${q}?" \
	    "convctl: recent: warning: $T/typos.conf:4: unknown setting ${q}colour${q}" \
	    "convctl: recent: warning: $T/typos.conf:5: unknown setting ${q}api_kye${q}; did you mean ${q}api_key${q}?" >want &&
	same_file want err
'

test_expect 'config lists the templates add --template finds, or how to make one' '
	d=$XDG_CONFIG_HOME/convctl/templates &&
	printf "idle_timeout = 7\n" >tpl.conf &&
	CONVCTL_CONFIG=$T/tpl.conf convctl config >out &&
	printf "%s\n" "# templates directory: $d (not found)" \
	    "# no templates: add a line '"'"'template.NAME = TEXT'"'"' to the config file, or a file NAME to the templates directory" >want &&
	last_lines 2 out >got && same_file want got &&
	printf "template.brief = Answer in one short paragraph.\n" >>tpl.conf &&
	mkdir -p "$d/sub" && echo "Review this." >"$d/review" && echo hidden >"$d/brief" &&
	echo dot >"$d/.swp" &&
	CONVCTL_CONFIG=$T/tpl.conf convctl config >out &&
	printf "%s\n" "# templates directory: $d" "template.brief     (config file)" \
	    "template.review    (file $d/review)" >want &&
	last_lines 3 out >got && same_file want got &&
	CONVCTL_CONFIG=$T/tpl.conf convctl config --json >out.json &&
	use_store tpl &&
	CONVCTL_CONFIG=$T/tpl.conf convctl -s "$CONVCTL_STORE" add --template review "Plan a trip" >/dev/null &&
	CONVCTL_CONFIG=$T/tpl.conf convctl -s "$CONVCTL_STORE" show --json >shown.json &&
	jq -e --arg d "$d" --arg c "$T/tpl.conf" --slurpfile shown shown.json \
	    ".templatesDir == \$d and .templates == [
	    {name: \"brief\", source: \"config file\", from: \$c},
	    {name: \"review\", source: \"file\", from: (\$d + \"/review\")}] and
	    \$shown[0].messages[0].content == \"Review this.\"" out.json >/dev/null &&
	rm -r "$d"
'

test_expect 'the mode 0600 rule still holds around an unknown key' '
	printf "colour = blue\napi_key = sk-file-secret-key-1234\n" >key.conf &&
	chmod 644 key.conf &&
	CONVCTL_CONFIG=$T/key.conf fails_with 1 convctl config &&
	stderr_has "warning: $T/key.conf:1: unknown setting" &&
	stderr_has "holds an API key but is readable by others (mode 644)" &&
	lacks file-secret "$T/err"
'

test_expect 'a database password in a config file readable by others is refused, as an API key is' '
	: >pg.conf && chmod 644 pg.conf &&
	for u in "postgresql://app:pg-file-secret@db.example.org/convctl" \
	    "postgresql://app@db.example.org/convctl?%70assword=pg-file-secret" \
	    "postgresql://db.example.org/convctl?sslpassword=pg-file-secret"; do
		printf "store = %s\n" "$u" >pg.conf &&
		CONVCTL_CONFIG=$T/pg.conf fails_with 1 convctl config &&
		stderr_has "holds a database password (in store) but is readable by others (mode 644); run: chmod 600" &&
		stderr_has "~/.pgpass" && lacks file-secret "$T/err" || return 1
	done &&
	chmod 600 pg.conf &&
	(unset CONVCTL_STORE && CONVCTL_CONFIG=$T/pg.conf convctl config >out) &&
	line_like "store *sslpassword=[*][*][*]*" out && lacks file-secret out &&
	printf "store = postgresql://app@db.example.org/convctl?sslmode=verify-full\n" >pg.conf &&
	chmod 644 pg.conf && CONVCTL_CONFIG=$T/pg.conf convctl config >/dev/null
'

# every row of the settings table, as `config --json` gives them
convctl config --json >"$T/settings.json"
jq -r ".settings | to_entries[] |
    [.key, .value.env, (.value.default // \"-\"), (.value.flag // \"-\")] |
    @tsv" "$T/settings.json" >"$T/rows"

# man.awk (ROWS then convctl.5): each key's entry, from its .It Cm line to
# the next (as sed -n "/^\.It Cm KEY$/,/^\.It Cm /p" prints it), holds its
# variable (a line ".Ev VAR", maybe " ," and " ;" after it), its default
# (a word "default" on a line, and " DEFAULT" in the entry's lines joined
# by spaces) and its flag (Fl Fl NAME); one awk for every key, every one
# that fails named
printf '%s\n' 'BEGIN { FS = "\t" }
NR == FNR { n++; key[n] = $1; env[n] = $2; def[n] = $3; flag[n] = $4; next }
{
	for (i = 1; i <= n; i++) {
		if (on[i]) {
			if ($0 ~ /^\.It Cm /) on[i] = 0
		} else if ($0 == ".It Cm " key[i]) {
			on[i] = 1; found[i] = 1
		} else {
			continue
		}
		e = ".Ev " env[i]
		if ($0 == e || $0 == e " ," || $0 == e " ;" || $0 == e " , ;") has_env[i] = 1
		if ($0 ~ /default( |$)/) has_def[i] = 1
		if (flag[i] != "-" && index($0, "Fl Fl " substr(flag[i], 3))) has_flag[i] = 1
		text[i] = text[i] $0 " "
	}
}
END {
	for (i = 1; i <= n; i++) {
		if (!found[i]) { print "no .It Cm " key[i]; bad = 1; continue }
		if (!has_env[i]) { print key[i] ": no .Ev " env[i]; bad = 1 }
		if (def[i] != "-" && !(has_def[i] && index(text[i], " " def[i]))) {
			print key[i] ": no default " def[i]; bad = 1
		}
		if (flag[i] != "-" && !has_flag[i]) { print key[i] ": no flag " flag[i]; bad = 1 }
	}
	exit bad
}' >"$T/man.awk"

test_expect 'every setting is in convctl(5): key, variable, default, flag' '
	r_n=0 && while IFS= read -r l; do r_n=$((r_n + 1)); done <rows &&
	test "$r_n" -ge 17 &&
	awk -f man.awk rows "$top/man/convctl.5"
'

# the words --help's option lines start with (as grep -E "^ +(-[a-z], )?FLAG "
# finds them): FLAG, after blanks and maybe "-x, ", a blank after it
test_expect 'every setting with a flag is in --help' '
	convctl --help >global && convctl summarize --help >summ &&
	words=" " &&
	for f in global summ; do
		while IFS= read -r l; do
			case $l in " "*) ;; *) continue ;; esac
			l=${l#"${l%%[! ]*}"}
			case $l in -[a-z]", "*) l=${l#-?", "} ;; esac
			case $l in *" "*) words="$words${l%%" "*} " ;; esac
		done <"$f" || return 1
	done &&
	flags=0 &&
	while IFS="	" read -r key env def flag; do
		[ "$flag" != - ] || continue
		flags=$((flags + 1))
		case $words in *" $flag "*) ;; *) echo "no $flag in --help"; return 1 ;; esac
	done <rows &&
	test "$flags" -gt 0
'

test_expect 'config takes no operand' '
	fails_with 2 convctl config extra && stderr_has "unexpected argument"
'
test_expect 'a leading ~/ in a config path is HOME, as a shell reads it' '
	printf "store = ~/tilde/store.json\n" >"$XDG_CONFIG_HOME/convctl/config" &&
	(cd work && unset CONVCTL_STORE && convctl add "by the config" >/dev/null &&
	 convctl config >../tilde.out) &&
	has_line "store              $HOME/tilde/store.json  (config file)" tilde.out &&
	rm "$XDG_CONFIG_HOME/convctl/config" &&
	test ! -e work/~ && test ! -e "$T/~" &&
	jq -e ".conversations[0].messages[0].content == \"by the config\"" "$HOME/tilde/store.json" >/dev/null
'

test_done
