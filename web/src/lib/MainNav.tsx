import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { isCurrent, NAV, type NavPage } from './nav.js';
import { moveFocus, useDisclosure } from './useDisclosure.js';

/**
 * The main navigation: three pages and three groups that open as menus. Below 1024 px, where the six entries
 * do not fit beside the brand, all of it is one "Menu" button whose panel lists every page under its group's
 * name, so the header stays one row.
 */
export function MainNav() {
  const [location] = useLocation();
  const panel = useDisclosure<HTMLElement>();
  const { setOpen } = panel;
  // Arriving on a page closes the panel: it was opened to get there.
  useEffect(() => setOpen(false), [location, setOpen]);
  return (
    <nav aria-label="Main" className="main-nav" ref={panel.root} onBlur={panel.onBlur}>
      <button
        type="button"
        className="menu-toggle"
        ref={panel.button}
        aria-expanded={panel.open}
        aria-controls="main-nav-list"
        onClick={panel.toggle}
      >
        <MenuIcon />
        Menu
      </button>
      <ul id="main-nav-list" className="nav-list" data-open={panel.open || undefined}>
        {NAV.map((entry) =>
          'pages' in entry ? (
            <NavGroup key={entry.label} label={entry.label} pages={entry.pages} location={location} />
          ) : (
            <li key={entry.href}>
              <Link href={entry.href} aria-current={isCurrent(entry.href, location) ? 'page' : undefined}>
                {entry.label}
              </Link>
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}

/** A group of pages behind a button (aria-expanded); the button is marked when one of its pages is open. */
function NavGroup({ label, pages, location }: { label: string; pages: NavPage[]; location: string }) {
  const menu = useDisclosure<HTMLLIElement>();
  const { setOpen } = menu;
  const list = useRef<HTMLUListElement>(null);
  const id = useId();
  useEffect(() => setOpen(false), [location, setOpen]);
  const here = pages.some((page) => isCurrent(page.href, location));
  function keys(event: KeyboardEvent) {
    if (event.key === 'ArrowDown' && !menu.open && event.target === menu.button.current) {
      event.preventDefault();
      setOpen(true);
      // The list shows on the next render; its first link takes focus then.
      requestAnimationFrame(() => list.current?.querySelector('a')?.focus());
    } else if (menu.open) moveFocus(event, list.current);
  }
  return (
    <li className="nav-group" ref={menu.root} onKeyDown={keys} onBlur={menu.onBlur}>
      <button
        type="button"
        ref={menu.button}
        aria-expanded={menu.open}
        aria-controls={`${id}-list`}
        data-current={here || undefined}
        onClick={menu.toggle}
      >
        {label}
        <Chevron />
      </button>
      <span className="nav-group-label" id={`${id}-label`}>
        {label}
      </span>
      <ul id={`${id}-list`} className="nav-sub" ref={list} data-open={menu.open || undefined} aria-labelledby={`${id}-label`}>
        {pages.map((page) => (
          <li key={page.href}>
            <Link href={page.href} aria-current={isCurrent(page.href, location) ? 'page' : undefined}>
              {page.label}
            </Link>
          </li>
        ))}
      </ul>
    </li>
  );
}

const Chevron = () => (
  <svg className="chevron" aria-hidden="true" viewBox="0 0 12 12" width="12" height="12">
    <path d="M2.5 4.5 6 8l3.5-3.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
  </svg>
);

const MenuIcon = () => (
  <svg aria-hidden="true" viewBox="0 0 16 16" width="16" height="16">
    <path d="M2 4h12M2 8h12M2 12h12" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
  </svg>
);
