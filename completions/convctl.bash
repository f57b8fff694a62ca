# bash completion for convctl(1)
# Installed as share/bash-completion/completions/convctl; or source it.

# the ids of ended conversations, newest first, from the store the words
# typed so far name
_convctl_ids()
{
	local i w store=() json
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		-s | --store)
			# --store=PATH comes as three words: --store = PATH
			[[ ${COMP_WORDS[i + 1]} == = ]] && ((i++))
			w=${COMP_WORDS[i + 1]}
			store=(--store "${w/#\~\//$HOME/}")
			;;
		esac
	done
	json=$(command convctl "${store[@]}" recent --json -n 1000 2>/dev/null) ||
		return
	if command -v jq >/dev/null 2>&1; then
		jq -r '.[].id' <<<"$json" 2>/dev/null
	else
		# the id is each object's first member; a quote inside a title is
		# escaped, so this cannot match inside one
		grep -o '{"id":"[^"]*"' <<<"$json" | sed 's/^{"id":"//; s/"$//'
	fi
}

_convctl()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local commands="add end show recent prompt migrate prune summarize search delete config help"
	local common="-s --store --wait --idle-timeout --max-conversations -h --help"
	local takes_value="-s|--store|--wait|--idle-timeout|--max-conversations"
	local summary="--summarizer --model --api-base"
	local i w cmd= opts= ids=

	# --opt=value: bash splits it at the '=' into three words
	if [[ $cur == = ]]; then
		cur=
	elif [[ $prev == = ]]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi

	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [[ $w == @($takes_value) ]]; then
			[[ ${COMP_WORDS[i + 1]} == = ]] && ((i++))
			((i++))
		elif [[ $w != -* && $w != = ]]; then
			cmd=$w
			break
		fi
	done

	case $cmd in
	add)
		opts="-r --role --tool --at --dedupe-key --expect-conversation" ;;
	end) opts="--no-summary -v --verbose $summary" ;;
	show) opts="-f --format --json"; ids=1 ;;
	recent) opts="-n --json" ;;
	prompt) opts="-f --format --json --last --max-tokens" ;;
	migrate)
		opts="-f --format -n --dry-run --json --rename-conflicts --split"
		opts+=" --summarize -v --verbose $summary" ;;
	prune) opts="--max --older-than -n --dry-run --json" ;;
	summarize)
		opts="--pending --all --force -n --dry-run --json -v --verbose $summary"
		ids=1 ;;
	search)
		opts="-E --regex --case-sensitive -r --role --since --until -n --json --color" ;;
	delete) opts="--force -n --dry-run --json"; ids=1 ;;
	config) opts="--json" ;;
	esac

	# the value of an option
	case $prev in
	-s | --store)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	-r | --role)
		if [[ $cmd == @(add|search) ]]; then
			COMPREPLY=($(compgen -W "user assistant system tool" -- "$cur"))
			return
		fi ;;
	-f | --format)
		case $cmd in
		show)
			COMPREPLY=($(compgen -W "text markdown json" -- "$cur"))
			return ;;
		prompt)
			COMPREPLY=($(compgen -W "text markdown openai jsonl" -- "$cur"))
			return ;;
		migrate)
			COMPREPLY=($(compgen -W "smarthole messages jsonl chatsidian aiwhisperer" -- "$cur"))
			return ;;
		esac ;;
	--expect-conversation)
		COMPREPLY=($(compgen -W "$(_convctl_ids)" -- "$cur"))
		return ;;
	--summarizer)
		COMPREPLY=($(compgen -W "openai anthropic offline none" -- "$cur"))
		return ;;
	--color)
		COMPREPLY=($(compgen -W "auto always never" -- "$cur"))
		return ;;
	--wait | --idle-timeout | --max-conversations | --tool | --at | \
	    --dedupe-key | --since | --until | --max | --older-than | --last | \
	    --max-tokens | --model | --api-base)
		COMPREPLY=()
		return ;;
	-n)
		if [[ $cmd == @(recent|search) ]]; then
			COMPREPLY=()
			return
		fi ;;
	esac

	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$common --version" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$commands" -- "$cur"))
		fi
		return
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$opts $common" -- "$cur"))
		return
	fi
	case $cmd in
	help)
		COMPREPLY=($(compgen -W "$commands" -- "$cur")) ;;
	migrate)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur")) ;;
	*)
		if [[ -n $ids ]]; then
			COMPREPLY=($(compgen -W "$(_convctl_ids)" -- "$cur"))
		fi ;;
	esac
}

complete -F _convctl convctl
