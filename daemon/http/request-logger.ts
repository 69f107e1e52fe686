import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

/**
 * fastify's logger of one request, made when the request first logs through it. fastify makes one for every request
 * and few ever use it (warnings and errors; each request's own line comes from the app's onResponse hook), while a
 * pino child costs every request the serialization of its bindings.
 */
class RequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(private readonly parent: FastifyBaseLogger, private readonly bindings: Bindings, private readonly options: ChildLoggerOptions) {}

  get level(): string {
    return this.logger().level;
  }

  set level(level: string) {
    this.logger().level = level;
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }

  error(...args: unknown[]): void {
    this.write('error', args);
  }

  warn(...args: unknown[]): void {
    this.write('warn', args);
  }

  info(...args: unknown[]): void {
    this.write('info', args);
  }

  debug(...args: unknown[]): void {
    this.write('debug', args);
  }

  trace(...args: unknown[]): void {
    this.write('trace', args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }

  private logger(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  private write(level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', args: unknown[]): void {
    const logger = this.logger();
    Reflect.apply(logger[level], logger, args);
  }
}

/** fastify's `childLoggerFactory`: a request's logger that costs nothing until the request logs. */
export function requestLoggerWhenUsed(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLogger(parent, bindings, options);
}
