// What the benchmarks share: paths into the compiled code, output lines, child processes and their memory.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const dist = (p) => join(root, 'dist', p);
/** One figure: one JSON line on stdout. */
export const print = (o) => process.stdout.write(JSON.stringify(o) + '\n');
/** The value at `fraction` (0.5 for p50) of ascending times: the nearest rank. */
export const percentile = (sorted, fraction) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
/** Progress: `# …` lines on stderr. */
export const log = (m) => process.stderr.write(`# ${m}\n`);

/** Resident memory of a process in MB (`VmHWM` for its peak). */
export function rssMb(pid, field = 'VmRSS') {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)[1]) / 1024);
}

/**
 * Starts a node script and resolves with `{child, url}` once it logs a JSON line with `"msg":"listening"`. Its stdout
 * keeps being read (and dropped) so it never blocks on a full pipe.
 */
export function startListening(args, env = {}) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let buffer = '';
    let started = false;
    child.stdout.on('data', (chunk) => {
      if (started) return;
      buffer += chunk;
      for (const line of buffer.split('\n')) {
        try {
          const parsed = JSON.parse(line);
          if (parsed.msg === 'listening') {
            started = true;
            buffer = '';
            resolve({ child, url: parsed.url });
          }
        } catch { /* not a complete JSON line */ }
      }
    });
    child.once('exit', (code) => { if (!started) reject(new Error(`${args.join(' ')} exited with ${code}`)); });
  });
}

/** SIGTERM, then wait for the exit. */
export async function stopProcess(child) {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

/** Node flags and environment that load bench/memory-probe.mjs into a process, writing its samples to `file`. */
export const memoryProbe = (file) => ({
  file, nodeArgs: ['--expose-gc', '--import', fileURLToPath(new URL('memory-probe.mjs', import.meta.url))], env: { BENCH_MEMORY_PROBE_FILE: file },
});

/** Collects all garbage in a process started with memoryProbe(file) and resolves with what stays (one probe line). */
export async function probeMemory(child, file) {
  const before = existsSync(file) ? readFileSync(file, 'utf8').length : 0;
  child.kill('SIGUSR2');
  for (let waited = 0; waited < 30_000; waited += 10) {
    const lines = existsSync(file) ? readFileSync(file, 'utf8').slice(before) : '';
    if (lines.endsWith('\n')) return JSON.parse(lines);
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no memory probe answer in ${file} within 30 s`);
}

/** Least-squares slope of `ys` over `xs`. */
export function slope(xs, ys) {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  const sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  return sxx === 0 ? 0 : xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0) / sxx;
}
