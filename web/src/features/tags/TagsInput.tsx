import { useQuery } from '@tanstack/react-query';
import { useId, useState, type KeyboardEvent } from 'react';
import { listTags, MAX_TAGS, normaliseTag, tagKeys } from './api.js';
import './TagChip.css';
import './TagsInput.css';

const SHOWN = 8;

/**
 * A link's tags as chips with a text box (the ARIA 1.2 combobox pattern): Enter or a comma adds what was typed,
 * Backspace in an empty box removes the last chip, and the account's tags (GET /api/tags) are suggested as you type.
 */
export function TagsInput({ id, value, onChange }: { id: string; value: string[]; onChange(tags: string[]): void }) {
  const tags = useQuery({ queryKey: tagKeys.all, queryFn: listTags });
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listId = useId();
  const term = normaliseTag(text);
  const suggestions = (tags.data ?? []).filter((t) => t.name.includes(term) && !value.includes(t.name)).slice(0, SHOWN);
  const shown = open && suggestions.length > 0;
  const full = value.length >= MAX_TAGS;

  const add = (raw: string) => {
    const tag = normaliseTag(raw);
    if (tag && !value.includes(tag) && !full) onChange([...value, tag]);
    setText('');
    setActive(-1);
  };
  const remove = (tag: string) => onChange(value.filter((t) => t !== tag));

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const move = (step: number) => {
      e.preventDefault();
      setOpen(true);
      setActive((i) => (suggestions.length === 0 ? -1 : (i + step + suggestions.length) % suggestions.length));
    };
    if (e.key === 'ArrowDown') move(1);
    else if (e.key === 'ArrowUp') move(-1);
    else if (e.key === 'Escape' && shown) {
      e.preventDefault();
      setOpen(false);
      setActive(-1);
    } else if ((e.key === 'Enter' && (text.trim() || (shown && active >= 0))) || e.key === ',') {
      e.preventDefault();
      add(shown && active >= 0 ? suggestions[active]!.name : text);
    } else if (e.key === 'Backspace' && text === '' && value.length > 0) remove(value[value.length - 1]!);
  };

  return (
    <div className="tags-input">
      {value.length > 0 && (
        <ul className="tag-chips" aria-label="Tags of this link">
          {value.map((tag) => (
            <li key={tag} className="tag-chip">
              {tag}
              <button type="button" className="tag-remove" aria-label={`Remove tag ${tag}`} onClick={() => remove(tag)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="tags-box">
        <input
          id={id}
          role="combobox"
          aria-expanded={shown}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={shown && active >= 0 ? `${listId}-${active}` : undefined}
          aria-describedby={`${id}-hint`}
          autoComplete="off"
          maxLength={50}
          disabled={full}
          placeholder={full ? `${MAX_TAGS} tags at most` : 'Add a tag'}
          value={text}
          onChange={(e) => {
            setText(e.target.value.replace(/[,|]/g, ''));
            setOpen(true);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
          onFocus={() => setOpen(true)}
          onBlur={() => {
            setOpen(false);
            if (text.trim()) add(text);
          }}
        />
        <ul id={listId} role="listbox" aria-label="Suggested tags" className="tags-suggestions" hidden={!shown}>
          {suggestions.map((t, i) => (
            <li
              key={t.name}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => add(t.name)}
            >
              {t.name} <span className="muted">{t.count}</span>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
