import { useState } from 'preact/hooks';
import { api, ApiError, data, errorText, type Provider, type Shipment } from '../api';
import { t } from '../i18n';
import { useSignal } from '../signal';
import { station } from '../station';
import { Parcels } from './parcels';
import { PickupPointCard } from './pickup-point';
import { RecipientCard } from './recipient-card';
import { correctionBody, draftOfRefused, RECIPIENT_PATHS, type Draft } from './ship-draft';
import { isRefused } from './ship-result';

/**
 * A refused shipment's fields with the carrier's messages beside them, its pickup point where its carrier has points;
 * sending corrects the same shipment (PATCH).
 */
export function FixShipment({ shipment, carrier, onAnswer }: { shipment: Shipment; carrier: Provider | undefined; onAnswer: (s: Shipment) => void }) {
  const boxes = useSignal(station)?.effective.box_presets ?? [];
  const [draft, setDraft] = useState<Draft>(() => draftOfRefused(shipment));
  const [errors, setErrors] = useState<Record<string, string[]>>(shipment.failure?.errors ?? {});
  const [editing, setEditing] = useState(() => Object.keys(errors).some((path) => RECIPIENT_PATHS.test(path)));
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setMessage('');
    try {
      const answer = await data(api.PATCH('/v1/shipments/{id}', {
        params: { path: { id: shipment.id } }, body: correctionBody({ ...draft, label_format: draft.label_format || shipment.label_format }), headers: { Prefer: 'wait=25' },
      }));
      setErrors(isRefused(answer) ? answer.failure!.errors : {});
      onAnswer(answer);
    } catch (err) {
      if (err instanceof ApiError) setErrors(err.errors);
      setMessage(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="fix" onSubmit={submit} noValidate>
      <RecipientCard
        value={draft} editing={editing} onEdit={setEditing} errors={errors} readOnly={false} toPoint={draft.pickup_point !== null}
        onChange={(next) => setDraft((d) => ({ ...d, ...next }))}
      />
      <PickupPointCard
        point={draft.pickup_point} provider={carrier} channelId={draft.channel} country={draft.destination.country_code}
        cod={draft.cod_amount.trim() !== ''} errors={errors} readOnly={false}
        onChange={(point) => setDraft((d) => ({ ...d, pickup_point: point }))}
        onKnown={(point) => setDraft((d) => (d.pickup_point?.provider_point_id === point.provider_point_id ? { ...d, pickup_point: point } : d))}
      />
      <Parcels parcels={draft.parcels} onChange={(parcels) => setDraft((d) => ({ ...d, parcels }))} presets={boxes} errors={errors} readOnly={false} />
      <div class="row">
        <button type="submit" class="primary" name="fix" disabled={busy}>{t('ship.resubmit')}</button>
        {busy && <span class="progress" aria-busy="true">{t('ship.working')}</span>}
        {message && <span class="error" role="alert">{message}</span>}
      </div>
    </form>
  );
}
