import { signal } from './signal';

/** Whether the daemon answers; while it does not, a banner shows and forms keep what was typed. */
export const reachable = signal(true);

export type LiveKind = 'printer' | 'print_job' | 'shipment' | 'ready';
type Listener = (kind: LiveKind, id: string | undefined) => void;
const listeners = new Set<Listener>();
let source: EventSource | undefined;
let retry: ReturnType<typeof setTimeout> | undefined;

/** Server-Sent Events of the desk's account (GET /v1/desk/events); EventSource reconnects after a daemon restart. */
export function startLive(): void {
  if (source) return;
  source = new EventSource('/v1/desk/events');
  const emit = (kind: LiveKind) => (event: MessageEvent<string>) => {
    reachable.set(true);
    const id = (JSON.parse(event.data) as { id?: string }).id;
    for (const listener of listeners) listener(kind, id);
  };
  for (const kind of ['printer', 'print_job', 'shipment', 'ready'] as const) source.addEventListener(kind, emit(kind));
  source.onerror = () => {
    reachable.set(false);
    // EventSource gives up for good after an answer that is not a stream (a 503 while the daemon stops): start anew
    if (source?.readyState === EventSource.CLOSED) {
      stopLive();
      retry = setTimeout(startLive, 2000);
    }
  };
}

export function stopLive(): void {
  clearTimeout(retry);
  source?.close();
  source = undefined;
}

/** Calls `listener` on every change; `ready` comes after each (re)connection, when anything may have changed. */
export function onLive(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
