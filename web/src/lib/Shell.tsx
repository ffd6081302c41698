import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { SESSION_KEY, signOut } from '../features/session/api.js';
import { ErrorNote } from './ui.js';

const NAV = [
  { href: '/', label: 'Overview' },
  { href: '/links', label: 'Links' },
  { href: '/qr', label: 'QR codes' },
  { href: '/bio', label: 'Bio pages' },
  { href: '/splash', label: 'Splash pages' },
  { href: '/overlays', label: 'Overlays' },
  { href: '/campaigns', label: 'Campaigns' },
  { href: '/channels', label: 'Channels' },
  { href: '/domains', label: 'Domains' },
  { href: '/pixels', label: 'Pixels' },
  { href: '/transfer', label: 'Import/Export' },
  { href: '/account', label: 'Account' },
];

/** The signed-in frame: a skip link, the navigation, who is signed in and the sign-out button. */
export function Shell({ email, children }: { email: string; children: ReactNode }) {
  const [location, navigate] = useLocation();
  const client = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const current = (href: string) => (href === '/' ? location === '/' : location.startsWith(href));
  async function leave() {
    try {
      await signOut();
      client.clear();
      client.setQueryData(SESSION_KEY, null);
      navigate('/signin');
    } catch (err) {
      setError(err);
    }
  }
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link href="/" className="brand">
          Redirectory
        </Link>
        <nav aria-label="Main">
          <ul>
            {NAV.map((item) => (
              <li key={item.href}>
                <Link href={item.href} aria-current={current(item.href) ? 'page' : undefined}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="who">
          <span className="muted" title={email}>
            {email}
          </span>
          <button type="button" className="secondary" onClick={() => void leave()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main">
        <ErrorNote error={error} />
        {children}
      </main>
    </>
  );
}
