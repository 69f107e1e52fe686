import { connect, type Socket } from 'node:net';
import { assertConnectable, createGuardedLookup, type GuardedLookup, type Resolver } from '../src/net/addresses.js';
import { PrinterUnavailableError } from './errors.js';
import { HOST_STATUS_QUERY, hostStatusFrames, parseHostStatus, zebraPrinterStatus } from './zebra-status.js';
import {
  NO_STATUS_ANSWER, readyStatus, unreachableStatus, type DriverFactory, type PrintDocument, type PrinterStatus, type PrintOutcome,
} from './types.js';

/** JetDirect / AppSocket: the raw port of Zebra and other thermal printers. */
export const RAW_DEFAULT_PORT = 9100;

/** One TCP connection to a raw printer, with answers to `~HS` read frame by frame. */
class RawConnection {
  private received = '';
  private waiting: { frames: number; resolve: (frames: string[]) => void } | undefined;
  private failure: Error | undefined;
  private readonly closed: Promise<void>;
  bytesWritten = 0;

  private constructor(private readonly socket: Socket, private readonly timeoutMs: number) {
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      this.received += chunk;
      this.deliver();
    });
    socket.on('error', (err) => {
      this.failure ??= err;
    });
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
  }

  static open(host: string, port: number, timeoutMs: number, lookup: GuardedLookup): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      assertConnectable(host);
      const socket = connect({ host, port, noDelay: true, lookup });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no connection to ${host}:${port} within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new RawConnection(socket, timeoutMs));
      });
      socket.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
  }

  private deliver(): void {
    if (!this.waiting) return;
    const frames = hostStatusFrames(this.received);
    if (frames.length >= this.waiting.frames) {
      const { resolve } = this.waiting;
      this.waiting = undefined;
      this.received = '';
      resolve(frames);
    }
  }

  write(bytes: Buffer | string): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.socket.write(bytes, (err) => {
        if (err) reject(err);
        else {
          this.bytesWritten += Buffer.byteLength(bytes);
          resolve();
        }
      });
    });
  }

  /** Sends `~HS` and waits for its three frames; undefined when the printer does not answer in time. */
  async hostStatus(): Promise<PrinterStatus | undefined> {
    this.received = '';
    const answer = new Promise<string[] | undefined>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        resolve(undefined);
      }, this.timeoutMs);
      this.waiting = { frames: 3, resolve: (frames) => { clearTimeout(timer); resolve(frames); } };
      void this.closed.then(() => {
        clearTimeout(timer);
        this.waiting = undefined;
        resolve(undefined);
      });
    });
    this.socket.write(HOST_STATUS_QUERY);
    const frames = await answer;
    const parsed = frames ? parseHostStatus(frames) : undefined;
    return parsed ? zebraPrinterStatus(parsed) : undefined;
  }

  /** Half-closes and waits for the printer to close its side (bounded: some never do); answers what broke the connection, if anything did. */
  async finish(): Promise<Error | undefined> {
    this.socket.end();
    const timer = new Promise<void>((resolve) => setTimeout(resolve, this.timeoutMs).unref());
    await Promise.race([this.closed, timer]);
    this.socket.destroy();
    return this.failure;
  }

  destroy(): void {
    this.socket.destroy();
  }
}

function describe(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return e.code && e.code !== 'EADDRFORBIDDEN' ? `${e.code}` : String(e.message ?? err);
}

/**
 * `tcp://host:port`: writes the label bytes as they are, once per copy. A printer that takes ZPL is asked Zebra's
 * host status (`~HS`) before (paper out, head open, paused keep the job queued) and after the data: the answer to the
 * second query comes after the printer read every byte before it, which is our acknowledgment. EPL-only printers, and
 * those set to `statusQuery: 'none'` (ZPL printers and print servers that never answer `~HS`), are only connected to:
 * a completed write and a clean close is all they confirm. Names resolve through `resolve` (the system's by default),
 * and an address the outbound address policy forbids is never connected to.
 */
export const createRawTcpDriver = (resolve?: Resolver): DriverFactory => (options) => {
  const lookup = createGuardedLookup(resolve);
  const host = options.uri.hostname.replace(/^\[|\]$/g, '');
  const port = options.uri.port ? Number(options.uri.port) : RAW_DEFAULT_PORT;
  const asksHostStatus = options.statusQuery !== 'none' && options.formats.includes('zpl');
  const where = `${host}:${port}`;

  async function open(): Promise<RawConnection> {
    try {
      return await RawConnection.open(host, port, options.timeoutMs, lookup);
    } catch (err) {
      const status = unreachableStatus(`cannot connect to ${where} (${describe(err)})`);
      throw new PrinterUnavailableError(status.message, status);
    }
  }

  async function statusOn(connection: RawConnection): Promise<PrinterStatus> {
    if (!asksHostStatus) return readyStatus('accepts connections', { protocol: 'connect_only' });
    const status = await connection.hostStatus();
    if (status) return status;
    const silent = `the printer at ${options.uri.href} accepted the connection but did not answer ~HS within ${options.timeoutMs / 1000} s`;
    return { ...unreachableStatus(silent), reachable: true, problems: [NO_STATUS_ANSWER] };
  }

  return {
    name: 'tcp',
    async status() {
      let connection: RawConnection;
      try {
        connection = await open();
      } catch (err) {
        return (err as PrinterUnavailableError).status;
      }
      try {
        return await statusOn(connection);
      } finally {
        connection.destroy();
      }
    },

    async print(document: PrintDocument): Promise<PrintOutcome> {
      const connection = await open();
      try {
        const before = await statusOn(connection);
        if (before.state !== 'ready') throw new PrinterUnavailableError(before.message, before);
        try {
          for (let copy = 0; copy < document.copies; copy++) await connection.write(document.content);
        } catch (err) {
          const status = unreachableStatus(`the connection to ${where} broke while sending (${describe(err)})`);
          throw new PrinterUnavailableError(status.message, status, connection.bytesWritten > 0);
        }
        if (!asksHostStatus) {
          // no answer to wait for: written and closed without a reset counts printed (a reset means the printer
          // dropped bytes it had not read, so the job stays `printing` and is sent again)
          const broken = await connection.finish();
          if (broken) {
            const status = unreachableStatus(`the connection to ${where} broke after sending (${describe(broken)})`);
            throw new PrinterUnavailableError(status.message, status, true);
          }
          return { state: 'printed', status: before };
        }
        const after = await connection.hostStatus();
        if (!after) {
          const status = unreachableStatus(`${where} did not acknowledge the job (no answer to ~HS after the data)`);
          throw new PrinterUnavailableError(status.message, status, true);
        }
        await connection.finish();
        // the printer holds the job now; paper running out during it is the printer's to finish
        return { state: 'printed', status: after };
      } finally {
        connection.destroy();
      }
    },
  };
};

export const rawTcpDriver = createRawTcpDriver();
