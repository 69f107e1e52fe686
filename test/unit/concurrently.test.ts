import { describe, expect, it } from 'vitest';
import { mapConcurrently } from '../../src/carriers/concurrently.js';

/** A call that resolves only when the test lets it, so how many run at once can be seen. */
function gatedCalls() {
  const open: { item: number; resolve: (value: string) => void; reject: (err: Error) => void }[] = [];
  const started: number[] = [];
  const call = (item: number) => new Promise<string>((resolve, reject) => {
    started.push(item);
    open.push({ item, resolve, reject });
  });
  return { open, started, call };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('calls to a carrier made concurrently', () => {
  it('runs at most the limit at once and answers in the items\' order, whatever order the calls finish in', async () => {
    const { open, started, call } = gatedCalls();
    const all = mapConcurrently([1, 2, 3, 4, 5], call, 2);
    await settled();
    expect(started).toEqual([1, 2]);
    open.find((c) => c.item === 2)!.resolve('two');
    await settled();
    expect(started).toEqual([1, 2, 3]);
    for (const item of [3, 1]) open.find((c) => c.item === item)!.resolve(`#${item}`);
    await settled();
    expect(started).toEqual([1, 2, 3, 4, 5]);
    for (const item of [5, 4]) open.find((c) => c.item === item)!.resolve(`#${item}`);
    expect(await all).toEqual(['#1', 'two', '#3', '#4', '#5']);
  });

  it('starts nothing more once a call failed, and rejects with that failure', async () => {
    const { open, started, call } = gatedCalls();
    const all = mapConcurrently([1, 2, 3, 4], call, 2);
    await settled();
    open[0]!.reject(new Error('carrier refused parcel 1'));
    await expect(all).rejects.toThrow('carrier refused parcel 1');
    open[1]!.resolve('late');
    await settled();
    expect(started).toEqual([1, 2]);
  });
});
