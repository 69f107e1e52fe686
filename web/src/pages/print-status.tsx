import { useEffect, useState } from 'preact/hooks';
import { api, data, type Printer, type PrintJob, type Shipment } from '../api';
import { t } from '../i18n';
import { onLive } from '../live';
import { printerProblems } from './parts';

type Said = { state: 'printed' | 'printing' | 'queued' | 'held' | 'failed' | 'not-printed' | 'not-asked'; text: string };

/** What became of the label's printing, in words: the newest print job of the shipment, else what its print plan says. */
function printSaid(shipment: Shipment, job: PrintJob | undefined, printers: Printer[]): Said {
  const plan = shipment.print_plan;
  const printerId = job?.printer_id ?? plan?.printer_id;
  if (!printerId) {
    if (plan?.reason) return { state: 'not-printed', text: t('print.notPrinted', { reason: plan.reason }) };
    return { state: 'not-asked', text: t('print.notAsked') };
  }
  const printer = printers.find((p) => p.id === printerId);
  const name = printer?.name ?? plan?.printer_name ?? printerId;
  switch (job?.status) {
    case 'printed': return { state: 'printed', text: t('print.printedOn', { printer: name }) };
    case 'printing': return { state: 'printing', text: t('print.printingOn', { printer: name }) };
    case 'failed': return { state: 'failed', text: t('print.failedOn', { printer: name, error: job.error ?? '' }) };
    default: {
      const problem = printer ? printerProblems(printer) : '';
      return problem ? { state: 'held', text: t('print.held', { printer: name, problem }) } : { state: 'queued', text: t('print.queuedOn', { printer: name }) };
    }
  }
}

/** "Printed on Zebra", "Zebra: paper out; the job is queued", or why nothing printed — kept current by live events. */
export function PrintStatus({ shipment, printers }: { shipment: Shipment; printers: Printer[] }) {
  const [job, setJob] = useState<PrintJob | undefined>(undefined);
  useEffect(() => {
    setJob(undefined);
    const load = () => void data(api.GET('/v1/print-jobs', { params: { query: { shipment_id: shipment.id, per_page: 1 } } }))
      .then((jobs) => setJob(jobs[0])).catch(() => undefined);
    load();
    return onLive((kind) => { if (kind === 'print_job' || kind === 'ready') load(); });
  }, [shipment.id]);
  const said = printSaid(shipment, job, printers);
  return <p class={`print-status print-${said.state}`} data-state={said.state} role="status">{said.text}</p>;
}
