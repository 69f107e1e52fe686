import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, data, errorText, type Quote, type Shipment } from '../api';
import { useChannels, useHasRules, usePrinters, useProviders } from '../hooks';
import { statusWord, t } from '../i18n';
import { onLive } from '../live';
import { useSignal } from '../signal';
import { loadStation, station } from '../station';
import { CustomsCard } from './customs-items';
import { Parcels } from './parcels';
import { Field } from './parts';
import { PickupPointCard } from './pickup-point';
import { RecipientCard, type Recipient } from './recipient-card';
import {
  BY_RULES, correctionBody, createBody, draftOfEarlier, draftOfOrder, draftOfRefused, emptyCustoms, newDraft, orderChangeBody, RECIPIENT_PATHS, rememberItems, shipOrderBody,
  type Draft, type Settled,
} from './ship-draft';
import { isRefused, ShipResult, type Outcome } from './ship-result';

const DRAFT = 'packdesk.draft';
const WEIGHT = /^parcels\.(\d+)\.weight_amount$/;

function storedDraft(): Draft | null {
  try {
    const kept = JSON.parse(sessionStorage.getItem(DRAFT) ?? 'null') as Partial<Draft> | null;
    // a draft kept by an earlier desk lacks the fields added since
    return kept && { ...newDraft(''), ...kept };
  } catch {
    return null;
  }
}

/**
 * Scan, weigh, ship: the scan field loads the awaiting order with that reference (or fills a new shipment from the
 * newest earlier one), Enter in the weight ships (F9 or Ctrl+Enter from anywhere), and the result column beside the
 * form shows the label and where it printed, or the carrier's refusal to fix in place (the same shipment, corrected).
 */
