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
	local commands="add end show recent prompt migrate prune summarize search delete copy run title resume edit fork tag pin stats mcp config help"
	local common="-s --store --wait --idle-timeout --max-conversations -h --help"
	local takes_value="-s|--store|--wait|--idle-timeout|--max-conversations"
	local summary="--summarizer --model --api-base"
	local i w cmd= opts= ids= eq= at=

	# --opt=value: bash splits it at the '=' into three words
	if [[ $cur == = ]]; then
		cur=
		eq=1
	elif [[ $prev == = ]]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
		eq=1
	fi

	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [[ $w == @($takes_value) ]]; then
			[[ ${COMP_WORDS[i + 1]} == = ]] && ((i++))
			((i++))
		elif [[ $w != -* && $w != = ]]; then
			cmd=$w
			at=$i
			break
		fi
	done
	# the operands typed after the command (an option's value is none)
	local _convctl_nops=0
	for ((i = i + 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [[ $w == @($takes_value|--at|--tag|--tool|-r|--role|-f|--format) ]]; then
			[[ ${COMP_WORDS[i + 1]} == = ]] && ((i++))
			((i++))
		elif [[ $w != -* && $w != = ]] || [[ $w == -[0-9]* ]]; then
			((_convctl_nops++))
		fi
	done

	# run: its options end at CMD, and the rest is CMD's own command line
	if [[ $cmd == run ]]; then
		for ((i = at + 1; i < COMP_CWORD; i++)); do
			w=${COMP_WORDS[i]}
			if [[ $w == @(--prompt|--tool|-s|--store|--wait|--idle-timeout|--max-conversations) ]]; then
				((i++))
			elif [[ $w == -- || ($w != -* && $w != = && ${COMP_WORDS[i - 1]} != =) ]]; then
				[[ $w == -- ]] && ((i++))
				if ((i == COMP_CWORD)); then
					COMPREPLY=($(compgen -c -- "$cur"))
				else
					compopt -o default 2>/dev/null
					COMPREPLY=()
				fi
				return
			fi
		done
		if [[ $cur != -* && -z $eq &&
		    $prev != @(--prompt|--tool|-s|--store|--wait|--idle-timeout|--max-conversations) ]]; then
			COMPREPLY=($(compgen -c -- "$cur"))
			return
		fi
	fi

	case $cmd in
	add)
		opts="-r --role --tool --at --dedupe-key --expect-conversation --template" ;;
	end) opts="--no-summary -v --verbose $summary" ;;
	show) opts="-f --format --json"; ids=1 ;;
	recent) opts="-n --json --tag" ;;
	prompt) opts="-f --format --json --last --max-tokens"; ids=1 ;;
	migrate)
		opts="-f --format -n --dry-run --json --rename-conflicts --skip-bad --split"
		opts+=" --summarize -v --verbose $summary" ;;
	prune) opts="--max --older-than -n --dry-run --json" ;;
	summarize)
		opts="--pending --all --force -n --dry-run --json -v --verbose $summary"
		ids=1 ;;
	search)
		opts="-E --regex --case-sensitive -r --role --since --until -n --tag --tool --json --color" ;;
	delete) opts="--force -n --dry-run --json"; ids=1 ;;
	copy) opts="-n --dry-run" ;;
	run) opts="--prompt --tool --context --keep-partial" ;;
	title) opts="-n --dry-run"; ids=1 ;;
	resume) opts="-n --dry-run --json --no-summary"; ids=1 ;;
	edit) opts="--delete -n --dry-run"; ids=1 ;;
	fork) opts="--at -n --dry-run --json --no-summary"; ids=1 ;;
	tag) opts="-n --dry-run --json --remove"; ids=1 ;;
	pin) opts="-n --dry-run --remove"; ids=1 ;;
	stats) opts="--ascii --json --since --tag" ;;
	mcp) opts="--read-only" ;;
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
			COMPREPLY=($(compgen -W "smarthole messages jsonl chatsidian aiwhisperer chatgpt claude codex llm convctl markdown claudeai aider gemini" -- "$cur"))
			return ;;
		esac ;;
	--context)
		if [[ -n $eq ]]; then
			COMPREPLY=($(compgen -W "text markdown openai jsonl" -- "$cur"))
			return
		fi ;;
	--prompt)
		COMPREPLY=()
		return ;;
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
	    --max-tokens | --model | --api-base | --tag | --tool | --at | --template)
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
			COMPREPLY=($(compgen -W "$common --version --no-pager -p --paginate" -- "$cur"))
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
	migrate | copy)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur")) ;;
	title | edit | fork | tag | resume)
		# the ID is the first operand; what follows is not an id
		if ((_convctl_nops == 0)); then
			COMPREPLY=($(compgen -W "$(_convctl_ids)" -- "$cur"))
		fi ;;
	*)
		if [[ -n $ids ]]; then
			COMPREPLY=($(compgen -W "$(_convctl_ids)" -- "$cur"))
		fi ;;
	esac
}

complete -F _convctl convctl
