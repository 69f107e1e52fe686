import { ensureDnsSd, ippSkipReason, stopDnsSd } from './helpers/ipp-server.js';

/**
 * Global setup of the project whose tests print to ippeveprinter (test/helpers/ipp-server.ts): the machine's one D-Bus
 * system bus and avahi-daemon, started once for the run when not already running and stopped at its end. Chromium
 * joins that bus too and exits when it goes away, so no test file may stop it under the others (two files that each
 * started and stopped it once took the desk's browsers down mid-story).
 */
export default async function setup(): Promise<() => void> {
  if (!ippSkipReason()) await ensureDnsSd();
  return stopDnsSd;
}
