import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { SESSION_KEY, signOut } from '../features/session/api.js';
import { AccountMenu } from './AccountMenu.js';
import { CommandPalette } from './CommandPalette.js';
import { MainNav } from './MainNav.js';
import { focusWhenShown, PALETTE_KEY, useShortcuts } from './shortcuts.js';
import { ShortcutsDialog } from './ShortcutsDialog.js';
import { ErrorNote } from './ui.js';
import './Shell.css';

/** The search field of the page shown, if it has one (the links list's). */
const SEARCH_FIELD = 'main [role=search] input[type=search], main input[type=search]';

/** The signed-in frame: a skip link, the grouped navigation, the palette, the account menu and the shortcuts. */
export function Shell({ email, children }: { email: string; children: ReactNode }) {
  const [, navigate] = useLocation();
  const client = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [dialog, setDialog] = useState<'palette' | 'help' | null>(null);
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
  const actions = useMemo(
    () => ({
      search() {
        const field = document.querySelector<HTMLInputElement>(SEARCH_FIELD);
        if (field) return field.focus();
        // A page without a search field: the links list has the one people mean.
        navigate('/links');
        focusWhenShown(SEARCH_FIELD);
      },
      create: () => navigate('/links/new'),
      help: () => setDialog('help'),
      palette: () => setDialog((open) => (open === 'palette' ? null : 'palette')),
    }),
    [navigate],
  );
  useShortcuts(actions);
  const close = () => setDialog(null);
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link href="/" className="brand">
          Redirectory
        </Link>
        <MainNav />
        <div className="top-end">
          <button type="button" className="palette-open" onClick={actions.palette} aria-keyshortcuts="Control+K Meta+K">
            <SearchIcon />
            <span className="palette-open-text">Search</span>
            <kbd aria-hidden="true">{PALETTE_KEY}</kbd>
          </button>
          <AccountMenu email={email} onSignOut={() => void leave()} onShortcuts={actions.help} />
        </div>
      </header>
      <main id="main">
        <ErrorNote error={error} />
        {children}
      </main>
      {dialog === 'palette' && <CommandPalette onClose={close} />}
      {dialog === 'help' && <ShortcutsDialog onClose={close} />}
    </>
  );
}

const SearchIcon = () => (
  <svg aria-hidden="true" viewBox="0 0 16 16" width="16" height="16">
    <circle cx="7" cy="7" r="4.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
    <path d="m10.5 10.5 3.5 3.5" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
  </svg>
);
