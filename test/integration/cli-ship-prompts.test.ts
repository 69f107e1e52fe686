import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStation, type Station } from '../helpers/cli.js';

/** The questions `packdesk ship` asked, in order, and the answers a packer at the terminal gives (else each default). */
const terminal = vi.hoisted(() => ({
  asked: [] as string[],
  answers: [] as [RegExp, string | boolean][],
}));

vi.mock('@inquirer/prompts', () => {
  const answer = <T>(message: string, fallback: T): T | string | boolean => {
    terminal.asked.push(message);
    return terminal.answers.find(([pattern]) => pattern.test(message))?.[1] ?? fallback;
  };
  return {
    input: async (q: { message: string; default?: string }) => answer(q.message, q.default ?? ''),
    password: async (q: { message: string }) => answer(q.message, ''),
    confirm: async (q: { message: string; default?: boolean }) => answer(q.message, q.default ?? false),
    select: async (q: { message: string; default?: string; choices: { value: string }[] }) => answer(q.message, q.default ?? q.choices[0]!.value),
  };
});

describe('packdesk ship on a terminal: the packer scans the reference first', () => {
  let station: Station;

  /** Runs `ship` as on a terminal: stdin and stdout are TTYs and CI is unset. */
  const shipOnTerminal = async (args: string[]) => {
    const { CI: _ci, ...env } = station.env;
    const tty = { stdin: process.stdin.isTTY, stdout: process.stdout.isTTY };
    process.stdin.isTTY = true;
    process.stdout.isTTY = true;
    terminal.asked.length = 0;
    try {
      return await station.cli(['ship', ...args], env);
    } finally {
      process.stdin.isTTY = tty.stdin;
      process.stdout.isTTY = tty.stdout;
    }
  };

  beforeAll(async () => {
    station = await startStation({ ppl: true });
    await station.addPplChannel();
    terminal.answers.push(
      [/^Reference/, 'SCAN-1'],
      [/^Sender company/, 'Sklad Praha s.r.o.'], [/^Sender e-mail/, 'sklad@example.cz'], [/^Sender phone/, '601 111 222'],
      [/^Sender street/, 'Skladová'], [/^Sender house number/, '12'], [/^Sender city/, 'Praha'], [/^Sender postal code/, '11000'],
      [/^Recipient name/, 'Jana Nováková'], [/^Recipient e-mail/, 'jana@example.cz'], [/^Recipient phone/, '604 555 666'],
      [/^Recipient street/, 'Nádražní'], [/^Recipient house number/, '7'], [/^Recipient city/, 'Brno'], [/^Recipient postal code/, '60200'],
      [/^Create the shipment\?/, true],
    );
  });

  afterAll(async () => {
    if (station) expect(await station.stop()).toBe(0);
  });

  it('asks for the reference before anything else, then the sender once (kept for every station), then the shipment', async () => {
    const shipped = await shipOnTerminal(['--out', `${station.tmp}/scan-1.pdf`]);
    expect(shipped.code, shipped.stderr).toBe(0);
    expect(terminal.asked[0]).toMatch(/^Reference/);
    expect(terminal.asked.filter((q) => /^Reference/.test(q))).toHaveLength(1);
    const order = (pattern: RegExp) => terminal.asked.findIndex((q) => pattern.test(q));
    expect(order(/^Sender company/)).toBeGreaterThan(0);
    expect(order(/^Shipping channel/)).toBeGreaterThan(order(/^Sender/));
    expect(order(/^Recipient name/)).toBeGreaterThan(order(/^Shipping channel/));
    expect(shipped.stdout).toContain("sender saved as the account's station sender");
    expect(shipped.stdout).toMatch(/^Channel: PPL \(ppl, PRIV — PPL Parcel CZ Private\)$/m);
    expect(shipped.stdout).toMatch(/^reference\s+SCAN-1$/m);
    const settings = await station.cliJson<{ account: { sender_contact: { company_name: string } } }>(['stations', 'show', '--json']);
    expect(settings.account.sender_contact.company_name).toBe('Sklad Praha s.r.o.');
  });

  it('a reference shipped before is asked about at once, before the packer types anything else', async () => {
    const again = await shipOnTerminal([]);
    expect(again.code).toBe(1);
    expect(terminal.asked).toEqual(['Reference, e.g. the order number: scan or type it (optional)', 'Ship SCAN-1 again?']);
    expect(again.stderr).toContain('nothing created: SCAN-1 was shipped before');
  });
});
