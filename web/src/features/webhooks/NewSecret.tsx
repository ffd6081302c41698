import { useEffect, useRef } from 'react';
import { CopyButton } from '../../lib/CopyButton.js';

/** The signing secret of a webhook just added: the only time it is shown, so it takes the focus and says so. */
export function NewSecret({ url, secret, onDone }: { url: string; secret: string; onDone(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), [secret]);
  return (
    <div className="secret" ref={ref} tabIndex={-1} role="region" aria-labelledby="webhook-secret-h">
      <h2 id="webhook-secret-h">Webhook added: its signing secret</h2>
      <p className="small url-text">
        Deliveries to <code>{url}</code> carry a <code>Redirectory-Signature</code> header made with this secret, so the receiver can tell they come
        from Redirectory (the README shows how to check it).
      </p>
      <p className="key">
        <code data-testid="webhook-secret">{secret}</code> <CopyButton text={secret} label="Copy secret" />
      </p>
      <p className="strong">
        Copy it now and keep it with the receiver: you will not see it again. If it is lost, delete the webhook and add it again.
      </p>
      <button type="button" className="small secondary" onClick={onDone}>
        I have copied it
      </button>
    </div>
  );
}
