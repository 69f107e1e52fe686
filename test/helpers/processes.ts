import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../dist/bin/packdesk.js', import.meta.url));

export interface DaemonProcess {
  child: ChildProcess;
  url: string;
  /** Everything the daemon wrote to stdout and stderr so far. */
  output(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `packdesk daemon` as a real process on a free port and waits for its `listening` line. */
export async function spawnDaemon(dataDir: string, env: NodeJS.ProcessEnv = {}, extraArgs: string[] = []): Promise<DaemonProcess> {
  const child = spawn(process.execPath, [CLI, 'daemon', '--data-dir', dataDir, '--port', '0', ...extraArgs], {
    env: { ...process.env, CI: 'true', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let onLine: ((line: string) => void) | undefined;
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const line of chunk.toString().split('\n')) onLine?.(line);
  });
  child.stderr!.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`daemon did not start:\n${out}`)), 20_000);
    onLine = (line) => {
      try {
        const parsed = JSON.parse(line) as { msg?: string; url?: string };
        if (parsed.msg === 'listening' && parsed.url) {
          clearTimeout(timer);
          onLine = undefined;
          resolve(parsed.url);
        }
      } catch {
        // not a JSON line
      }
    };
    void exited.then((code) => { clearTimeout(timer); reject(new Error(`daemon exited with ${code}:\n${out}`)); });
  });
  return {
    child, url,
    output: () => out,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
