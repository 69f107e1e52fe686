import { useState } from 'preact/hooks';
import { api, ApiError, call, type DeskSession } from '../api';
import { t } from '../i18n';

export function SignIn({ onSignedIn }: { onSignedIn: (session: DeskSession) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState(new URLSearchParams(location.search).get('link') === 'expired' ? t('signIn.linkExpired') : '');
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    try {
      onSignedIn((await call(api.POST('/v1/desk/sessions', { body: { api_key: key } }))).data);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String((err as Error).message));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="sign-in">
      <form onSubmit={submit}>
        <h1>{t('signIn.title')}</h1>
        <label>
          {t('signIn.key')}
          <input name="api_key" type="password" autocomplete="off" required autofocus value={key} onInput={(e) => setKey(e.currentTarget.value)} />
        </label>
        {error && <p class="error" role="alert">{error}</p>}
        <button type="submit" disabled={busy}>{t('signIn.submit')}</button>
        <p class="hint">{t('signIn.hint')}</p>
      </form>
    </main>
  );
}
