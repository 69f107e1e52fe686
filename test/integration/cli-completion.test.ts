import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../bin/program.js';
import { startDaemon, type RunningDaemon } from '../../daemon/main.js';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { bashCompletionScript } from '../../src/cli/completion-bash.js';
import { describeProgram } from '../../src/cli/completion-model.js';
import { shellQuote } from '../../src/cli/shell-quote.js';
import { createAccount, createApiKey } from '../../src/services/accounts.js';
import { closeContext, openContext } from '../../src/services/open.js';
import { CLI, isolatedEnv, runCliInProcess, type Env } from '../helpers/cli.js';
import { shipmentBody } from '../helpers/shipments.js';

/** The shell is installed here. */
const onPath = (program: string): boolean => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;

/** Feeds a script to a shell that only parses it; answers what the shell said on stderr. */
/** What `shell` says when it only parses `script` (from a file: fish reads no script from a pipe). */
function runShellCheck(shell: string, args: string[], script: string): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'packdesk-completion-')), `packdesk.${shell}`);
  writeFileSync(file, script);
  return new Promise((done, fail) => {
    const child = spawn(shell, [...args, file], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => { err += text; });
    child.once('error', fail);
    child.once('close', () => {
      rmSync(dirname(file), { recursive: true, force: true });
      done(err);
    });
  });
}

const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;
const END = '<<end of COMPREPLY>>';

/**
 * Sources a bash completion script in a real bash and completes each command line (its last word is the one under
 * the cursor); answers what `_packdesk` put in COMPREPLY for each, sorted.
 */
