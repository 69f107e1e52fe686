import { useEffect, useState } from 'preact/hooks';
import type { paths } from '../api-schema';
import { api, call, data, errorText, type ShipmentSummary } from '../api';
import { useChannels, usePrinters } from '../hooks';
import { statusWord, t } from '../i18n';
import { onLive } from '../live';
import { Chip, formatTime } from './parts';

const STATUSES = ['pending', 'created', 'shipped', 'delivered', 'cancelled', 'returned'];
/** The status filter's choice for refused shipments waiting for a fix (`needs_attention=true`, not a status). */
const NEEDS_ATTENTION = 'needs_attention';
const PER_PAGE = 50;
/** How many labels one print job or one merged PDF takes. */
const MAX_SELECTED = 100;

interface Filters { search: string; status: string; channel: string; from: string; to: string }

type ListQuery = NonNullable<paths['/v1/shipments']['get']['parameters']['query']>;

/** The list's filters as the API's query: a day's range from its first to its last moment, in this browser's time. */
function filterQuery(f: Filters): Omit<ListQuery, 'page' | 'per_page' | 'include'> {
  const query: ReturnType<typeof filterQuery> = {};
  if (f.search.trim()) query.search = f.search.trim();
  if (f.status === NEEDS_ATTENTION) query.needs_attention = true;
  else if (f.status) query.status = f.status as ListQuery['status'];
  if (f.channel) query.shipping_channel_id = f.channel;
  if (f.from) query.created_from = new Date(`${f.from}T00:00:00`).toISOString();
  if (f.to) query.created_to = new Date(`${f.to}T23:59:59.999`).toISOString();
  return query;
}

const money = (amount: number | null | undefined, currency: string | null | undefined) =>
  (amount == null ? '' : `${amount.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency ?? ''}`.trim());

/**
 * The shipments a shift lead looks through: who and where, tracking number, COD, carrier, printed; filters (status or
 * "needs attention", channel, dates, a scanned number); many selected print as one job per format or download as one
 * PDF; the filtered list exports as CSV.
 */
