// A bare fastify route, measured beside the daemon's list endpoint in the same run. It answers a fixed body of the
// same size as the list page (BARE_BODY), so the comparison measures packdesk's per-request work, not bytes on the wire.
import Fastify from 'fastify';

const body = process.env.BARE_BODY ?? JSON.stringify({ data: [], message: 'ok' });
const app = Fastify({ logger: false });
app.get('/bare', async (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(JSON.stringify({ msg: 'listening', url }) + '\n');
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
