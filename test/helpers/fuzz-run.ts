import { appendFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import type { LagFigures } from '../../daemon/http/event-loop.js';
import { answerProblem } from './fuzz-oracle.js';
import { acceptedPlaceProblem } from './fuzz-places.js';
import { describeRequest, fuzzRequests, withCreatedIds, type FuzzRequest, type IdsByCollection } from './fuzz-requests.js';
import type { FuzzAnswer } from './fuzz-http.js';
import type { FuzzTarget } from './fuzz-target.js';

export interface FuzzSettings {
  seed: number;
  numRuns: number;
  /** A counterexample's path to replay (`FUZZ_PATH`), with the seed that found it. */
  path?: string;
  /** Record every distinct failure and go on, instead of stopping at the first and shrinking it. */
  keepGoing: boolean;
  /** A file to which each request, the status it got and how long it took is appended (`FUZZ_TRACE`). */
  trace?: string;
}

export interface FuzzFailure {
  problem: string;
  request: FuzzRequest;
  answer: string;
  /** The daemon's warnings and errors while it was answering. */
  log: string;
  /** The fast-check path that replays it with the run's seed. */
  path: string;
}

export interface FuzzReport {
  settings: FuzzSettings;
  requests: number;
  /** Distinct failures (by operation and problem), the first request of each. */
  failures: FuzzFailure[];
  /** The worst figures /healthz reported over the run. */
  worstLag: LagFigures;
  /** The requests after which /healthz showed the largest new lag, worst first. */
  laggiest: { lagMs: number; request: string }[];
  /** How many answers had each status (`error` when none came), to see what the run reached. */
  statuses: Record<string, number>;
}

/** How long /healthz may take after (and during) any request. */
export const HEALTH_TIMEOUT_MS = 1_000;
/** Longer than the longest wait a request may ask for (`wait=30`). */
const REQUEST_TIMEOUT_MS = 40_000;

/** The run's settings from FUZZ_SEED, FUZZ_RUNS, FUZZ_PATH, FUZZ_KEEP_GOING and FUZZ_TRACE; a fixed seed and 2,000 requests by default. */
export function fuzzSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): FuzzSettings {
  const seed = env.FUZZ_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(env.FUZZ_SEED ?? 20261120);
  return {
    seed, numRuns: Number(env.FUZZ_RUNS ?? 2_000), keepGoing: env.FUZZ_KEEP_GOING === '1',
    ...(env.FUZZ_PATH ? { path: env.FUZZ_PATH } : {}),
    ...(env.FUZZ_TRACE ? { trace: env.FUZZ_TRACE } : {}),
  };
}

function answerText(answer: FuzzAnswer): string {
  if ('error' in answer) return answer.error;
  const text = answer.body.toString('utf8');
  return `${answer.status} ${answer.contentType} ${text.length > 400 ? `${text.slice(0, 400)}… (${text.length} bytes)` : text}`;
}

/** The log lines at warn level or above (pino levels 40–60), cut to a readable length. */
function warningsIn(log: string): string {
  const lines = log.split('\n').filter((line) => /"level":(4|5|6)0\b/.test(line));
  const text = lines.join('\n');
  return text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text;
}

const LAGGIEST_KEPT = 5;
/** Node's default `maxHeaderSize`. */
const MAX_HEADER_BYTES = 16 * 1024;

/** Header values are bytes, one character each. */
function headBytes(request: FuzzRequest): number {
  return Buffer.byteLength(`${request.method} ${request.path} HTTP/1.1\r\n${Object.entries(request.headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}`, 'latin1');
}

/** The collections whose answers name places on the daemon's machine (a watched folder's path, a printer's file: URI). */
const PLACE_COLLECTIONS = /^\w+ \/v1\/(watched-folders|printers)\b/;

/** A place the daemon accepted that lies outside its files root once links are followed (see acceptedPlaceProblem). */
function placeProblem(target: FuzzTarget, request: FuzzRequest, answer: FuzzAnswer): string | undefined {
  if ('error' in answer || answer.status >= 300 || !PLACE_COLLECTIONS.test(request.operation)) return undefined;
  return acceptedPlaceProblem(answer.body.toString('utf8'), target.filesRoot);
}

/** A request that signed the desk out: the run signs it in again, so later requests still reach its checks. */
const signedOut = (request: FuzzRequest, answer: FuzzAnswer) => request.operation === 'DELETE /v1/desk/session' && !('error' in answer) && answer.status === 204;

function noteLag(laggiest: FuzzReport['laggiest'], lagMs: number, request: FuzzRequest): void {
  laggiest.push({ lagMs, request: describeRequest(request, 160) });
  laggiest.sort((a, b) => b.lagMs - a.lagMs).splice(LAGGIEST_KEPT);
}

/** Keeps the id a POST on a collection answered with, for later requests to name. */
function noteCreated(created: IdsByCollection, request: FuzzRequest, answer: FuzzAnswer): void {
  if (request.method !== 'POST' || 'error' in answer || (answer.status !== 201 && answer.status !== 202)) return;
  try {
    const id = (JSON.parse(answer.body.toString('utf8')) as { data?: { id?: unknown } }).data?.id;
    if (typeof id === 'string') (created[request.operation.slice('POST '.length)] ??= []).push(id);
  } catch {
    // not JSON: the oracle says so
  }
}

