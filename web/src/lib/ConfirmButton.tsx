import { useState } from 'react';

/**
 * A destructive action in two steps, without a browser dialog: the first press asks, the second acts.
 * `what` names the thing acted on for screen readers, where a row of buttons all read "Delete".
 */
export function ConfirmButton({
  label,
  confirm,
  onConfirm,
  busy,
  what,
}: {
  label: string;
  confirm: string;
  onConfirm(): void;
  busy?: boolean;
  what?: string;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="small danger" aria-label={what ? `${label} ${what}` : undefined} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span className="confirm">
      <button type="button" className="small danger" disabled={busy} onClick={onConfirm} autoFocus>
        {confirm}
      </button>
      <button type="button" className="small secondary" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
