import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, call, data, type Channel, type CreateShipmentBody, type Printer, type Shipment } from '../api';
import { t } from '../i18n';
import { onLive } from '../live';
import { Field } from './parts';
import { LabelPreview } from './label';

interface ParcelInput { weight: string; length: string; width: string; height: string }
interface Party { company_name: string; first_name: string; last_name: string; email_address: string; phone_number: string }
interface Address { street_name: string; house_number: string; city_name: string; postal_code: string; country_code: string }
interface Draft {
  reference_number: string; channel: string; label_format: 'pdf' | 'zpl' | 'epl';
  recipient: Party; destination: Address; sender: Party; origin: Address;
  parcels: ParcelInput[]; cod_amount: string; cod_currency: string;
}
/** The desk's own settings, kept in this browser: printing on create, the printer and copies. */
interface DeskSettings { printOnCreate: boolean; printerId: string; copies: number }

const emptyParty = (): Party => ({ company_name: '', first_name: '', last_name: '', email_address: '', phone_number: '' });
const emptyAddress = (country = 'CZ'): Address => ({ street_name: '', house_number: '', city_name: '', postal_code: '', country_code: country });
const emptyParcel = (): ParcelInput => ({ weight: '', length: '', width: '', height: '' });
const DRAFT = 'packdesk.draft';
const SENDER = 'packdesk.sender';
const SETTINGS = 'packdesk.settings';

function stored<T>(storage: Storage, key: string, fallback: T): T {
  try {
    const text = storage.getItem(key);
    return text ? { ...fallback, ...(JSON.parse(text) as T) } : fallback;
  } catch {
    return fallback;
  }
}

function newDraft(): Draft {
  const sender = stored(localStorage, SENDER, { sender: emptyParty(), origin: emptyAddress() });
  return {
    reference_number: '', channel: '', label_format: 'pdf', recipient: emptyParty(), destination: emptyAddress(sender.origin.country_code),
    sender: sender.sender, origin: sender.origin, parcels: [emptyParcel()], cod_amount: '', cod_currency: '',
  };
}

/** `1 249,90` and `2,4` as people type them: spaces (also non-breaking) dropped, a decimal comma read as a point. */
function decimal(text: string): number | undefined {
  const cleaned = text.replace(/[\s\u00a0]/g, '').replace(',', '.');
  if (cleaned === '') return undefined;
  const value = Number(cleaned);
  return Number.isFinite(value) ? value : Number.NaN;
}

const party = (p: Party) => Object.fromEntries(Object.entries(p).filter(([, v]) => v.trim() !== '').map(([k, v]) => [k, v.trim()])) as NonNullable<CreateShipmentBody['sender_contact']>;

function bodyOf(draft: Draft, settings: DeskSettings): CreateShipmentBody {
  const cod = decimal(draft.cod_amount);
  return {
    shipping_channel_id: draft.channel, label_format: draft.label_format, reference_number: draft.reference_number.trim() || null,
    recipient_contact: party(draft.recipient), destination_address: draft.destination, sender_contact: party(draft.sender), origin_address: draft.origin,
    parcels: draft.parcels.map((p) => ({
      // an empty field is left out: the channel's parcel_defaults fill it
      weight_amount: decimal(p.weight), length_dimension: decimal(p.length), width_dimension: decimal(p.width), height_dimension: decimal(p.height),
    })),
    ...(cod !== undefined ? { cash_on_delivery_amount: cod, cash_on_delivery_currency: draft.cod_currency.trim().toUpperCase() || null } : {}),
    ...(settings.printOnCreate && settings.printerId ? { print: { printer_id: settings.printerId, copies: settings.copies } } : {}),
  };
}

const partyOf = (c: Shipment['recipient_contact']): Party => ({
  company_name: c.company_name ?? '', first_name: c.first_name ?? '', last_name: c.last_name ?? '', email_address: c.email_address, phone_number: c.phone_number,
});
const addressOf = (a: Shipment['destination_address']): Address => ({
  street_name: a.street_name, house_number: a.house_number ?? '', city_name: a.city_name, postal_code: a.postal_code, country_code: a.country_code,
});

type Outcome = { kind: 'working' } | { kind: 'done'; shipment: Shipment } | { kind: 'invalid'; message: string };

