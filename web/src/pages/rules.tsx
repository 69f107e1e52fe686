import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, call, data, errorText, runAction, type Channel, type ShippingRule, type ShippingRuleBody } from '../api';
import { readDecimal } from '../decimal';
import { useChannels } from '../hooks';
import { t } from '../i18n';
import { Chip, Field } from './parts';

type Conditions = ShippingRule['conditions'];
type RuleAction = ShippingRule['action'];
type Range = NonNullable<Conditions['weight_kg']>;

/** The conditions this page puts in words and its form sets; the others show as JSON. */
const WORDED = new Set(['destination_countries', 'destination_postal_code_prefixes', 'weight_kg', 'cash_on_delivery', 'pickup_point', 'reference_pattern']);

function weightWords(range: Range): string {
  if (range.min != null && range.max != null) return t('rules.weightRange', { min: range.min, max: range.max });
  return range.min != null ? t('rules.weightMin', { min: range.min }) : t('rules.weightMax', { max: range.max ?? '' });
}

/** The common conditions of a rule in words, and the rest as JSON text. */
function ConditionWords({ conditions }: { conditions: Conditions }) {
  const c = conditions;
  const words = [
    c.destination_countries && t('rules.to', { countries: c.destination_countries.join(', ') }),
    c.destination_postal_code_prefixes && t('rules.postal', { prefixes: c.destination_postal_code_prefixes.map((p) => `${p}…`).join(', ') }),
    c.weight_kg && weightWords(c.weight_kg),
    c.cash_on_delivery != null && t(c.cash_on_delivery ? 'rules.withCod' : 'rules.withoutCod'),
    c.pickup_point != null && t(c.pickup_point ? 'rules.toPoint' : 'rules.toDoor'),
    c.reference_pattern && t('rules.reference', { pattern: c.reference_pattern }),
  ].filter((w): w is string => Boolean(w));
  const others = Object.fromEntries(Object.entries(c).filter(([key]) => !WORDED.has(key)));
  if (words.length === 0 && Object.keys(others).length === 0) return <span data-name="when">{t('rules.always')}</span>;
  return (
    <span data-name="when">
      {words.join('; ')}
      {Object.keys(others).length > 0 && <code class="other-conditions" title={t('rules.other')}>{JSON.stringify(others)}</code>}
    </span>
  );
}

function actionWords(action: RuleAction, channels: Channel[]): string {
  const name = (id: string) => channels.find((c) => c.id === id)?.name ?? id;
  if (action.type === 'use_channel' && 'shipping_channel_id' in action) return t('rules.use', { channel: name(action.shipping_channel_id) });
  const ids = 'shipping_channel_ids' in action ? action.shipping_channel_ids : [];
  return t(action.type === 'fastest' ? 'rules.fastest' : 'rules.cheapest', { channels: ids.map(name).join(', ') });
}

/** What the add form holds, as typed. */
interface Draft {
  name: string;
  countries: string;
  cod: '' | 'yes' | 'no';
  minWeight: string;
  maxWeight: string;
  reference: string;
  action: RuleAction['type'];
  channels: string[];
}

const EMPTY: Draft = { name: '', countries: '', cod: '', minWeight: '', maxWeight: '', reference: '', action: 'use_channel', channels: [] };

/** A weight as typed; text that is no number goes as typed, for the API to name its field (NaN would go as null: an open end). */
function weightOf(text: string): number | undefined {
  const value = readDecimal(text);
  return value !== undefined && Number.isNaN(value) ? (text as unknown as number) : value;
}

