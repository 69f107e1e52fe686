import { commandPaths, type CommandSpec } from './completion-model.js';
import { pathFunction, sharedTables } from './completion-tables.js';

/**
 * zsh's completion function: the same walk as bash's over `$words` (1-based, the cursor at `$CURRENT`), then
 * `_describe` for commands, flags and ids with their descriptions. `cmdpath`, since zsh's `path` is `$PATH`.
 */
const ZSH_MAIN = `# completes a value: ids from the daemon (with their names), paths, fixed words, or nothing
_packdesk_complete_value() {
  case $1 in
    ids:*)
      local -a ids
      ids=(\${(f)"$(packdesk completion ids \${1#ids:} --describe 2>/dev/null)"})
      ids=(\${ids//$'\\t'/:})
      _describe -t ids 'id' ids ;;
    paths) _files ;;
    dirs) _files -/ ;;
    words:*)
      local -a choices
      choices=(\${=\${1#words:}})
      compadd -a choices ;;
    *) _message 'value' ;;
  esac
}

_packdesk() {
  local cur=\${words[CURRENT]} cmdpath='' flag='' sub w
  local -i i npos=0 dashdash=0
  for ((i = 2; i < CURRENT; i++)); do
    w=\${words[i]}
    if ((dashdash)); then
      npos+=1
    elif [[ $w == -- ]]; then
      dashdash=1
    elif [[ $w == -* ]]; then
      [[ $w == *=* ]] && continue
      _packdesk_value "$cmdpath" "$w" >/dev/null || continue
      if ((i + 1 == CURRENT)); then
        flag=$w
        break
      fi
      i+=1
    elif sub=$(_packdesk_subcommand "$cmdpath" "$w"); then
      cmdpath=\${cmdpath:+$cmdpath }$sub
    else
      npos+=1
    fi
  done
  # --flag=value in one word: complete the value after the =
  if [[ -z $flag && $cur == -*=* ]] && _packdesk_value "$cmdpath" "\${cur%%=*}" >/dev/null; then
    flag=\${cur%%=*}
    compset -P '*='
  fi
  if [[ -n $flag ]]; then
    _packdesk_complete_value "$(_packdesk_value "$cmdpath" "$flag")"
  elif [[ $cur == -* ]] && ((!dashdash)); then
    local -a options
    options=(\${(f)"$(_packdesk_options "$cmdpath")"})
    _describe -t options 'option' options
  elif _packdesk_commands "$cmdpath" >/dev/null && ((!dashdash)); then
    local -a commands
    commands=(\${(f)"$(_packdesk_commands "$cmdpath")"})
    _describe -t commands 'command' commands
  else
    _packdesk_complete_value "$(_packdesk_argument "$cmdpath" "$npos")"
  fi
}

if [[ $funcstack[1] == _packdesk ]]; then
  _packdesk "$@"
else
  compdef _packdesk packdesk
fi
`;

/** `name:description` for `_describe`, whose names may not hold an unescaped colon. */
const described = (name: string, description: string): string => `${name.replace(/:/g, '\\:')}:${description}`;

/** The zsh completion script of the program: tables read from commander, then the function that walks them. */
export function zshCompletionScript(root: CommandSpec): string {
  const commands = commandPaths(root);
  return [
    '#compdef packdesk',
    '# packdesk completion for zsh, written by `packdesk completion zsh`.',
    '# Load it with `source <(packdesk completion zsh)` in ~/.zshrc after compinit, or save it as _packdesk in a',
    '# directory of $fpath. Ids come from the daemon the packdesk config names.',
    '',
    sharedTables(root),
    pathFunction('_packdesk_commands', 'the commands under a command path, name:description', commands.map(({ path, command }) => ({
      path, lines: command.subcommands.flatMap((sub) => [sub.name, ...sub.aliases].map((name) => described(name, sub.description))),
    }))),
    pathFunction('_packdesk_options', 'the long flags of a command, flag:description', commands.map(({ path, command }) => ({
      path,
      lines: command.options.flatMap((option) => option.flags.filter((flag) => flag.startsWith('--')).map((flag) => described(flag, option.description))),
    }))),
    ZSH_MAIN,
  ].join('\n');
}
