import { claimDeviceFlows, nextDeviceFlowPollAt, pollDeviceFlow } from '../../src/services/channel-authorization.js';
import { PollingWorker } from './polling-worker.js';

/** Polls carriers' token endpoints for the device flows people are completing (`channels authorize`). */
export class AuthorizationWorker extends PollingWorker {
  private static readonly CONCURRENCY = 4;

  protected async claimAndStart(): Promise<number> {
    const claimed = await claimDeviceFlows(this.ctx, AuthorizationWorker.CONCURRENCY - this.running.size);
    for (const row of claimed) {
      this.track(pollDeviceFlow(this.ctx, row).catch((err: unknown) => {
        this.ctx.log.error({ err, channel_id: row.channelId }, 'device flow poll failed');
      }));
    }
    return claimed.length;
  }

  protected nextDueAt(): Promise<number | undefined> {
    return nextDeviceFlowPollAt(this.ctx);
  }
}
