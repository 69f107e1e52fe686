import type { Command } from 'commander';
import type { Provider } from './api-types.js';
import { ApiClient } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { printJson, printRecord, printTable } from './output.js';
import { describeProduct, fetchProviders, productsOfProvider, type Products } from './product-names.js';
import { action } from './run.js';

/** `cancel` of a provider or channel view: yes, or no with the reason the API gives. */
export function describeCancel(capabilities: Pick<Provider, 'cancel' | 'unavailable_because'>): string {
  return capabilities.cancel ? 'yes' : `no: ${capabilities.unavailable_because.cancel ?? 'not offered'}`;
}

export function findProviderOrFail(providers: Provider[], code: string): Provider {
  const found = providers.find((p) => p.code === code);
  if (!found) throw new CliError(`unknown provider ${code} (one of ${providers.map((p) => p.code).join(', ')})`, EXIT.notFound);
  return found;
}

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

/** One row per provider, narrow enough for 100 columns: long region lists wrap (`providers show` has the rest). */
function printProviderTable(providers: Provider[]): void {
  printTable(
    ['code', 'name', 'regions', 'labels', 'COD', 'parcels', 'cancel'],
    providers.map((p) => [
      p.code, p.name, p.regions.join(' '), p.label_formats.join(' '), yesNo(p.cash_on_delivery),
      p.multi_parcel ? `≤ ${p.max_parcels}` : '1', yesNo(p.cancel),
    ]),
  );
}

function printProviderDetail(p: Provider, products: Products): void {
  printRecord({
    code: p.code, name: p.name, regions: p.regions.join(', '), 'label formats': p.label_formats.join(', '),
    COD: yesNo(p.cash_on_delivery), 'multi-parcel': p.multi_parcel ? `yes (max ${p.max_parcels})` : 'no',
    'cancel (default settings)': describeCancel(p),
  });
  process.stdout.write('\nsettings\n');
  printTable(
    ['key', 'type', 'required', 'secret', 'default', 'description'],
    p.settings.map((s) => [
      s.key, s.type, yesNo(s.required), yesNo(s.secret), s.default,
      s.enum ? `${s.description} (one of ${s.enum.map((v) => (s.key === products.settingKey ? describeProduct(v, products) : v)).join(', ')})` : s.description,
    ]),
  );
  const named = Object.keys(products.names);
  if (named.length === 0) return;
  process.stdout.write('\nproducts\n');
  for (const code of named) process.stdout.write(`  ${describeProduct(code, products)}\n`);
}

/** `packdesk providers` (= `providers list`) and `packdesk providers show CODE`. */
export function registerProviderCommands(program: Command): void {
  const list = async (o: { json?: boolean }) => {
    const providers = await fetchProviders(ApiClient.fromConfig());
    if (o.json) printJson(providers);
    else printProviderTable(providers);
  };

  const providers = program.command('providers')
    .description('the carrier providers, their capabilities and settings')
    .option('--json', 'print JSON')
    .action(action(list));

  // `--json` after a subcommand is taken by `providers` itself, hence optsWithGlobals().
  providers.command('list')
    .description('list the providers (same as `packdesk providers`)')
    .option('--json', 'print JSON')
    .action(action(async (_o: { json?: boolean }, cmd: Command) => list(cmd.optsWithGlobals())));

  providers.command('show')
    .description("a provider's capabilities and settings schema")
    .argument('<code>', 'provider code, e.g. dhl')
    .option('--json', 'print JSON')
    .action(action(async (code: string, _o: { json?: boolean }, cmd: Command) => {
      const provider = findProviderOrFail(await fetchProviders(ApiClient.fromConfig()), code);
      if (cmd.optsWithGlobals<{ json?: boolean }>().json) printJson(provider);
      else printProviderDetail(provider, productsOfProvider(provider));
    }));
}
