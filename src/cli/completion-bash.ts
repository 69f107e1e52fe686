import { commandPaths, type CommandSpec } from './completion-model.js';
import { pathFunction, sharedTables } from './completion-tables.js';

/** bash's completion function: walks the words before the cursor to a command path, then offers flags, commands or values. */
const BASH_MAIN = `# completes a value: ids from the daemon, paths, fixed words, or nothing
_packdesk_complete_value() {
  local cur=$2 IFS=$' \\t\\n'
  case $1 in
    ids:*) COMPREPLY=($(compgen -W "$(packdesk completion ids "\${1#ids:}" 2>/dev/null)" -- "$cur")) ;;
    paths) compopt -o filenames 2>/dev/null; IFS=$'\\n'; COMPREPLY=($(compgen -f -- "$cur")) ;;
    dirs) compopt -o filenames 2>/dev/null; IFS=$'\\n'; COMPREPLY=($(compgen -d -- "$cur")) ;;
    words:*) COMPREPLY=($(compgen -W "\${1#words:}" -- "$cur")) ;;
    *) COMPREPLY=() ;;
  esac
}

_packdesk() {
  local cur=\${COMP_WORDS[COMP_CWORD]} cmdpath='' flag='' sub w i npos=0 dashdash=0
  # bash splits --flag=value at the =; the cursor right after it completes the value
  [[ $cur == = ]] && cur=''
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    if ((dashdash)); then
      npos=$((npos + 1))
    elif [[ $w == -- ]]; then
      dashdash=1
    elif [[ $w == -* ]]; then
      [[ $w == *=* ]] && continue
      _packdesk_value "$cmdpath" "$w" >/dev/null || continue
      if [[ \${COMP_WORDS[i + 1]} == = ]] && ((i + 1 < COMP_CWORD)); then i=$((i + 1)); fi
      if ((i + 1 == COMP_CWORD)); then
        flag=$w
        break
      fi
      i=$((i + 1))
    elif sub=$(_packdesk_subcommand "$cmdpath" "$w"); then
      cmdpath=\${cmdpath:+$cmdpath }$sub
    else
      npos=$((npos + 1))
    fi
  done
  if [[ -n $flag ]]; then
    _packdesk_complete_value "$(_packdesk_value "$cmdpath" "$flag")" "$cur"
  elif [[ $cur == -* ]] && ((!dashdash)); then
    COMPREPLY=($(compgen -W "$(_packdesk_options "$cmdpath")" -- "$cur"))
  elif _packdesk_commands "$cmdpath" >/dev/null && ((!dashdash)); then
    COMPREPLY=($(compgen -W "$(_packdesk_commands "$cmdpath")" -- "$cur"))
  else
    _packdesk_complete_value "$(_packdesk_argument "$cmdpath" "$npos")" "$cur"
  fi
}

complete -F _packdesk packdesk
`;

/** The bash completion script of the program: tables read from commander, then the function that walks them. */
export function bashCompletionScript(root: CommandSpec): string {
  const commands = commandPaths(root);
  return [
    '# packdesk completion for bash, written by `packdesk completion bash`.',
    '# Load it with `source <(packdesk completion bash)` in ~/.bashrc, or save it as',
    '# ~/.local/share/bash-completion/completions/packdesk. Ids come from the daemon the packdesk config names.',
    '',
    sharedTables(root),
    pathFunction('_packdesk_commands', 'the commands under a command path', commands.map(({ path, command }) => ({
      path, lines: command.subcommands.flatMap((sub) => [sub.name, ...sub.aliases]),
    }))),
    pathFunction('_packdesk_options', 'the long flags of a command', commands.map(({ path, command }) => ({
      path, lines: command.options.flatMap((option) => option.flags.filter((flag) => flag.startsWith('--'))),
    }))),
    BASH_MAIN,
  ].join('\n');
}
