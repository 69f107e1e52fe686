import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedPlaceProblem, makeLinkedPlaces } from '../helpers/fuzz-places.js';
import { parseRawAnswer } from '../helpers/fuzz-http.js';

/** The fuzz suite's newer parts: an oracle that fails a place outside the files root, and answers read off a raw socket. */
describe('acceptedPlaceProblem', () => {
  let tmp: string;
  let root: string;
  let links: string;
  const answer = (data: unknown) => JSON.stringify({ data });

  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'fuzz-places-'));
    root = join(tmp, 'files');
    links = join(root, 'links');
    mkdirSync(join(root, 'inside'), { recursive: true });
    makeLinkedPlaces({ at: links, dataDir: join(tmp, 'data'), outside: join(tmp, 'outside'), othersFolder: join(root, 'other'), inside: join(root, 'inside') });
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('passes a folder or file printer that stays in the files root, links followed', () => {
    expect(acceptedPlaceProblem(answer({ path: join(root, 'inside', 'new') }), root)).toBeUndefined();
    expect(acceptedPlaceProblem(answer({ path: join(links, 'to-inside', 'new') }), root)).toBeUndefined();
    expect(acceptedPlaceProblem(answer([{ uri: pathToFileURL(join(root, 'inside')).href }, { uri: 'tcp://127.0.0.1:9' }]), root)).toBeUndefined();
  });

  it('fails one whose links lead out of the root, also after a `..` the kernel takes after the link', () => {
    expect(acceptedPlaceProblem(answer({ path: join(links, 'to-etc') }), root)).toBe(`accepted ${join(links, 'to-etc')}, which leads to /etc, outside the files root`);
    expect(acceptedPlaceProblem(answer([{ path: join(root, 'inside') }, { path: join(links, 'to-outside', 'new-folder') }]), root)).toContain(join(tmp, 'outside', 'new-folder'));
    expect(acceptedPlaceProblem(answer({ path: `${links}/to-inside/../../..` }), root)).toContain(`which leads to ${tmp},`);
    expect(acceptedPlaceProblem(answer({ uri: pathToFileURL(join(links, 'to-data')).href }), root)).toContain(join(tmp, 'data'));
    // the data directory does not exist yet here: a dangling link leads where creating the folder would go
    expect(acceptedPlaceProblem(answer({ path: join(links, 'dangling', 'below') }), root)).toContain(join(tmp, 'outside', 'nowhere', 'below'));
  });

  it('fails a file printer URI that names no directory', () => {
    expect(acceptedPlaceProblem(answer({ uri: `${pathToFileURL(root).href}/%zz` }), root)).toMatch(/^accepted the printer URI .*%zz, which names no directory/);
  });
});

describe('parseRawAnswer', () => {
  it('reads a status, the content type and a body by its length or in chunks', () => {
    const plain = parseRawAnswer(Buffer.from('HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{"message":1}trailing'));
    expect(plain).toEqual({ status: 400, contentType: 'application/json', body: Buffer.from('{"message":1}') });
    const chunked = parseRawAnswer(Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: text/csv\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n'));
    expect(chunked).toEqual({ status: 200, contentType: 'text/csv', body: Buffer.from('abcde') });
  });

  it('says when no answer or no HTTP came back', () => {
    expect(parseRawAnswer(Buffer.alloc(0))).toEqual({ error: 'the daemon closed the connection without an answer' });
    expect(parseRawAnswer(Buffer.from('HTTP/1.1 200 OK\r\nContent-'))).toEqual({ error: 'the answer ended in its head' });
    expect(parseRawAnswer(Buffer.from('SSH-2.0-OpenSSH\r\n\r\n'))).toEqual({ error: 'not an HTTP status line: "SSH-2.0-OpenSSH"' });
  });
});
