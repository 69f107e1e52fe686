import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, call, UnreachableError, bindSession, type DeskSession } from './api';
import { language, LANGUAGES, setLanguage, t, type Language } from './i18n';
import { reachable, startLive, stopLive } from './live';
import { EndOfDay } from './pages/end-of-day';
import { Imports } from './pages/imports';
import { Printers } from './pages/printers';
import { RulesPage } from './pages/rules';
import { ShipScreen } from './pages/ship';
import { ShipmentPage } from './pages/shipment';
import { Shipments } from './pages/shipments';
import { SignIn } from './pages/sign-in';
import { StationPage } from './pages/station';
import { useSignal } from './signal';
import { loadStation, moveBrowserSender } from './station';
import './desk.css';

/** The route is the part after `#`: `/ship`, `/shipments`, `/shipments/sh_…`, `/end-of-day`, `/station`, `/printers`, `/imports`, `/rules`. */
function useRoute(): string {
  const [route, setRoute] = useState(location.hash.slice(1) || '/ship');
  useEffect(() => {
    const changed = () => setRoute(location.hash.slice(1) || '/ship');
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}

function Page({ route, session }: { route: string; session: DeskSession }) {
  const readOnly = session.scope === 'read_only';
  const shipment = /^\/shipments\/([\w-]+)$/.exec(route);
  if (shipment) return <ShipmentPage id={shipment[1]!} readOnly={readOnly} />;
  if (route.startsWith('/shipments')) return <Shipments readOnly={readOnly} stationName={session.station} />;
  if (route === '/station') return <StationPage readOnly={readOnly} stationName={session.station} />;
  if (route === '/printers') return <Printers readOnly={readOnly} />;
  if (route === '/imports') return <Imports />;
  if (route === '/rules') return <RulesPage readOnly={readOnly} />;
  if (route === '/end-of-day') return <EndOfDay readOnly={readOnly} />;
  return <ShipScreen readOnly={readOnly} stationName={session.station} />;
}

function Desk() {
  const [session, setSession] = useState<DeskSession | null | undefined>(undefined);
  const route = useRoute();
  const online = useSignal(reachable);
  useSignal(language);

  const signedIn = (found: DeskSession) => {
    bindSession(found, signedOut);
    setSession(found);
    startLive();
    const moved = found.scope === 'full' ? moveBrowserSender() : Promise.resolve();
    void moved.then(() => loadStation(found.station)).catch(() => undefined);
  };
  const signedOut = () => {
    stopLive();
    setSession(null);
  };
  const load = async () => {
    try {
      const found = (await call(api.GET('/v1/desk/session'))).data;
      reachable.set(true);
      signedIn(found);
    } catch (err) {
      if (err instanceof UnreachableError) {
        reachable.set(false);
        setTimeout(load, 2000);
      } else setSession(null);
    }
  };
  useEffect(() => void load(), []);

  if (session === undefined) return <main class="loading" aria-busy="true" />;
  if (session === null) {
    return <SignIn onSignedIn={(s) => { signedIn(s); history.replaceState(null, '', '/#/ship'); }} />;
  }
  const signOut = async () => {
    await call(api.DELETE('/v1/desk/session')).catch(() => undefined);
    signedOut();
  };
  const link = (to: string, key: Parameters<typeof t>[0]) => {
    const here = route === to || route.startsWith(`${to}/`) || route.startsWith(`${to}?`);
    return <a href={`#${to}`} class={here ? 'active' : ''} aria-current={here ? 'page' : undefined}>{t(key)}</a>;
  };
  // the ship screen fits the window: its columns scroll inside, the page never does
  const fitted = !/^\/(shipments|end-of-day|station|printers|imports|rules)/.test(route);
  return (
    <div class={fitted ? 'desk fitted' : 'desk'}>
      <header>
        <strong class="brand">packdesk</strong>
        <nav>{link('/ship', 'nav.ship')}{link('/shipments', 'nav.shipments')}{link('/end-of-day', 'nav.endOfDay')}{link('/station', 'nav.station')}{link('/printers', 'nav.printers')}{link('/imports', 'nav.imports')}{link('/rules', 'nav.rules')}</nav>
        <span class="account">{session.account.name}</span>
        <span class="station-name" title={t('nav.station')}>{session.station}</span>
        <select aria-label="Language" value={language.get()} onChange={(e) => setLanguage(e.currentTarget.value as Language)}>
          {Object.entries(LANGUAGES).map(([code, name]) => <option value={code}>{name}</option>)}
        </select>
        <button type="button" class="quiet" onClick={signOut}>{t('nav.signOut')}</button>
      </header>
      {!online && <p class="banner offline" role="status">{t('desk.offline')}</p>}
      {session.scope === 'read_only' && <p class="banner">{t('desk.readOnly')}</p>}
      <Page route={route} session={session} />
    </div>
  );
}

document.documentElement.lang = language.get();
render(<Desk />, document.getElementById('desk')!);
