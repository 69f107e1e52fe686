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

/**
 * Hands out up to `free` slots max-min fair (see fairShares) among parties that may take fewer than they are offered
 * (they have no more): each is offered its share, and what one leaves goes to the others in the next round. `held`
 * reads what a party holds now; `take` makes it hold more and resolves to how many it took. Resolves to the parties
 * that took all they were offered, which may take more.
 */
export async function takeFairShares<P>(
  parties: readonly P[], free: number, held: (party: P) => number, take: (party: P, offered: number) => Promise<number>,
): Promise<P[]> {
  let left = free;
  let open = [...parties];
  while (left > 0 && open.length > 0) {
    const shares = fairShares(open.map(held), left);
    const more: P[] = [];
    for (const [i, party] of open.entries()) {
      const got = shares[i]! > 0 ? await take(party, shares[i]!) : 0;
      left -= got;
      if (got === shares[i]) more.push(party);
    }
    open = more;
  }
  return open;
}
