/**
 * Max-min fair shares of `free` slots among parties that already hold `held[i]` each: the parties holding least are
 * raised first, all toward one level, so no party gets a slot while another holds fewer and could take it. Slots that
 * do not divide evenly go to the parties listed first among those at the lowest level. Returns each party's share.
 */
export function fairShares(held: readonly number[], free: number): number[] {
  const order = held.map((_, i) => i).sort((a, b) => held[a]! - held[b]! || a - b);
  let level = order.length > 0 ? held[order[0]!]! : 0;
  let left = Math.max(0, free);
  // how many parties (a prefix of `order`) are at `level`, once raised
  let raised = 0;
  while (left > 0 && order.length > 0) {
    while (raised < order.length && held[order[raised]!]! <= level) raised++;
    const next = raised < order.length ? held[order[raised]!]! : Infinity;
    const step = Math.min(next - level, Math.floor(left / raised));
    if (step === 0) break;
    level += step;
    left -= step * raised;
  }
  const shares = held.map(() => 0);
  order.slice(0, raised).forEach((i, k) => {
    shares[i] = level - held[i]! + (k < left ? 1 : 0);
  });
  return shares;
}