function completeInBash(scriptFile: string, lines: string[][], env: Env): Promise<string[][]> {
  const script = [`source ${quote(scriptFile)}`, ...lines.map((words) => [
    `COMP_WORDS=(${words.map(quote).join(' ')}); COMP_CWORD=${words.length - 1}; COMP_LINE=${quote(words.join(' '))}; COMPREPLY=()`,
    `_packdesk; printf '%s\\n' "\${COMPREPLY[@]}"; echo ${quote(END)}`,
  ].join('\n'))].join('\n');
  return new Promise((done, fail) => {
    const bash = spawn('bash', ['--norc', '--noprofile', '-c', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    bash.stdout.setEncoding('utf8').on('data', (text: string) => { out += text; });
    bash.stderr.setEncoding('utf8').on('data', (text: string) => { err += text; });
    bash.once('error', fail);
    bash.once('close', (code) => {
      if (code !== 0 || err) return fail(new Error(`bash exited ${code}: ${err}`));
      const replies = out.split(`${END}\n`).slice(0, -1).map((reply) => reply.split('\n').filter(Boolean).sort());
      done(replies);
    });
  });
}

/** Every visible command of a program with its path, read through commander's own help API. */
function commandsOf(program: Command): { path: string[]; command: Command }[] {
  const all: { path: string[]; command: Command }[] = [];
  const walk = (command: Command, path: string[]) => {
    all.push({ path, command });
    for (const sub of command.createHelp().visibleCommands(command)) walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  return all;
}

const visibleNames = (command: Command): string[] => command.createHelp().visibleCommands(command).map((sub) => sub.name()).sort();
const longFlags = (command: Command): string[] => command.createHelp().visibleOptions(command).map((o) => o.long).filter((f): f is string => Boolean(f)).sort();

describe('packdesk completion', () => {
  let tmp: string;
  let emu: RunningEmulators;
  let daemon: RunningDaemon;
  let env: Env;
  let bashScript: string;
  const ids = { channel: '', shipment: '', printer: '' };

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'packdesk-completion-'));
    const dataDir = join(tmp, 'data');
    const setup = openContext({ dataDir, log: pino({ level: 'silent' }) });
    const account = await createAccount(setup, { name: 'Sklad Brno', plan: 'enterprise' });
    const key = (await createApiKey(setup, { accountId: account.id })).apiKey;
    await closeContext(setup);
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    daemon = await startDaemon({ dataDir, host: '127.0.0.1', port: 0, log: pino({ level: 'silent' }), filesRoots: [tmp] });
    const api = async (path: string, body: unknown) => {
      const res = await fetch(daemon.url + path, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const json = (await res.json()) as { data: { id: string } };
      expect(res.status, JSON.stringify(json)).toBeLessThan(300);
      return json.data.id;
    };
    ids.channel = await api('/v1/shipping-channels', { name: 'PPL', provider: 'ppl', settings: { clientId: 'c1', clientSecret: 's3cret-value', baseUrl: emu.urls.ppl } });
    mkdirSync(join(tmp, 'labels'));
    ids.printer = await api('/v1/printers', { name: 'Label folder', uri: pathToFileURL(join(tmp, 'labels')).href, formats: ['pdf'] });
    ids.shipment = await api('/v1/shipments', shipmentBody(ids.channel, { reference_number: 'ORDER-7001' }));

    // the scripts call `packdesk` from PATH, as a person's shell does
    const bin = join(tmp, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'packdesk'), `#!/bin/sh\nexec ${quote(process.execPath)} ${quote(CLI)} "$@"\n`);
    chmodSync(join(bin, 'packdesk'), 0o755);
    env = { ...isolatedEnv(), PATH: `${bin}:${process.env.PATH}`, XDG_CONFIG_HOME: join(tmp, 'cfg'), PACKDESK_URL: daemon.url, PACKDESK_API_KEY: key };
    const printed = await runCliInProcess(['completion', 'bash'], env);
    expect(printed.code, printed.stderr).toBe(0);
    bashScript = join(tmp, 'packdesk.bash');
    writeFileSync(bashScript, printed.stdout);
  });

  afterAll(async () => {
    await daemon?.close();
    await emu?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  describe('in bash', () => {
    it('completes command names from what is typed: packdesk sh<TAB> offers ship and shipments', async () => {
      const [sh, all, completion] = await completeInBash(bashScript, [['packdesk', 'sh'], ['packdesk', ''], ['packdesk', 'completion', '']], env);
      expect(sh).toEqual(['ship', 'shipments']);
      expect(all).toEqual(visibleNames(buildProgram()));
      expect(all).toEqual(expect.arrayContaining(['service', 'completion', 'shipments', 'channels', 'printers', 'daemon']));
      // the command the scripts call for ids is hidden from people
      expect(completion).toEqual(['bash', 'fish', 'help', 'zsh']);
    });

    it('covers every command and flag of the program: its subcommands after it, its long flags after --', async () => {
      const commands = commandsOf(buildProgram());
      // commands without subcommands are left out of the first kind: their arguments may ask the daemon for ids
      const nouns = commands.filter(({ command }) => command.commands.length > 0);
      const lines = [...nouns.map(({ path }) => ['packdesk', ...path, '']), ...commands.map(({ path }) => ['packdesk', ...path, '--'])];
      const replies = await completeInBash(bashScript, lines, env);
      nouns.forEach(({ path, command }, i) => expect(replies[i], path.join(' ')).toEqual(visibleNames(command)));
      commands.forEach(({ path, command }, i) => expect(replies[nouns.length + i], path.join(' ')).toEqual(longFlags(command)));
      expect(nouns.length).toBeGreaterThan(10);
      expect(commands.length).toBeGreaterThan(80);
      const shipmentsList = replies[nouns.length + commands.findIndex(({ path }) => path.join(' ') === 'shipments list')];
      expect(shipmentsList).toEqual(expect.arrayContaining(['--status', '--channel', '--search', '--page', '--per-page', '--json', '--help']));
    });

    it("offers the daemon's shipment, channel and printer ids where a command takes one", async () => {
      const replies = await completeInBash(bashScript, [
        ['packdesk', 'shipments', 'show', ''],
        ['packdesk', 'shipments', 'cancel', ids.shipment.slice(0, 4)],
        ['packdesk', 'shipments', 'show', ids.shipment, ''],
        ['packdesk', 'channels', 'remove', ''],
        ['packdesk', 'printers', 'test', ''],
        ['packdesk', 'ship', '--reference', 'X', '--channel', ''],
        ['packdesk', 'shipments', 'list', '--channel', '=', ''],
        ['packdesk', 'shipments', 'print', ids.shipment, '--printer', ''],
        ['packdesk', 'shipments', 'show', '--json', ''],
      ], env);
      expect(replies).toEqual([[ids.shipment], [ids.shipment], [], [ids.channel], [ids.printer], [ids.channel], [ids.channel], [ids.printer], [ids.shipment]]);
    });

    it('offers no ids, quickly and without an error, when the daemon is not reachable', async () => {
      const closed = createServer();
      await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
      const { port } = closed.address() as { port: number };
      await new Promise((done) => closed.close(done));
      const [reply] = await completeInBash(bashScript, [['packdesk', 'shipments', 'show', '']], { ...env, PACKDESK_URL: `http://127.0.0.1:${port}` });
      expect(reply).toEqual([]);
    });

    it('completes file names for arguments and flags that take a file', async () => {
      writeFileSync(join(tmp, 'orders-may.csv'), 'a,b\n');
      const [argument, flag, notAFile] = await completeInBash(bashScript, [
        ['packdesk', 'import', join(tmp, 'orders')],
        ['packdesk', 'ship', '--from-json', join(tmp, 'orders')],
        ['packdesk', 'ship', '--reference', join(tmp, 'orders')],
      ], env);
      expect(argument).toEqual([join(tmp, 'orders-may.csv')]);
      expect(flag).toEqual([join(tmp, 'orders-may.csv')]);
      expect(notAFile).toEqual([]);
    });

    it('covers a command added to the program, read from commander and not from a list', async () => {
      const program = buildProgram();
      program.command('relabel').description('a command this test adds').argument('<id>').option('--printer <id>', 'where').option('--dry-run', 'only say');
      const script = join(tmp, 'relabel.bash');
      writeFileSync(script, bashCompletionScript(describeProgram(program)));
      const replies = await completeInBash(script, [['packdesk', 'rel'], ['packdesk', 'relabel', '--'], ['packdesk', 'relabel', '--printer', '']], env);
      expect(replies).toEqual([['relabel'], ['--dry-run', '--help', '--printer'], [ids.printer]]);
    });
  });

  // zsh and fish are not installed on the machines that run these tests: their scripts are read as text (and
  // parsed by the shell itself where it is installed)
  describe('zsh and fish scripts', () => {
    let zsh: string;
    let fish: string;
    const commands = commandsOf(buildProgram());
    /** The `case` branch of a function of the zsh script for a command path. */
    const zshBranch = (fn: string, path: string[]): string => {
      const body = zsh.slice(zsh.indexOf(`\n${fn}() {`), zsh.indexOf('\n}\n', zsh.indexOf(`\n${fn}() {`)));
      return body.split('\n').find((line) => line.startsWith(`    ${shellQuote(path.join(' '))}) `)) ?? '';
    };
    const fishAt = (path: string[]) => `complete -c packdesk -n '__packdesk_at \\'${path.join(' ')}\\''`;

    beforeAll(async () => {
      zsh = (await runCliInProcess(['completion', 'zsh'], env)).stdout;
      fish = (await runCliInProcess(['completion', 'fish'], env)).stdout;
    });

    it('zsh: every command with its description and every flag, under each command path', () => {
      expect(zsh.startsWith('#compdef packdesk\n')).toBe(true);
      expect(zsh).toContain('compdef _packdesk packdesk');
      for (const { path, command } of commands) {
        const subcommands = command.createHelp().visibleCommands(command);
        if (subcommands.length > 0) {
          const branch = zshBranch('_packdesk_commands', path);
          for (const sub of subcommands) expect(branch, path.join(' ')).toContain(shellQuote(`${sub.name()}:${sub.description().split('\n')[0]}`));
        }
        const flags = zshBranch('_packdesk_options', path);
        for (const flag of longFlags(command)) expect(flags, path.join(' ')).toContain(` '${flag}:`);
      }
      expect(zsh).toContain("    'shipments list|--channel') printf '%s\\n' ids:channels ;;");
      expect(zsh).toContain("    'shipments show|0') printf '%s\\n' ids:shipments ;;");
      expect(zsh).toContain("    'stations set|0') printf '%s\\n' ids:stations ;;");
      expect(zsh).toContain("    'rules move|0') printf '%s\\n' ids:rules ;;");
      expect(zsh).toContain("    'stations set|--clear') printf '%s\\n' 'words:sender_contact origin_address shipping_channel_id label_format printers printers.pdf printers.zpl printers.epl copies auto_print box_presets' ;;");
      expect(zsh).toContain('packdesk completion ids ${1#ids:} --describe');
    });

    it('fish: a complete line for every command and every flag, ids from the daemon', () => {
      for (const { path, command } of commands) {
        for (const sub of command.createHelp().visibleCommands(command)) expect(fish, path.join(' ')).toContain(`${fishAt(path)} -f -a '${sub.name()}' -d `);
        for (const flag of longFlags(command)) expect(fish, `${path.join(' ')} ${flag}`).toContain(`${fishAt(path)} -l ${flag.slice(2)}`);
      }
      expect(fish).toContain(`${fishAt(['ship'])} -l channel -r -f -a '(__packdesk_ids channels)'`);
      expect(fish).toContain("complete -c packdesk -n '__packdesk_at \\'printers test\\' 0' -f -a '(__packdesk_ids printers)'");
      expect(fish).toContain("complete -c packdesk -n '__packdesk_at \\'import\\' 0' -F");
      expect(fish).toContain('packdesk completion ids $kind --describe');
    });

    it.skipIf(!onPath('zsh'))('zsh parses its script', async () => {
      expect(await runShellCheck('zsh', ['-n'], zsh)).toBe('');
    });

    it.skipIf(!onPath('fish'))('fish parses its script', async () => {
      expect(await runShellCheck('fish', ['--no-execute'], fish)).toBe('');
    });
  });

  describe('the ids command the scripts call', () => {
    it('prints one id a line, or with --describe the id, a tab and what it is', async () => {
      const plain = await runCliInProcess(['completion', 'ids', 'printers'], env);
      expect(plain).toEqual({ code: 0, stdout: `${ids.printer}\n`, stderr: '' });
      const channels = await runCliInProcess(['completion', 'ids', 'channels', '--describe'], env);
      expect(channels.stdout).toBe(`${ids.channel}\tPPL (ppl)\n`);
      const shipments = await runCliInProcess(['completion', 'ids', 'shipments', '--describe'], env);
      expect(shipments.stdout).toMatch(new RegExp(`^${ids.shipment}\\tORDER-7001 [a-z_]+\\n$`));
      // stations by name, the daemon's own said so
      const stations = await runCliInProcess(['completion', 'ids', 'stations', '--describe'], env);
      expect(stations.stdout).toBe(`${hostname()}\tthis daemon's\n`);
    });

    it('prints nothing and exits 0 without a configured key, and after a second of a daemon that does not answer', async () => {
      const unconfigured = { ...isolatedEnv(), XDG_CONFIG_HOME: join(tmp, 'empty-cfg') };
      expect(await runCliInProcess(['completion', 'ids', 'shipments'], unconfigured)).toEqual({ code: 0, stdout: '', stderr: '' });
      const sockets: Socket[] = [];
      const silent: Server = createServer((socket) => { sockets.push(socket); });
      await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
      const { port } = silent.address() as { port: number };
      try {
        const started = Date.now();
        const result = await runCliInProcess(['completion', 'ids', 'shipments'], { ...env, PACKDESK_URL: `http://127.0.0.1:${port}` });
        const tookMs = Date.now() - started;
        expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
        expect(tookMs).toBeGreaterThanOrEqual(900);
        expect(tookMs).toBeLessThan(2500);
      } finally {
        for (const socket of sockets) socket.destroy();
        await new Promise((done) => silent.close(done));
      }
    });

    it('refuses a kind of id it does not know', async () => {
      const result = await runCliInProcess(['completion', 'ids', 'webhooks'], env);
      expect(result.code).toBe(2);
    });
  });
});
