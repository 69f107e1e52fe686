import type { BoxPreset } from '../api';
import { showDecimal } from '../decimal';
import { t } from '../i18n';
import { emptyParcel, type ParcelInput } from './ship-draft';

interface Props {
  parcels: ParcelInput[];
  onChange: (next: ParcelInput[]) => void;
  /** The station's boxes: a name and its dimensions (and a usual weight). */
  presets: BoxPreset[];
  errors: Record<string, string[]>;
  readOnly: boolean;
}

const MAX_PARCELS = 50;
const KEYS = ['weight', 'length', 'width', 'height'] as const;
const pathOf = (i: number, key: (typeof KEYS)[number]) => `parcels.${i}.${key === 'weight' ? 'weight_amount' : `${key}_dimension`}`;

/** The box whose dimensions a parcel has, if it is one of the presets. */
function presetOf(p: ParcelInput, presets: BoxPreset[]): string {
  const at = presets.findIndex((b) => showDecimal(b.length_dimension) === p.length && showDecimal(b.width_dimension) === p.width && showDecimal(b.height_dimension) === p.height);
  return at === -1 ? '' : String(at);
}

/** The parcel count, and per parcel its weight, a box preset and the dimensions it fills. */
export function Parcels({ parcels, onChange, presets, errors, readOnly }: Props) {
  const set = (i: number, change: Partial<ParcelInput>) => onChange(parcels.map((p, j) => (j === i ? { ...p, ...change } : p)));
  const count = (n: number) => {
    const wanted = Math.min(MAX_PARCELS, Math.max(1, Math.floor(n) || 1));
    onChange(wanted <= parcels.length ? parcels.slice(0, wanted) : [...parcels, ...Array.from({ length: wanted - parcels.length }, emptyParcel)]);
  };
  const choose = (i: number, index: string) => {
    const box = presets[Number(index)];
    if (!box) return;
    set(i, {
      length: showDecimal(box.length_dimension), width: showDecimal(box.width_dimension), height: showDecimal(box.height_dimension),
      // a box's usual weight only where none was typed
      ...(parcels[i]!.weight.trim() === '' && box.weight_amount != null ? { weight: showDecimal(box.weight_amount) } : {}),
    });
  };
  return (
    <section class="card parcels" aria-label={t('ship.parcels')}>
      <div class="row head">
        <label class="count">
          <span>{t('ship.parcelCount')}</span>
          <input name="parcel_count" type="number" min={1} max={MAX_PARCELS} value={parcels.length} disabled={readOnly} onInput={(e) => e.currentTarget.value !== '' && count(Number(e.currentTarget.value))} />
        </label>
        <span class="hint">{t('ship.parcelsHint')}</span>
      </div>
      <table class="parcel-rows">
        <thead>
          <tr><th /><th>{t('ship.weight')}</th><th>{t('ship.box')}</th><th>{t('ship.length')}</th><th>{t('ship.width')}</th><th>{t('ship.height')}</th></tr>
        </thead>
        <tbody>
          {parcels.map((p, i) => (
            <tr key={i} class="parcel">
              <td>{i + 1}</td>
              {KEYS.map((key) => {
                const path = pathOf(i, key);
                const messages = errors[path];
                const input = (
                  <input
                    name={path} inputMode="decimal" autocomplete="off" value={p[key]} disabled={readOnly} aria-label={`${t(`ship.${key}`)} ${i + 1}`}
                    aria-invalid={messages ? 'true' : undefined} onInput={(e) => set(i, { [key]: e.currentTarget.value })}
                  />
                );
                const cell = <td class={messages ? 'field invalid' : 'field'} data-field={path}>{input}{messages && <small class="error">{messages.join('; ')}</small>}</td>;
                if (key !== 'weight') return cell;
                return (
                  <>
                    {cell}
                    <td>
                      <select name={`parcels.${i}.box`} aria-label={`${t('ship.box')} ${i + 1}`} value={presetOf(p, presets)} disabled={readOnly || presets.length === 0} onChange={(e) => choose(i, e.currentTarget.value)}>
                        <option value="">{presets.length === 0 ? t('ship.noBoxes') : '—'}</option>
                        {presets.map((b, at) => <option value={String(at)}>{b.name}</option>)}
                      </select>
                    </td>
                  </>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
