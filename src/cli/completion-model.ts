import type { Argument, Command, Option } from 'commander';

/** The kinds of ids the daemon lists for completion. */
export const ID_KINDS = ['channels', 'shipments', 'printers', 'orders', 'stations', 'dispatches', 'rules'] as const;
export type IdKind = (typeof ID_KINDS)[number];

/** What a value (an option's or a positional argument's) completes to. */
export type ValueSource =
  | { kind: 'ids'; ids: IdKind }
  | { kind: 'paths' }
  | { kind: 'dirs' }
  | { kind: 'words'; words: string[] }
  | { kind: 'none' };

export interface OptionSpec {
  /** `--long`, and `-s` when it has one. */
  flags: string[];
  description: string;
  /** Undefined for a flag without a value. */
  value: ValueSource | undefined;
}

export interface CommandSpec {
  name: string;
  aliases: string[];
  description: string;
  options: OptionSpec[];
  /** Positional arguments in order; the last repeats when variadic. */
  positionals: ValueSource[];
  variadic: boolean;
  subcommands: CommandSpec[];
}

const NONE: ValueSource = { kind: 'none' };
const isIdKind = (word: string): word is IdKind => (ID_KINDS as readonly string[]).includes(word);

/** The placeholder of an option's value: `file` of `--out <file>`. */
function valueName(option: Option): string {
  return /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1] ?? '';
}

/** `--channel <id>`, `--printer <id>`, `--shipment <id>` take ids of their plural; `<file>` and `<dir>` take paths. */
function optionSource(option: Option): ValueSource {
  if (option.argChoices) return { kind: 'words', words: option.argChoices };
  const name = valueName(option);
  const plural = `${option.attributeName()}s`;
  if (name === 'id' && isIdKind(plural)) return { kind: 'ids', ids: plural };
  if (name === 'file' || name === 'path') return { kind: 'paths' };
  if (name === 'dir') return { kind: 'dirs' };
  return NONE;
}

/** `<id>` of `shipments show`, `channels remove`, `printers test` …, `[name]` of `stations show`: ids of the noun; `<file>` and `<path>`: paths. */
function argumentSource(argument: Argument, command: Command, siblings: string[]): ValueSource {
  if (argument.argChoices) return { kind: 'words', words: argument.argChoices };
  const noun = command.parent?.name() ?? '';
  if ((argument.name() === 'id' || argument.name() === 'name') && isIdKind(noun)) return { kind: 'ids', ids: noun };
  if (argument.name() === 'file' || argument.name() === 'path') return { kind: 'paths' };
  // commander's `help [command]` takes the names of the commands beside it
  if (command.name() === 'help' && argument.name() === 'command') return { kind: 'words', words: siblings };
  return NONE;
}

/** A help text's first line, for the one-line descriptions shells show. */
const oneLine = (text: string): string => text.split('\n')[0]!.trim();

function describeCommand(command: Command, siblings: string[]): CommandSpec {
  const help = command.createHelp();
  const subcommands = help.visibleCommands(command);
  const childNames = subcommands.map((sub) => sub.name());
  const args = command.registeredArguments;
  return {
    name: command.name(),
    aliases: command.aliases(),
    description: oneLine(command.summary() || command.description()),
    options: help.visibleOptions(command).map((option) => ({
      flags: [option.long, option.short].filter((flag): flag is string => Boolean(flag)),
      description: oneLine(option.description),
      value: option.required || option.optional ? optionSource(option) : undefined,
    })),
    positionals: args.map((argument) => argumentSource(argument, command, siblings)),
    variadic: args.at(-1)?.variadic ?? false,
    subcommands: subcommands.map((sub) => describeCommand(sub, childNames)),
  };
}

/** The program as completion sees it: every visible command, its flags and what its values take, read from commander. */
export function describeProgram(program: Command): CommandSpec {
  return describeCommand(program, []);
}

/** Every command with its path of names from the program (the program's own path is empty), parents first. */
export function commandPaths(root: CommandSpec): { path: string[]; command: CommandSpec }[] {
  const all: { path: string[]; command: CommandSpec }[] = [];
  const walk = (command: CommandSpec, path: string[]) => {
    all.push({ path, command });
    for (const sub of command.subcommands) walk(sub, [...path, sub.name]);
  };
  walk(root, []);
  return all;
}
