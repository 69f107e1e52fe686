import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, data, errorText, type Channel, type Dispatch, type PickupWindow, type Printer, type ShipmentSummary, type WaitingForDispatch } from '../api';
import { useChannels, usePrinters, useProviders } from '../hooks';
import { t } from '../i18n';
import { onLive } from '../live';
import { useSignal } from '../signal';
import { station } from '../station';
import { DispatchResult, documentUrl } from './dispatch-result';
import { Chip, Field, formatTime } from './parts';

/** How many of a channel's waiting shipments the page lists (the count is always the daemon's). */
const LISTED = 100;

const money = (amount: number, currency: string) => `${amount.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`;

/** Sums of cash on delivery per currency, as one line. */
function codTotal(items: { amount: number | null | undefined; currency: string | null | undefined }[]): string {
  const sums = new Map<string, number>();
  for (const { amount, currency } of items) if (amount != null && currency) sums.set(currency, Math.round(((sums.get(currency) ?? 0) + amount) * 100) / 100);
  return [...sums].map(([currency, amount]) => money(amount, currency)).join(', ');
}

/** The channel's created shipments no dispatch holds yet. */
function waitingShipments(channelId: string): Promise<ShipmentSummary[]> {
  return data(api.GET('/v1/shipments', { params: { query: { shipping_channel_id: channelId, status: 'created', dispatched: false, include: 'details', per_page: LISTED } } }));
}

interface PickupFields { on: boolean; date: string; from: string; to: string }

/** The courier windows the carrier offers on the day: `null` while unknown or where the carrier publishes none. */
function usePickupWindows(channelId: string, date: string, on: boolean) {
  const [windows, setWindows] = useState<PickupWindow[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    setWindows(null);
    setError('');
    if (!on || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return;
    let current = true;
    void data(api.GET('/v1/dispatches/pickup-windows', { params: { query: { shipping_channel_id: channelId, date } } }))
      .then((answer) => { if (current) setWindows(answer.offered ? answer.windows : null); })
      .catch((err: Error) => { if (current) setError(errorText(err)); });
    return () => { current = false; };
  }, [channelId, date, on]);
  return { windows, error };
}

const today = () => new Date().toLocaleDateString('sv');

