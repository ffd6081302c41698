import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { ConfirmButton } from '../../lib/ConfirmButton.js';
import { ErrorNote, formatNumber, Loading, PageTitle, plural } from '../../lib/ui.js';
import { deleteTag, listTags, normaliseTag, renameTag, tagKeys, type TagEntry } from './api.js';
import './TagChip.css';
import './TagsPage.css';

/** The account's tags with their link counts: rename (onto an existing name merges) or delete one across all links. */
export default function TagsPage() {
  const tags = useQuery({ queryKey: tagKeys.all, queryFn: listTags });
  return (
    <>
      <PageTitle title="Tags">
        <Link href="/links" className="button secondary">
          All links
        </Link>
      </PageTitle>
      <ErrorNote error={tags.error} />
      {tags.isPending && <Loading />}
      {tags.data?.length === 0 && <p className="muted">No tags yet. Add tags to a link in its form, then rename or delete them here.</p>}
      {tags.data && tags.data.length > 0 && (
        <ul className="tag-list" aria-label="Your tags">
          {tags.data.map((tag) => (
            <TagRow key={tag.name} tag={tag} names={tags.data.map((t) => t.name)} />
          ))}
        </ul>
      )}
    </>
  );
}

function TagRow({ tag, names }: { tag: TagEntry; names: string[] }) {
  const client = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(tag.name);
  const id = useId();
  const done = () => client.invalidateQueries({ queryKey: ['links'] });
  const rename = useMutation({ mutationFn: (to: string) => renameTag(tag.name, to), onSuccess: done });
  const remove = useMutation({ mutationFn: () => deleteTag(tag.name), onSuccess: done });
  const to = normaliseTag(text);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (to === tag.name) setEditing(false);
    else rename.mutate(to);
  };
  return (
    <li>
      <div className="tag-name">
        {editing ? (
          <form className="tag-rename" onSubmit={onSubmit}>
            <label htmlFor={id} className="visually-hidden">
              New name for {tag.name}
            </label>
            <input id={id} value={text} maxLength={50} onChange={(e) => setText(e.target.value)} autoFocus />
            <button type="submit" className="small" disabled={!to || rename.isPending}>
              {names.includes(to) && to !== tag.name ? 'Merge' : 'Save'}
            </button>
            <button type="button" className="small secondary" onClick={() => setEditing(false)}>
              Cancel
            </button>
            <ErrorNote error={rename.error} />
          </form>
        ) : (
          <Link href={`/links?tag=${encodeURIComponent(tag.name)}`} className="tag-chip" aria-label={`Links tagged ${tag.name}`}>
            {tag.name}
          </Link>
        )}
      </div>
      <span className="tag-count muted">
        {formatNumber(tag.count)} {plural(tag.count, 'link')}
      </span>
      <div className="tag-actions">
        <ErrorNote error={remove.error} />
        {!editing && (
          <button type="button" className="small secondary" aria-label={`Rename ${tag.name}`} onClick={() => setEditing(true)}>
            Rename
          </button>
        )}
        <ConfirmButton
          label="Delete"
          what={tag.name}
          confirm={`Remove ${tag.name} from ${tag.count} ${plural(tag.count, 'link')}`}
          busy={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      </div>
    </li>
  );
}
