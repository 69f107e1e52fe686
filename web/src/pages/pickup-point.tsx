import { useEffect, useRef, useState } from 'preact/hooks';
import { api, data, errorText, type PickupPoint, type Provider } from '../api';
import { language, t, type WordKey } from '../i18n';
import { useSignal } from '../signal';

/**
 * A pickup point or locker as the desk knows it: its id (and type) always; its name and address where a record or the
 * carrier's point API gave them; its hours and COD once the carrier's point API answered.
 */
export interface PointChoice {
  provider_point_id: string;
  type: PickupPoint['type'] | null;
  name: string | null;
  address: PickupPoint['address'] | null;
  opening_hours?: PickupPoint['opening_hours'];
  cash_on_delivery?: boolean;
}

/** What a record says of its point: a shipment's `{provider_point_id, type, name, address}`, an order's `{provider_point_id, type?}`. */
export type PointRecord = { provider_point_id: string; type?: PickupPoint['type'] | null; name?: string | null; address?: PickupPoint['address'] | null };

export const choiceOf = (p: PointRecord): PointChoice => ({ provider_point_id: p.provider_point_id, type: p.type ?? null, name: p.name ?? null, address: p.address ?? null });

const pointOf = (p: PickupPoint): PointChoice => ({
  provider_point_id: p.provider_point_id, type: p.type, name: p.name, address: p.address, opening_hours: p.opening_hours, cash_on_delivery: p.cash_on_delivery,
});

/** `Mon–Fri 08:00–18:00, Sat 08:00–12:00` in the desk's language: days in a row with the same hours as one group. */
function hoursText(hours: PickupPoint['opening_hours'], lang: string): string {
  // 1 January 2024 was a Monday: ISO weekday n is that month's day n
  const dayName = (day: number) => new Intl.DateTimeFormat(lang, { weekday: 'short', timeZone: 'UTC' }).format(Date.UTC(2024, 0, day));
  const byDay = [1, 2, 3, 4, 5, 6, 7].map((day) => hours.filter((h) => h.day === day).map((h) => `${h.from}–${h.to}`).join(' '));
  const groups: string[] = [];
  for (let first = 0; first < 7;) {
    let last = first;
    while (last + 1 < 7 && byDay[last + 1] === byDay[first]) last++;
    if (byDay[first]) groups.push(`${last > first ? `${dayName(first + 1)}–${dayName(last + 1)}` : dayName(first + 1)} ${byDay[first]}`);
    first = last + 1;
  }
  return groups.join(', ') || t('points.closed');
}

const addressText = (a: PickupPoint['address']) => `${[a.street_name, a.house_number].filter(Boolean).join(' ')}, ${a.postal_code} ${a.city_name}`;
const typeWord = (type: PickupPoint['type'] | null) => (type ? t(`points.type.${type}` as WordKey) : '');

/** A point's name, type, id, address, hours and COD; `cod`: the shipment has COD, so a point that takes none is marked. */
export function PointLines({ point, cod }: { point: PointChoice; cod: boolean }) {
  const lang = useSignal(language);
  return (
    <div class="point-lines">
      <strong data-name="point-name">{point.name ?? point.provider_point_id}</strong>
      <span class="hint">{[typeWord(point.type), point.provider_point_id].filter(Boolean).join(' · ')}</span>
      {point.address && <span data-name="point-address">{addressText(point.address)}</span>}
      {point.opening_hours && <span data-name="point-hours">{hoursText(point.opening_hours, lang)}</span>}
      {cod && point.cash_on_delivery === false && <span class="warning" data-name="point-no-cod">{t('points.noCodWarning')}</span>}
    </div>
  );
}

/**
 * The point's hours and COD from the carrier's point API, for a point a record names (an order's has only its id):
 * asked once per point and channel; a carrier that does not answer leaves what the record says.
 */
export function usePointDetails(point: PointChoice | null, provider: Provider | undefined, channelId: string, known: (found: PointChoice) => void): void {
  const id = point?.opening_hours ? null : point?.provider_point_id;
  const searchable = provider?.pickup_points.search === true;
  useEffect(() => {
    if (!id || !searchable || !channelId) return undefined;
    let current = true;
    void data(api.GET('/v1/pickup-points/{provider}/{id}', { params: { path: { provider: provider!.code, id }, query: { shipping_channel_id: channelId } } }))
      .then((found) => { if (current) known(pointOf(found)); })
      .catch(() => undefined);
    return () => { current = false; };
  }, [id, searchable, channelId]);
}

