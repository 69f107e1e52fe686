import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, data, errorText, type BoxPreset, type Channel, type LabelFormat, type Printer, type StationSettings, type StationView } from '../api';
import { readDecimal, showDecimal } from '../decimal';
import { useChannels, usePrinters } from '../hooks';
import { t } from '../i18n';
import { settingsBody, station } from '../station';
import { addressBody, addressOf, AddressFields, contactBody, isBlank, nameOf, partyOf, PartyFields, type Address, type Party } from './party-fields';
import { Field } from './parts';

const FORMATS = ['pdf', 'zpl', 'epl'] as const;
type Scope = 'station' | 'account';
interface Box { name: string; length: string; width: string; height: string; weight: string }
/** The settings as their inputs hold them; empty means "inherit". */
interface Form {
  sender: Party;
  origin: Address;
  channel: string;
  label_format: LabelFormat | '';
  printers: Record<LabelFormat, string>;
  copies: string;
  auto_print: '' | 'on' | 'off';
  /** null: the boxes are inherited. */
  boxes: Box[] | null;
}

const boxOf = (b: BoxPreset): Box => ({
  name: b.name, length: showDecimal(b.length_dimension), width: showDecimal(b.width_dimension), height: showDecimal(b.height_dimension), weight: showDecimal(b.weight_amount),
});

function formOf(s: StationSettings): Form {
  return {
    sender: partyOf(s.sender_contact), origin: addressOf(s.origin_address, ''), channel: s.shipping_channel_id ?? '', label_format: s.label_format ?? '',
    printers: { pdf: s.printers?.pdf ?? '', zpl: s.printers?.zpl ?? '', epl: s.printers?.epl ?? '' },
    copies: showDecimal(s.copies), auto_print: s.auto_print == null ? '' : s.auto_print ? 'on' : 'off', boxes: s.box_presets ? s.box_presets.map(boxOf) : null,
  };
}

function settingsOf(f: Form): StationSettings {
  const printers = Object.fromEntries(FORMATS.filter((k) => f.printers[k]).map((k) => [k, f.printers[k]]));
  return {
    sender_contact: isBlank(f.sender) ? null : contactBody(f.sender),
    origin_address: isBlank(f.origin) ? null : addressBody(f.origin),
    shipping_channel_id: f.channel || null,
    label_format: f.label_format || null,
    printers: Object.keys(printers).length > 0 ? printers : null,
    copies: readDecimal(f.copies) ?? null,
    auto_print: f.auto_print === '' ? null : f.auto_print === 'on',
    box_presets: f.boxes?.map((b) => ({
      name: b.name.trim(), length_dimension: readDecimal(b.length)!, width_dimension: readDecimal(b.width)!, height_dimension: readDecimal(b.height)!,
      ...(b.weight.trim() ? { weight_amount: readDecimal(b.weight) } : {}),
    })) ?? null,
  };
}

/** What a field falls back to when this scope leaves it empty: the account's (for a station), else the defaults. */
interface Inherited { sender: string; channel: string; label_format: LabelFormat; printers: Record<LabelFormat, string>; copies: number; auto_print: boolean; boxes: BoxPreset[] }

function inheritedFor(scope: Scope, account: StationSettings, printers: Printer[], channels: Channel[]): Inherited {
  const own = scope === 'station' ? account : {};
  const printerName = (format: LabelFormat) => {
    const id = own.printers?.[format] ?? printers.find((p) => p.default_for.includes(format))?.id;
    return printers.find((p) => p.id === id)?.name ?? '';
  };
  const sender = own.sender_contact ? nameOf(partyOf(own.sender_contact)) : '';
  return {
    sender, channel: channels.find((c) => c.id === own.shipping_channel_id)?.name ?? '', label_format: own.label_format ?? 'pdf',
    printers: { pdf: printerName('pdf'), zpl: printerName('zpl'), epl: printerName('epl') },
    copies: own.copies ?? 1, auto_print: own.auto_print ?? false, boxes: own.box_presets ?? [],
  };
}

