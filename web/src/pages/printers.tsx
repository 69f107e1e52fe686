import { useEffect, useState } from 'preact/hooks';
import { api, data, runAction, type Printer, type PrintJob } from '../api';
import { t, type WordKey } from '../i18n';
import { onLive } from '../live';
import { Chip, formatTime, printerProblems, printerState } from './parts';

/** Each printer's state and its queued, printing and failed jobs, kept current by the desk's live events. */
export function Printers({ readOnly }: { readOnly: boolean }) {
  const [printers, setPrinters] = useState<Printer[]>([]);
  const [jobs, setJobs] = useState<PrintJob[]>([]);
  const [error, setError] = useState('');

  const loadPrinters = async () => setPrinters(await data(api.GET('/v1/printers', { params: { query: { per_page: 100 } } })));
  const loadJobs = async () => {
    const [queued, printing, failed, printed] = await Promise.all((['queued', 'printing', 'failed', 'printed'] as const).map((status) =>
      data(api.GET('/v1/print-jobs', { params: { query: { status, per_page: status === 'printed' ? 10 : 50 } } }))));
    setJobs([...printing!, ...queued!, ...failed!, ...printed!]);
  };
  const load = () => Promise.all([loadPrinters(), loadJobs()]).catch((err: Error) => setError(err.message));
  useEffect(() => void load(), []);
  useEffect(() => onLive((kind) => {
    if (kind === 'printer') void loadPrinters().catch(() => undefined);
    else if (kind === 'print_job') void loadJobs().catch(() => undefined);
    else if (kind === 'ready') void load();
  }), []);

  const act = (action: () => Promise<unknown>) => runAction(setError, action);

  if (printers.length === 0) return <main><h1>{t('printers.title')}</h1><p>{t('printers.none')}</p></main>;
  return (
    <main class="printers">
      <h1>{t('printers.title')}</h1>
      {error && <p class="error" role="alert">{error}</p>}
      {printers.map((p) => {
        const state = printerState(p);
        const queue = jobs.filter((j) => j.printer_id === p.id);
        return (
          <section class="printer" data-id={p.id} data-state={state}>
            <h2>{p.name} <Chip status={state} label={t(`state.${state}` as WordKey)} /></h2>
            <p class="hint">{p.uri} · {p.formats.join(', ').toUpperCase()}{p.last_seen_at ? ` · ${t('printers.lastSeen', { at: formatTime(p.last_seen_at) })}` : ''}</p>
            {state !== 'ready' && <p class="warning" data-name="problems">{printerProblems(p)}</p>}
            {!readOnly && <button type="button" name="test" onClick={() => act(() => data(api.POST('/v1/printers/{id}/test', { params: { path: { id: p.id } }, body: {} })))}>{t('printers.test')}</button>}
            <h3>{t('printers.queue')}</h3>
            {queue.length === 0 ? <p>{t('printers.noJobs')}</p> : (
              <table>
                <tbody>
                  {queue.map((j) => (
                    <tr data-job={j.id} data-status={j.status}>
                      <td><Chip status={j.status} /></td>
                      <td>
                        {(j.shipment_ids?.length ?? 0) > 1
                          ? t('printers.labels', { n: j.shipment_ids!.length })
                          : j.shipment_id ? <a href={`#/shipments/${j.shipment_id}`}>{j.shipment_id}</a> : j.id}
                      </td>
                      <td>{j.format.toUpperCase()} ×{j.copies}</td>
                      <td>{formatTime(j.created_at)}</td>
                      <td class="error">{j.error ?? ''}</td>
                      <td>{j.status === 'failed' && !readOnly && <button type="button" name="retry" onClick={() => act(() => data(api.POST('/v1/print-jobs/{id}/retry', { params: { path: { id: j.id } } })))}>{t('printers.retry')}</button>}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        );
      })}
    </main>
  );
}
