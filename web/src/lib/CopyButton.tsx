import { useState } from 'react';

/** Copies a text; says so in a live region, or says to copy by hand when the browser refuses. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'done' | 'failed'>('idle');
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState('done');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 2000);
  }
  return (
    <>
      <button type="button" className="small secondary" onClick={() => void copy()} aria-label={`${label} ${text}`}>
        {state === 'done' ? 'Copied' : label}
      </button>
      <span className="visually-hidden" role="status">
        {state === 'done' ? 'Copied to the clipboard' : state === 'failed' ? 'Could not copy: select the text and copy it' : ''}
      </span>
    </>
  );
}
