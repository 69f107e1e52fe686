import { t } from '../i18n';
import { AddressFields, nameOf, PartyFields, type Address, type Party } from './party-fields';
import { Field } from './parts';

export interface Recipient { recipient: Party; destination: Address; cod_amount: string; cod_currency: string }

interface Props {
  value: Recipient;
  onChange: (next: Recipient) => void;
  /** The full fields, in place of the summary. */
  editing: boolean;
  onEdit: (editing: boolean) => void;
  errors: Record<string, string[]>;
  readOnly: boolean;
  /** The shipment goes to a pickup point: its address may stay empty. */
  toPoint: boolean;
}

/** The recipient, the address and the COD as a compact card; "edit" shows their fields in place. */
export function RecipientCard({ value, onChange, editing, onEdit, errors, readOnly, toPoint }: Props) {
  const { recipient: r, destination: a } = value;
  if (!editing) {
    const cod = value.cod_amount.trim() ? `${t('ship.cod')}: ${value.cod_amount} ${value.cod_currency}` : '';
    return (
      <section class="card recipient" aria-label={t('ship.recipient')}>
        <div class="summary">
          <div><strong data-name="recipient">{nameOf(r) || '—'}</strong><span class="hint">{[r.phone_number, r.email_address].filter(Boolean).join(' · ')}</span></div>
          <div>
            <span>{[a.street_name, a.house_number].filter(Boolean).join(' ')}{a.apartment_number && `/${a.apartment_number}`}</span>
            <span>{[a.postal_code, a.city_name, a.country_code].filter(Boolean).join(' ')}</span>
            {cod && <span class="cod">{cod}</span>}
          </div>
        </div>
        {!readOnly && <button type="button" class="quiet" name="edit_recipient" onClick={() => onEdit(true)}>{t('ship.edit')}</button>}
      </section>
    );
  }
  return (
    <fieldset class="card recipient editing">
      <legend>{t('ship.recipient')}</legend>
      <PartyFields prefix="recipient_contact" value={r} onChange={(recipient) => onChange({ ...value, recipient })} errors={errors} disabled={readOnly} />
      {toPoint && <p class="hint">{t('points.addressOptional')}</p>}
      <AddressFields prefix="destination_address" value={a} onChange={(destination) => onChange({ ...value, destination })} errors={errors} disabled={readOnly} />
      <div class="row">
        <Field label="ship.codAmount" path="cash_on_delivery_amount" errors={errors}>
          <input name="cash_on_delivery_amount" inputMode="decimal" value={value.cod_amount} disabled={readOnly} onInput={(e) => onChange({ ...value, cod_amount: e.currentTarget.value })} />
        </Field>
        <Field label="ship.codCurrency" path="cash_on_delivery_currency" errors={errors} short>
          <input name="cash_on_delivery_currency" maxLength={3} value={value.cod_currency} disabled={readOnly} onInput={(e) => onChange({ ...value, cod_currency: e.currentTarget.value.toUpperCase() })} />
        </Field>
        <button type="button" class="quiet" name="done_recipient" onClick={() => onEdit(false)}>{t('ship.done')}</button>
      </div>
    </fieldset>
  );
}
