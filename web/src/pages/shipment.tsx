import { useEffect, useState } from 'preact/hooks';
import { api, data, runAction, type Channel, type Shipment, type TrackingParcel } from '../api';
import { usePrinters, useProviders } from '../hooks';
import { t } from '../i18n';
import { onLive } from '../live';
import { useSignal } from '../signal';
import { station } from '../station';
import { FixShipment } from './fix-shipment';
import { LabelPreview } from './label';
import { Chip, formatTime } from './parts';
import { choiceOf, PointLines, usePointDetails, type PointChoice } from './pickup-point';
import { PrintStatus } from './print-status';
import { isRefused } from './ship-result';

/** A return is made of a shipment its carrier has (as the API's POST /v1/shipments/{id}/return holds). */
const RETURNABLE = new Set(['created', 'shipped', 'delivered']);

/**
 * One shipment: its pickup point (name, address, hours), parcels, the tracking timeline (newest first, the carrier's codes), label, where it printed, reprint,
 * cancel, retry, its return label and the links between a shipment and its returns; a refused one shows its fields to correct, and sending them corrects this same shipment.
 */
export function ShipmentPage({ id, readOnly }: { id: string; readOnly: boolean }) {
  const [shipment, setShipment] = useState<Shipment | null>(null);
  const [channel, setChannel] = useState<Channel | null>(null);
  const [tracking, setTracking] = useState<TrackingParcel[]>([]);
  const printers = usePrinters();
  const providers = useProviders();
  const effective = useSignal(station)?.effective;
  const [error, setError] = useState('');
  const [pointKnown, setPointKnown] = useState<PointChoice | null>(null);

  const load = async () => {
    try {
      const s = await data(api.GET('/v1/shipments/{id}', { params: { path: { id } } }));
      setShipment(s);
      const numbers = s.parcels.map((p) => p.tracking_number).filter((n): n is string => Boolean(n));
      const found = await Promise.all(numbers.map(async (number) => {
        const [match] = (await data(api.GET('/v1/tracking-parcels', { params: { query: { search: number, per_page: 1 } } }))).filter((p) => p.tracking_number === number);
        return match ? data(api.GET('/v1/tracking-parcels/{id}', { params: { path: { id: match.id } } })) : undefined;
      }));
      setTracking(found.filter((p): p is TrackingParcel => Boolean(p)));
    } catch (err) {
      setError((err as Error).message);
    }
  };
  useEffect(() => void load(), [id]);
  const channelId = shipment?.shipping_channel_id;
  useEffect(() => {
    if (channelId) void data(api.GET('/v1/shipping-channels/{id}', { params: { path: { id: channelId } } })).then(setChannel).catch(() => undefined);
  }, [channelId]);
  useEffect(() => onLive((kind, changed) => { if ((kind === 'shipment' && changed === id) || kind === 'ready') void load(); }), [id]);
  const carrier = providers.find((p) => p.code === channel?.provider);
  const recorded = shipment?.pickup_point ? choiceOf(shipment.pickup_point) : null;
  // the record names the point; its hours come from the carrier's point API
  const point = recorded && pointKnown?.provider_point_id === recorded.provider_point_id ? pointKnown : recorded;
  usePointDetails(point, carrier, channelId ?? '', setPointKnown);

  const act = (action: () => Promise<unknown>) => runAction(setError, async () => {
    await action();
    await load();
  });
  const cancel = () => window.confirm(t('shipment.cancelConfirm')) && act(() => data(api.POST('/v1/shipments/{id}/cancel', { params: { path: { id } } })));
  const retry = () => act(() => data(api.POST('/v1/shipments/{id}/retry', { params: { path: { id } } })));
  const makeReturn = () => act(async () => {
    const back = await data(api.POST('/v1/shipments/{id}/return', { params: { path: { id } }, body: {} }));
    location.hash = `#/shipments/${back.id}`;
  });

  if (!shipment) return <main>{error ? <p class="error" role="alert">{error}</p> : <p aria-busy="true" />}</main>;
  const updates = tracking.flatMap((p) => p.status_updates.map((u) => ({ ...u, number: p.tracking_number })))
    .sort((a, b) => b.timestamp.localeCompare(a.timestamp));
  return (
    <main class="shipment">
      <p><a href="#/shipments">← {t('shipment.back')}</a></p>
      <h1>{shipment.reference_number ?? shipment.id} <Chip status={shipment.needs_attention ? 'needs_attention' : shipment.status} /></h1>
      <p>{shipment.recipient_contact.company_name ?? `${shipment.recipient_contact.first_name ?? ''} ${shipment.recipient_contact.last_name ?? ''}`}, {shipment.destination_address.street_name} {shipment.destination_address.house_number}, {shipment.destination_address.postal_code} {shipment.destination_address.city_name}</p>
      {shipment.chosen_by && <p class="hint" data-name="chosen-by">{t('shipment.chosenBy', { name: shipment.chosen_by.name, reason: shipment.chosen_by.reason })}</p>}
      {point && (
        <section class="card pickup-point" aria-label={t('points.title')}>
          <span class="hint">{t('points.title')}</span>
          <PointLines point={point} cod={shipment.cash_on_delivery_amount != null} />
        </section>
      )}
      {shipment.failure && <p class="error" role="alert">{t('shipment.failure', { message: shipment.failure.message })}</p>}
      {error && <p class="error" role="alert">{error}</p>}
      {!readOnly && (
        <div class="row actions">
          {shipment.status === 'pending' && <button type="button" name="retry" onClick={retry}>{t('shipment.retry')}</button>}
          {(shipment.status === 'pending' || (shipment.status === 'created' && channel?.capabilities.cancel !== false)) && <button type="button" name="cancel" class="danger" onClick={cancel}>{t('shipment.cancel')}</button>}
          {carrier?.returns && shipment.return_of === null && RETURNABLE.has(shipment.status) && <button type="button" name="return" onClick={makeReturn}>{t('shipment.makeReturn')}</button>}
        </div>
      )}
      {shipment.return_of && <p data-name="return-of">{t('shipment.returnOf')} <a href={`#/shipments/${shipment.return_of}`}>{shipment.return_of}</a></p>}
      {shipment.return_shipment_ids.length > 0 && (
        <p data-name="returns">{t('shipment.returns')} {shipment.return_shipment_ids.map((r) => <a href={`#/shipments/${r}`}>{r}</a>)}</p>
      )}
      {!readOnly && isRefused(shipment) && <FixShipment key={shipment.updated_at} shipment={shipment} carrier={carrier} onAnswer={setShipment} />}
      {!readOnly && shipment.status === 'created' && channel?.capabilities.cancel === false && (
        <p class="hint" data-name="cannot-cancel">{channel.capabilities.unavailable_because.cancel}</p>
      )}
      <h2>{t('shipment.parcels')}</h2>
      <table>
        <tbody>
          {shipment.parcels.map((p, i) => (
            <tr><td>{i + 1}</td><td class="tracking-number">{p.tracking_number ?? '—'}</td><td>{p.weight_amount} {p.weight_unit}</td>
              <td>{p.length_dimension}×{p.width_dimension}×{p.height_dimension} {p.dimension_unit}</td>
              <td>{p.tracking_status && <Chip status={p.tracking_status} />}</td></tr>
          ))}
        </tbody>
      </table>
      <h2>{t('shipment.tracking')}</h2>
      {updates.length === 0 ? <p>{t('shipment.noTracking')}</p> : (
        <ol class="timeline">
          {updates.map((u) => (
            <li><time>{formatTime(u.timestamp)}</time> <Chip status={u.status} /> <code>{u.carrier_status.code}</code> {u.carrier_status.text ?? u.description ?? ''} {u.location && <span>· {u.location}</span>} <small>{u.number}</small></li>
          ))}
        </ol>
      )}
      {shipment.has_label && (
        <>
          <h2>{t('label.preview')}</h2>
          <PrintStatus shipment={shipment} printers={printers} />
          <LabelPreview
            shipment={shipment} printers={printers} readOnly={readOnly || shipment.status === 'cancelled'} preferredPrinterId={effective?.printers[shipment.label_format]}
            printedOnCreate={Boolean(shipment.printed_at ?? shipment.print_plan?.printer_id)}
          />
        </>
      )}
    </main>
  );
}
