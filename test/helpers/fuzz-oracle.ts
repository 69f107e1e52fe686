import type { FuzzAnswer } from './fuzz-http.js';

/** What every answer of the daemon must be, whatever was asked. */
export interface AnswerRules {
  /** The statuses the operation documents; a 503 is allowed only where listed (a carrier unreachable). */
  documentedStatuses: string[];
  /** Provider codes: a 503 must name the carrier it could not reach. */
  providers: string[];
  /** No answer may show these. */
  secrets: string[];
  /** The request line and headers pass Node's 16 KiB limit: the daemon may answer 414/431 and close before reading it all. */
  oversizedHead: boolean;
}

const CUT_OFF = /EPIPE|ECONNRESET|socket hang up/;

const STACK_TRACE = /\n\s+at .+:\d+:\d+/;

function envelopeProblem(status: number, text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'the body is not JSON';
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'the body is not a JSON object';
  const { message, errors, ...rest } = body as Record<string, unknown>;
  if (typeof message !== 'string' || message.trim() === '') return 'no non-empty "message"';
  if (STACK_TRACE.test(message)) return 'the message holds a stack trace';
  if (Object.keys(rest).length > 0) return `fields beside message/errors: ${Object.keys(rest).join(', ')}`;
  if (errors === undefined) return undefined;
  if (status !== 422) return `"errors" on a ${status} (only a 422 carries it)`;
  if (errors === null || typeof errors !== 'object' || Array.isArray(errors)) return '"errors" is not an object';
  for (const [path, messages] of Object.entries(errors)) {
    if (!Array.isArray(messages) || messages.length === 0 || messages.some((m) => typeof m !== 'string' || m === '')) {
      return `errors["${path}"] is not a list of messages`;
    }
  }
  return undefined;
}

function namesACarrier(text: string, providers: string[]): boolean {
  try {
    const message = String((JSON.parse(text) as { message?: unknown }).message ?? '');
    return /\bcarrier\b/i.test(message) || providers.some((code) => new RegExp(`\\b${code}\\b`, 'i').test(message));
  } catch {
    return false; // not the envelope: envelopeProblem says so
  }
}

/** Why the answer breaks the rules of the API, or undefined when it keeps them. */
export function answerProblem(answer: FuzzAnswer, rules: AnswerRules): string | undefined {
  if ('error' in answer) return rules.oversizedHead && CUT_OFF.test(answer.error) ? undefined : `no HTTP answer: ${answer.error}`;
  const text = answer.body.toString('utf8');
  const leaked = rules.secrets.find((secret) => text.includes(secret));
  if (leaked) return 'the answer shows an API key';
  if (answer.status >= 500) {
    const carrierUnavailable = answer.status === 503 && rules.documentedStatuses.includes('503') && namesACarrier(text, rules.providers);
    if (!carrierUnavailable) return `HTTP ${answer.status}`;
  }
  if (answer.status === 204) return answer.body.length === 0 ? undefined : 'a 204 with a body';
  if (answer.status < 300) {
    if (!/json/i.test(answer.contentType)) return undefined; // a label's or a file's bytes
    try {
      JSON.parse(text);
      return undefined;
    } catch {
      return `a ${answer.status} whose JSON body does not parse`;
    }
  }
  if (!/^application\/json\b/i.test(answer.contentType)) return `a ${answer.status} as "${answer.contentType}", not the JSON error envelope`;
  const problem = envelopeProblem(answer.status, text);
  return problem === undefined ? undefined : `a ${answer.status} outside the error envelope: ${problem}`;
}
