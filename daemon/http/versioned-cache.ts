/**
 * Serialized answers, as the bytes sent, kept while their data's version stays the same; least recently used entries go
 * first. A lookup with another version misses, so an entry can never be served stale.
 */
export class VersionedCache {
  private readonly entries = new Map<string, { version: number; body: Buffer }>();

  constructor(private readonly capacity: number) {}

  get(key: string, version: number): Buffer | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.body;
  }

  set(key: string, version: number, body: Buffer): void {
    this.entries.delete(key);
    this.entries.set(key, { version, body });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}
