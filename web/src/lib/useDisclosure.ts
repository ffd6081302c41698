import { useEffect, useRef, useState, type FocusEvent, type KeyboardEvent as ReactKeyboardEvent } from 'react';

/**
 * A button that opens a panel (a menu of links, the account menu): Escape closes it and puts focus back on the
 * button; a press outside or tabbing away closes it, as people expect of a header menu.
 */
export function useDisclosure<R extends HTMLElement>() {
  const [open, setOpen] = useState(false);
  const root = useRef<R>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return undefined;
    const away = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    // On the document, not the menu: focus may have left it (a click on the page, a resize that hid the button).
    const escape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || document.querySelector('dialog[open]')) return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', away);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', away);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);
  return {
    open,
    setOpen,
    root,
    button,
    toggle: () => setOpen(!open),
    /** Tabbing away closes it; a page that focuses its heading on arrival (tabIndex -1) does not. */
    onBlur(event: FocusEvent) {
      const next = event.relatedTarget;
      if (open && next instanceof HTMLElement && next.tabIndex >= 0 && !root.current?.contains(next)) setOpen(false);
    },
  };
}

/** Arrow keys move between the links and buttons of an open menu; Home and End go to either end. */
export function moveFocus(event: ReactKeyboardEvent, panel: HTMLElement | null): void {
  if (!panel || !['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(event.key)) return;
  const items = [...panel.querySelectorAll<HTMLElement>('a[href], button:not([disabled])')];
  if (items.length === 0) return;
  event.preventDefault();
  const at = items.indexOf(document.activeElement as HTMLElement);
  const last = items.length - 1;
  const next = { ArrowDown: at < 0 || at === last ? 0 : at + 1, ArrowUp: at <= 0 ? last : at - 1, Home: 0, End: last }[event.key]!;
  items[next]!.focus();
}