interface CardProps {
  point: PointChoice | null;
  /** The carrier of the shipment's channel. */
  provider: Provider | undefined;
  channelId: string;
  /** Where to search first: the destination's country. */
  country: string;
  cod: boolean;
  errors: Record<string, string[]>;
  readOnly: boolean;
  /** The packer chose a point, or the door (null). */
  onChange: (point: PointChoice | null) => void;
  /** The carrier told more of the point the draft has. */
  onKnown: (point: PointChoice) => void;
}

/**
 * The shipment's pickup point on the ship screen, for a carrier that delivers to points: the point chosen (name,
 * address, hours), a search by postal code or city listing the carrier's points to choose from, and "deliver to the door".
 */
export function PickupPointCard({ point, provider, channelId, country, cod, errors, readOnly, onChange, onKnown }: CardProps) {
  const [searching, setSearching] = useState(false);
  const [typed, setTyped] = useState('');
  const [found, setFound] = useState<PickupPoint[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const input = useRef<HTMLInputElement>(null);
  usePointDetails(point, provider, channelId, onKnown);
  useEffect(() => { if (searching) input.current?.focus(); }, [searching]);
  useEffect(() => {
    setFound(null);
    setSearching(false);
  }, [channelId]);

  const types = provider?.pickup_points.types ?? [];
  if (types.length === 0 && !point) return null;
  const canSearch = provider?.pickup_points.search === true && !readOnly;
  const messages = Object.entries(errors).filter(([path]) => path.startsWith('pickup_point')).flatMap(([, m]) => m);

  const search = async () => {
    const place = typed.trim();
    if (!place) return;
    setBusy(true);
    setError('');
    try {
      // a postal code has digits, a city none
      const where = /\d/.test(place) ? { postal_code: place } : { city: place };
      setFound(await data(api.GET('/v1/pickup-points', { params: { query: { shipping_channel_id: channelId, country, ...where } } })));
    } catch (err) {
      setError(errorText(err));
      setFound(null);
    } finally {
      setBusy(false);
    }
  };
  const choose = (chosen: PickupPoint) => {
    onChange(pointOf(chosen));
    setSearching(false);
    setFound(null);
  };

  return (
    <section class={['card', 'pickup-point', messages.length > 0 && 'invalid'].filter(Boolean).join(' ')} aria-label={t('points.title')} data-field="pickup_point">
      <div class="point-head">
        <span class="hint">{t('points.title')}</span>
        {point ? <PointLines point={point} cod={cod} /> : <span data-name="to-door">{t('points.atDoor')}</span>}
        {!readOnly && (
          <div class="row">
            {canSearch && !searching && (
              <button type="button" class="quiet" name="search_point" onClick={() => setSearching(true)}>{point ? t('points.change') : t('points.toPoint')}</button>
            )}
            {point && <button type="button" class="quiet" name="to_door" onClick={() => onChange(null)}>{t('points.toDoor')}</button>}
          </div>
        )}
      </div>
      {messages.length > 0 && <small class="error" id="error-pickup_point">{messages.join('; ')}</small>}
      {!canSearch && !point && types.length > 0 && !readOnly && <p class="hint">{t('points.noSearch')}</p>}
      {searching && (
        <div class="point-search">
          <div class="row">
            <label class="field">
              <span>{t('points.search')}</span>
              <input
                ref={input} name="point_search" value={typed} autocomplete="off" onInput={(e) => setTyped(e.currentTarget.value)}
                onKeyDown={(e) => {
                  if (e.key !== 'Enter' || e.ctrlKey || e.metaKey) return;
                  // Enter searches here; it would move on through the form or ship
                  e.preventDefault();
                  e.stopPropagation();
                  void search();
                }}
              />
            </label>
            <button type="button" name="find_points" disabled={busy} onClick={() => void search()}>{t('points.find')}</button>
            <button type="button" class="quiet" name="close_search" onClick={() => { setSearching(false); setFound(null); }}>{t('points.cancel')}</button>
          </div>
          {busy && <p class="progress">{t('points.searching')}</p>}
          {error && <p class="error" role="alert">{error}</p>}
          {found?.length === 0 && <p class="hint" data-name="no-points">{t('points.none')}</p>}
          {found && found.length > 0 && (
            <ul class="point-list">
              {found.map((p) => {
                const refusesCod = cod && !p.cash_on_delivery;
                return (
                  <li data-point={p.provider_point_id} class={[refusesCod && 'no-cod', !p.open && 'closed'].filter(Boolean).join(' ')}>
                    <PointLines point={pointOf(p)} cod={cod} />
                    <span class="point-facts">
                      <span data-name="point-cod">{p.cash_on_delivery ? t('points.codYes') : t('points.codNo')}</span>
                      {!p.open && <span class="warning">{t('points.closedNow')}</span>}
                    </span>
                    <button type="button" name="choose_point" value={p.provider_point_id} disabled={refusesCod || !p.open} onClick={() => choose(p)}>{t('points.choose')}</button>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
