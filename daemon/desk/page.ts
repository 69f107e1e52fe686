import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { executableAsset, singleExecutable } from '../../src/runtime/shipped.js';

/** Where `npm run build` writes the desk (web/ bundled by scripts/build-web.mjs); from sources, the built copy. */
const DESK_ASSETS_DIR = fileURLToPath(import.meta.url.endsWith('.ts') ? new URL('../../dist/web/', import.meta.url) : new URL('../../web/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.map': 'application/json',
};

interface Asset { body: Buffer; type: string; etag: string }

/** The page may load only its own files and talk only to its own daemon. */
const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/** The built page's files by path: from dist/web/, or from the single executable's `desk.json` asset. */
function builtFiles(): Map<string, Buffer> {
  const dir = DESK_ASSETS_DIR;
  const files = new Map<string, Buffer>();
  if (singleExecutable()) {
    for (const [path, base64] of Object.entries(JSON.parse(executableAsset('desk.json')) as Record<string, string>)) files.set(path, Buffer.from(base64, 'base64'));
    return files;
  }
  if (!existsSync(dir)) return files;
  const walk = (sub: string) => {
    for (const entry of readdirSync(join(dir, sub), { withFileTypes: true })) {
      const path = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else files.set(path, readFileSync(join(dir, path)));
    }
  };
  walk('');
  return files;
}

function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const [path, body] of builtFiles()) {
    assets.set(path, { body, type: TYPES[extname(path)] ?? 'application/octet-stream', etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` });
  }
  return assets;
}

/** The desk in the browser: `/` and its hashed `/assets/…` files, read once at start-up and served from memory. */
export function deskPageRoutes(): FastifyPluginAsync {
  return async (app) => {
    const assets = loadAssets();
    const serve = (reply: FastifyReply, asset: Asset, cache: string) =>
      reply.headers({ ...SECURITY_HEADERS, 'content-type': asset.type, 'cache-control': cache, etag: asset.etag }).send(asset.body);

    app.get('/', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
      const index = assets.get('index.html');
      if (!index) {
        return reply.code(503).type('text/plain; charset=utf-8').send('The desk page was not built: run `npm run build` (it bundles web/ into dist/web/).\n');
      }
      if (request.headers['if-none-match'] === index.etag) return reply.code(304).send();
      return serve(reply, index, 'no-cache');
    });

    app.get('/assets/*', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
      const name = (request.params as { '*': string })['*'];
      const asset = assets.get(`assets/${name}`);
      if (!asset) return reply.code(404).type('application/json').send({ message: `No desk file ${name}.` });
      // names carry a hash of their content (esbuild's [hash]): a new build has new names
      return serve(reply, asset, 'public, max-age=31536000, immutable');
    });
  };
}
