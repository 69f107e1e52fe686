import { commandPaths, type CommandSpec, type ValueSource } from './completion-model.js';
import { shellQuote } from './shell-quote.js';

/**
 * A value source as one word the scripts switch on: `ids:shipments`, `paths`, `dirs`, `words:a b` or `none`.
 */
export function sourceWord(source: ValueSource): string {
  switch (source.kind) {
    case 'ids': return `ids:${source.ids}`;
    case 'words': return `words:${source.words.join(' ')}`;
    default: return source.kind;
  }
}

/** One `case` branch of a table function: a pattern (already quoted) and the word it prints. */
interface Branch {
  pattern: string;
  output: string;
}

/** A shell function (bash and zsh read it alike) printing the word of the first matching `"$1|$2"`, else failing. */
function caseFunction(name: string, comment: string, subject: string, branches: Branch[]): string {
  const lines = branches.map((b) => `    ${b.pattern}) printf '%s\\n' ${shellQuote(b.output)} ;;`);
  return [`# ${comment}`, `${name}() {`, `  case "${subject}" in`, ...lines, '    *) return 1 ;;', '  esac', '}', ''].join('\n');
}

/** `'shipments show|0'`: a command path and a second key, quoted as a case pattern. */
const key = (path: string[], second: string): string => shellQuote(`${path.join(' ')}|${second}`);

/**
 * The tables bash and zsh share, as shell functions taking the command path (`shipments show`) first:
 * `_packdesk_subcommand PATH WORD` (the command a word names), `_packdesk_value PATH FLAG` (what an option's value
 * takes; fails for a flag without one) and `_packdesk_argument PATH N` (what the Nth positional argument takes).
 */
export function sharedTables(root: CommandSpec): string {
  const commands = commandPaths(root);
  const subcommand: Branch[] = [];
  const value: Branch[] = [];
  const argument: Branch[] = [];
  for (const { path, command } of commands) {
    for (const sub of command.subcommands) {
      for (const word of [sub.name, ...sub.aliases]) subcommand.push({ pattern: key(path, word), output: sub.name });
    }
    for (const option of command.options) {
      if (!option.value) continue;
      for (const flag of option.flags) value.push({ pattern: key(path, flag), output: sourceWord(option.value) });
    }
    command.positionals.forEach((source, index) => {
      argument.push({ pattern: key(path, String(index)), output: sourceWord(source) });
    });
    const last = command.positionals.at(-1);
    // a variadic last argument takes every later position too: after the exact positions, so they match first
    if (command.variadic && last) argument.push({ pattern: `${key(path, '')}*`, output: sourceWord(last) });
  }
  return [
    caseFunction('_packdesk_subcommand', 'the command a word names under a command path', '$1|$2', subcommand),
    caseFunction('_packdesk_value', "what an option's value completes to; fails for a flag without a value", '$1|$2', value),
    caseFunction('_packdesk_argument', 'what the positional argument at an index (from 0) completes to', '$1|$2', argument),
  ].join('\n');
}

/** A shell function printing, for the command path in `$1`, its lines (one `printf` per path); fails for other paths. */
export function pathFunction(name: string, comment: string, rows: { path: string[]; lines: string[] }[]): string {
  const branches = rows.filter((row) => row.lines.length > 0)
    .map((row) => `    ${shellQuote(row.path.join(' ') || '')}) printf '%s\\n' ${row.lines.map(shellQuote).join(' ')} ;;`);
  return [`# ${comment}`, `${name}() {`, '  case "$1" in', ...branches, '    *) return 1 ;;', '  esac', '}', ''].join('\n');
}
