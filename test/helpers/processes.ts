import { startDaemon, type DaemonProcess } from './cli.js';

export { CLI, type DaemonProcess } from './cli.js';

/** Starts `packdesk daemon` as a real process on a free port, with the runner's environment plus CI=true and `env`. */
export function spawnDaemon(dataDir: string, env: NodeJS.ProcessEnv = {}, extraArgs: string[] = []): Promise<DaemonProcess> {
  return startDaemon(dataDir, { ...process.env, CI: 'true', ...env }, extraArgs);
}
