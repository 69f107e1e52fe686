import { useEffect, useState } from 'preact/hooks';
import { api, call, data, type ImportRecord, type WatchedFolder } from '../api';
import { t } from '../i18n';
import { Chip, formatTime } from './parts';

type FailedRow = { row: number; field: string; message: string };

/** Each watched folder with its latest imports: what became of their orders, and the failed rows with their messages. */
export function Imports() {
  const [folders, setFolders] = useState<WatchedFolder[]>([]);
  const [imports, setImports] = useState<Record<string, ImportRecord[]>>({});
  const [failed, setFailed] = useState<{ file: string; rows: FailedRow[] } | null>(null);
  const [error, setError] = useState('');

  const load = async () => {
    try {
      const list = await data(api.GET('/v1/watched-folders', { params: { query: { per_page: 100 } } }));
      setFolders(list);
      const latest = await Promise.all(list.map((f) => data(api.GET('/v1/imports', { params: { query: { watched_folder_id: f.id, per_page: 10 } } }))));
      setImports(Object.fromEntries(list.map((f, i) => [f.id, latest[i]!])));
    } catch (err) {
      setError((err as Error).message);
    }
  };
  useEffect(() => {
    void load();
    const timer = setInterval(load, 5000); // imports are read from folders, not shown live: a look every 5 s
    return () => clearInterval(timer);
  }, []);
  const showFailed = async (record: ImportRecord) => {
    const answer = await call(api.GET('/v1/imports/{id}/errors', { params: { path: { id: record.id } } })) as { data: FailedRow[] };
    setFailed({ file: record.file_name, rows: answer.data });
  };

  if (folders.length === 0) return <main><h1>{t('imports.title')}</h1>{error ? <p class="error">{error}</p> : <p>{t('imports.none')}</p>}</main>;
  return (
    <main class="imports">
      <h1>{t('imports.title')}</h1>
      {error && <p class="error" role="alert">{error}</p>}
      {folders.map((f) => (
        <section>
          <h2>{f.path} <Chip status={f.status} /></h2>
          {(imports[f.id] ?? []).length === 0 ? <p>{t('imports.noImports')}</p> : (
            <table>
              <thead>
                <tr>
                  <th>{t('imports.file')}</th><th /><th>{t('imports.rows')}</th><th>{t('imports.created')}</th><th>{t('imports.refused')}</th>
                  <th>{t('imports.invalid')}</th><th>{t('imports.queued')}</th><th />
                </tr>
              </thead>
              <tbody>
                {imports[f.id]!.map((i) => (
                  <tr>
                    <td>{i.file_name}</td><td><Chip status={i.status} /></td><td>{i.rows_processed}/{i.rows ?? '?'}</td>
                    <td>
                      {i.created}
                      {i.awaiting_carrier > 0 && <small class="hint"> {t('imports.awaiting', { n: i.awaiting_carrier })}</small>}
                    </td>
                    <td>{i.refused_by_carrier}</td>
                    <td>
                      {i.invalid}
                      {i.failed_rows > 0 && <> <button type="button" class="quiet" name="failed_rows" onClick={() => void showFailed(i)}>{t('imports.failedRows', { n: i.failed_rows })}</button></>}
                    </td>
                    <td>{i.queued}</td>
                    <td>{formatTime(i.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ))}
      {failed && (
        <section class="failed-rows">
          <h2>{t('imports.errors', { file: failed.file })}</h2>
          <table><tbody>{failed.rows.map((r) => <tr><td>{t('imports.row')} {r.row}</td><td><code>{r.field}</code></td><td>{r.message}</td></tr>)}</tbody></table>
        </section>
      )}
    </main>
  );
}
