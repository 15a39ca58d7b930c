import { StrictMode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'urql';
import { Authorization, createClient } from './client';
import { href, useRoute } from './router';
import { SignIn } from './pages/SignIn';
import { CallsPage } from './pages/Calls';
import { CallPage } from './pages/Call';
import { CampaignsPage } from './pages/Campaigns';
import { CampaignPage } from './pages/Campaign';
import { AgentsPage } from './pages/Agents';
import { AgentPage } from './pages/Agent';
import { FlowsPage } from './pages/Flows';
import { FlowPage } from './pages/Flow';
import { ContactsPage } from './pages/Contacts';
import { ImportPage } from './pages/Import';
import { TestRunPage } from './pages/TestRun';
import { ContactPage } from './pages/Contact';
import { NewAgentPage } from './pages/NewAgent';
import { NewCampaignPage } from './pages/NewCampaign';
import { NewFlowPage } from './pages/NewFlow';
import { NumbersPage } from './pages/Numbers';
import { DoNotCallPage } from './pages/DoNotCall';
import { ApiKeysPage } from './pages/ApiKeys';
import { AnalyticsPage } from './pages/Analytics';
import 'uplot/dist/uPlot.min.css';
import './style.css';

/** The key lives in this tab's sessionStorage only: gone when the tab closes, never a cookie. */
const KEY_ITEM = 'switchboard.apiKey';

const SECTIONS = [
  ['analytics', 'Analytics'],
  ['calls', 'Calls'],
  ['campaigns', 'Campaigns'],
  ['agents', 'Agents'],
  ['flows', 'Flows'],
  ['contacts', 'Contacts'],
  ['numbers', 'Numbers'],
  ['do-not-call', 'Do not call'],
  ['keys', 'API keys'],
] as const;

/** What the sign-in page says after the service stopped accepting the key. */
const REFUSED = 'The service no longer accepts this key (revoked or expired): you are signed out. Sign in with a valid key.';

function Page({ route }: { route: string[] }) {
  const [section, id, sub] = route;
  switch (section) {
    case 'campaigns':
      return id === 'new' ? <NewCampaignPage /> : id ? <CampaignPage id={id} key={id} /> : <CampaignsPage />;
    case 'agents':
      return id === 'new' ? <NewAgentPage /> : id ? <AgentPage id={id} key={id} /> : <AgentsPage />;
    case 'flows':
      return id === 'new' ? <NewFlowPage /> : id ? <FlowPage id={id} key={id} /> : <FlowsPage />;
    case 'test-runs':
      return <TestRunPage id={id} key={id} />;
    case 'contacts':
      return id === 'import' ? <ImportPage /> : id ? <ContactPage id={id} key={id} /> : <ContactsPage />;
    case 'numbers':
      return <NumbersPage />;
    case 'do-not-call':
      return <DoNotCallPage />;
    case 'keys':
      return <ApiKeysPage />;
    case 'calls':
      return id ? <CallPage id={id} key={id + (sub ?? '')} /> : <CallsPage />;
    default:
      return <AnalyticsPage />;
  }
}

function Console({ apiKey, signOut }: { apiKey: string; signOut(notice?: string): void }) {
  const { client, authorization, close } = useMemo(() => createClient(apiKey, () => signOut(REFUSED)), [apiKey, signOut]);
  useEffect(() => close, [close]);
  const route = useRoute();
  const main = useRef<HTMLElement>(null);
  const path = route.join('/');
  const opened = useRef(path);
  // A new page takes the focus, so that keyboard and screen reader users start at its content.
  useEffect(() => {
    if (opened.current !== path) main.current?.focus();
    opened.current = path;
  }, [path]);
  return (
    <Provider value={client}>
      <Authorization.Provider value={authorization}>
        <header className="top">
          <a className="brand" href={href('analytics')}>
            Switchboard
          </a>
          <nav aria-label="Sections">
            {SECTIONS.map(([path, label]) => (
              <a key={path} href={href(path)} aria-current={route[0] === path || (!route[0] && path === 'analytics') ? 'page' : undefined}>
                {label}
              </a>
            ))}
          </nav>
          <button type="button" className="link" onClick={() => signOut()}>
            Sign out
          </button>
        </header>
        <main ref={main} tabIndex={-1}>
          <Page route={route} />
        </main>
      </Authorization.Provider>
    </Provider>
  );
}

function App() {
  const [apiKey, setApiKey] = useState(() => sessionStorage.getItem(KEY_ITEM));
  const [notice, setNotice] = useState('');
  // Forgets the key (a reload then asks for one), saying why when the service refused it.
  const signOut = useCallback((why = '') => {
    sessionStorage.removeItem(KEY_ITEM);
    setApiKey(null);
    setNotice(why);
  }, []);
  if (!apiKey) {
    return (
      <main>
        <SignIn
          notice={notice}
          onKey={(key) => {
            sessionStorage.setItem(KEY_ITEM, key);
            setNotice('');
            setApiKey(key);
          }}
        />
      </main>
    );
  }
  return <Console apiKey={apiKey} signOut={signOut} />;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
