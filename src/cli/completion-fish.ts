import { commandPaths, type CommandSpec, type ValueSource } from './completion-model.js';

/** A word for fish: single-quoted, with its backslashes and single quotes escaped. */
const fishQuote = (word: string): string => `'${word.replace(/[\\']/g, (c) => `\\${c}`)}'`;

/** A fish function printing `$argv[1]|$argv[2]`'s word from a `switch`, failing for any other pair. */
function switchFunction(name: string, description: string, branches: { pattern: string; output: string }[]): string {
  return [
    `function ${name} --description ${fishQuote(description)}`,
    '    switch "$argv[1]|$argv[2]"',
    ...branches.flatMap((b) => [`        case ${fishQuote(b.pattern)}`, `            echo ${fishQuote(b.output)}`]),
    "        case '*'",
    '            return 1',
    '    end',
    'end',
    '',
  ].join('\n');
}

/**
 * Where the command line is: `N:shipments show`, the command path after the positional arguments counted so far.
 * Tokens are walked as bash's and zsh's words are; options with a value skip the token after them.
 */
const FISH_MAIN = `function __packdesk_path --description 'positional arguments so far:the packdesk command the command line is at'
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l cmdpath
    set -l npos 0
    set -l skip 0
    set -l sub
    for token in $tokens
        set -l joined (string join ' ' $cmdpath)
        if test $skip -eq 1
            set skip 0
        else if string match -q -- '-*' $token
            if not string match -q -- '*=*' $token; and __packdesk_takes_value "$joined" $token
                set skip 1
            end
        else if set sub (__packdesk_subcommand "$joined" $token)
            set -a cmdpath $sub
        else
            set npos (math $npos + 1)
        end
    end
    set -l joined (string join ' ' $cmdpath)
    echo "$npos:$joined"
end

function __packdesk_at --description 'the command line is at this packdesk command (and positional argument)' --argument-names expected position
    set -l at (__packdesk_path)
    if test -n "$position"
        test "$at" = "$position:$expected"
    else
        string match -q -- "*:$expected" "$at"
    end
end

function __packdesk_ids --description 'ids of the local daemon, with their names' --argument-names kind
    packdesk completion ids $kind --describe 2>/dev/null
end
`;

/** `complete` arguments for a value: ids from the daemon, files, fixed words, or nothing. */
function valueArguments(source: ValueSource): string {
  switch (source.kind) {
    case 'ids': return `-f -a ${fishQuote(`(__packdesk_ids ${source.ids})`)}`;
    case 'paths': return '-F';
    case 'dirs': return `-f -a ${fishQuote('(__fish_complete_directories)')}`;
    case 'words': return `-f -a ${fishQuote(source.words.join(' '))}`;
    case 'none': return '-f';
  }
}

/** The fish completion script of the program: one `complete` per command, flag and argument, read from commander. */
export function fishCompletionScript(root: CommandSpec): string {
  const commands = commandPaths(root);
  const subcommand: { pattern: string; output: string }[] = [];
  const takesValue: { pattern: string; output: string }[] = [];
  const completes: string[] = [];
  for (const { path, command } of commands) {
    const at = (position?: number) => fishQuote(`__packdesk_at ${fishQuote(path.join(' '))}${position === undefined ? '' : ` ${position}`}`);
    for (const sub of command.subcommands) {
      for (const name of [sub.name, ...sub.aliases]) {
        subcommand.push({ pattern: `${path.join(' ')}|${name}`, output: sub.name });
        completes.push(`complete -c packdesk -n ${at()} -f -a ${fishQuote(name)} -d ${fishQuote(sub.description)}`);
      }
    }
    for (const option of command.options) {
      const flags = option.flags.map((flag) => (flag.startsWith('--') ? `-l ${flag.slice(2)}` : `-s ${flag.slice(1)}`)).join(' ');
      if (option.value) for (const flag of option.flags) takesValue.push({ pattern: `${path.join(' ')}|${flag}`, output: 'yes' });
      const value = option.value ? `-r ${valueArguments(option.value)}` : '';
      completes.push(`complete -c packdesk -n ${at()} ${flags} ${value} -d ${fishQuote(option.description)}`.replace(/ {2,}/g, ' '));
    }
    // subcommands are what a command offers first; arguments only where there are none
    if (command.subcommands.length === 0) {
      command.positionals.forEach((source, index) => {
        if (source.kind === 'none') return;
        const position = command.variadic && index === command.positionals.length - 1 ? undefined : index;
        completes.push(`complete -c packdesk -n ${at(position)} ${valueArguments(source)}`);
      });
    }
  }
  return [
    '# packdesk completion for fish, written by `packdesk completion fish`.',
    '# Load it with `packdesk completion fish | source`, or save it as ~/.config/fish/completions/packdesk.fish.',
    '# Ids come from the daemon the packdesk config names.',
    '',
    switchFunction('__packdesk_subcommand', 'the packdesk command a word names under a command path', subcommand),
    switchFunction('__packdesk_takes_value', 'the packdesk flag under a command path takes a value', takesValue),
    FISH_MAIN,
    '# no file names unless a flag or argument takes one',
    'complete -c packdesk -f',
    ...completes,
    '',
  ].join('\n');
}
