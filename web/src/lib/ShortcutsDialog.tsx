import { Modal } from './Modal.js';
import { SHORTCUTS } from './shortcuts.js';

/** The list `?` opens: every key the dashboard answers to. */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  return (
    <Modal label="Keyboard shortcuts" className="shortcuts" onClose={onClose}>
      <h2>Keyboard shortcuts</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Does</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map((shortcut) => (
            <tr key={shortcut.keys}>
              <td>
                <kbd>{shortcut.keys}</kbd>
              </td>
              <td>{shortcut.does}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="small muted">Single keys do nothing while you type in a field.</p>
      <div className="modal-actions">
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
