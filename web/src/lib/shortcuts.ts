import { useEffect } from 'react';

export interface ShortcutActions {
  search: () => void;
  create: () => void;
  help: () => void;
  palette: () => void;
}

/** Mac keyboards name the palette's key ⌘, others Ctrl. */
export const PALETTE_KEY = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent) ? '⌘ K' : 'Ctrl K';

/** The keys and what they do, as the shortcuts dialog lists them. */
export const SHORTCUTS: { keys: string; does: string }[] = [
  { keys: '/', does: 'Search links' },
  { keys: 'c', does: 'Create a link' },
  { keys: PALETTE_KEY, does: 'Jump to a page or a link' },
  { keys: '?', does: 'Show these shortcuts' },
  { keys: 'Esc', does: 'Close a menu or dialog' },
];

/** Typing in a field, or a dialog already open, keeps its keys: a letter there is text, not a command. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest('input, textarea, select, dialog') !== null || document.querySelector('dialog[open]') !== null;
}

/** The dashboard's keyboard shortcuts, on the whole document while the signed-in frame is shown. */
export function useShortcuts(actions: ShortcutActions): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      // The palette's key works everywhere, in a field too, as in Dub, GitHub and Slack.
      if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        actions.palette();
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey || event.repeat || typing(event.target)) return;
      const action = { '/': actions.search, c: actions.create, '?': actions.help }[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [actions]);
}

/**
 * Focuses the element once it is on the page (a lazily loaded page renders a moment after navigating). The page
 * then focuses its heading on arrival; the element takes focus back from it that once.
 */
export function focusWhenShown(selector: string, timeout = 10_000): void {
  const found = () => {
    const element = document.querySelector<HTMLElement>(selector);
    if (!element) return false;
    element.focus();
    const back = (event: FocusEvent) => {
      if (!(event.target instanceof HTMLHeadingElement)) return;
      document.removeEventListener('focusin', back);
      element.focus();
    };
    document.addEventListener('focusin', back);
    setTimeout(() => document.removeEventListener('focusin', back), 1000);
    return true;
  };
  if (found()) return;
  const observer = new MutationObserver(() => {
    if (found()) observer.disconnect();
  });
  observer.observe(document.body, { childList: true, subtree: true });
  setTimeout(() => observer.disconnect(), timeout);
}