export function ShipForm({ readOnly }: { readOnly: boolean }) {
  const [draft, setDraft] = useState<Draft>(() => stored(sessionStorage, DRAFT, newDraft()));
  const [settings, setSettings] = useState<DeskSettings>(() => stored(localStorage, SETTINGS, { printOnCreate: false, printerId: '', copies: 1 }));
  const [channels, setChannels] = useState<Channel[]>([]);
  const [printers, setPrinters] = useState<Printer[]>([]);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [notice, setNotice] = useState('');
  const [shippedBefore, setShippedBefore] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const idempotencyKey = useRef<string | null>(null);
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    void data(api.GET('/v1/shipping-channels', { params: { query: { per_page: 100 } } })).then((list) => {
      const active = list.filter((c) => c.status === 'active');
      setChannels(active);
      setDraft((d) => (d.channel || !active[0] ? d : { ...d, channel: active[0].id }));
    }).catch(() => undefined);
    void data(api.GET('/v1/printers', { params: { query: { per_page: 100 } } })).then(setPrinters).catch(() => undefined);
  }, []);
  useEffect(() => sessionStorage.setItem(DRAFT, JSON.stringify(draft)), [draft]);
  useEffect(() => localStorage.setItem(SETTINGS, JSON.stringify(settings)), [settings]);

  // a shipment the carrier had not finished when the answer came: the live events say when it changes
  const waitingId = outcome?.kind === 'done' && outcome.shipment.status === 'pending' ? outcome.shipment.id : null;
  useEffect(() => {
    if (!waitingId) return undefined;
    return onLive((kind, id) => {
      if ((kind === 'shipment' && id === waitingId) || kind === 'ready') {
        void data(api.GET('/v1/shipments/{id}', { params: { path: { id: waitingId } } })).then((s) => setOutcome({ kind: 'done', shipment: s }));
      }
    });
  }, [waitingId]);

  const edit = (change: (d: Draft) => Draft) => {
    idempotencyKey.current = null; // a changed form is a new request
    setDraft(change);
  };
  const text = (value: string, set: (v: string) => void) => ({ value, onInput: (e: Event) => set((e.currentTarget as HTMLInputElement).value), disabled: readOnly });
  const partyField = (which: 'recipient' | 'sender', key: keyof Party) =>
    text(draft[which][key], (v) => edit((d) => ({ ...d, [which]: { ...d[which], [key]: v } })));
  const addressField = (which: 'destination' | 'origin', key: keyof Address) =>
    text(draft[which][key], (v) => edit((d) => ({ ...d, [which]: { ...d[which], [key]: key === 'country_code' ? v.toUpperCase() : v } })));

  /** Fills the order from the newest earlier shipment with this reference (an imported order is one too). */
  const lookUp = async () => {
    const reference = draft.reference_number.trim();
    setShippedBefore(null);
    if (!reference) return;
    try {
      const list = await data(api.GET('/v1/shipments', { params: { query: { search: reference, per_page: 20 } } }));
      const earlier = list.find((s) => s.reference_number === reference);
      if (!earlier) {
        setNotice(t('ship.notFound', { ref: reference }));
        return;
      }
      const s = await data(api.GET('/v1/shipments/{id}', { params: { path: { id: earlier.id } } }));
      edit((d) => ({
        ...d, channel: channels.some((c) => c.id === s.shipping_channel_id) ? s.shipping_channel_id : d.channel,
        recipient: partyOf(s.recipient_contact), destination: addressOf(s.destination_address),
        sender: partyOf(s.sender_contact), origin: addressOf(s.origin_address),
        parcels: s.parcels.map((p) => ({ weight: String(p.weight_amount), length: String(p.length_dimension), width: String(p.width_dimension), height: String(p.height_dimension) })),
        cod_amount: s.cash_on_delivery_amount == null ? '' : s.cash_on_delivery_amount.toFixed(2), cod_currency: s.cash_on_delivery_currency ?? '',
      }));
      setNotice(t('ship.filledFrom', { ref: reference, date: new Date(s.created_at).toLocaleDateString() }));
      if (s.status !== 'pending' && s.status !== 'cancelled') setShippedBefore(s.status);
    } catch (err) {
      setNotice(err instanceof Error ? err.message : String(err));
    }
  };

  /** Enter moves to the next field, as at a desk with a scanner; in the reference it first fills a known order. */
  const onKeyDown = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement;
    if (event.key !== 'Enter' || target.tagName === 'BUTTON' || target.tagName === 'TEXTAREA') return;
    event.preventDefault();
    if ((target as HTMLInputElement).name === 'reference_number') void lookUp();
    const fields = [...form.current!.querySelectorAll<HTMLElement>('input:not([disabled]), select:not([disabled])')];
    const next = fields[fields.indexOf(target) + 1];
    if (next) next.focus();
    else form.current!.requestSubmit();
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    if (shippedBefore && !window.confirm(t('ship.shippedBefore', { ref: draft.reference_number, status: shippedBefore }))) return;
    setErrors({});
    setOutcome({ kind: 'working' });
    localStorage.setItem(SENDER, JSON.stringify({ sender: draft.sender, origin: draft.origin }));
    idempotencyKey.current ??= crypto.randomUUID();
    try {
      const created = await data(api.POST('/v1/shipments', {
        body: bodyOf(draft, settings), headers: { 'Idempotency-Key': idempotencyKey.current, Prefer: 'wait=25' },
      }));
      idempotencyKey.current = null;
      setShippedBefore(null);
      setOutcome({ kind: 'done', shipment: created });
      if (created.status === 'pending' && created.failure) setErrors(created.failure.errors);
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.errors).length > 0) {
        setErrors(err.errors);
        setOutcome({ kind: 'invalid', message: t('ship.invalid') });
        requestAnimationFrame(() => form.current?.querySelector<HTMLElement>('.invalid input, .invalid select')?.focus());
      } else {
        setOutcome({ kind: 'invalid', message: (err as Error).message });
      }
    }
  };

  const next = () => {
    sessionStorage.removeItem(DRAFT);
    setDraft((d) => ({ ...newDraft(), channel: d.channel, label_format: d.label_format }));
    setOutcome(null);
    setErrors({});
    setNotice('');
    requestAnimationFrame(() => form.current?.querySelector<HTMLInputElement>('input[name=reference_number]')?.focus());
  };

  const formatPrinters = printers.filter((p) => p.formats.includes(draft.label_format));
  const shipment = outcome?.kind === 'done' ? outcome.shipment : null;
  return (
    <main class="ship">
      <form ref={form} onSubmit={submit} onKeyDown={onKeyDown} noValidate>
        <h1>{t('ship.title')}</h1>
        <div class="row">
          <Field label="ship.reference" path="reference_number" errors={errors}>
            <input name="reference_number" autofocus autocomplete="off" placeholder={t('ship.referenceHint')} {...text(draft.reference_number, (v) => edit((d) => ({ ...d, reference_number: v })))} onBlur={() => void lookUp()} />
          </Field>
          <Field label="ship.channel" path="shipping_channel_id" errors={errors}>
            <select name="shipping_channel_id" value={draft.channel} disabled={readOnly} onChange={(e) => edit((d) => ({ ...d, channel: e.currentTarget.value }))}>
              {channels.map((c) => <option value={c.id}>{c.name} ({c.provider})</option>)}
            </select>
          </Field>
        </div>
        {notice && <p class="notice" role="status">{notice}</p>}
        {shippedBefore && <p class="warning" role="alert">{t('ship.shippedBefore', { ref: draft.reference_number, status: shippedBefore })}</p>}
        <fieldset>
          <legend>{t('ship.recipient')}</legend>
          <div class="row">
            <Field label="ship.firstName" path="recipient_contact.first_name" errors={errors}><input name="recipient_contact.first_name" {...partyField('recipient', 'first_name')} /></Field>
            <Field label="ship.lastName" path="recipient_contact.last_name" errors={errors}><input name="recipient_contact.last_name" {...partyField('recipient', 'last_name')} /></Field>
            <Field label="ship.company" path="recipient_contact.company_name" errors={errors}><input name="recipient_contact.company_name" {...partyField('recipient', 'company_name')} /></Field>
          </div>
          <div class="row">
            <Field label="ship.email" path="recipient_contact.email_address" errors={errors}><input name="recipient_contact.email_address" type="email" {...partyField('recipient', 'email_address')} /></Field>
            <Field label="ship.phone" path="recipient_contact.phone_number" errors={errors}><input name="recipient_contact.phone_number" type="tel" {...partyField('recipient', 'phone_number')} /></Field>
          </div>
        </fieldset>
        <fieldset>
          <legend>{t('ship.address')}</legend>
          <AddressFields prefix="destination_address" field={(k) => addressField('destination', k)} errors={errors} />
        </fieldset>
        <fieldset>
          <legend>{t('ship.parcels')}</legend>
          {draft.parcels.map((p, i) => (
            <div class="row parcel" key={i}>
              {(['weight', 'length', 'width', 'height'] as const).map((key) => {
                const path = `parcels.${i}.${key === 'weight' ? 'weight_amount' : `${key}_dimension`}`;
                return (
                  <Field label={`ship.${key}`} path={path} errors={errors}>
                    <input name={path} inputMode="decimal" {...text(p[key], (v) => edit((d) => ({ ...d, parcels: d.parcels.map((q, j) => (j === i ? { ...q, [key]: v } : q)) })))} />
                  </Field>
                );
              })}
              {draft.parcels.length > 1 && !readOnly && (
                <button type="button" class="quiet" onClick={() => edit((d) => ({ ...d, parcels: d.parcels.filter((_, j) => j !== i) }))}>{t('ship.removeParcel')}</button>
              )}
            </div>
          ))}
          {!readOnly && <button type="button" class="quiet" name="add_parcel" onClick={() => edit((d) => ({ ...d, parcels: [...d.parcels, emptyParcel()] }))}>{t('ship.addParcel')}</button>}
        </fieldset>
        <fieldset>
          <legend>{t('ship.cod')}</legend>
          <div class="row">
            <Field label="ship.codAmount" path="cash_on_delivery_amount" errors={errors}><input name="cash_on_delivery_amount" inputMode="decimal" {...text(draft.cod_amount, (v) => edit((d) => ({ ...d, cod_amount: v })))} /></Field>
            <Field label="ship.codCurrency" path="cash_on_delivery_currency" errors={errors}><input name="cash_on_delivery_currency" maxLength={3} {...text(draft.cod_currency, (v) => edit((d) => ({ ...d, cod_currency: v.toUpperCase() })))} /></Field>
          </div>
        </fieldset>
        <fieldset class="sender">
          <legend>{t('ship.sender')}</legend>
          <div class="row">
            <Field label="ship.company" path="sender_contact.company_name" errors={errors}><input name="sender_contact.company_name" {...partyField('sender', 'company_name')} /></Field>
            <Field label="ship.email" path="sender_contact.email_address" errors={errors}><input name="sender_contact.email_address" type="email" {...partyField('sender', 'email_address')} /></Field>
            <Field label="ship.phone" path="sender_contact.phone_number" errors={errors}><input name="sender_contact.phone_number" type="tel" {...partyField('sender', 'phone_number')} /></Field>
          </div>
          <AddressFields prefix="origin_address" field={(k) => addressField('origin', k)} errors={errors} />
        </fieldset>
        <div class="row">
          <Field label="ship.format" path="label_format" errors={errors}>
            <select name="label_format" value={draft.label_format} disabled={readOnly} onChange={(e) => edit((d) => ({ ...d, label_format: e.currentTarget.value as Draft['label_format'] }))}>
              <option value="pdf">PDF</option><option value="zpl">ZPL</option><option value="epl">EPL</option>
            </select>
          </Field>
          <label class="check">
            <input type="checkbox" name="print_on_create" checked={settings.printOnCreate} disabled={readOnly} onChange={(e) => setSettings((s) => ({ ...s, printOnCreate: e.currentTarget.checked }))} />
            {t('ship.printOnCreate')}
          </label>
          {settings.printOnCreate && (
            <Field label="ship.printer" path="print.printer_id" errors={errors}>
              <select name="print.printer_id" value={settings.printerId} onChange={(e) => setSettings((s) => ({ ...s, printerId: e.currentTarget.value }))}>
                <option value="" />
                {formatPrinters.map((p) => <option value={p.id}>{p.name}</option>)}
              </select>
            </Field>
          )}
        </div>
        {!readOnly && <button type="submit" class="primary" name="ship" disabled={outcome?.kind === 'working'}>{t('ship.submit')}</button>}
        {outcome?.kind === 'working' && <p class="progress" role="status" aria-busy="true">{t('ship.working')}</p>}
        {outcome?.kind === 'invalid' && <p class="error" role="alert">{outcome.message}</p>}
      </form>
      {shipment && (
        <section class="outcome" aria-live="polite">
          {shipment.status === 'pending'
            ? <p class={shipment.failure ? 'error' : 'progress'} role="status">{shipment.failure ? t('ship.refused', { message: shipment.failure.message }) : t('ship.pending')}</p>
            : <p class="created" role="status">{t('ship.created', { numbers: shipment.parcels.map((p) => p.tracking_number).join(', ') })}</p>}
          {shipment.has_label && <LabelPreview shipment={shipment} printers={printers} readOnly={readOnly} printedOnCreate={settings.printOnCreate && Boolean(settings.printerId)} />}
          <button type="button" onClick={next}>{t('ship.another')}</button>
        </section>
      )}
    </main>
  );
}

function AddressFields({ prefix, field, errors }: { prefix: string; field: (key: keyof Address) => Record<string, unknown>; errors: Record<string, string[]> }) {
  const input = (key: keyof Address, label: Parameters<typeof Field>[0]['label']) => (
    <Field label={label} path={`${prefix}.${key}`} errors={errors}><input name={`${prefix}.${key}`} {...field(key)} /></Field>
  );
  return (
    <>
      <div class="row">{input('street_name', 'ship.street')}{input('house_number', 'ship.house')}</div>
      <div class="row">{input('city_name', 'ship.city')}{input('postal_code', 'ship.postal')}{input('country_code', 'ship.country')}</div>
    </>
  );
}
