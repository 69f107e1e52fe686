import type { Command, CommanderError } from 'commander';
import { CliError, EXIT } from './exit-codes.js';

/** Commander's ways of ending after help or the version was shown: no error. */
const SHOWN_HELP = new Set(['commander.helpDisplayed', 'commander.help', 'commander.version']);

export function isHelpShown(err: CommanderError): boolean {
  return SHOWN_HELP.has(err.code);
}

/** The subcommands named at the start of `args` (options skipped): `shipments list --bogus` → `["shipments", "list"]`. */
export function commandPath(program: Command, args: readonly string[]): string[] {
  const path: string[] = [];
  let command = program;
  for (const arg of args) {
    if (arg === '--') break;
    if (arg.startsWith('-')) continue;
    const sub = command.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (!sub) break;
    path.push(sub.name());
    command = sub;
  }
  return path;
}

/**
 * A command-line mistake commander found (unknown command or option, missing argument …) as one line and a hint, in
 * place of the whole help: `unknown command 'shipmnts'`, then `hint: did you mean \`packdesk shipments\`? …`.
 */
export function usageError(err: CommanderError, program: Command, args: readonly string[]): CliError {
  const [first = err.message, ...rest] = err.message.replace(/^error:\s*/, '').split('\n');
  const suggestion = /\(Did you mean (.+?)\?\)/.exec(rest.join(' '))?.[1];
  const path = commandPath(program, args);
  const help = `\`${['packdesk', ...path, '--help'].join(' ')}\``;
  const suggested = suggestion === undefined ? undefined : suggestion.startsWith('-') ? suggestion : ['packdesk', ...path, suggestion].join(' ');
  const hint = suggested ? `hint: did you mean \`${suggested}\`? ${help} shows what there is` : `hint: ${help} shows what there is`;
  return new CliError(first, EXIT.usage, undefined, hint);
}
