// Bundles the desk (web/) into dist/web/: index.html and content-hashed assets the daemon serves at `/`.
// Runs at `npm ci` (prepare), `npm run build` and before `npm test`; nothing is fetched at run time.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { build } from 'esbuild';

const root = new URL('../', import.meta.url);
const out = new URL('dist/web/', root);
rmSync(out, { recursive: true, force: true });
mkdirSync(new URL('assets/', out), { recursive: true });

const result = await build({
  entryPoints: { desk: new URL('web/src/main.tsx', root).pathname },
  bundle: true, format: 'esm', target: 'es2022', minify: true, sourcemap: true, metafile: true,
  jsx: 'automatic', jsxImportSource: 'preact',
  outdir: new URL('assets/', out).pathname, entryNames: '[name]-[hash]', assetNames: '[name]-[hash]',
  logLevel: 'warning',
});
const outputs = Object.keys(result.metafile.outputs).map((path) => basename(path));
const script = outputs.find((name) => name.endsWith('.js'));
const style = outputs.find((name) => name.endsWith('.css'));
const html = readFileSync(new URL('web/index.html', root), 'utf8')
  .replace('%SCRIPT%', `/assets/${script}`)
  .replace('%STYLE%', `/assets/${style}`);
writeFileSync(new URL('index.html', out), html);
console.log(`desk built: dist/web/index.html, assets/${script}, assets/${style}`);