/** Sends the request while probing /healthz every second: a daemon that stops answering is caught at once, not at a timeout. */
async function sendWatched(target: FuzzTarget, request: FuzzRequest): Promise<{ answer: FuzzAnswer; unresponsive?: string }> {
  const pending = target.send(request, REQUEST_TIMEOUT_MS);
  const stopTicking = new AbortController();
  try {
    for (;;) {
      const first = await Promise.race([pending, sleep(HEALTH_TIMEOUT_MS, 'tick' as const, { signal: stopTicking.signal })]);
      if (first !== 'tick') return { answer: first };
      try {
        await target.health(HEALTH_TIMEOUT_MS);
      } catch (err) {
        return { answer: { error: 'unanswered' }, unresponsive: `the daemon stopped answering /healthz while this request was in flight (${(err as Error).message})` };
      }
    }
  } finally {
    stopTicking.abort();
  }
}

/** Runs generated requests against the daemon and checks each answer and the daemon's health after it. */
export async function runFuzz(target: FuzzTarget, settings: FuzzSettings): Promise<FuzzReport> {
  const byName = new Map(target.operations.map((op) => [op.name, op]));
  const failures = new Map<string, FuzzFailure>();
  const worstLag: LagFigures = { p50: 0, p99: 0, max: 0 };
  const statuses: Record<string, number> = {};
  const laggiest: FuzzReport['laggiest'] = [];
  let lastMax = 0;
  let broken = false;
  let requests = 0;
  let lastFailure: FuzzFailure | undefined;

  const created: IdsByCollection = {};
  const check = async (generated: FuzzRequest): Promise<boolean> => {
    if (broken) return true; // a hung or dead daemon fails everything after it: the first request that did it is the finding
    const request = withCreatedIds(generated, created, target.world);
    const run = requests++;
    if (settings.numRuns >= 10_000 && run % 5_000 === 0) process.stderr.write(`fuzz: ${run}/${settings.numRuns} requests, ${failures.size} failures (FUZZ_SEED=${settings.seed})\n`);
    const logFrom = target.daemon.output().length;
    const sentAt = Date.now();
    const { answer, unresponsive } = await sendWatched(target, request);
    const tookMs = Date.now() - sentAt;
    const status = 'error' in answer ? 'error' : String(answer.status);
    statuses[status] = (statuses[status] ?? 0) + 1;
    noteCreated(created, request, answer);
    if (signedOut(request, answer)) await target.renewDeskSession();
    if (settings.trace) appendFileSync(settings.trace, `${run} ${status} ${tookMs} ms ${describeRequest(request, 300)}\n`);
    let problem = unresponsive ?? answerProblem(answer, {
      documentedStatuses: byName.get(request.operation)?.statuses ?? [], providers: target.providers, secrets: target.secrets,
      oversizedHead: headBytes(request) > MAX_HEADER_BYTES,
    }) ?? placeProblem(target, request, answer);
    if (problem === undefined) {
      try {
        const health = await target.health(HEALTH_TIMEOUT_MS);
        if (health.status !== 200) problem = `/healthz answered ${health.status} after it`;
        for (const figure of ['p50', 'p99', 'max'] as const) worstLag[figure] = Math.max(worstLag[figure], health.lag[figure]);
        if (health.lag.max > lastMax) noteLag(laggiest, health.lag.max, request);
        lastMax = health.lag.max;
      } catch (err) {
        problem = `/healthz did not answer within ${HEALTH_TIMEOUT_MS} ms after it (${(err as Error).message})`;
      }
    }
    const exitCode = target.daemon.child.exitCode ?? target.daemon.child.signalCode;
    if (exitCode !== null) problem = `the daemon ended (${exitCode}) ${problem ? `after ${problem}` : ''}`.trim();
    if (problem === undefined) return true;
    broken ||= unresponsive !== undefined || exitCode !== null || problem.startsWith('/healthz did not answer');
    lastFailure = { problem, request, answer: answerText(answer), log: warningsIn(target.daemon.output().slice(logFrom)), path: String(run) };
    const key = `${request.operation} → ${problem.replace(/\d+ ms|\(.*\)$/g, '')}`;
    if (!failures.has(key)) failures.set(key, lastFailure);
    return settings.keepGoing;
  };

  const details = await fc.check(fc.asyncProperty(fuzzRequests(target.operations, target.world), check), {
    seed: settings.seed, numRuns: settings.numRuns, ...(settings.path ? { path: settings.path } : {}),
  });
  if (!settings.keepGoing && details.failed && lastFailure) {
    // the last failing call is the shrunk counterexample
    return { settings, requests, worstLag, laggiest, statuses, failures: [{ ...lastFailure, path: details.counterexamplePath ?? lastFailure.path }] };
  }
  if (details.failed && !lastFailure) throw new Error(`the fuzz property itself failed: ${String(details.errorInstance)}`);
  return { settings, requests, worstLag, laggiest, statuses, failures: [...failures.values()] };
}

/** The failures as a report a person can replay: seed, path, request, answer. */
export function formatFailures(report: FuzzReport): string {
  const { seed } = report.settings;
  return [
    `${report.failures.length} failure(s) in ${report.requests} requests (FUZZ_SEED=${seed}):`,
    ...report.failures.map((f, i) => [
      `#${i + 1} ${f.problem}`,
      describeRequest(f.request),
      `  answer: ${f.answer}`,
      ...(f.log ? [`  daemon log: ${f.log}`] : []),
      `  replay: FUZZ_SEED=${seed} FUZZ_PATH=${f.path} npx vitest run test/fuzz`,
    ].join('\n')),
  ].join('\n\n');
}
