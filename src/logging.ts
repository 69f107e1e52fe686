import pino, { type Logger, type DestinationStream } from 'pino';

/** Paths whose values never reach a log line. */
const REDACT = [
  'req.headers.authorization', 'headers.authorization', 'authorization', '*.authorization',
  'api_key', '*.api_key', 'apiKey', '*.apiKey', 'secret', '*.secret', 'settings', '*.settings',
  'password', '*.password', 'clientSecret', '*.clientSecret', 'token', '*.token', 'access_token', '*.access_token',
];

export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    { level: options.level ?? process.env.PACKDESK_LOG_LEVEL ?? 'info', base: { service: 'packdesk' }, redact: { paths: REDACT, censor: '[redacted]' } },
    options.destination ?? pino.destination(1),
  );
}