export function ShipScreen({ readOnly, stationName }: { readOnly: boolean; stationName: string }) {
  const view = useSignal(station);
  const effective = view?.effective ?? null;
  const channels = useChannels(true);
  const hasRules = useHasRules();
  const printers = usePrinters();
  const providers = useProviders();
  const [draft, setDraft] = useState<Draft>(() => storedDraft() ?? newDraft(''));
  const [editing, setEditing] = useState(false);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [notice, setNotice] = useState('');
  const [shippedBefore, setShippedBefore] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  /** Every active channel's answer for the shipment as the form holds it (POST /v1/rates), once asked. */
  const [quotes, setQuotes] = useState<Quote[] | null>(null);
  /** The channel the shipping rules would choose for the compared shipment, where the form leaves it to them. */
  const [rulesChoice, setRulesChoice] = useState<string | null>(null);
  /** The field to focus once the change that reveals it is on the screen. */
  const [focus, setFocus] = useState<string | null>('reference_number');
  const idempotencyKey = useRef<string | null>(null);
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => void loadStation(stationName).catch(() => undefined), [stationName]);
  useEffect(() => sessionStorage.setItem(DRAFT, JSON.stringify(draft)), [draft]);
  useLayoutEffect(() => {
    if (!focus) return;
    const field = form.current?.querySelector<HTMLInputElement>(`[name="${focus}"]`);
    field?.focus();
    field?.select?.();
    setFocus(null);
  }, [focus]);

  // a shipment the carrier had not finished when the answer came: the live events say when it changes
  const waitingId = outcome.kind === 'shipment' && outcome.shipment.status === 'pending' && !outcome.shipment.failure ? outcome.shipment.id : null;
  useEffect(() => {
    if (!waitingId) return undefined;
    return onLive((kind, id) => {
      if ((kind === 'shipment' && id === waitingId) || kind === 'ready') void data(api.GET('/v1/shipments/{id}', { params: { path: { id: waitingId } } })).then(answered);
    });
  }, [waitingId]);

  const channelIds = channels.map((c) => c.id);
  const settled = (d: Draft): Settled => ({
    // with shipping rules, a shipment that names no channel goes by them (the station's channel stands where none chooses)
    ...d, channel: d.channel || (hasRules ? BY_RULES : effective?.shipping_channel_id || channelIds[0] || ''), label_format: d.label_format || effective?.label_format || 'pdf',
  });
  const edit = (change: (d: Draft) => Draft) => {
    idempotencyKey.current = null; // a changed form is a new request
    setDraft(change);
  };
  const country = effective?.origin_address?.country_code ?? 'CZ';

  /** Loads what the scanned reference names: an awaiting order, else the newest earlier shipment, else nothing yet. */
  const scan = async () => {
    const reference = draft.reference_number.trim();
    if (!reference) return;
    idempotencyKey.current = null;
    setOutcome({ kind: 'idle' });
    setErrors({});
    setShippedBefore(null);
    setQuotes(null);
    try {
      const orders = await data(api.GET('/v1/orders', { params: { query: { search: reference, status: 'awaiting', per_page: 100 } } }));
      const order = orders.find((o) => o.reference_number === reference);
      if (order) {
        setDraft(draftOfOrder(order));
        setNotice(t('ship.fromOrder', { ref: reference }));
        setEditing(false);
        setFocus('parcels.0.weight_amount');
        return;
      }
      const summaries = await data(api.GET('/v1/shipments', { params: { query: { search: reference, per_page: 20 } } }));
      const newest = summaries.find((s) => s.reference_number === reference);
      if (!newest) {
        setDraft(newDraft(reference, country));
        setNotice(t('ship.notFound', { ref: reference }));
        setEditing(true);
        setFocus('recipient_contact.first_name');
        return;
      }
      const earlier = await data(api.GET('/v1/shipments/{id}', { params: { path: { id: newest.id } } }));
      if (isRefused(earlier)) {
        setDraft(draftOfRefused(earlier));
        setNotice(t('ship.refusedBefore', { ref: reference }));
        answered(earlier);
        return;
      }
      setDraft(draftOfEarlier(earlier, channelIds));
      setNotice(t('ship.filledFrom', { ref: reference, date: new Date(earlier.created_at).toLocaleDateString() }));
      if (earlier.status !== 'pending' && earlier.status !== 'cancelled') setShippedBefore(earlier.status);
      setEditing(false);
      setFocus('parcels.0.weight_amount');
    } catch (err) {
      setNotice(errorText(err));
    }
  };

  /** Shows the carrier's answer; a refusal opens the fields it names, the next Enter corrects the same shipment. */
  const answered = (shipment: Shipment) => {
    setOutcome({ kind: 'shipment', shipment });
    if (isRefused(shipment)) {
      const named = shipment.failure!.errors;
      setDraft((d) => ({ ...d, shipment_id: shipment.id }));
      setErrors(named);
      if (Object.keys(named).some((path) => RECIPIENT_PATHS.test(path))) setEditing(true);
      setFocus(Object.keys(named)[0] ?? 'parcels.0.weight_amount');
    } else if (shipment.status !== 'pending') {
      setErrors({});
      setFocus('reference_number');
      rememberItems(draft.customs);
    }
  };

  /** The API's refusal of the form: its fields open; a route that needs a customs declaration shows one to fill. */
  const refused = (named: Record<string, string[]>) => {
    setErrors(named);
    setOutcome({ kind: 'invalid', message: t('ship.invalid') });
    if (Object.keys(named).some((path) => RECIPIENT_PATHS.test(path))) setEditing(true);
    if (named.customs && !draft.customs) {
      setDraft((d) => ({ ...d, customs: emptyCustoms() }));
      setFocus('customs.items.0.sku');
    } else {
      setFocus(Object.keys(named)[0]!);
    }
  };

  const ship = async () => {
    if (readOnly || outcome.kind === 'working') return;
    const justShipped = outcome.kind === 'shipment' && outcome.shipment.status !== 'pending' ? outcome.shipment.status : null;
    const before = shippedBefore ?? justShipped;
    if (before && !window.confirm(t('ship.shippedBefore', { ref: draft.reference_number, status: statusWord(before) }))) return;
    // shipping again what was shipped: a new shipment, never a change of the one made
    const sent = settled(justShipped ? { ...draft, order_id: null, shipment_id: null } : draft);
    setErrors({});
    setOutcome({ kind: 'working' });
    try {
      let shipment: Shipment;
      if (sent.shipment_id) {
        shipment = await data(api.PATCH('/v1/shipments/{id}', {
          params: { path: { id: sent.shipment_id } }, body: correctionBody(sent), headers: { Prefer: 'wait=25' },
        }));
      } else if (sent.order_id) {
        if (sent.order_changed) await data(api.PATCH('/v1/orders/{id}', { params: { path: { id: sent.order_id } }, body: orderChangeBody(sent) }));
        shipment = await data(api.POST('/v1/orders/{id}/ship', {
          params: { path: { id: sent.order_id } }, body: shipOrderBody(sent, stationName), headers: { Prefer: 'wait=25' },
        }));
      } else {
        idempotencyKey.current ??= crypto.randomUUID();
        shipment = await data(api.POST('/v1/shipments', {
          body: createBody(sent, stationName), headers: { 'Idempotency-Key': idempotencyKey.current, Prefer: 'wait=25' },
        }));
        idempotencyKey.current = null;
      }
      setShippedBefore(null);
      answered(shipment);
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.errors).length > 0) {
        refused(err.errors);
      } else {
        setOutcome({ kind: 'invalid', message: errorText(err) });
      }
    }
  };

  /** Asks every active channel for the shipment as the form holds it: price, or why a channel cannot carry it. */
  const quote = async () => {
    try {
      const asked = settled(draft);
      const { shipping_channel_id: _channel, ...body } = createBody(asked, stationName);
      // left to the rules, the quotes mark the channel the rules would choose
      const [answered, byRules] = await Promise.all([
        data(api.POST('/v1/rates', { body })),
        asked.channel === BY_RULES ? data(api.POST('/v1/shipping-rules/test', { body })) : null,
      ]);
      setQuotes(answered);
      setRulesChoice(byRules?.shipping_channel_id ?? null);
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.errors).length > 0) refused(err.errors);
      else setNotice(errorText(err));
    }
  };

  // F9 and Ctrl+Enter ship from anywhere on the page
  const latestShip = useRef(ship);
  latestShip.current = ship;
  useEffect(() => {
    const shortcut = (event: KeyboardEvent) => {
      if (event.key !== 'F9' && !(event.key === 'Enter' && (event.ctrlKey || event.metaKey))) return;
      event.preventDefault();
      void latestShip.current();
    };
    addEventListener('keydown', shortcut);
    return () => removeEventListener('keydown', shortcut);
  }, []);

  /** Enter: in the scan field it loads the order; in a weight it moves to the next parcel's, after the last it ships. */
  const onKeyDown = (event: KeyboardEvent) => {
    const target = event.target as HTMLInputElement;
    if (event.key !== 'Enter' || event.ctrlKey || event.metaKey || target.tagName === 'BUTTON' || target.tagName === 'A') return;
    event.preventDefault();
    if (target.name === 'reference_number') return void scan();
    const weight = WEIGHT.exec(target.name);
    if (weight) {
      const next = Number(weight[1]) + 1;
      return next < draft.parcels.length ? setFocus(`parcels.${next}.weight_amount`) : void ship();
    }
    const fields = [...form.current!.querySelectorAll<HTMLElement>('input:not([disabled]), select:not([disabled])')];
    const next = fields[fields.indexOf(target) + 1];
    if (next) next.focus();
    else void ship();
  };

  const recipient: Recipient = { recipient: draft.recipient, destination: draft.destination, cod_amount: draft.cod_amount, cod_currency: draft.cod_currency };
  const shown = settled(draft);
  const carrier = providers.find((p) => p.code === channels.find((c) => c.id === shown.channel)?.provider);
  return (
    <main class="ship">
      <form ref={form} class="ship-form" onSubmit={(e) => { e.preventDefault(); void ship(); }} onKeyDown={onKeyDown} noValidate>
        <Field label="ship.reference" path="reference_number" errors={errors}>
          <input
            name="reference_number" class="scan" autofocus autocomplete="off" placeholder={t('ship.referenceHint')} value={draft.reference_number}
            disabled={readOnly} onInput={(e) => edit((d) => ({ ...d, reference_number: e.currentTarget.value }))}
          />
        </Field>
        {notice && <p class="notice" role="status">{notice}</p>}
        {shippedBefore && <p class="warning" role="alert">{t('ship.shippedBefore', { ref: draft.reference_number, status: statusWord(shippedBefore) })}</p>}
        <RecipientCard
          value={recipient} editing={editing} onEdit={setEditing} errors={errors} readOnly={readOnly} toPoint={draft.pickup_point !== null}
          onChange={(next) => edit((d) => ({ ...d, ...next, order_changed: d.order_id !== null }))}
        />
        <PickupPointCard
          point={draft.pickup_point} provider={carrier} channelId={shown.channel} country={draft.destination.country_code.trim() || country}
          cod={draft.cod_amount.trim() !== ''} errors={errors} readOnly={readOnly}
          onChange={(point) => edit((d) => ({ ...d, pickup_point: point, order_changed: d.order_id !== null }))}
          onKnown={(point) => setDraft((d) => (d.pickup_point?.provider_point_id === point.provider_point_id ? { ...d, pickup_point: point } : d))}
        />
        <Parcels parcels={draft.parcels} onChange={(parcels) => edit((d) => ({ ...d, parcels }))} presets={effective?.box_presets ?? []} errors={errors} readOnly={readOnly} />
        {draft.customs && (
          <CustomsCard customs={draft.customs} errors={errors} readOnly={readOnly} onChange={(customs) => edit((d) => ({ ...d, customs, order_changed: d.order_id !== null }))} />
        )}
        <div class="row options">
          <Field label="ship.channel" path="shipping_channel_id" errors={errors}>
            <select name="shipping_channel_id" value={shown.channel} disabled={readOnly} onChange={(e) => edit((d) => ({ ...d, channel: e.currentTarget.value }))}>
              {hasRules && <option value={BY_RULES}>{t('ship.byRules')}</option>}
              {channels.map((c) => <option value={c.id}>{c.name} ({c.provider})</option>)}
            </select>
          </Field>
          <Field label="ship.format" path="label_format" errors={errors}>
            <select name="label_format" value={shown.label_format} disabled={readOnly} onChange={(e) => edit((d) => ({ ...d, label_format: e.currentTarget.value as Settled['label_format'] }))}>
              <option value="pdf">PDF</option><option value="zpl">ZPL</option><option value="epl">EPL</option>
            </select>
          </Field>
          {!readOnly && <button type="button" name="quote" onClick={() => void quote()}>{t('ship.quote')}</button>}
          {carrier?.returns && (
            <label class="check" data-field="return">
              <input type="checkbox" name="return" checked={draft.return} disabled={readOnly} onChange={(e) => edit((d) => ({ ...d, return: e.currentTarget.checked, order_changed: d.order_id !== null }))} />
              <span>{t('ship.return')}</span>
            </label>
          )}
          {!readOnly && (
            <button type="submit" class="primary" name="ship" disabled={outcome.kind === 'working'} title={t('ship.shortcut')}>
              {draft.shipment_id ? t('ship.resubmit') : t('ship.submit')} <kbd>F9</kbd>
            </button>
          )}
        </div>
        {quotes && (
          <table class="quotes" aria-label={t('ship.quote')}>
            <thead>
              <tr><th>{t('ship.channel')}</th><th>{t('ship.quotePrice')}</th><th>{t('ship.quoteTransit')}</th><th /><th /></tr>
            </thead>
            <tbody>
              {quotes.map((q) => (
                <tr class={q.shipping_channel_id === (shown.channel === BY_RULES ? rulesChoice : shown.channel) ? 'chosen' : undefined} data-channel={q.shipping_channel_id}>
                  <td>{q.name}</td>
                  <td class="price">{q.price === null ? '—' : `${q.price.toFixed(2)} ${q.currency}`}</td>
                  <td class="transit" title={q.estimated_delivery ? t('ship.quoteDelivery', { date: q.estimated_delivery.slice(0, 10) }) : undefined}>
                    {q.transit_days === null ? '' : t('ship.quoteDays', { n: q.transit_days })}
                  </td>
                  <td class="hint">{q.cannot ?? ''}</td>
                  <td>{Object.keys(q.errors).length === 0 && q.shipping_channel_id !== shown.channel && (
                    <button type="button" name="use_channel" onClick={() => edit((d) => ({ ...d, channel: q.shipping_channel_id }))}>{t('ship.quoteUse')}</button>
                  )}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </form>
      <ShipResult outcome={outcome} errors={errors} printers={printers} effective={effective} stationName={stationName} readOnly={readOnly} />
    </main>
  );
}
