# fish completion for convctl(1)
# Installed as share/fish/vendor_completions.d/convctl.fish.

set -l __convctl_commands add end show recent prompt migrate prune summarize search delete copy run title resume edit fork tag pin stats mcp config help

# the ids of ended conversations, from the store named on the line
function __convctl_ids
    set -l tokens (commandline -opc)
    set -l store
    for i in (seq (count $tokens))
        switch $tokens[$i]
            case -s --store
                set -l j (math $i + 1)
                if test $j -le (count $tokens)
                    set store --store $tokens[$j]
                end
            case '--store=*'
                set store --store (string replace -- --store= '' $tokens[$i])
        end
    end
    set -l json (command convctl $store recent --json -n 1000 2>/dev/null); or return
    if command -sq jq
        # id, a tab, the title: fish shows it as the description
        printf '%s\n' $json | jq -r '.[] | .id + "\t" + (.title // "")'
    else
        printf '%s\n' $json | string match -ar '\{"id":"[^"]*"' |
            string replace -r '^\{"id":"(.*)"$' '$1'
    end
end

# true while no operand follows the command yet (its ID comes first)
function __convctl_no_operand
    set -l tokens (commandline -opc)
    set -l seen 0
    set -l skip 0
    for t in $tokens[2..-1]
        if test $skip -eq 1
            set skip 0
        else if contains -- $t -s --store --wait --idle-timeout --max-conversations --at
            set skip 1
        else if string match -qr -- '^-[^0-9]' $t
            continue
        else if test $seen -eq 0
            set seen 1
        else
            return 1
        end
    end
    return 0
end

complete -c convctl -f
# before a command
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -l version -d 'show the version'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -l no-pager -d 'never page the output'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -s p -l paginate -d 'page the output of any command'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -a add -d 'add a message to the active conversation'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -a end -d 'end the active conversation and summarize it'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -a show -d 'show one conversation'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -a recent -d 'list ended conversations'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -a prompt -d 'a conversation for an LLM'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -a migrate -d 'import legacy history'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -a prune -d 'remove the oldest ended conversations'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -a summarize -d 'title and summarize conversations'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -a search -d 'find messages'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -a delete -d 'remove conversations for good'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -a copy -d 'copy a whole store into another (file, SQLite or PostgreSQL)'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -a run -d 'run an LLM command and record its exchange'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -a title -d 'set a title by hand'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -a resume -d 'make an ended conversation active'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -a edit -d 'replace or remove one message'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -a fork -d 'copy a conversation into a new one'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -a tag -d 'add or remove tags'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -a pin -d 'keep from the rolling limit'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -a stats -d 'what the store holds at a glance'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -a mcp -d 'serve the store to agents over MCP'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -a config -d 'show every setting'
complete -c convctl -n "not __fish_seen_subcommand_from $__convctl_commands" -a help -d 'help for a command'

# common options, anywhere
complete -c convctl -s s -l store -r -F -d 'the store file'
complete -c convctl -l wait -x -d 'seconds to wait for the lock'
complete -c convctl -l idle-timeout -x -d 'idle minutes that end a conversation'
complete -c convctl -l max-conversations -x -d 'ended conversations kept'
complete -c convctl -s h -l help -d 'show help'

