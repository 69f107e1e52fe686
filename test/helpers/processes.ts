import { startDaemon, type DaemonProcess } from './cli.js';

export { CLI, type DaemonProcess } from './cli.js';

/** Starts `packdesk daemon` as a real process on a free port, with the runner's environment plus CI=true and `env`. */
export function spawnDaemon(dataDir: string, env: NodeJS.ProcessEnv = {}, extraArgs: string[] = []): Promise<DaemonProcess> {
  return startDaemon(dataDir, { ...process.env, CI: 'true', ...env }, extraArgs);
}

/** The answer of a call to a daemon process: parsed JSON, or the raw bytes of anything else (a label). */
export interface ProcessAnswer {
  status: number;
  /** Whatever the endpoint returns: tests read the fields they assert on. */
  body: any;
}

/** Calls the /v1 API of a daemon process; `url` is asked each time, since a restarted daemon has a new port. */
export function processApi(url: () => string, key: () => string) {
  return async (path: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}): Promise<ProcessAnswer> => {
    const res = await fetch(url() + path, {
      method, headers: { authorization: `Bearer ${key()}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (res.headers.get('content-type') ?? '').includes('json');
    return { status: res.status, body: json ? await res.json() : Buffer.from(await res.arrayBuffer()) };
  };
}
