import { describe, expect, it } from 'vitest';
import { fairShares, takeFairShares } from '../../src/domain/fair-shares.js';

describe('fair shares of free slots', () => {
  it('gives a party alone every free slot', () => {
    expect(fairShares([0], 64)).toEqual([64]);
    expect(fairShares([10], 54)).toEqual([54]);
  });

  it('splits free slots evenly, the remainder to the parties listed first', () => {
    expect(fairShares([0, 0], 64)).toEqual([32, 32]);
    expect(fairShares([0, 0, 0], 5)).toEqual([2, 2, 1]);
    expect(fairShares([0, 0, 0], 1)).toEqual([1, 0, 0]);
  });

  it('raises the parties holding least first: a freed slot goes to the one that holds none', () => {
    expect(fairShares([63, 0], 1)).toEqual([0, 1]);
    expect(fairShares([56, 0], 8)).toEqual([0, 8]);
    expect(fairShares([40, 4, 10], 20)).toEqual([0, 13, 7]);
    expect(fairShares([30, 30], 4)).toEqual([2, 2]);
  });

  it('shares nothing when no slot is free', () => {
    expect(fairShares([64, 0], 0)).toEqual([0, 0]);
    expect(fairShares([64, 0], -3)).toEqual([0, 0]);
    expect(fairShares([], 8)).toEqual([]);
  });

  it('hands out exactly the free slots, the most to those holding least', () => {
    for (const held of [[0, 3, 7, 7, 20], [5, 5, 5], [1, 100], [0]]) {
      for (const free of [0, 1, 2, 7, 13, 64, 200]) {
        const shares = fairShares(held, free);
        expect(shares.reduce((sum, n) => sum + n, 0), `${held} ${free}`).toBe(free);
        const after = held.map((h, i) => h + shares[i]!);
        // max-min: a party that received slots ends at most one above the party left lowest
        const lowest = Math.min(...after);
        shares.forEach((share, i) => { if (share > 0) expect(after[i], `${held} ${free}`).toBeLessThanOrEqual(lowest + 1); });
      }
    }
  });

  it('hands what a party cannot take to the others, round after round, and names the parties that may take more', async () => {
    const parties = [{ name: 'a', held: 0, has: 2 }, { name: 'b', held: 0, has: 100 }, { name: 'c', held: 5, has: 100 }];
    const open = await takeFairShares(parties, 20, (p) => p.held, async (p, offered) => {
      const got = Math.min(offered, p.has);
      p.has -= got;
      p.held += got;
      return got;
    });
    expect(parties.map((p) => p.held)).toEqual([2, 12, 11]);
    expect(open.map((p) => p.name)).toEqual(['b', 'c']);
  });
});