export function Shipments({ readOnly, stationName }: { readOnly: boolean; stationName: string }) {
  const params = new URLSearchParams(location.hash.split('?')[1] ?? '');
  const [filters, setFilters] = useState<Filters>({
    search: params.get('search') ?? '', status: params.get('status') ?? '', channel: params.get('channel') ?? '', from: params.get('from') ?? '', to: params.get('to') ?? '',
  });
  const [page, setPage] = useState(1);
  const [list, setList] = useState<{ items: ShipmentSummary[]; pages: number; total: number }>({ items: [], pages: 1, total: 0 });
  const [selected, setSelected] = useState<string[]>([]);
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');
  const channels = useChannels();
  const printers = usePrinters();

  const load = async () => {
    try {
      const answer = await call(api.GET('/v1/shipments', {
        params: { query: { page, per_page: PER_PAGE, include: 'details', ...filterQuery(filters) } },
      }));
      setList({ items: answer.data, pages: Math.max(1, answer.meta.last_page), total: answer.meta.total });
      setError('');
      // a scanned tracking number that finds one shipment opens it
      const search = filters.search.trim();
      if (search.length >= 8 && answer.data.length === 1 && answer.data[0]!.reference_number !== search) location.hash = `#/shipments/${answer.data[0]!.id}`;
    } catch (err) {
      setError(errorText(err));
    }
  };
  const { status, channel, from, to } = filters;
  useEffect(() => void load(), [page, status, channel, from, to]);
  useEffect(() => setSelected([]), [status, channel, from, to]);
  useEffect(() => onLive((kind) => { if (kind === 'shipment' || kind === 'print_job' || kind === 'ready') void load(); }), [page, filters]);

  const filter = (change: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...change }));
    setPage(1);
  };
  const toggle = (id: string, on: boolean) => setSelected((s) => (on ? [...s.filter((x) => x !== id), id] : s.filter((x) => x !== id)));
  const pageIds = list.items.map((s) => s.id);
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selected.includes(id));
  const printSelected = async () => {
    setMessage('');
    try {
      const jobs = await data(api.POST('/v1/print-jobs', { body: { shipment_ids: selected, station: stationName } }));
      const where = jobs.map((j) => `${j.format.toUpperCase()} → ${printers.find((p) => p.id === j.printer_id)?.name ?? j.printer_id}`).join(', ');
      setMessage(t('shipments.printQueued', { n: selected.length, jobs: jobs.length, where }));
    } catch (err) {
      setMessage(errorText(err));
    }
  };
  const csv = `/v1/shipments/export.csv?${new URLSearchParams(Object.entries(filterQuery(filters)).map(([k, v]) => [k, String(v)])).toString()}`;

  return (
    <main class="shipments">
      <h1>{t('shipments.title')}</h1>
      <form class="row filters" onSubmit={(e) => { e.preventDefault(); setPage(1); void load(); }}>
        <input name="search" type="search" autofocus placeholder={t('shipments.search')} aria-label={t('shipments.search')} value={filters.search} onInput={(e) => setFilters((f) => ({ ...f, search: e.currentTarget.value }))} />
        <select name="status" aria-label={t('shipments.status')} value={status} onChange={(e) => filter({ status: e.currentTarget.value })}>
          <option value="">{t('shipments.allStatuses')}</option>
          <option value={NEEDS_ATTENTION}>{statusWord(NEEDS_ATTENTION)}</option>
          {STATUSES.map((s) => <option value={s}>{statusWord(s)}</option>)}
        </select>
        <select name="channel" aria-label={t('ship.channel')} value={channel} onChange={(e) => filter({ channel: e.currentTarget.value })}>
          <option value="">{t('shipments.allChannels')}</option>
          {channels.map((c) => <option value={c.id}>{c.name}</option>)}
        </select>
        <label class="date">{t('shipments.from')} <input name="created_from" type="date" value={from} onChange={(e) => filter({ from: e.currentTarget.value })} /></label>
        <label class="date">{t('shipments.to')} <input name="created_to" type="date" value={to} onChange={(e) => filter({ to: e.currentTarget.value })} /></label>
        <a class="button" href={csv} download data-name="export_csv">{t('shipments.exportCsv')}</a>
      </form>
      <div class="row selection">
        <span>{t('shipments.selected', { n: selected.length })}</span>
        {!readOnly && <button type="button" name="print_selected" disabled={selected.length === 0 || selected.length > MAX_SELECTED} onClick={printSelected}>{t('shipments.printLabels')}</button>}
        {selected.length > 0 && selected.length <= MAX_SELECTED
          ? <a class="button" data-name="download_selected" href={`/v1/shipments/labels?ids=${selected.join(',')}`} download>{t('shipments.downloadPdf')}</a>
          : <span class="button disabled" aria-disabled="true">{t('shipments.downloadPdf')}</span>}
        {selected.length > 0 && <button type="button" class="quiet" name="clear_selection" onClick={() => setSelected([])}>{t('shipments.clearSelection')}</button>}
        {message && <span class="notice" role="status">{message}</span>}
      </div>
      {error && <p class="error" role="alert">{error}</p>}
      {list.items.length === 0 ? <p>{t('shipments.none')}</p> : (
        <table>
          <thead>
            <tr>
              <th><input type="checkbox" name="select_page" aria-label={t('shipments.selectPage')} checked={allOnPage} onChange={(e) => setSelected((s) => (e.currentTarget.checked ? [...new Set([...s, ...pageIds])] : s.filter((id) => !pageIds.includes(id))))} /></th>
              <th>{t('shipments.reference')}</th><th>{t('shipments.status')}</th><th>{t('ship.recipient')}</th><th>{t('shipments.destination')}</th>
              <th>{t('shipment.trackingNumber')}</th><th>{t('ship.cod')}</th><th>{t('shipments.carrier')}</th><th>{t('shipments.printed')}</th><th>{t('shipments.created')}</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((s) => (
              <tr data-id={s.id} data-needs-attention={s.needs_attention ? 'true' : undefined}>
                <td><input type="checkbox" name="select" value={s.id} aria-label={s.reference_number ?? s.id} checked={selected.includes(s.id)} onChange={(e) => toggle(s.id, e.currentTarget.checked)} /></td>
                <td><a href={`#/shipments/${s.id}`}>{s.reference_number ?? s.id}</a></td>
                <td>{s.needs_attention ? <Chip status={NEEDS_ATTENTION} /> : <Chip status={s.status} />}</td>
                <td>{s.recipient_name ?? ''}</td>
                <td>{[s.destination_city, s.destination_country].filter(Boolean).join(', ')}</td>
                <td class="tracking-number">{s.tracking_number ?? '—'}{(s.total_parcels_count ?? 1) > 1 && <small class="hint"> +{s.total_parcels_count! - 1}</small>}</td>
                <td class="number">{money(s.cash_on_delivery_amount, s.cash_on_delivery_currency)}</td>
                <td>{channels.find((c) => c.id === s.shipping_channel_id)?.name ?? s.provider ?? ''}</td>
                <td data-printed={s.printed_at ? 'true' : 'false'}>{s.printed_at ? <span title={formatTime(s.printed_at)}>✓ {new Date(s.printed_at).toLocaleTimeString()}</span> : '—'}</td>
                <td>{formatTime(s.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pages">
        <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>{t('shipments.prev')}</button>
        <span>{t('shipments.page', { page, pages: list.pages })} · {t('shipments.total', { n: list.total })}</span>
        <button type="button" disabled={page >= list.pages} onClick={() => setPage(page + 1)}>{t('shipments.next')}</button>
      </nav>
    </main>
  );
}
