import { describe, expect, it } from 'vitest';
import { listProviders, missingParts } from '../../src/carriers/registry.js';
import type { ProviderDefinition } from '../../src/carriers/types.js';

describe('the provider registry', () => {
  it('holds all 15 providers, each complete', () => {
    expect(listProviders()).toHaveLength(15);
    for (const p of listProviders()) expect(missingParts(p), p.code).toEqual([]);
  });

  it('names what a provider lacks, so start-up stops on an incomplete one', () => {
    const ppl = listProviders().find((p) => p.code === 'ppl')!;
    const { adapter: _adapter, ...withoutAdapter } = ppl;
    expect(missingParts(withoutAdapter as ProviderDefinition)).toEqual(['adapter']);
    const { emulator: _emulator, demo: _demo, ...withoutEmulator } = ppl;
    expect(missingParts(withoutEmulator as ProviderDefinition)).toEqual(['emulator', 'demo']);
    expect(missingParts({ ...ppl, adapter: { ...ppl.adapter, cancel: undefined } })).toEqual(['adapter.cancel']);
  });
});