function bodyOf(d: Draft): ShippingRuleBody {
  const conditions: Conditions = {};
  const countries = d.countries.split(/[\s,;]+/).filter(Boolean).map((c) => c.toUpperCase());
  if (countries.length) conditions.destination_countries = countries;
  const [min, max] = [weightOf(d.minWeight), weightOf(d.maxWeight)];
  if (min !== undefined || max !== undefined) conditions.weight_kg = { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
  if (d.cod) conditions.cash_on_delivery = d.cod === 'yes';
  if (d.reference.trim()) conditions.reference_pattern = d.reference.trim();
  const action: RuleAction = d.action === 'use_channel'
    ? { type: 'use_channel', shipping_channel_id: d.channels[0] ?? '' }
    : { type: d.action, shipping_channel_ids: d.channels };
  return { name: d.name, conditions, action };
}

/** The API's field paths (`conditions.destination_countries.0`) under the form field that set them. */
function formErrors(errors: Record<string, string[]>): Record<string, string[]> {
  const fields = ['name', 'conditions.destination_countries', 'conditions.weight_kg.max', 'conditions.weight_kg', 'conditions.cash_on_delivery', 'conditions.reference_pattern', 'action'];
  const grouped: Record<string, string[]> = {};
  for (const [path, messages] of Object.entries(errors)) {
    const field = fields.find((f) => path === f || path.startsWith(`${f}.`)) ?? 'name';
    grouped[field] = [...(grouped[field] ?? []), ...messages];
  }
  return grouped;
}

function AddRule({ channels, onAdded }: { channels: Channel[]; onAdded: () => void }) {
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [error, setError] = useState('');
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft({ ...draft, [key]: value });
  const toggle = (id: string, on: boolean) => set('channels', on ? [...draft.channels, id] : draft.channels.filter((c) => c !== id));

  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      setError('');
      setErrors({});
      await call(api.POST('/v1/shipping-rules', { body: bodyOf(draft) }));
      setDraft(EMPTY);
      onAdded();
    } catch (err) {
      setError(errorText(err));
      if (err instanceof ApiError) setErrors(formErrors(err.errors));
    }
  };

  return (
    <form class="card add-rule" onSubmit={submit}>
      <h2>{t('rules.add')}</h2>
      {error && <p class="error" role="alert">{error}</p>}
      <div class="row">
        <Field label="rules.name" path="name" errors={errors}><input name="name" value={draft.name} required onInput={(e) => set('name', e.currentTarget.value)} /></Field>
        <Field label="rules.countries" path="conditions.destination_countries" errors={errors}>
          <input name="countries" value={draft.countries} placeholder="SK, AT" onInput={(e) => set('countries', e.currentTarget.value)} />
        </Field>
        <Field label="rules.cod" path="conditions.cash_on_delivery" errors={errors} short>
          <select name="cod" value={draft.cod} onChange={(e) => set('cod', e.currentTarget.value as Draft['cod'])}>
            <option value="">{t('rules.codAny')}</option><option value="yes">{t('rules.codYes')}</option><option value="no">{t('rules.codNo')}</option>
          </select>
        </Field>
        <Field label="rules.minWeight" path="conditions.weight_kg" errors={errors} short>
          <input name="min_weight" inputMode="decimal" value={draft.minWeight} onInput={(e) => set('minWeight', e.currentTarget.value)} />
        </Field>
        <Field label="rules.maxWeight" path="conditions.weight_kg.max" errors={errors} short>
          <input name="max_weight" inputMode="decimal" value={draft.maxWeight} onInput={(e) => set('maxWeight', e.currentTarget.value)} />
        </Field>
        <Field label="rules.referencePattern" path="conditions.reference_pattern" errors={errors}>
          <input name="reference" value={draft.reference} placeholder="EXP-*" onInput={(e) => set('reference', e.currentTarget.value)} />
        </Field>
      </div>
      <div class="row">
        <Field label="rules.action" path="action" errors={errors}>
          <select name="action" value={draft.action} onChange={(e) => setDraft({ ...draft, action: e.currentTarget.value as Draft['action'], channels: draft.channels.slice(0, 1) })}>
            <option value="use_channel">{t('rules.actionUse')}</option>
            <option value="cheapest">{t('rules.actionCheapest')}</option>
            <option value="fastest">{t('rules.actionFastest')}</option>
          </select>
        </Field>
        {draft.action === 'use_channel' ? (
          <label class="field">
            <span>{t('rules.channel')}</span>
            <select name="channel" value={draft.channels[0] ?? ''} required onChange={(e) => set('channels', [e.currentTarget.value])}>
              <option value="" />
              {channels.map((c) => <option value={c.id}>{c.name}</option>)}
            </select>
          </label>
        ) : (
          <fieldset class="field" data-name="channels">
            <legend>{t('rules.channels')}</legend>
            {channels.map((c) => (
              <label><input type="checkbox" name="channels" value={c.id} checked={draft.channels.includes(c.id)} onChange={(e) => toggle(c.id, e.currentTarget.checked)} /> {c.name}</label>
            ))}
          </fieldset>
        )}
      </div>
      <button type="submit">{t('rules.submit')}</button>
    </form>
  );
}

/** The account's shipping rules in the order they are tried: move, switch on and off, delete, add. */
export function RulesPage({ readOnly }: { readOnly: boolean }) {
  const [rules, setRules] = useState<ShippingRule[] | null>(null);
  const [error, setError] = useState('');
  const channels = useChannels();

  const load = async () => {
    try {
      setRules(await data(api.GET('/v1/shipping-rules')));
    } catch (err) {
      setError(errorText(err));
    }
  };
  useEffect(() => void load(), []);
  const act = async (action: () => Promise<unknown>) => {
    await runAction(setError, action);
    await load();
  };
  const change = (rule: ShippingRule, body: { position?: number; active?: boolean }) =>
    act(() => call(api.PATCH('/v1/shipping-rules/{id}', { params: { path: { id: rule.id } }, body })));
  const remove = (rule: ShippingRule) => window.confirm(t('rules.deleteConfirm', { name: rule.name }))
    && act(() => call(api.DELETE('/v1/shipping-rules/{id}', { params: { path: { id: rule.id } } })));

  return (
    <main class="rules">
      <h1>{t('rules.title')}</h1>
      <p class="hint">{t('rules.hint')}</p>
      {error && <p class="error" role="alert">{error}</p>}
      {rules?.length === 0 && <p>{t('rules.none')}</p>}
      {rules && rules.length > 0 && (
        <table>
          <thead><tr><th>#</th><th>{t('rules.name')}</th><th /><th>{t('rules.when')}</th><th>{t('rules.then')}</th><th /></tr></thead>
          <tbody>
            {rules.map((rule, i) => (
              <tr data-rule={rule.id} data-rule-name={rule.name}>
                <td>{rule.position}</td>
                <td>{rule.name}</td>
                <td><Chip status={rule.active ? 'active' : 'paused'} label={t(rule.active ? 'rules.active' : 'rules.inactive')} /></td>
                <td><ConditionWords conditions={rule.conditions} /></td>
                <td data-name="then">{actionWords(rule.action, channels)}</td>
                <td class="row">
                  {!readOnly && (
                    <>
                      <button type="button" class="quiet" name="up" disabled={i === 0} title={t('rules.up')} onClick={() => change(rule, { position: rule.position - 1 })}>↑</button>
                      <button type="button" class="quiet" name="down" disabled={i === rules.length - 1} title={t('rules.down')} onClick={() => change(rule, { position: rule.position + 1 })}>↓</button>
                      <button type="button" name={rule.active ? 'disable' : 'enable'} onClick={() => change(rule, { active: !rule.active })}>{t(rule.active ? 'rules.disable' : 'rules.enable')}</button>
                      <button type="button" name="delete" class="danger" onClick={() => remove(rule)}>{t('rules.delete')}</button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {!readOnly && <AddRule channels={channels} onAdded={() => void load()} />}
    </main>
  );
}
