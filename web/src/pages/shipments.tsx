import { useEffect, useState } from 'preact/hooks';
import { api, call, data, type Channel, type ShipmentSummary } from '../api';
import { statusWord, t } from '../i18n';
import { onLive } from '../live';
import { Chip, formatTime } from './parts';

const STATUSES = ['pending', 'created', 'shipped', 'delivered', 'cancelled', 'returned'];
const PER_PAGE = 20;

/** Recent shipments: search (a scanned tracking number or reference), status and channel filters, pages. */
export function Shipments() {
  const params = new URLSearchParams(location.hash.split('?')[1] ?? '');
  const [search, setSearch] = useState(params.get('search') ?? '');
  const [status, setStatus] = useState(params.get('status') ?? '');
  const [channel, setChannel] = useState(params.get('channel') ?? '');
  const [page, setPage] = useState(1);
  const [list, setList] = useState<{ items: ShipmentSummary[]; pages: number }>({ items: [], pages: 1 });
  const [channels, setChannels] = useState<Channel[]>([]);
  const [error, setError] = useState('');

  const load = async () => {
    try {
      const answer = await call(api.GET('/v1/shipments', {
        params: { query: { page, per_page: PER_PAGE, ...(search.trim().length > 0 ? { search: search.trim() } : {}), ...(status ? { status } : {}), ...(channel ? { shipping_channel_id: channel } : {}) } as never },
      }));
      setList({ items: answer.data, pages: Math.max(1, answer.meta.last_page) });
      setError('');
      // a scanned tracking number that finds one shipment opens it
      if (search.trim().length >= 8 && answer.data.length === 1 && answer.data[0]!.reference_number !== search.trim()) location.hash = `#/shipments/${answer.data[0]!.id}`;
    } catch (err) {
      setError((err as Error).message);
    }
  };
  useEffect(() => void load(), [page, status, channel]);
  useEffect(() => void data(api.GET('/v1/shipping-channels', { params: { query: { per_page: 100 } } })).then(setChannels).catch(() => undefined), []);
  useEffect(() => onLive((kind) => { if (kind === 'shipment' || kind === 'ready') void load(); }), [page, status, channel, search]);

  return (
    <main class="shipments">
      <h1>{t('shipments.title')}</h1>
      <form class="row filters" onSubmit={(e) => { e.preventDefault(); setPage(1); void load(); }}>
        <input name="search" type="search" autofocus placeholder={t('shipments.search')} aria-label={t('shipments.search')} value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
        <select name="status" aria-label={t('shipments.status')} value={status} onChange={(e) => { setStatus(e.currentTarget.value); setPage(1); }}>
          <option value="">{t('shipments.allStatuses')}</option>
          {STATUSES.map((s) => <option value={s}>{statusWord(s)}</option>)}
        </select>
        <select name="channel" aria-label={t('ship.channel')} value={channel} onChange={(e) => { setChannel(e.currentTarget.value); setPage(1); }}>
          <option value="">{t('shipments.allChannels')}</option>
          {channels.map((c) => <option value={c.id}>{c.name}</option>)}
        </select>
      </form>
      {error && <p class="error" role="alert">{error}</p>}
      {list.items.length === 0 ? <p>{t('shipments.none')}</p> : (
        <table>
          <thead><tr><th>{t('shipments.reference')}</th><th>{t('shipments.status')}</th><th>{t('ship.channel')}</th><th>{t('shipments.created')}</th></tr></thead>
          <tbody>
            {list.items.map((s) => (
              <tr data-id={s.id}>
                <td><a href={`#/shipments/${s.id}`}>{s.reference_number ?? s.id}</a></td>
                <td><Chip status={s.status} /></td>
                <td>{channels.find((c) => c.id === s.shipping_channel_id)?.name ?? s.shipping_channel_id}</td>
                <td>{formatTime(s.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pages">
        <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>{t('shipments.prev')}</button>
        <span>{t('shipments.page', { page, pages: list.pages })}</span>
        <button type="button" disabled={page >= list.pages} onClick={() => setPage(page + 1)}>{t('shipments.next')}</button>
      </nav>
    </main>
  );
}
