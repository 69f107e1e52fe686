import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './ports.js';

/**
 * `ippeveprinter` (Debian cups-ipp-utils) as an IPP Everywhere label printer for tests. It needs a D-Bus system bus
 * and avahi-daemon (it exits "Unable to initialize DNS-SD" without them): started here as root when not running,
 * and stopped afterwards if this helper started them, once for the whole run by test/dns-sd-global-setup.ts.
 */

const BINARIES = ['ippeveprinter', 'dbus-daemon', 'avahi-daemon'];

function hasBinary(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name} || test -x /usr/sbin/${name}`], { stdio: 'ignore' }).status === 0;
}

/** Why IPP tests cannot run here (a binary is missing), or undefined when they can. */
export function ippSkipReason(): string | undefined {
  const missing = BINARIES.filter((b) => !hasBinary(b));
  return missing.length ? `missing ${missing.join(', ')} (apt-get install cups-ipp-utils dbus avahi-daemon)` : undefined;
}

const SYSTEM_BUS = '/run/dbus/system_bus_socket';
const started: { dbusPid?: number; avahi?: boolean } = {};

function run(command: string, args: string[]): { status: number | null; output: string } {
  const r = spawnSync(command, args, { encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

async function busAnswers(): Promise<boolean> {
  if (!existsSync(SYSTEM_BUS)) return false;
  return new Promise((resolve) => {
    const socket = connect(SYSTEM_BUS, () => { socket.destroy(); resolve(true); });
    socket.on('error', () => resolve(false));
  });
}

/** D-Bus system bus and avahi-daemon, as ippeveprinter needs them. */
export async function ensureDnsSd(): Promise<void> {
  if (!(await busAnswers())) {
    mkdirSync('/run/dbus', { recursive: true });
    rmSync('/run/dbus/pid', { force: true }); // a stale pid file from a bus that is gone stops dbus-daemon from starting
    const bus = run('dbus-daemon', ['--system', '--fork', '--print-pid']);
    if (bus.status !== 0) throw new Error(`cannot start the D-Bus system bus (needs root): ${bus.output}`);
    started.dbusPid = Number(bus.output.trim().split('\n')[0]);
  }
  if (run('avahi-daemon', ['--check']).status !== 0) {
    const avahi = run('avahi-daemon', ['-D']);
    if (avahi.status !== 0 && !/already running/i.test(avahi.output)) throw new Error(`cannot start avahi-daemon (needs root): ${avahi.output}`);
    started.avahi = true;
    for (let i = 0; i < 50 && run('avahi-daemon', ['--check']).status !== 0; i++) await sleep(100);
  }
}

/** Stops the D-Bus bus and avahi-daemon if `ensureDnsSd` started them. */
export function stopDnsSd(): void {
  if (started.avahi) run('avahi-daemon', ['-k']);
  if (started.dbusPid) {
    try {
      process.kill(started.dbusPid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  started.avahi = false;
  started.dbusPid = undefined;
}

/** A label printer: PDF at 10×15 cm (and A4 for the office layout), raw ZPL/EPL like a CUPS raw queue. */
const ATTRIBUTES = `
ATTR mimeMediaType document-format-supported application/pdf,application/vnd.cups-raw,application/octet-stream
ATTR mimeMediaType document-format-default application/octet-stream
ATTR keyword media-supported om_label_100x150mm,iso_a4_210x297mm
ATTR keyword media-default om_label_100x150mm
ATTR keyword media-ready om_label_100x150mm
ATTR collection media-size-supported {MEMBER integer x-dimension 10000 MEMBER integer y-dimension 15000},{MEMBER integer x-dimension 21000 MEMBER integer y-dimension 29700}
ATTR collection media-col-default {MEMBER keyword media-size-name om_label_100x150mm MEMBER collection media-size {MEMBER integer x-dimension 10000 MEMBER integer y-dimension 15000}}
ATTR collection media-col-ready {MEMBER keyword media-size-name om_label_100x150mm MEMBER collection media-size {MEMBER integer x-dimension 10000 MEMBER integer y-dimension 15000}}
`;

/** Run for every document: keeps the IPP job attributes ippeveprinter passes as IPP_* variables beside the spooled file. */
const RECORDER = `#!/bin/sh
env | grep -E '^(IPP_|CONTENT_TYPE=)' > "$1.env"
exit 0
`;

export interface SpooledJob {
  /** ippeveprinter's job id. */
  id: number;
  name: string;
  content: Buffer;
  /** The job attributes as ippeveprinter handed them to the print command (IPP_MEDIA_COL, IPP_COPIES, …). */
  attributes: Record<string, string>;
}

export interface IppPrinter {
  uri: string;
  port: number;
  spoolDir: string;
  /** Documents the printer processed, oldest first. */
  jobs(): SpooledJob[];
  /** Kills the printer (its port stops answering); `start()` brings it back on the same port and spool. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

async function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`ippeveprinter exited with ${child.exitCode}:\n${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => { socket.destroy(); resolve(true); });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await sleep(100);
  }
  throw new Error(`ippeveprinter did not listen on ${port}:\n${log()}`);
}

/** A fresh ippeveprinter; the global setup test/dns-sd-global-setup.ts keeps D-Bus and avahi-daemon running for it. */
export async function startIppPrinter(): Promise<IppPrinter> {
  if (!(await busAnswers())) throw new Error('no D-Bus system bus: ippeveprinter needs the one test/dns-sd-global-setup.ts starts');
  const root = mkdtempSync(join(tmpdir(), 'packdesk-ipp-'));
  const spoolDir = join(root, 'spool');
  mkdirSync(spoolDir);
  writeFileSync(join(root, 'label-printer.conf'), ATTRIBUTES);
  writeFileSync(join(root, 'record.sh'), RECORDER);
  chmodSync(join(root, 'record.sh'), 0o755);
  const port = await freePort();
  let child: ChildProcess | undefined;
  let output = '';

  const printer: IppPrinter = {
    uri: `ipp://127.0.0.1:${port}/ipp/print`,
    port,
    spoolDir,
    jobs() {
      return readdirSync(spoolDir).filter((f) => f.endsWith('.env')).map((envFile) => {
        const file = envFile.slice(0, -'.env'.length);
        const match = /^(\d+)-(.*)\.[a-z]+$/.exec(file);
        const attributes = Object.fromEntries(readFileSync(join(spoolDir, envFile), 'utf8').split('\n').filter(Boolean)
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
        return { id: Number(match?.[1]), name: match?.[2] ?? file, content: readFileSync(join(spoolDir, file)), attributes };
      }).sort((x, y) => x.id - y.id);
    },
    async start() {
      child = spawn('ippeveprinter', [
        '-p', String(port), '-d', spoolDir, '-a', join(root, 'label-printer.conf'), '-c', join(root, 'record.sh'),
        '-k', '-n', 'localhost', '-r', 'off', '-v', `packdesk-test-${port}`,
      ], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout!.on('data', (c: Buffer) => { output += c.toString(); });
      child.stderr!.on('data', (c: Buffer) => { output += c.toString(); });
      await waitForPort(port, child, () => output);
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    },
    async close() {
      await printer.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
  await printer.start();
  return printer;
}
