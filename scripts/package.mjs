// Builds dist/packdesk-<os>-<arch>: packdesk as one file that runs without Node, npm or a compiler (a Node single
// executable application). esbuild bundles the compiled dist/ into one CommonJS script, Node turns it into a blob
// with the files packdesk needs at run time as assets, and postject injects the blob into a copy of this Node.
// Nothing is downloaded. Usage: npm run package [-- --out FILE]
import { execFileSync } from 'node:child_process';
import { copyFileSync, chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const started = performance.now();
const root = fileURLToPath(new URL('../', import.meta.url));
const require = createRequire(import.meta.url);
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const outFlag = process.argv.indexOf('--out');
const output = outFlag > 0 ? process.argv[outFlag + 1] : join(root, 'dist', `packdesk-${process.platform}-${process.arch}`);
const work = join(root, 'dist', 'sea');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

// CommonJS has no import.meta: its URL is the file's own (the executable, in a single executable application)
const bundleOptions = {
  bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning', minifyWhitespace: true, minifySyntax: true,
  define: { 'import.meta.url': '__packdeskModuleUrl', PACKDESK_BUNDLED_VERSION: JSON.stringify(version) },
  banner: { js: 'const __packdeskModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
};
await build({
  ...bundleOptions,
  stdin: {
    contents: "import { runPackdesk } from './dist/bin/program.js';\nrunPackdesk(process.argv).then((code) => { process.exitCode = code; });\n",
    resolveDir: root, sourcefile: 'packdesk-single-executable.js',
  },
  outfile: join(work, 'packdesk.cjs'),
});
await build({ ...bundleOptions, entryPoints: [join(root, 'dist/src/labels/conversion-worker.js')], outfile: join(work, 'conversion-worker.cjs') });

/** A folder as one JSON asset, `{ relative path: base64 }` (single executables have no folders), without `skip`ped files. */
function folderAsset(dir, name, skip = /\.map$/) {
  const files = {};
  const walk = (sub) => {
    for (const entry of readdirSync(join(dir, sub), { withFileTypes: true })) {
      const path = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else if (!skip.test(path)) files[path] = readFileSync(join(dir, path)).toString('base64');
    }
  };
  walk('');
  writeFileSync(join(work, name), JSON.stringify(files));
  return join(work, name);
}

// the names src/runtime/shipped.ts reads them by
const { SHIPPED_FILES } = await import('../dist/src/runtime/shipped.js');
const assets = {
  ...Object.fromEntries(Object.entries(SHIPPED_FILES).map(([name, file]) => [name, require.resolve(file)])),
  'better_sqlite3.node': join(require.resolve('better-sqlite3/package.json'), '../build/Release/better_sqlite3.node'),
  'conversion-worker.cjs': join(work, 'conversion-worker.cjs'),
  // the migrator reads the SQL files and the journal; drizzle-kit's snapshots are for generating the next migration
  'migrations.json': folderAsset(join(root, 'src/store/migrations'), 'migrations.json', /_snapshot\.json$/),
  'migrations-pg.json': folderAsset(join(root, 'src/store/migrations-pg'), 'migrations-pg.json', /_snapshot\.json$/),
  'desk.json': folderAsset(join(root, 'dist/web'), 'desk.json'),
};
const config = {
  main: join(work, 'packdesk.cjs'), output: join(work, 'sea-prep.blob'), disableExperimentalSEAWarning: true, useCodeCache: true, assets,
};
writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config, null, 2));
execFileSync(process.execPath, ['--experimental-sea-config', join(work, 'sea-config.json')], { stdio: ['ignore', 'ignore', 'inherit'] });

rmSync(output, { force: true });
copyFileSync(process.execPath, output);
chmodSync(output, 0o755);
execFileSync(process.execPath, [require.resolve('postject/dist/cli.js'), output, 'NODE_SEA_BLOB', config.output,
  '--sentinel-fuse', 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'], { stdio: 'ignore' });
const megabytes = (statSync(output).size / 1e6).toFixed(1);
console.log(`${relative(process.cwd(), output) || output}: ${megabytes} MB, built in ${((performance.now() - started) / 1000).toFixed(1)} s (Node ${process.version})`);
