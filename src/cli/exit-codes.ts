/** Exit codes of every packdesk command (SPEC §8). */
export const EXIT = { ok: 0, failure: 1, usage: 2, notFound: 3, unreachable: 4 } as const;

/** An error that ends the command with a one-line message and a chosen exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
    readonly details?: Record<string, string[]>,
    /** A line for people on what to do next (left out of `--json` output). */
    readonly hint?: string,
  ) {
    super(message);
  }
}
