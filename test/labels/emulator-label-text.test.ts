import { describe, expect, it, vi } from 'vitest';
import { pdfText } from '../helpers/dispatch-adapter.js';

describe('an emulated carrier label', () => {
  it('keeps every letter readable after a label drew that letter only as a part of another (S of Ś)', async () => {
    vi.resetModules();
    // a fresh module: its fonts parsed anew, as in a new emulator process
    const { renderLabel } = await import('../../src/carriers/emulator/labels.js');
    const label = { trackingNumber: '12345678', parcelIndex: 1, parcelCount: 1, sender: ['Praha'] };
    await renderLabel('pdf', { ...label, carrier: 'X', recipient: ['Śląsk, Świętochłowice'] });
    const next = await renderLabel('pdf', { ...label, carrier: 'GLS Poland', recipient: ['GLS ParcelShop PL10033', 'Grzegorz Brzęczyszczykiewicz'] });
    expect(pdfText(next)).toContain('GLS ParcelShop PL10033');
  });
});
