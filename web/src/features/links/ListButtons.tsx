interface ListButtonsProps {
  /** What the item at a place is called in the buttons' names: "rule 2", "rule 1, condition 3". */
  nameAt(index: number): string;
  index: number;
  count: number;
  /** Below this many items, Remove is not offered. */
  min?: number;
  onMove(by: number): void;
  onRemove(): void;
}

/** After a move, focus follows the item: its button the same way, or the other one where it can go no further. */
function focusMoved(name: string, up: boolean) {
  requestAnimationFrame(() => {
    const button = (dir: string) => document.querySelector<HTMLButtonElement>(`button[aria-label="Move ${name} ${dir}"]`);
    const same = button(up ? 'up' : 'down');
    (same && !same.disabled ? same : button(up ? 'down' : 'up'))?.focus();
  });
}

/** Move up, move down and remove for one item of an ordered list; arrows shown, full names for assistive technology. */
export function ListButtons({ nameAt, index, count, min = 0, onMove, onRemove }: ListButtonsProps) {
  const name = nameAt(index);
  const move = (by: number) => {
    onMove(by);
    focusMoved(nameAt(index + by), by < 0);
  };
  return (
    <div className="list-buttons">
      <button
        type="button"
        className="small secondary"
        aria-label={`Move ${name} up`}
        title="Move up"
        disabled={index === 0}
        onClick={() => move(-1)}
      >
        ↑
      </button>
      <button
        type="button"
        className="small secondary"
        aria-label={`Move ${name} down`}
        title="Move down"
        disabled={index === count - 1}
        onClick={() => move(1)}
      >
        ↓
      </button>
      {count > min && (
        <button type="button" className="small secondary" aria-label={`Remove ${name}`} onClick={onRemove}>
          Remove
        </button>
      )}
    </div>
  );
}
