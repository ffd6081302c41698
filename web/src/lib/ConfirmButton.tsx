import { useState } from 'react';

/** A destructive action in two steps, without a browser dialog: the first press asks, the second acts. */
export function ConfirmButton({ label, confirm, onConfirm, busy }: { label: string; confirm: string; onConfirm(): void; busy?: boolean }) {
  const [asking, setAsking] = useState(false);
  if (!asking) return <button type="button" className="small danger" onClick={() => setAsking(true)}>{label}</button>;
  return (
    <span className="confirm">
      <button type="button" className="small danger" disabled={busy} onClick={onConfirm} autoFocus>{confirm}</button>
      <button type="button" className="small secondary" onClick={() => setAsking(false)}>Cancel</button>
    </span>
  );
}
