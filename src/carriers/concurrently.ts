/** How many calls of one shipment (its parcels' labels, one track batch's numbers) a carrier gets at once. */
const CALLS_AT_ONCE = 8;

/**
 * `fn` over every item, at most `limit` running at once, results in the items' order; the first failure rejects and
 * starts nothing more (the calls already running finish unobserved).
 */
export async function mapConcurrently<T, R>(items: readonly T[], fn: (item: T, index: number) => Promise<R>, limit = CALLS_AT_ONCE): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!, index);
      } catch (err) {
        next = items.length; // start nothing more after a failure
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
