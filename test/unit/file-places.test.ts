import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPlace, type FilesPolicy } from '../../src/files/places.js';
import { resolveFilesRoots } from '../../src/files/roots.js';

describe('the files policy', () => {
  const root = mkdtempSync(join(tmpdir(), 'packdesk-policy-'));
  const dataDir = join(root, 'data');
  mkdirSync(dataDir);
  const policy = (extra: Partial<FilesPolicy> = {}): FilesPolicy => ({ roots: [root], dataDir, heldByOthers: [], ...extra });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('lets an account use a directory that does not exist yet under a root, and answers where it really is', async () => {
    mkdirSync(join(root, 'real'));
    symlinkSync(join(root, 'real'), join(root, 'alias'));
    expect(await checkPlace(join(root, 'alias', 'shop', 'in'), policy())).toEqual({ problems: [], realPath: join(root, 'real', 'shop', 'in') });
    expect(await checkPlace(`${root}/real/../real/`, policy())).toEqual({ problems: [], realPath: join(root, 'real') });
  });

  it('refuses a relative path without looking at the working directory', async () => {
    expect(await checkPlace('orders/in', policy({ roots: [resolve('.')] }))).toEqual({
      problems: ['must be an absolute path (the daemon resolves nothing against its own working directory)'], realPath: undefined,
    });
  });

  it('refuses a path through a broken symbolic link', async () => {
    symlinkSync(join(root, 'nowhere'), join(root, 'broken'));
    expect((await checkPlace(join(root, 'broken', 'labels'), policy())).problems).toEqual(['leads through a broken symbolic link']);
  });

  it('refuses kernel file systems by their type, not only by their path', async () => {
    const { problems } = await checkPlace('/sys/fs/packdesk', policy({ roots: ['/'] }));
    expect(problems).toEqual(['lies in /sys, a system directory the daemon never writes to', 'is on a sysfs file system, which the daemon never writes to']);
  });

  it('names what lies in the way under a path', async () => {
    writeFileSync(join(root, 'export.csv'), '');
    expect((await checkPlace(join(root, 'export.csv', 'in', 'x'), policy())).problems).toEqual([`lies under ${join(root, 'export.csv')}, which is a file, not a directory`]);
  });

  it('refuses a directory another account holds, contains or lies in, also when reached through a symbolic link', async () => {
    const theirs = join(root, 'theirs');
    mkdirSync(theirs);
    symlinkSync(theirs, join(root, 'their-alias'));
    const held = policy({ heldByOthers: [theirs], dataDir: join(tmpdir(), 'packdesk-policy-data-elsewhere') });
    for (const path of [theirs, join(theirs, 'in'), `${root}/`, join(root, 'their-alias', 'labels')]) {
      expect((await checkPlace(path, held)).problems, path).toEqual(['is used by another account']);
    }
    expect((await checkPlace(join(root, 'mine'), held)).problems).toEqual([]);
    // another account's folder given through a link is found by where it really is
    expect((await checkPlace(join(theirs, 'x'), policy({ heldByOthers: [join(root, 'their-alias')] }))).problems).toEqual(['is used by another account']);
  });

  it('takes the files roots from --files-root, else $PACKDESK_FILES_ROOT, else the home directory', () => {
    expect(resolveFilesRoots(['/srv/orders', 'labels'], '/ignored')).toEqual(['/srv/orders', resolve('labels')]);
    expect(resolveFilesRoots([], '/srv/orders::/srv/labels')).toEqual(['/srv/orders', '/srv/labels']);
    expect(resolveFilesRoots([], undefined)).toEqual([homedir()]);
    expect(resolveFilesRoots([], '')).toEqual([homedir()]);
  });
});
