import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ErrorNote } from '../../lib/ui.js';
import { accountKeys, replaceDefaultKey } from './api.js';
import './ReplaceKey.css';

/** The key registration makes and `POST /api/account/key` replaces. */
export const DEFAULT_KEY = 'default';

/**
 * "Make a new API key": replaces the full-access key "default" after asking, since the old one stops working at
 * once and every program using it with it. `onCreated` gets the new secret, shown once by the keys section.
 */
export function ReplaceKey({ exists, onCreated }: { exists: boolean; onCreated(created: { name: string; key: string }): void }) {
  const client = useQueryClient();
  const [asking, setAsking] = useState(false);
  const question = useRef<HTMLParagraphElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const replace = useMutation({
    mutationFn: replaceDefaultKey,
    onSuccess: async (key) => {
      setAsking(false);
      onCreated({ name: DEFAULT_KEY, key });
      await client.invalidateQueries({ queryKey: accountKeys.keys });
      await client.invalidateQueries({ queryKey: accountKeys.activity });
    },
  });
  useEffect(() => {
    if (asking) question.current?.focus();
  }, [asking]);
  const cancel = () => {
    setAsking(false);
    replace.reset();
    // Back where the person was: the button that asked.
    setTimeout(() => opener.current?.focus());
  };
  if (!asking) {
    return (
      <div className="replace-key">
        <button type="button" className="secondary" ref={opener} onClick={() => setAsking(true)}>
          Make a new API key
        </button>{' '}
        <span className="muted small">Replaces the full-access key “{DEFAULT_KEY}”.</span>
      </div>
    );
  }
  return (
    <div className="replace-key asking" role="group" aria-labelledby="replace-key-q">
      <p id="replace-key-q" ref={question} tabIndex={-1}>
        {exists ? (
          <>
            <strong>Replace the key “{DEFAULT_KEY}”?</strong> The old key stops working at once: programs that use it get 401 until you give them the
            new one. Your other keys keep working.
          </>
        ) : (
          <>
            <strong>Make a full-access key named “{DEFAULT_KEY}”?</strong> It may do everything your account can. Your other keys keep working.
          </>
        )}
      </p>
      <ErrorNote error={replace.error} />
      <div className="actions">
        <button type="button" className="danger" disabled={replace.isPending} onClick={() => replace.mutate()}>
          {exists ? 'Replace the key' : 'Make the key'}
        </button>
        <button type="button" className="secondary" onClick={cancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
