import { describe, expect, it } from 'vitest';
import { parsePrinterUri } from '../../printers/index.js';
import { ippPrinterStatus } from '../../printers/ipp-status.js';
import { hostStatusFrames, parseHostStatus, zebraPrinterStatus } from '../../printers/zebra-status.js';
import { printRetryDelay } from '../../src/services/printing/print-queue.js';
import { hostStatusAnswer } from '../helpers/zebra.js';

describe('Zebra host status (~HS)', () => {
  it('reads paper out, pause and head up from the three frames', () => {
    const frames = hostStatusFrames(hostStatusAnswer({ paperOut: true, paused: false, headOpen: true }));
    expect(frames).toHaveLength(3);
    const status = parseHostStatus(frames)!;
    expect(status).toMatchObject({ paperOut: true, paused: false, headOpen: true, labelLengthDots: 1218 });
    expect(zebraPrinterStatus(status)).toMatchObject({ state: 'offline', reachable: true, problems: ['head_open', 'paper_out'], message: 'print head open, paper out' });
  });

  it('is ready when no flag is up, and waits for all three frames', () => {
    const answer = hostStatusAnswer({ paperOut: false, paused: false, headOpen: false });
    expect(parseHostStatus(hostStatusFrames(answer.slice(0, answer.lastIndexOf('\x02'))))).toBeUndefined();
    expect(zebraPrinterStatus(parseHostStatus(hostStatusFrames(answer))!)).toMatchObject({ state: 'ready', problems: [] });
  });

  it('refuses frames that are not a host status', () => {
    expect(parseHostStatus(['hello', 'world', '!'])).toBeUndefined();
  });
});

describe('IPP printer status', () => {
  it('is ready when idle or processing with harmless reasons', () => {
    expect(ippPrinterStatus({ 'printer-state': 'idle', 'printer-state-reasons': 'none' })).toMatchObject({ state: 'ready', problems: [] });
    expect(ippPrinterStatus({ 'printer-state': 4, 'printer-state-reasons': ['media-low-warning', 'toner-low-report'] }).state).toBe('ready');
  });

  it('is not ready when stopped, paused, out of media or not accepting jobs', () => {
    expect(ippPrinterStatus({ 'printer-state': 'stopped', 'printer-state-reasons': ['paused'] })).toMatchObject({ state: 'offline', reachable: true, problems: ['stopped', 'paused'] });
    expect(ippPrinterStatus({ 'printer-state': 'idle', 'printer-state-reasons': 'media-empty-error' }).problems).toEqual(['media-empty']);
    expect(ippPrinterStatus({ 'printer-state': 'idle', 'printer-state-reasons': 'none', 'printer-is-accepting-jobs': false }).problems).toEqual(['not-accepting-jobs']);
  });
});

describe('printer URIs', () => {
  it('takes tcp, ipp, ipps and file URIs', () => {
    for (const uri of ['tcp://192.168.1.50:9100', 'tcp://zebra.local', 'ipp://printer.local:631/ipp/print', 'ipps://cups.local/printers/zebra', 'file:///var/spool/labels']) {
      expect(parsePrinterUri(uri), uri).toHaveProperty('uri');
    }
  });

  it('says why a URI cannot be used', () => {
    expect(parsePrinterUri('lpd://host/q')).toEqual({ error: 'scheme lpd is not supported (tcp, ipp, ipps or file)' });
    expect(parsePrinterUri('not a uri')).toHaveProperty('error');
    expect(parsePrinterUri('tcp://host:9100/path')).toEqual({ error: 'tcp URIs are host and port only: tcp://host:9100' });
    expect(parsePrinterUri('ipp://user:secret@host/ipp/print')).toEqual({ error: 'must not hold credentials' });
    expect(parsePrinterUri('file:///')).toHaveProperty('error');
  });

  it('refuses a file URI whose path cannot be decoded to a directory, saying why', () => {
    const slash = 'file URIs must not hold an encoded slash (%2F): write / between directories';
    const percent = 'file URIs may use % only to escape UTF-8 bytes as %XX (write % itself as %25)';
    expect(parsePrinterUri('file:///srv/labels%2fzebra')).toEqual({ error: slash });
    expect(parsePrinterUri('file:///srv/labels%2Fzebra')).toEqual({ error: slash });
    for (const uri of ['file:///srv/labels/%', 'file:///srv/labels/%zz', 'file:///srv/labels/%ff', 'file:///srv/50%']) expect(parsePrinterUri(uri), uri).toEqual({ error: percent });
    expect(parsePrinterUri('file:///srv/labels%00')).toEqual({ error: 'file URIs must not name a directory with control characters (%00–%1F, %7F)' });
    expect(parsePrinterUri('file:///srv/labels?copies=2')).toEqual({ error: 'file URIs take no query or fragment (write ? as %3F and # as %23)' });
    expect(parsePrinterUri('file:///srv/labels#top')).toHaveProperty('error');
    for (const uri of ['file:///srv/50%25%20off', 'file://localhost/srv/labels', 'file:///srv/%C5%98epy']) expect(parsePrinterUri(uri), uri).toHaveProperty('uri');
  });
});

describe('print retry backoff', () => {
  it('steps 5 s, 15 s, 30 s, 1 min, 2 min, 5 min, then 10 min as the job keeps waiting, each ±20 %, at most 10 min', () => {
    const middle = () => 0.5;
    const waited = [0, 5_000, 20_000, 50_000, 110_000, 230_000, 530_000, 3600_000, 23 * 3600_000];
    expect(waited.map((ms) => printRetryDelay(ms, middle))).toEqual([5_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 600_000, 600_000]);
    expect(printRetryDelay(4_999, middle)).toBe(5_000);
    expect(printRetryDelay(0, () => 0)).toBe(4_000);
    expect(printRetryDelay(0, () => 1)).toBe(6_000);
    expect(printRetryDelay(3600_000, () => 1)).toBe(600_000);
  });
});
