import { createServer, type Server, type Socket } from 'node:net';

/** The flags a Zebra reports in its host status (`~HS`). */
export interface ZebraFlags {
  paperOut: boolean;
  paused: boolean;
  headOpen: boolean;
}

/** A Zebra stand-in on loopback: records every byte, answers `~HS` (unless told not to), and can be stopped and started on its port. */
export interface ZebraPrinter {
  port: number;
  /** `tcp://127.0.0.1:<port>` */
  uri: string;
  flags: ZebraFlags;
  /** False: reads everything but never answers `~HS`, as many non-Zebra ZPL printers and print servers do. */
  answersStatus: boolean;
  /** Every byte received, connection after connection. */
  received(): Buffer;
  /** What was printed: every byte received with the `~HS` queries taken out. */
  labelBytes(): Buffer;
  connections(): number;
  statusQueries(): number;
  /**
   * Called before each `~HS` answer; the answer waits for the returned promise. `query` counts all queries,
   * `onConnection` those of this connection (1 = asked before any data, 2 = the acknowledgment after it).
   */
  beforeAnswer?: (query: number, onConnection: number) => Promise<void> | void;
  clear(): void;
  stop(): Promise<void>;
  start(): Promise<void>;
}

const QUERY = '~HS';

/** The three `<STX>…<ETX><CR><LF>` lines of Zebra's host status (ZPL II Programming Guide, ~HS). */
export function hostStatusAnswer(flags: ZebraFlags): string {
  const bit = (on: boolean) => (on ? '1' : '0');
  return `\x02030,${bit(flags.paperOut)},${bit(flags.paused)},1218,000,0,0,0,000,0,0,0\x03\r\n`
    + `\x02001,0,${bit(flags.headOpen)},0,0,2,6,0,00000000,1,000\x03\r\n`
    + '\x021234,0\x03\r\n';
}

export async function startZebra(initial: Partial<ZebraFlags> = {}, answersStatus = true): Promise<ZebraPrinter> {
  const chunks: Buffer[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  let queries = 0;
  let server: Server | undefined;
  let port = 0;

  const printer: ZebraPrinter = {
    port: 0,
    uri: '',
    flags: { paperOut: false, paused: false, headOpen: false, ...initial },
    answersStatus,
    received: () => Buffer.concat(chunks),
    labelBytes: () => Buffer.from(Buffer.concat(chunks).toString('latin1').split(QUERY).join(''), 'latin1'),
    connections: () => connections,
    statusQueries: () => queries,
    clear: () => {
      chunks.length = 0;
      connections = 0;
      queries = 0;
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = undefined;
    },
    async start() {
      server = createServer((socket) => serve(socket));
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(port, '127.0.0.1', () => resolve());
      });
      port = (server.address() as { port: number }).port;
      printer.port = port;
      printer.uri = `tcp://127.0.0.1:${port}`;
    },
  };

  function serve(socket: Socket): void {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let text = '';
    let scanned = 0;
    let answering = Promise.resolve();
    let onConnection = 0;
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      text += chunk.toString('latin1');
      for (let at = text.indexOf(QUERY, scanned); at !== -1; at = text.indexOf(QUERY, scanned)) {
        scanned = at + QUERY.length;
        if (!printer.answersStatus) {
          queries += 1;
          continue;
        }
        const query = ++queries;
        const nth = ++onConnection;
        // answers go out in order, each after its hook (a test may hold one to kill the daemon meanwhile)
        answering = answering.then(async () => {
          await printer.beforeAnswer?.(query, nth);
          if (!socket.destroyed) socket.write(hostStatusAnswer(printer.flags));
        });
      }
      scanned = Math.max(scanned, text.length - (QUERY.length - 1));
    });
  }

  await printer.start();
  return printer;
}
