// Fills a data directory with N stored shipments (one parcel each) for the list and search benchmarks.
import Database from 'better-sqlite3';

const BASE = Date.parse('2026-01-01T00:00:00Z');

/** Inserts `count` created shipments for one account and channel straight into SQLite, in batches. */
export function seedShipments(dbPath, { accountId, channelId, count, log = () => {} }) {
  const db = new Database(dbPath);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const have = db.prepare('SELECT count(*) AS n FROM shipments WHERE account_id = ?').get(accountId).n;
  if (have >= count) return have;
  const contact = JSON.stringify({ first_name: 'Jana', last_name: 'Nováková', email_address: 'jana@example.cz', phone_number: '+420602333444' });
  const sender = JSON.stringify({ company_name: 'Sklad Praha s.r.o.', email_address: 'sklad@example.cz', phone_number: '+420601111222' });
  const origin = JSON.stringify({ street_name: 'Skladová', house_number: '12', city_name: 'Praha', postal_code: '11000', country_code: 'CZ' });
  const dest = JSON.stringify({ street_name: 'Údolní', house_number: '5', city_name: 'Brno', postal_code: '60200', country_code: 'CZ' });
  const insertShipment = db.prepare(`INSERT INTO shipments (id, seq, account_id, channel_id, provider, status, label_format, shipping_date,
    reference_number, provider_shipment_id, product, is_international, cod_amount_minor, cod_currency, sender_contact, recipient_contact,
    origin_address, destination_address, metadata, label_comment, enable_tracking, print_request, total_price_minor, currency, failure,
    attempts, next_attempt_at, carrier_progress, cancelled_at, created_at, updated_at)
    VALUES (?, ?, ?, ?, 'ppl', 'created', 'pdf', '2026-01-01', ?, ?, 'PRIV', 0, NULL, NULL, ?, ?, ?, ?, NULL, NULL, 1, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, ?, ?)`);
  const insertParcel = db.prepare(`INSERT INTO parcels (id, shipment_id, position, parcel_type, weight_amount, weight_unit, length_dimension,
    width_dimension, height_dimension, dimension_unit, tracking_number, tracking_status, tracking_url) VALUES (?, ?, 0, 'package', 1.5, 'KG', 30, 20, 10, 'CM', ?, 'created', NULL)`);
  const insertSearch = db.prepare('INSERT INTO shipment_search (rowid, account_id, terms) VALUES (?, ?, ?)');
  const startSeq = db.prepare('SELECT ifnull(max(seq), 0) AS s FROM shipments').get().s;
  const batch = db.transaction((from, to) => {
    for (let i = from; i < to; i++) {
      const seq = startSeq + i + 1;
      const id = `sh_bench${String(i).padStart(15, '0')}`;
      const number = String(40000000000 + i);
      const reference = `ORD-${String(i).padStart(7, '0')}`;
      const at = BASE + i * 1000;
      insertShipment.run(id, seq, accountId, channelId, reference, number, sender, contact, origin, dest, at, at);
      insertParcel.run(`pcl_bench${String(i).padStart(15, '0')}`, id, number);
      insertSearch.run(seq, accountId, `${reference} ${number} ${number}`);
    }
  });
  for (let from = have; from < count; from += 20_000) {
    batch(from, Math.min(count, from + 20_000));
    if (from % 200_000 === 0) log(`seeded ${from} shipments`);
  }
  db.close();
  return count;
}
