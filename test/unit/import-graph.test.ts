import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The project's own modules each file imports at run time (`import type` is erased, so it makes no circle). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)(?!\s+type\b)[^;]*?from\s+'(\.{1,2}\/[^']+)\.js';/gms)]
    .map((m) => resolve(dirname(file), `${m[1]}.ts`));
}

/** Every circle of imports, as the files along it (relative to the repository). */
function circles(files: string[]): string[][] {
  const graph = new Map(files.map((f) => [f, importsOf(f).filter((to) => files.includes(to))]));
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push(path.slice(path.indexOf(next)).map((f) => relative(ROOT, f)));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return found;
}

describe('the import graph', () => {
  it('has no circles: every dependency between modules runs one way', () => {
    const files = ['src', 'daemon', 'printers', 'bin'].flatMap((dir) => sources(join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(100);
    expect(circles(files)).toEqual([]);
  });
});