/** One channel's waiting shipments, its COD total, Close (and Order pickup where the carrier books a courier), and the dispatch made. */
function ChannelClose({ channelId, channel, waiting, pickupOffered, printerId, printers, readOnly, made, onMade, onSettled }: {
  channelId: string; channel: Channel | undefined; waiting: number; pickupOffered: boolean; printerId: string | null; printers: Printer[];
  readOnly: boolean; made: string | undefined; onMade: (id: string) => void; onSettled: () => void;
}) {
  const [shipments, setShipments] = useState<ShipmentSummary[]>([]);
  const [pickup, setPickup] = useState<PickupFields>({ on: false, date: today(), from: '14:00', to: '16:00' });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const offered = usePickupWindows(channelId, pickup.date, pickupOffered && pickup.on);
  useEffect(() => {
    if (waiting === 0) setShipments([]);
    else void waitingShipments(channelId).then(setShipments).catch((err: Error) => setError(errorText(err)));
  }, [channelId, waiting]);

  const close = async () => {
    setBusy(true);
    setErrors({});
    setError('');
    try {
      const dispatch = await data(api.POST('/v1/dispatches', {
        body: {
          shipping_channel_id: channelId,
          ...(pickup.on ? { pickup: { date: pickup.date, from: pickup.from, to: pickup.to } } : {}),
          ...(printerId ? { print: { printer_id: printerId } } : {}),
        },
      }));
      onMade(dispatch.id);
    } catch (err) {
      setError(errorText(err));
      if (err instanceof ApiError) setErrors(err.errors);
    } finally {
      setBusy(false);
    }
  };

  const parcels = shipments.reduce((n, s) => n + (s.total_parcels_count ?? 1), 0);
  const cod = codTotal(shipments.map((s) => ({ amount: s.cash_on_delivery_amount, currency: s.cash_on_delivery_currency })));
  return (
    <section class="channel-close" data-channel={channelId}>
      <h2>{channel?.name ?? channelId} <small class="hint">{channel?.provider}</small></h2>
      {waiting > 0 && (
        <>
          <p class="totals">
            <strong data-name="waiting">{t('eod.waiting', { shipments: waiting, parcels })}</strong>
            {' · '}<span data-name="cod">{cod ? t('eod.cod', { total: cod }) : t('eod.noCod')}</span>
          </p>
          {waiting > shipments.length && shipments.length > 0 && <p class="hint">{t('eod.more', { n: shipments.length })}</p>}
          <table class="waiting">
            <thead><tr><th>{t('shipments.reference')}</th><th>{t('ship.recipient')}</th><th>{t('shipment.trackingNumber')}</th><th>{t('ship.cod')}</th></tr></thead>
            <tbody>
              {shipments.map((s) => (
                <tr data-id={s.id}>
                  <td><a href={`#/shipments/${s.id}`}>{s.reference_number ?? s.id}</a></td>
                  <td>{s.recipient_name ?? ''}</td>
                  <td class="tracking-number">{s.tracking_number ?? '—'}{(s.total_parcels_count ?? 1) > 1 && <small class="hint"> +{s.total_parcels_count! - 1}</small>}</td>
                  <td class="number">{s.cash_on_delivery_amount != null && s.cash_on_delivery_currency ? money(s.cash_on_delivery_amount, s.cash_on_delivery_currency) : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <form class="row close" onSubmit={(e) => { e.preventDefault(); void close(); }}>
            {pickupOffered && (
              <label class="check"><input type="checkbox" name="order_pickup" checked={pickup.on} disabled={readOnly} onChange={(e) => setPickup({ ...pickup, on: e.currentTarget.checked })} /> {t('eod.orderPickup')}</label>
            )}
            {pickupOffered && pickup.on && (
              <>
                <Field label="eod.pickupDate" path="pickup.date" errors={errors}><input type="date" name="pickup_date" value={pickup.date} disabled={readOnly} onInput={(e) => setPickup({ ...pickup, date: e.currentTarget.value })} /></Field>
                <Field label="eod.pickupFrom" path="pickup.from" errors={errors} short><input type="time" name="pickup_from" value={pickup.from} disabled={readOnly} onInput={(e) => setPickup({ ...pickup, from: e.currentTarget.value })} /></Field>
                <Field label="eod.pickupTo" path="pickup.to" errors={errors} short><input type="time" name="pickup_to" value={pickup.to} disabled={readOnly} onInput={(e) => setPickup({ ...pickup, to: e.currentTarget.value })} /></Field>
                {offered.windows && (offered.windows.length === 0 ? <p class="hint" data-name="no_windows">{t('eod.noWindows')}</p> : (
                  <div class="pickup-windows" role="group" aria-label={t('eod.windows')}>
                    {offered.windows.map((w) => (
                      <button
                        type="button" name="pickup_window" data-window={`${w.from}-${w.to}`} disabled={readOnly}
                        aria-pressed={pickup.from === w.from && pickup.to === w.to} onClick={() => setPickup({ ...pickup, from: w.from, to: w.to })}
                      >{w.from}–{w.to}</button>
                    ))}
                  </div>
                ))}
                {offered.error && <p class="hint" data-name="windows_error">{offered.error}</p>}
              </>
            )}
            <button type="submit" name="close_day" class="primary" disabled={readOnly || busy}>{t(printerId ? 'eod.close' : 'eod.closeNoPrinter')}</button>
          </form>
          {error && <p class="error" role="alert">{error}</p>}
        </>
      )}
      {made && <DispatchResult id={made} printerId={printerId} printers={printers} readOnly={readOnly} onSettled={onSettled} />}
    </section>
  );
}

/** The day's dispatches, newest first, with their documents and Retry for a failed one. */
function PastDispatches({ dispatches, channels, readOnly, onRetried }: { dispatches: Dispatch[]; channels: Channel[]; readOnly: boolean; onRetried: () => void }) {
  const [error, setError] = useState('');
  const retry = async (id: string) => {
    try {
      setError('');
      await data(api.POST('/v1/dispatches/{id}/retry', { params: { path: { id } } }));
      onRetried();
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <section class="past-dispatches">
      <h2>{t('eod.past')}</h2>
      {error && <p class="error" role="alert">{error}</p>}
      {dispatches.length === 0 ? <p>{t('eod.noPast')}</p> : (
        <table>
          <thead><tr><th>{t('eod.created')}</th><th>{t('ship.channel')}</th><th>{t('shipments.status')}</th><th>{t('eod.shipments')}</th><th>{t('eod.parcels')}</th><th>{t('ship.cod')}</th><th /></tr></thead>
          <tbody>
            {dispatches.map((d) => (
              <tr data-dispatch={d.id} data-status={d.status}>
                <td>{formatTime(d.created_at)}</td>
                <td>{channels.find((c) => c.id === d.shipping_channel_id)?.name ?? d.shipping_channel_id}</td>
                <td><Chip status={d.status} />{d.failure && d.status === 'failed' && <small class="error"> {d.failure.message}</small>}</td>
                <td class="number">{d.shipments_count}</td>
                <td class="number">{d.parcels_count}</td>
                <td class="number">{codTotal(d.cash_on_delivery_totals.map((c) => ({ amount: c.amount, currency: c.currency })))}</td>
                <td>
                  {d.has_document && <a href={documentUrl(d.id)} download data-name="document">{t('eod.documentShort')}</a>}
                  {d.status === 'failed' && <button type="button" name="retry_dispatch" disabled={readOnly} onClick={() => retry(d.id)}>{t('eod.retry')}</button>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/**
 * The end of the day: per channel the shipments and parcels waiting for the carrier, their COD total, "Close and
 * print protocol" on the station's PDF printer (else the protocol to download), "Order pickup" where the carrier books
 * a courier, the dispatch's progress and result; then the past dispatches with their documents.
 */
export function EndOfDay({ readOnly }: { readOnly: boolean }) {
  const [waiting, setWaiting] = useState<WaitingForDispatch[]>([]);
  const [past, setPast] = useState<Dispatch[]>([]);
  const [made, setMade] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const channels = useChannels();
  const printers = usePrinters();
  const providers = useProviders();
  const view = useSignal(station);
  const printerId = view?.effective.printers.pdf ?? null;

  const load = () => Promise.all([
    data(api.GET('/v1/dispatches/waiting')).then(setWaiting),
    data(api.GET('/v1/dispatches', { params: { query: { per_page: 20 } } })).then(setPast),
  ]).then(() => setError('')).catch((err: Error) => setError(errorText(err)));
  useEffect(() => {
    void load();
    return onLive((kind) => { if (kind === 'shipment' || kind === 'ready') void load(); });
  }, []);

  const shown = [...new Set([...waiting.filter((w) => w.shipments_count > 0).map((w) => w.shipping_channel_id), ...Object.keys(made)])];
  const pickupOffered = (channelId: string) => {
    const provider = channels.find((c) => c.id === channelId)?.provider;
    return providers.find((p) => p.code === provider)?.dispatch.pickup === true;
  };
  return (
    <main class="end-of-day">
      <h1>{t('eod.title')}</h1>
      {error && <p class="error" role="alert">{error}</p>}
      {shown.length === 0 && <p data-name="nothing_waits">{t('eod.nothing')}</p>}
      {shown.map((channelId) => (
        <ChannelClose
          key={channelId} channelId={channelId} channel={channels.find((c) => c.id === channelId)}
          waiting={waiting.find((w) => w.shipping_channel_id === channelId)?.shipments_count ?? 0}
          pickupOffered={pickupOffered(channelId)} printerId={printerId} printers={printers} readOnly={readOnly}
          made={made[channelId]} onMade={(id) => { setMade((m) => ({ ...m, [channelId]: id })); void load(); }} onSettled={() => void load()}
        />
      ))}
      <PastDispatches dispatches={past} channels={channels} readOnly={readOnly} onRetried={() => void load()} />
    </main>
  );
}
