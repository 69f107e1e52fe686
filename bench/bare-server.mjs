// A bare fastify route, measured beside the daemon's list endpoint in the same run.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ data: [], message: 'ok' }));
const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(JSON.stringify({ msg: 'listening', url }) + '\n');
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
