import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEYS_CHANGED, authenticate } from '../../src/services/accounts.js';
import { VerifiedKeys } from '../../daemon/http/verified-keys.js';
import { startTestDaemon, type TestDaemon } from '../helpers/harness.js';

describe("the daemon's memory of verified keys", () => {
  let d: TestDaemon;
  beforeAll(async () => {
    d = await startTestDaemon();
  });
  afterAll(() => d.close());

  it('keeps no caller from a check that was under way when keys changed (its answer may predate the change)', async () => {
    const keys = new VerifiedKeys(d.ctx);
    try {
      const shop = await d.account('Racing shop');
      const began = keys.checkBegins();
      const who = await authenticate(d.ctx, shop.key);
      d.ctx.notices.emit(API_KEYS_CHANGED);
      keys.remember(shop.key, who, began);
      expect(keys.callerOf(shop.key)).toBeUndefined();

      keys.remember(shop.key, who, keys.checkBegins());
      expect(keys.callerOf(shop.key)).toEqual(who);
    } finally {
      keys.close();
    }
  });
});
