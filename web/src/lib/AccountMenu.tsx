import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { moveFocus, useDisclosure } from './useDisclosure.js';

interface Props {
  email: string;
  onSignOut: () => void;
  onShortcuts: () => void;
}

/** Who is signed in, behind a button at the header's right: the account page, the shortcuts and signing out. */
export function AccountMenu({ email, onSignOut, onShortcuts }: Props) {
  const [location] = useLocation();
  const menu = useDisclosure<HTMLDivElement>();
  const { setOpen } = menu;
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => setOpen(false), [location, setOpen]);
  function keys(event: KeyboardEvent) {
    if (menu.open) moveFocus(event, panel.current);
  }
  const act = (action: () => void) => () => {
    setOpen(false);
    action();
  };
  return (
    <div className="who" ref={menu.root} onKeyDown={keys} onBlur={menu.onBlur}>
      <button
        type="button"
        className="account-toggle"
        ref={menu.button}
        aria-expanded={menu.open}
        aria-controls="account-menu"
        title={email}
        onClick={menu.toggle}
      >
        <span className="avatar" aria-hidden="true">
          {email.charAt(0).toUpperCase()}
        </span>
        <span className="account-email">{email}</span>
      </button>
      <div id="account-menu" className="menu-panel account-panel" ref={panel} hidden={!menu.open}>
        <p className="small muted">
          Signed in as <span className="strong">{email}</span>
        </p>
        <ul>
          <li>
            <Link href="/account" onClick={() => setOpen(false)}>
              Account settings
            </Link>
          </li>
          <li>
            <button type="button" className="menu-item" onClick={act(onShortcuts)}>
              Keyboard shortcuts
            </button>
          </li>
          <li>
            <button type="button" className="menu-item" onClick={act(onSignOut)}>
              Sign out
            </button>
          </li>
        </ul>
      </div>
    </div>
  );
}
