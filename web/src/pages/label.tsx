import { useEffect, useState } from 'preact/hooks';
import { api, call, data, errorText, type Printer, type Shipment } from '../api';
import { t } from '../i18n';

type Pictures = Array<{ parcel: number; content: string; mime_type: string }>;

interface Props {
  shipment: Shipment;
  printers: Printer[];
  readOnly: boolean;
  /** The printer Print starts on: the station's for the label format; else the account's default, else the first. */
  preferredPrinterId?: string | null;
  /** Whether the label was sent to a printer already (Print then says Reprint). */
  printedOnCreate?: boolean;
}

/** The label as it prints, a picture per parcel, with Print (a printer that takes the format, copies) and downloads. */
export function LabelPreview({ shipment, printers, readOnly, preferredPrinterId, printedOnCreate = false }: Props) {
  const [pictures, setPictures] = useState<Pictures>([]);
  const takes = printers.filter((p) => p.formats.includes(shipment.label_format));
  const [printerId, setPrinterId] = useState('');
  const [copies, setCopies] = useState(1);
  const [message, setMessage] = useState('');

  useEffect(() => {
    setPictures([]);
    void call(api.GET('/v1/shipments/{id}/label', { params: { path: { id: shipment.id }, query: { format: 'png' } } }))
      .then((answer) => setPictures(((answer as { data: { images?: Pictures } }).data.images) ?? []))
      .catch((err: Error) => setMessage(err.message));
  }, [shipment.id]);
  useEffect(() => {
    const preferred = takes.find((p) => p.id === preferredPrinterId) ?? takes.find((p) => p.default_for.includes(shipment.label_format)) ?? takes[0];
    setPrinterId((current) => (takes.some((p) => p.id === current) ? current : preferred?.id ?? ''));
  }, [printers, shipment.label_format, preferredPrinterId]);

  const print = async () => {
    try {
      await data(api.POST('/v1/shipments/{id}/print', { params: { path: { id: shipment.id } }, body: { printer_id: printerId, copies } }));
      setMessage(t('label.printed', { printer: takes.find((p) => p.id === printerId)?.name ?? printerId, copies }));
    } catch (err) {
      setMessage(errorText(err));
    }
  };

  return (
    <section class="label">
      <div class="pictures" data-count={pictures.length}>
        {pictures.map((p) => (
          <figure><img src={`data:${p.mime_type};base64,${p.content}`} alt={t('label.parcel', { n: p.parcel })} /><figcaption>{t('label.parcel', { n: p.parcel })}</figcaption></figure>
        ))}
      </div>
      {!readOnly && (takes.length === 0
        ? <p class="warning">{t('label.noPrinter', { format: shipment.label_format.toUpperCase() })}</p>
        : (
          <div class="row print">
            <select name="printer" aria-label={t('ship.printer')} value={printerId} onChange={(e) => setPrinterId(e.currentTarget.value)}>
              {takes.map((p) => <option value={p.id}>{p.name}</option>)}
            </select>
            <input name="copies" type="number" min={1} max={20} aria-label={t('ship.copies')} value={copies} onInput={(e) => setCopies(Number(e.currentTarget.value) || 1)} />
            <button type="button" class={printedOnCreate ? '' : 'primary'} name="print" onClick={print}>{printedOnCreate ? t('shipment.reprint') : t('label.print')}</button>
          </div>
        ))}
      {message && <p class="notice" role="status">{message}</p>}
      <p class="downloads">
        {(['pdf', 'zpl', 'epl'] as const).map((f) => <a href={`/v1/shipments/${shipment.id}/label?format=${f}&download=1`} download>{t('label.download', { format: f.toUpperCase() })}</a>)}
      </p>
    </section>
  );
}
