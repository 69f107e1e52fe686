import { useEffect, useState } from 'preact/hooks';
import { api, data, errorText, type Dispatch, type Printer, type PrintJob } from '../api';
import { t } from '../i18n';
import { onLive } from '../live';
import { printerProblems } from './parts';

/** How often a pending dispatch is asked after: the desk's live events do not carry dispatches. */
const POLL_MS = 1000;

export const documentUrl = (id: string) => `/v1/dispatches/${id}/document`;

/** The dispatch, asked after every second while the carrier takes it over. */
function useDispatch(id: string): [Dispatch | undefined, (d: Dispatch) => void] {
  const [dispatch, setDispatch] = useState<Dispatch | undefined>(undefined);
  const [unanswered, setUnanswered] = useState(0);
  useEffect(() => {
    if (dispatch && dispatch.id === id && dispatch.status !== 'pending') return undefined;
    const ask = () => void data(api.GET('/v1/dispatches/{id}', { params: { path: { id } } })).then(setDispatch).catch(() => setUnanswered((n) => n + 1));
    const timer = setTimeout(ask, dispatch || unanswered ? POLL_MS : 0);
    return () => clearTimeout(timer);
  }, [id, dispatch, unanswered]);
  return [dispatch, setDispatch];
}

/** The job printing the dispatch's document on `printerId`, kept current by the desk's live events. */
function usePrintJob(dispatch: Dispatch | undefined, printerId: string | null): PrintJob | undefined {
  const [job, setJob] = useState<PrintJob | undefined>(undefined);
  const ready = dispatch?.status === 'dispatched' && printerId !== null;
  useEffect(() => {
    if (!ready) return undefined;
    const load = () => void data(api.GET('/v1/print-jobs', { params: { query: { printer_id: printerId, per_page: 20 } } }))
      .then((jobs) => setJob(jobs.find((j) => j.dispatch_id === dispatch.id))).catch(() => undefined);
    load();
    return onLive((kind) => { if (kind === 'print_job' || kind === 'ready') load(); });
  }, [ready, dispatch?.id, printerId]);
  return job;
}

function printedText(job: PrintJob | undefined, printer: Printer | undefined, printerId: string): string {
  const name = printer?.name ?? printerId;
  switch (job?.status) {
    case 'printed': return t('print.printedOn', { printer: name });
    case 'printing': return t('print.printingOn', { printer: name });
    case 'failed': return t('print.failedOn', { printer: name, error: job.error ?? '' });
    default: {
      const problem = printer ? printerProblems(printer) : '';
      return problem ? t('print.held', { printer: name, problem }) : t('print.queuedOn', { printer: name });
    }
  }
}

/**
 * A dispatch made on this page: progress while the carrier takes it over, then the document, where it printed and the
 * courier booked — or the carrier's refusal and Retry.
 */
export function DispatchResult({ id, printerId, printers, readOnly, onSettled }: {
  id: string; printerId: string | null; printers: Printer[]; readOnly: boolean; onSettled: () => void;
}) {
  const [dispatch, setDispatch] = useDispatch(id);
  const job = usePrintJob(dispatch, printerId);
  const [error, setError] = useState('');
  const status = dispatch?.status;
  useEffect(() => { if (status && status !== 'pending') onSettled(); }, [status]);

  const retry = async () => {
    try {
      setError('');
      setDispatch(await data(api.POST('/v1/dispatches/{id}/retry', { params: { path: { id } } })));
    } catch (err) {
      setError(errorText(err));
    }
  };

  if (!dispatch || dispatch.status === 'pending') {
    return (
      <div class="dispatch-result" data-dispatch={id} data-status="pending" aria-busy="true" role="status">
        <p class="working">{t('eod.working')}</p>
        {dispatch?.failure && <p class="hint">{t('eod.retrying', { message: dispatch.failure.message })}</p>}
      </div>
    );
  }
  if (dispatch.status === 'failed') {
    return (
      <div class="dispatch-result" data-dispatch={id} data-status="failed" role="alert">
        <p class="error">{t('eod.failed', { message: dispatch.failure?.message ?? '' })}</p>
        {Object.entries(dispatch.failure?.errors ?? {}).map(([field, messages]) => <p class="error hint">{field}: {messages.join('; ')}</p>)}
        {error && <p class="error">{error}</p>}
        <button type="button" name="retry_dispatch" disabled={readOnly} onClick={retry}>{t('eod.retry')}</button>
      </div>
    );
  }
  const pickup = dispatch.pickup;
  return (
    <div class="dispatch-result" data-dispatch={id} data-status="dispatched" role="status">
      <p class="done">{t('eod.done', { shipments: dispatch.shipments_count, parcels: dispatch.parcels_count })}</p>
      {printerId
        ? <p class={`print-status print-${job?.status ?? 'queued'}`} data-state={job?.status ?? 'queued'}>{printedText(job, printers.find((p) => p.id === printerId), printerId)}</p>
        : <p class="hint">{t('eod.noPrinter')}</p>}
      {pickup && (
        <p data-name="pickup" class={pickup.confirmation === null ? 'warning' : undefined}>
          {pickup.confirmation === null
            ? t('eod.pickupUnconfirmed', { date: pickup.date, from: pickup.from, to: pickup.to, note: pickup.note ?? '' })
            : t('eod.pickup', { date: pickup.date, from: pickup.from, to: pickup.to, confirmation: pickup.confirmation })}
        </p>
      )}
      <p><a class="button" href={documentUrl(id)} download data-name="document">{t('eod.document')}</a></p>
    </div>
  );
}
