import { t, type WordKey } from '../i18n';
import { emptyCustomsItem, rememberedItem, type CustomsDraft, type CustomsItemInput } from './ship-draft';

interface Props {
  customs: CustomsDraft;
  onChange: (next: CustomsDraft) => void;
  errors: Record<string, string[]>;
  readOnly: boolean;
}

/** The API's contents types, each with its word: the generated schema types hold the list to the API's enum. */
const CONTENTS: Record<CustomsDraft['contents_type'], WordKey> = {
  sale: 'customs.contents.sale', gift: 'customs.contents.gift', sample: 'customs.contents.sample',
  documents: 'customs.contents.documents', return: 'customs.contents.return', other: 'customs.contents.other',
};
const MAX_ITEMS = 99;
const COLUMNS: { key: keyof CustomsItemInput; word: WordKey; numeric?: true }[] = [
  { key: 'sku', word: 'customs.sku' }, { key: 'description', word: 'customs.description' }, { key: 'hs_code', word: 'customs.hsCode' },
  { key: 'quantity', word: 'customs.quantity', numeric: true }, { key: 'unit_value', word: 'customs.unitValue', numeric: true },
  { key: 'unit_weight', word: 'customs.unitWeight', numeric: true }, { key: 'origin_country', word: 'customs.origin' },
];

/**
 * The customs declaration, shown where the route crosses a customs border (the API said so): what the goods are and
 * one row an item. A SKU typed into an empty row fills it as this desk last declared that SKU.
 */
export function CustomsCard({ customs, onChange, errors, readOnly }: Props) {
  const setItem = (i: number, change: Partial<CustomsItemInput>) => onChange({ ...customs, items: customs.items.map((item, j) => (j === i ? { ...item, ...change } : item)) });
  const setSku = (i: number, sku: string) => {
    const item = customs.items[i]!;
    const blank = COLUMNS.every(({ key }) => key === 'sku' || key === 'quantity' || item[key].trim() === '');
    setItem(i, { sku, ...(blank ? rememberedItem(sku) : {}) });
  };
  const cell = (i: number, key: keyof CustomsItemInput, word: WordKey, numeric?: true) => {
    const path = `customs.items.${i}.${key}`;
    const messages = errors[path];
    return (
      <td class={messages ? 'field invalid' : 'field'} data-field={path}>
        <input
          name={path} autocomplete="off" inputMode={numeric ? 'decimal' : undefined} value={customs.items[i]![key]} disabled={readOnly}
          aria-label={`${t(word)} ${i + 1}`} aria-invalid={messages ? 'true' : undefined}
          onInput={(e) => (key === 'sku' ? setSku(i, e.currentTarget.value) : setItem(i, { [key]: e.currentTarget.value }))}
        />
        {messages && <small class="error">{messages.join('; ')}</small>}
      </td>
    );
  };
  const general = errors.customs ?? errors['customs.items'];
  return (
    <section class="card customs" aria-label={t('customs.title')}>
      <div class="row head">
        <span class="hint">{t('customs.title')}</span>
        <label class="field" data-field="customs.contents_type">
          <span>{t('customs.contents')}</span>
          <select name="customs.contents_type" value={customs.contents_type} disabled={readOnly} onChange={(e) => onChange({ ...customs, contents_type: e.currentTarget.value as CustomsDraft['contents_type'] })}>
            {Object.entries(CONTENTS).map(([c, word]) => <option value={c}>{t(word)}</option>)}
          </select>
        </label>
        <label class="field short" data-field="customs.incoterm">
          <span>{t('customs.incoterm')}</span>
          <input name="customs.incoterm" autocomplete="off" placeholder="DAP" value={customs.incoterm} disabled={readOnly} onInput={(e) => onChange({ ...customs, incoterm: e.currentTarget.value })} />
        </label>
      </div>
      {general && <p class="error" role="alert">{general.join('; ')}</p>}
      <table class="customs-items">
        <thead><tr><th />{COLUMNS.map(({ word }) => <th>{t(word)}</th>)}<th /></tr></thead>
        <tbody>
          {customs.items.map((_, i) => (
            <tr key={i} class="customs-item">
              <td>{i + 1}</td>
              {COLUMNS.map(({ key, word, numeric }) => cell(i, key, word, numeric))}
              <td>{!readOnly && customs.items.length > 1 && (
                <button type="button" name={`customs.items.${i}.remove`} aria-label={`${t('customs.removeItem')} ${i + 1}`} onClick={() => onChange({ ...customs, items: customs.items.filter((__, j) => j !== i) })}>×</button>
              )}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!readOnly && customs.items.length < MAX_ITEMS && (
        <button type="button" name="customs.add_item" onClick={() => onChange({ ...customs, items: [...customs.items, emptyCustomsItem()] })}>{t('customs.addItem')}</button>
      )}
    </section>
  );
}