/** This station's settings and the account's, which every station starts from; empty fields inherit. */
export function StationPage({ readOnly, stationName }: { readOnly: boolean; stationName: string }) {
  const [scope, setScope] = useState<Scope>('station');
  const [view, setView] = useState<StationView | null>(null);
  const [account, setAccount] = useState<StationSettings | null>(null);
  const [error, setError] = useState('');
  const printers = usePrinters();
  const channels = useChannels();

  const load = async () => {
    try {
      const [mine, theirs] = await Promise.all([
        data(api.GET('/v1/stations/{name}/settings', { params: { path: { name: stationName } } })), data(api.GET('/v1/station-settings')),
      ]);
      setView(mine);
      station.set(mine);
      setAccount(theirs);
    } catch (err) {
      setError(errorText(err));
    }
  };
  useEffect(() => void load(), [stationName]);

  const save = async (settings: StationSettings) => {
    const body = settingsBody(settings);
    if (scope === 'station') await data(api.PUT('/v1/stations/{name}/settings', { params: { path: { name: stationName } }, body }));
    else await data(api.PUT('/v1/station-settings', { body }));
    await load();
  };

  const tab = (to: Scope, label: string) => (
    <button type="button" name={`scope_${to}`} class={scope === to ? 'tab active' : 'tab'} aria-pressed={scope === to} onClick={() => setScope(to)}>{label}</button>
  );
  return (
    <main class="station">
      <h1>{t('station.title', { station: stationName })}</h1>
      <p class="hint">{t('station.hint')}</p>
      <div class="row tabs">{tab('station', t('station.thisStation', { station: stationName }))}{tab('account', t('station.account'))}</div>
      {error && <p class="error" role="alert">{error}</p>}
      {view && account && (
        <SettingsForm
          key={scope} scope={scope} own={scope === 'station' ? view.settings : account} inherited={inheritedFor(scope, account, printers, channels)}
          printers={printers} channels={channels} readOnly={readOnly} onSave={save}
        />
      )}
    </main>
  );
}

interface FormProps {
  scope: Scope;
  own: StationSettings;
  inherited: Inherited;
  printers: Printer[];
  channels: Channel[];
  readOnly: boolean;
  onSave: (settings: StationSettings) => Promise<void>;
}

