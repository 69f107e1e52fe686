import { useEffect, useState } from 'preact/hooks';

/** A value components re-render on (language, the daemon being unreachable). */
export interface Signal<T> {
  get(): T;
  set(value: T): void;
  subscribe(listener: (value: T) => void): () => void;
}

export function signal<T>(initial: T): Signal<T> {
  let value = initial;
  const listeners = new Set<(value: T) => void>();
  return {
    get: () => value,
    set(next) {
      if (Object.is(next, value)) return;
      value = next;
      for (const listener of listeners) listener(value);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function useSignal<T>(s: Signal<T>): T {
  const [value, setValue] = useState(s.get());
  useEffect(() => s.subscribe(setValue), [s]);
  return value;
}
