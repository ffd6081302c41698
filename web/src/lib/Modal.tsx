import { useEffect, useRef, type ReactNode } from 'react';

interface Props {
  label: string;
  className?: string;
  onClose: () => void;
  children: ReactNode;
}

/**
 * A modal dialog on the browser's own <dialog>: showModal() keeps focus and the screen reader inside it and
 * Escape closes it; a press on the backdrop closes it too, and focus goes back where it was.
 */
export function Modal({ label, className, onClose, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const gone = useRef(false);
  useEffect(() => {
    const dialog = ref.current!;
    const before = document.activeElement;
    gone.current = false;
    dialog.showModal();
    return () => {
      gone.current = true;
      dialog.close();
      if (before instanceof HTMLElement && before.isConnected) before.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={`modal ${className ?? ''}`}
      aria-label={label}
      // The close event comes a moment later: not from an unmounted dialog (another may have opened since), nor
      // from a close that a remount undid (React's strict mode runs effects twice), which left it open.
      onClose={() => {
        if (!gone.current && !ref.current?.open) onClose();
      }}
      onClick={(event) => {
        if (event.target === ref.current) onClose();
      }}
    >
      <div className="modal-body">{children}</div>
    </dialog>
  );
}