function SettingsForm({ scope, own, inherited, printers, channels, readOnly, onSave }: FormProps) {
  const [form, setForm] = useState<Form>(() => formOf(own));
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [message, setMessage] = useState('');
  const change = (next: Partial<Form>) => {
    setForm((f) => ({ ...f, ...next }));
    setMessage('');
  };
  const inherits = (value: string) => t(scope === 'station' ? 'station.fromAccount' : 'station.default', { value: value || t('station.none') });

  const submit = async (event: Event) => {
    event.preventDefault();
    setErrors({});
    try {
      await onSave(settingsOf(form));
      setMessage(t('station.saved'));
    } catch (err) {
      if (err instanceof ApiError) setErrors(err.errors);
      setMessage(errorText(err));
    }
  };
  const setBox = (i: number, next: Partial<Box>) => change({ boxes: form.boxes!.map((b, j) => (j === i ? { ...b, ...next } : b)) });

  return (
    <form class="settings" data-scope={scope} onSubmit={submit} noValidate>
      <fieldset disabled={readOnly}>
        <legend>{t('ship.sender')}</legend>
        {isBlank(form.sender) && <p class="hint inherited">{inherits(inherited.sender)}</p>}
        <PartyFields prefix="sender_contact" value={form.sender} onChange={(sender) => change({ sender })} errors={errors} />
        <AddressFields prefix="origin_address" value={form.origin} onChange={(origin) => change({ origin })} errors={errors} />
      </fieldset>
      <fieldset disabled={readOnly}>
        <legend>{t('station.shipping')}</legend>
        <div class="row">
          <Field label="ship.channel" path="shipping_channel_id" errors={errors}>
            <select name="shipping_channel_id" value={form.channel} onChange={(e) => change({ channel: e.currentTarget.value })}>
              <option value="">{inherits(inherited.channel)}</option>
              {channels.map((c) => <option value={c.id}>{c.name} ({c.provider})</option>)}
            </select>
          </Field>
          <Field label="ship.format" path="label_format" errors={errors}>
            <select name="label_format" value={form.label_format} onChange={(e) => change({ label_format: e.currentTarget.value as Form['label_format'] })}>
              <option value="">{inherits(inherited.label_format.toUpperCase())}</option>
              {FORMATS.map((f) => <option value={f}>{f.toUpperCase()}</option>)}
            </select>
          </Field>
          <Field label="ship.copies" path="copies" errors={errors}>
            <input name="copies" inputMode="numeric" value={form.copies} placeholder={inherits(String(inherited.copies))} onInput={(e) => change({ copies: e.currentTarget.value })} />
          </Field>
          <Field label="station.autoPrint" path="auto_print" errors={errors}>
            <select name="auto_print" value={form.auto_print} onChange={(e) => change({ auto_print: e.currentTarget.value as Form['auto_print'] })}>
              <option value="">{inherits(inherited.auto_print ? t('station.on') : t('station.off'))}</option>
              <option value="on">{t('station.on')}</option>
              <option value="off">{t('station.off')}</option>
            </select>
          </Field>
        </div>
        <div class="row">
          {FORMATS.map((format) => (
            <Field label={`station.printer.${format}`} path={`printers.${format}`} errors={errors}>
              <select name={`printers.${format}`} value={form.printers[format]} onChange={(e) => change({ printers: { ...form.printers, [format]: e.currentTarget.value } })}>
                <option value="">{inherits(inherited.printers[format])}</option>
                {printers.filter((p) => p.formats.includes(format)).map((p) => <option value={p.id}>{p.name}</option>)}
              </select>
            </Field>
          ))}
        </div>
      </fieldset>
      <fieldset disabled={readOnly} class="boxes">
        <legend>{t('station.boxes')}</legend>
        {scope === 'station' && (
          <label class="check">
            <input type="checkbox" name="own_boxes" checked={form.boxes !== null} onChange={(e) => change({ boxes: e.currentTarget.checked ? inherited.boxes.map(boxOf) : null })} />
            {t('station.ownBoxes')}
          </label>
        )}
        {form.boxes === null
          ? <p class="hint inherited">{inherits(inherited.boxes.map((b) => b.name).join(', '))}</p>
          : (
            <>
              {form.boxes.map((b, i) => (
                <div class="row box">
                  {(['name', 'length', 'width', 'height', 'weight'] as const).map((key) => (
                    <Field label={`station.box.${key}`} path={`box_presets.${i}.${key === 'name' ? 'name' : key === 'weight' ? 'weight_amount' : `${key}_dimension`}`} errors={errors}>
                      <input name={`box_presets.${i}.${key}`} value={b[key]} inputMode={key === 'name' ? undefined : 'decimal'} onInput={(e) => setBox(i, { [key]: e.currentTarget.value })} />
                    </Field>
                  ))}
                  <button type="button" class="quiet" onClick={() => change({ boxes: form.boxes!.filter((_, j) => j !== i) })}>{t('station.removeBox')}</button>
                </div>
              ))}
              <button type="button" class="quiet" name="add_box" onClick={() => change({ boxes: [...form.boxes!, { name: '', length: '', width: '', height: '', weight: '' }] })}>{t('station.addBox')}</button>
            </>
          )}
      </fieldset>
      {!readOnly && <button type="submit" class="primary" name="save">{t('station.save')}</button>}
      {message && <p class={Object.keys(errors).length > 0 ? 'error' : 'notice'} role="status">{message}</p>}
    </form>
  );
}