# add
complete -c convctl -n '__fish_seen_subcommand_from add' -s r -l role -x -a 'user assistant system tool' -d 'the speaker'
complete -c convctl -n '__fish_seen_subcommand_from add' -l tool -x -d 'a tool used'
complete -c convctl -n '__fish_seen_subcommand_from add' -l at -x -d 'the message time'
complete -c convctl -n '__fish_seen_subcommand_from add' -l dedupe-key -x -d 'add nothing if a message has this key'
complete -c convctl -n '__fish_seen_subcommand_from add' -l expect-conversation -x -a '(__convctl_ids)' -d 'write only into this conversation'
complete -c convctl -n '__fish_seen_subcommand_from add' -l template -x -d 'open a new conversation with this system prompt'
# end
complete -c convctl -n '__fish_seen_subcommand_from end' -l no-summary -d 'end it without a summary'
# end, summarize and migrate: the summarizer
complete -c convctl -n '__fish_seen_subcommand_from end summarize migrate' -s v -l verbose -d 'show each request and reply'
complete -c convctl -n '__fish_seen_subcommand_from end summarize migrate' -l summarizer -x -a 'openai anthropic offline none' -d 'the summarizer'
complete -c convctl -n '__fish_seen_subcommand_from end summarize migrate' -l model -x -d 'the model'
complete -c convctl -n '__fish_seen_subcommand_from end summarize migrate' -l api-base -x -d 'an OpenAI-compatible API root'
# show
complete -c convctl -n '__fish_seen_subcommand_from show' -s f -l format -x -a 'text markdown json' -d 'output format'
complete -c convctl -n '__fish_seen_subcommand_from show' -l json -d 'as JSON'
complete -c convctl -n '__fish_seen_subcommand_from show' -a '(__convctl_ids)'
# recent
complete -c convctl -n '__fish_seen_subcommand_from recent' -s n -x -d 'at most N'
complete -c convctl -n '__fish_seen_subcommand_from recent' -l json -d 'as JSON'
# prompt
complete -c convctl -n '__fish_seen_subcommand_from prompt' -s f -l format -x -a 'text markdown openai jsonl' -d 'output format'
complete -c convctl -n '__fish_seen_subcommand_from prompt' -l json -d 'as --format openai'
complete -c convctl -n '__fish_seen_subcommand_from prompt' -l last -x -d 'the newest N messages'
complete -c convctl -n '__fish_seen_subcommand_from prompt' -l max-tokens -x -d 'what fits in N tokens'
complete -c convctl -n '__fish_seen_subcommand_from prompt' -a '(__convctl_ids)'
# migrate
complete -c convctl -n '__fish_seen_subcommand_from migrate' -s f -l format -x -a 'smarthole messages jsonl chatsidian aiwhisperer chatgpt claude codex llm convctl markdown claudeai aider gemini' -d 'input format'
complete -c convctl -n '__fish_seen_subcommand_from migrate' -s n -l dry-run -d 'import nothing'
complete -c convctl -n '__fish_seen_subcommand_from migrate' -l json -d 'report as JSON'
complete -c convctl -n '__fish_seen_subcommand_from migrate' -l rename-conflicts -d 'import a taken id as ID-2'
complete -c convctl -n '__fish_seen_subcommand_from migrate' -l skip-bad -d 'leave out what is bad'
complete -c convctl -n '__fish_seen_subcommand_from migrate' -l split -d 'cut at idle gaps'
complete -c convctl -n '__fish_seen_subcommand_from migrate' -l summarize -d 'then summarize what was imported'
complete -c convctl -n '__fish_seen_subcommand_from migrate' -F
# prune
complete -c convctl -n '__fish_seen_subcommand_from prune' -l max -x -d 'keep at most N'
complete -c convctl -n '__fish_seen_subcommand_from prune' -l older-than -x -d 'also those ended longer ago'
complete -c convctl -n '__fish_seen_subcommand_from prune' -s n -l dry-run -d 'remove nothing'
complete -c convctl -n '__fish_seen_subcommand_from prune' -l json -d 'as JSON'
# summarize
complete -c convctl -n '__fish_seen_subcommand_from summarize' -l pending -d 'every one without a summary'
complete -c convctl -n '__fish_seen_subcommand_from summarize' -l all -d 'every ended one'
complete -c convctl -n '__fish_seen_subcommand_from summarize' -l force -d 'redo existing summaries'
complete -c convctl -n '__fish_seen_subcommand_from summarize' -s n -l dry-run -d 'send nothing, change nothing'
complete -c convctl -n '__fish_seen_subcommand_from summarize' -l json -d 'report as JSON'
complete -c convctl -n '__fish_seen_subcommand_from summarize' -a '(__convctl_ids)'
# search
complete -c convctl -n '__fish_seen_subcommand_from search' -s E -l regex -d 'an extended regular expression'
complete -c convctl -n '__fish_seen_subcommand_from search' -l case-sensitive -d 'tell upper from lower case'
complete -c convctl -n '__fish_seen_subcommand_from search' -s r -l role -x -a 'user assistant system tool' -d 'only messages of ROLE'
complete -c convctl -n '__fish_seen_subcommand_from search' -l since -x -d 'at or after TIME'
complete -c convctl -n '__fish_seen_subcommand_from search' -l until -x -d 'before TIME'
complete -c convctl -n '__fish_seen_subcommand_from search' -s n -x -d 'the newest N lines'
complete -c convctl -n '__fish_seen_subcommand_from search' -l json -d 'as JSON'
complete -c convctl -n '__fish_seen_subcommand_from search' -l color -x -a 'auto always never' -d 'colour the matches'
# delete
complete -c convctl -n '__fish_seen_subcommand_from delete' -l force -d 'also the active conversation'
complete -c convctl -n '__fish_seen_subcommand_from delete' -s n -l dry-run -d 'delete nothing'
complete -c convctl -n '__fish_seen_subcommand_from delete' -l json -d 'as JSON'
complete -c convctl -n '__fish_seen_subcommand_from delete' -a '(__convctl_ids)'
# copy
complete -c convctl -n '__fish_seen_subcommand_from copy' -s n -l dry-run -d 'copy nothing'
complete -c convctl -n '__fish_seen_subcommand_from copy' -F
# run
complete -c convctl -n '__fish_seen_subcommand_from run' -l prompt -x -d "the prompt, also CMD's last argument"
complete -c convctl -n '__fish_seen_subcommand_from run' -l tool -x -d 'a tool CMD used'
complete -c convctl -n '__fish_seen_subcommand_from run' -l context -d "first the conversation on CMD's input (--context=FORMAT)"
complete -c convctl -n '__fish_seen_subcommand_from run' -l keep-partial -d 'record the output even when CMD fails'
# mcp
complete -c convctl -n '__fish_seen_subcommand_from mcp' -l read-only -d 'only the tools that read'
# config
complete -c convctl -n '__fish_seen_subcommand_from config' -l json -d 'as JSON'
# help
complete -c convctl -n '__fish_seen_subcommand_from help' -a "$__convctl_commands"
# title, resume, edit, fork, tag, pin: the conversation first
complete -c convctl -n '__fish_seen_subcommand_from title resume edit fork tag pin' -s n -l dry-run -d 'change nothing'
complete -c convctl -n '__fish_seen_subcommand_from resume fork tag' -l json -d 'as JSON'
complete -c convctl -n '__fish_seen_subcommand_from resume fork' -l no-summary -d 'end the active one without a summary'
complete -c convctl -n '__fish_seen_subcommand_from edit' -l delete -d 'remove the message'
complete -c convctl -n '__fish_seen_subcommand_from fork' -l at -x -d 'copy up to this message'
complete -c convctl -n '__fish_seen_subcommand_from tag pin' -l remove -d 'remove the tags, or unpin'
complete -c convctl -n '__fish_seen_subcommand_from title resume edit fork tag; and __convctl_no_operand' -a '(__convctl_ids)'
complete -c convctl -n '__fish_seen_subcommand_from pin' -a '(__convctl_ids)'
# stats
complete -c convctl -n '__fish_seen_subcommand_from stats' -l ascii -d 'the chart in ASCII'
complete -c convctl -n '__fish_seen_subcommand_from stats' -l json -d 'as JSON'
complete -c convctl -n '__fish_seen_subcommand_from stats' -l since -x -d 'only conversations started since TIME'
# recent, search and stats: tags and tools
complete -c convctl -n '__fish_seen_subcommand_from recent search stats' -l tag -x -d 'only conversations tagged TAG'
complete -c convctl -n '__fish_seen_subcommand_from search' -l tool -x -d 'only messages that used the tool'
