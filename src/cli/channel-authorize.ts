import { setTimeout as sleep } from 'node:timers/promises';
import type { Command } from 'commander';
import type { ChannelAuthorization } from './api-types.js';
import { ApiClient } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { printJson, printRecord } from './output.js';
import { action } from './run.js';

const POLL_MS = 2000;

/** `packdesk channels authorize ch_…`: a person approves packdesk at the carrier (OAuth2 device flow). */
export function registerAuthorizeCommand(channels: Command): void {
  channels.command('authorize')
    .description('connect a channel whose carrier acts for a person (Allegro): shows a URL and a code, waits for approval')
    .argument('<id>', 'channel id (ch_…)')
    .option('--no-wait', 'print the URL and code and return at once')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { wait: boolean; json?: boolean }) => {
      const client = ApiClient.fromConfig();
      const path = `/v1/shipping-channels/${encodeURIComponent(id)}`;
      const { body: started } = await client.post<{ data: ChannelAuthorization }>(`${path}/authorize`);
      let authorization = started.data;
      if (!o.json) {
        process.stdout.write(`Open ${authorization.verification_uri_complete ?? authorization.verification_uri} and enter the code ${authorization.user_code}\n`);
        process.stdout.write(`(the code expires at ${authorization.expires_at})\n`);
      }
      while (o.wait && authorization.status === 'pending') {
        await sleep(POLL_MS);
        authorization = (await client.get<{ data: ChannelAuthorization }>(`${path}/authorization`)).body.data;
      }
      if (o.json) printJson(authorization);
      else if (authorization.status !== 'pending') printRecord({ status: authorization.status, message: authorization.message, 'authorized at': authorization.authorized_at });
      if (authorization.status !== 'pending' && authorization.status !== 'authorized') {
        throw new CliError(authorization.message ?? `the authorization ended ${authorization.status}`, EXIT.failure);
      }
    }));
}
