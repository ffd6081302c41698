import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { fetchSession, SESSION_KEY } from './features/session/api.js';
import { SetupPage } from './features/session/SetupPage.js';
import { SignInPage } from './features/session/SignInPage.js';
import { Shell } from './lib/Shell.js';
import { ErrorNote, Loading } from './lib/ui.js';

// Each page is its own chunk: the first load carries the shell and the sign-in page, not the charts or the map.
const HomePage = lazy(() => import('./features/home/HomePage.js'));
const LinksPage = lazy(() => import('./features/links/LinksPage.js'));
const LinkFormPage = lazy(() => import('./features/links/LinkFormPage.js'));
const LinkDetailPage = lazy(() => import('./features/links/LinkDetailPage.js'));
const TagsPage = lazy(() => import('./features/tags/TagsPage.js'));
const QrListPage = lazy(() => import('./features/qr/QrListPage.js'));
const QrFormPage = lazy(() => import('./features/qr/QrFormPage.js'));
const QrDetailPage = lazy(() => import('./features/qr/QrDetailPage.js'));
const AccountPage = lazy(() => import('./features/account/AccountPage.js'));
const TransferPage = lazy(() => import('./features/transfer/TransferPage.js'));
const WebhooksPage = lazy(() => import('./features/webhooks/WebhooksPage.js'));
const resource = (name: 'DomainsPage' | 'PixelsPage') => lazy(() => import('./features/resources/pages.js').then((m) => ({ default: m[name] })));
const CampaignsPage = lazy(() => import('./features/campaigns/CampaignsPage.js'));
const ChannelsPage = lazy(() => import('./features/channels/ChannelsPage.js'));
const ChannelPage = lazy(() => import('./features/channels/ChannelPage.js'));
const DomainsPage = resource('DomainsPage');
const PixelsPage = resource('PixelsPage');
const pages = (name: 'SplashListPage' | 'OverlayListPage' | 'BioListPage') =>
  lazy(() => import('./features/pages/ListPages.js').then((m) => ({ default: m[name] })));
const SplashListPage = pages('SplashListPage');
const OverlayListPage = pages('OverlayListPage');
const BioListPage = pages('BioListPage');
const SplashEditorPage = lazy(() => import('./features/pages/SplashEditorPage.js'));
const OverlayEditorPage = lazy(() => import('./features/pages/OverlayEditorPage.js'));
const BioEditorPage = lazy(() => import('./features/pages/BioEditorPage.js'));
const NotFound = lazy(() => import('./lib/NotFound.js'));

const PUBLIC = ['/signin', '/setup'];

export function App() {
  const session = useQuery({ queryKey: SESSION_KEY, queryFn: fetchSession, staleTime: Infinity });
  const [location] = useLocation();
  const search = useSearch();
  if (session.isPending) return <Loading />;
  if (session.isError)
    return (
      <main className="narrow">
        <ErrorNote error={session.error} />
      </main>
    );
  if (PUBLIC.includes(location)) {
    return (
      <Switch>
        <Route path="/signin">
          <SignInPage />
        </Route>
        <Route path="/setup">
          <SetupPage />
        </Route>
      </Switch>
    );
  }
  if (!session.data) {
    const next = location === '/' ? '' : `?next=${encodeURIComponent(location + (search ? `?${search}` : ''))}`;
    return <Redirect to={`/signin${next}`} replace />;
  }
  return (
    <Shell email={session.data.email}>
      <Suspense fallback={<Loading />}>
        <Switch>
          <Route path="/">
            <HomePage />
          </Route>
          <Route path="/links">
            <LinksPage />
          </Route>
          <Route path="/links/new">
            <LinkFormPage />
          </Route>
          <Route path="/links/:id/edit">{(p) => <LinkFormPage id={Number(p.id)} />}</Route>
          <Route path="/links/:id">{(p) => <LinkDetailPage id={Number(p.id)} />}</Route>
          <Route path="/tags">
            <TagsPage />
          </Route>
          <Route path="/qr">
            <QrListPage />
          </Route>
          <Route path="/qr/new">
            <QrFormPage />
          </Route>
          <Route path="/qr/:id/edit">{(p) => <QrFormPage id={Number(p.id)} />}</Route>
          <Route path="/qr/:id">{(p) => <QrDetailPage id={Number(p.id)} />}</Route>
          <Route path="/bio">
            <BioListPage />
          </Route>
          <Route path="/bio/new">
            <BioEditorPage />
          </Route>
          <Route path="/bio/:id/edit">{(p) => <BioEditorPage id={Number(p.id)} />}</Route>
          <Route path="/splash">
            <SplashListPage />
          </Route>
          <Route path="/splash/new">
            <SplashEditorPage />
          </Route>
          <Route path="/splash/:id/edit">{(p) => <SplashEditorPage id={Number(p.id)} />}</Route>
          <Route path="/overlays">
            <OverlayListPage />
          </Route>
          <Route path="/overlays/new">
            <OverlayEditorPage />
          </Route>
          <Route path="/overlays/:id/edit">{(p) => <OverlayEditorPage id={Number(p.id)} />}</Route>
          <Route path="/campaigns">
            <CampaignsPage />
          </Route>
          <Route path="/channels">
            <ChannelsPage />
          </Route>
          <Route path="/channels/:id">{(p) => <ChannelPage id={Number(p.id)} />}</Route>
          <Route path="/domains">
            <DomainsPage />
          </Route>
          <Route path="/pixels">
            <PixelsPage />
          </Route>
          <Route path="/transfer">
            <TransferPage />
          </Route>
          <Route path="/webhooks">
            <WebhooksPage />
          </Route>
          <Route path="/account">
            <AccountPage />
          </Route>
          <Route>
            <NotFound />
          </Route>
        </Switch>
      </Suspense>
    </Shell>
  );
}
