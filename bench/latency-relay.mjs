// A TCP relay that holds every chunk for a fixed delay in each direction, in order: a server `delay` ms away, for
// benchmarks on machines whose kernel has no netem (CONFIG_NET_SCH_NETEM). Run as its own process, so its timers do
// not share an event loop with what is measured:
//   node bench/latency-relay.mjs <target host> <target port> <delay ms>
// prints {"port": N} once it listens on 127.0.0.1:N.
import { createConnection, createServer } from 'node:net';
import { performance } from 'node:perf_hooks';

const [host, port, delayMs] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];

/** Writes what `from` sends to `to`, each chunk `delayMs` after it arrived, in arrival order. */
function delayed(from, to) {
  const queue = [];
  let timer;
  const flush = () => {
    timer = undefined;
    const now = performance.now();
    while (queue.length > 0 && queue[0].at <= now) to.write(queue.shift().chunk);
    if (queue.length > 0) timer = setTimeout(flush, queue[0].at - now);
  };
  from.on('data', (chunk) => {
    queue.push({ at: performance.now() + delayMs, chunk });
    timer ??= setTimeout(flush, delayMs);
  });
  from.on('end', () => {
    const end = () => (queue.length > 0 || timer ? setTimeout(end, delayMs) : to.end());
    end();
  });
}

const server = createServer((client) => {
  client.setNoDelay(true);
  const upstream = createConnection({ host, port, noDelay: true });
  delayed(client, upstream);
  delayed(upstream, client);
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', close);
  upstream.on('error', close);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
