import { constants } from 'node:fs';
import { access, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PrinterUnavailableError } from './errors.js';
import { readyStatus, unreachableStatus, type DriverFactory, type PrintDocument, type PrinterStatus } from './types.js';

/** The file one copy of a job is written to: `<job id>-<copy>.<format>`. */
export function jobFileName(jobId: string, copy: number, format: string): string {
  return `${jobId}-${copy}.${format}`;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * `file:///dir`: writes each copy of a job as a file (for tests, and for printing by other tools). A file appears
 * whole (written beside, then renamed) and is never written twice, so a restarted daemon cannot duplicate one. The
 * driver creates no directory: the daemon checks the directory against its files policy and creates it first.
 */
export const fileDriver: DriverFactory = (options) => {
  const dir = fileURLToPath(options.uri);

  async function status(): Promise<PrinterStatus> {
    try {
      await access(dir, constants.W_OK);
      return readyStatus(`writes files to ${dir}`, { protocol: 'file', directory: dir });
    } catch (err) {
      return unreachableStatus(`cannot write to ${dir} (${(err as { code?: string }).code ?? (err as Error).message})`, { protocol: 'file', directory: dir });
    }
  }

  return {
    name: 'file',
    status,
    async print(document: PrintDocument) {
      const ready = await status();
      if (ready.state !== 'ready') throw new PrinterUnavailableError(ready.message, ready);
      for (let copy = 1; copy <= document.copies; copy++) {
        const target = join(dir, jobFileName(document.jobId, copy, document.format));
        if (await exists(target)) continue;
        const part = `${target}.part`;
        await writeFile(part, document.content);
        await rename(part, target);
      }
      return { state: 'printed', status: ready };
    },
  };
};
