import type { Effective, Printer, Shipment } from '../api';
import { t } from '../i18n';
import { LabelPreview } from './label';
import { PrintStatus } from './print-status';

export type Outcome =
  | { kind: 'idle' }
  | { kind: 'working' }
  | { kind: 'invalid'; message: string }
  | { kind: 'shipment'; shipment: Shipment };

/** A shipment the carrier refused, waiting for a correction (or a retry). */
export const isRefused = (s: Shipment) => s.status === 'pending' && s.failure !== null;

interface Props {
  outcome: Outcome;
  errors: Record<string, string[]>;
  printers: Printer[];
  effective: Effective | null;
  stationName: string;
  readOnly: boolean;
}

/** The station's printing as one line: which printer auto-prints the label format, or that nothing does. */
function stationLine(effective: Effective, printers: Printer[], stationName: string): string {
  const format = effective.label_format;
  const printer = printers.find((p) => p.id === effective.printers[format]);
  if (!effective.auto_print) return t('ship.stationManual', { station: stationName, format: format.toUpperCase() });
  if (!printer) return t('ship.stationNoPrinter', { station: stationName, format: format.toUpperCase() });
  return t('ship.stationPrints', { station: stationName, format: format.toUpperCase(), printer: printer.name });
}

/** The right column of the ship screen, always in view: progress, the label and where it printed, or what to fix. */
export function ShipResult({ outcome, errors, printers, effective, stationName, readOnly }: Props) {
  const messages = Object.entries(errors);
  const fieldList = messages.length > 0 && (
    <ul class="field-errors">{messages.map(([path, said]) => <li><code>{path}</code> {said.join('; ')}</li>)}</ul>
  );
  switch (outcome.kind) {
    case 'idle':
      return (
        <section class="result idle" aria-live="polite">
          <p class="hint">{t('ship.scanFirst')}</p>
          {effective && <p class="station-line">{stationLine(effective, printers, stationName)}</p>}
          {effective && !effective.sender_contact && <p class="warning">{t('ship.noSender')} <a href="#/station">{t('nav.station')}</a></p>}
        </section>
      );
    case 'working':
      return <section class="result" aria-live="polite"><p class="progress" role="status" aria-busy="true">{t('ship.working')}</p></section>;
    case 'invalid':
      return <section class="result" aria-live="polite"><p class="error" role="alert">{outcome.message}</p>{fieldList}</section>;
    case 'shipment': {
      const s = outcome.shipment;
      if (isRefused(s)) {
        return (
          <section class="result refused" aria-live="polite" data-shipment={s.id}>
            <p class="error" role="alert">{t('ship.refused', { message: s.failure!.message })}</p>
            {fieldList}
            {!readOnly && <p class="hint">{t('ship.fixHint')}</p>}
          </section>
        );
      }
      return (
        <section class="result" aria-live="polite" data-shipment={s.id}>
          {s.status === 'pending'
            ? <p class="progress" role="status">{t('ship.pending')}</p>
            : <p class="created" role="status">{t('ship.created', { numbers: s.parcels.map((p) => p.tracking_number).join(', ') })}</p>}
          {s.chosen_by && <p class="hint" data-name="chosen-by">{t('shipment.chosenBy', { name: s.chosen_by.name, reason: s.chosen_by.reason })}</p>}
          {s.has_label && (
            <>
              <PrintStatus shipment={s} printers={printers} />
              <LabelPreview
                shipment={s} printers={printers} readOnly={readOnly} preferredPrinterId={effective?.printers[s.label_format]}
                printedOnCreate={Boolean(s.print_plan?.printer_id)}
              />
            </>
          )}
        </section>
      );
    }
  }
}
