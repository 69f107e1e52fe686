import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONTRACT_PARTS, shippingStories } from './story.js';

describe('the shipping story', () => {
  it(`runs in ${CONTRACT_PARTS} files, so every provider has its story`, () => {
    const parts = readdirSync(new URL('.', import.meta.url)).filter((n) => /^part-\d+\.test\.ts$/.test(n)).sort();
    expect(parts).toEqual(Array.from({ length: CONTRACT_PARTS }, (_, i) => `part-${i + 1}.test.ts`));
  });
});

shippingStories(1);
