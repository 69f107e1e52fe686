import { readyStatus, type PrinterStatus } from './types.js';

/**
 * Zebra's host status (`~HS`), as the ZPL II Programming Guide describes the answer: three lines, each
 * `<STX>…<ETX><CR><LF>`, of comma-separated fields.
 *   1: aaa,b,c,dddd,eee,f,g,h,iii,j,k,l — b paper out, c pause, dddd label length (dots), eee formats in the receive
 *      buffer, f buffer full, g diagnostic mode, h partial format, iii unused, j corrupt RAM, k under temperature, l over temperature
 *   2: mmm,n,o,p,q,r,s,t,uuuuuuuu,v,www — o head up, p ribbon out, q thermal transfer mode, r print mode, s print width
 *      mode, t label waiting, uuuuuuuu labels remaining in batch, v format while printing, www graphics stored
 *   3: xxxx,y — password, static RAM installed
 */
export const HOST_STATUS_QUERY = '~HS';

const STX = '\x02';
const ETX = '\x03';

export interface ZebraHostStatus {
  paperOut: boolean;
  paused: boolean;
  headOpen: boolean;
  ribbonOut: boolean;
  bufferFull: boolean;
  underTemperature: boolean;
  overTemperature: boolean;
  corruptRam: boolean;
  labelLengthDots: number;
  formatsInBuffer: number;
  labelsRemaining: number;
}

/** The `<STX>…<ETX>` frames received so far. */
export function hostStatusFrames(text: string): string[] {
  const frames: string[] = [];
  let from = 0;
  for (;;) {
    const start = text.indexOf(STX, from);
    if (start === -1) return frames;
    const end = text.indexOf(ETX, start + 1);
    if (end === -1) return frames;
    frames.push(text.slice(start + 1, end));
    from = end + 1;
  }
}

/** Parses the three frames of a `~HS` answer; undefined when they are not what a Zebra sends. */
export function parseHostStatus(frames: readonly string[]): ZebraHostStatus | undefined {
  if (frames.length < 3) return undefined;
  const first = frames[0]!.split(',').map((f) => f.trim());
  const second = frames[1]!.split(',').map((f) => f.trim());
  if (first.length < 12 || second.length < 11) return undefined;
  const flag = (value: string | undefined) => value === '1';
  const int = (value: string | undefined) => (value !== undefined && /^\d+$/.test(value) ? Number(value) : 0);
  return {
    paperOut: flag(first[1]), paused: flag(first[2]), labelLengthDots: int(first[3]), formatsInBuffer: int(first[4]),
    bufferFull: flag(first[5]), corruptRam: flag(first[9]), underTemperature: flag(first[10]), overTemperature: flag(first[11]),
    headOpen: flag(second[2]), ribbonOut: flag(second[3]) && flag(second[4]), labelsRemaining: int(second[8]),
  };
}

/** The problems that keep a Zebra from printing, in the order people should fix them. */
export function zebraProblems(s: ZebraHostStatus): string[] {
  const problems: [boolean, string][] = [
    [s.headOpen, 'head_open'], [s.paperOut, 'paper_out'], [s.ribbonOut, 'ribbon_out'], [s.paused, 'paused'],
    [s.overTemperature, 'head_too_hot'], [s.underTemperature, 'head_too_cold'], [s.corruptRam, 'corrupt_ram'],
  ];
  return problems.filter(([on]) => on).map(([, name]) => name);
}

const PROBLEM_TEXT: Record<string, string> = {
  head_open: 'print head open', paper_out: 'paper out', ribbon_out: 'ribbon out', paused: 'paused',
  head_too_hot: 'print head too hot', head_too_cold: 'print head too cold', corrupt_ram: 'memory corrupt',
};

export function zebraPrinterStatus(s: ZebraHostStatus): PrinterStatus {
  const problems = zebraProblems(s);
  const detail = {
    protocol: 'zebra_host_status', paper_out: s.paperOut, paused: s.paused, head_open: s.headOpen, ribbon_out: s.ribbonOut,
    buffer_full: s.bufferFull, formats_in_buffer: s.formatsInBuffer, labels_remaining: s.labelsRemaining,
  };
  if (problems.length === 0) return readyStatus('ready', detail);
  return { state: 'offline', reachable: true, problems, message: problems.map((p) => PROBLEM_TEXT[p] ?? p).join(', '), detail };
}
