import { Field } from '../../lib/ui.js';
import { EditorForm, LoadPage, pick, useFields } from './PageEditor.js';
import { SplashPreview } from './Preview.js';

const BLANK = { name: '', title: '', content: '', image: '' };

function SplashEditor({ id, initial }: { id?: number; initial: typeof BLANK }) {
  const [values, bind] = useFields(initial);
  return (
    <EditorForm kind="splash" id={id} body={() => values} preview={<SplashPreview {...values} />}>
      <Field id="splash-name" label="Name" hint="For your lists and the link form; visitors do not see it.">
        <input id="splash-name" required maxLength={100} aria-describedby="splash-name-hint" {...bind('name')} />
      </Field>
      <Field id="splash-title" label="Title">
        <input id="splash-title" maxLength={200} {...bind('title')} />
      </Field>
      <Field id="splash-content" label="Text" hint="Plain text; a blank line starts a new paragraph.">
        <textarea id="splash-content" rows={6} maxLength={5000} aria-describedby="splash-content-hint" {...bind('content')} />
      </Field>
      <Field id="splash-image" label="Image address" hint="An https address of an image shown above the text, or empty.">
        <input id="splash-image" type="url" aria-describedby="splash-image-hint" {...bind('image')} />
      </Field>
    </EditorForm>
  );
}

/** A splash page: shown for five seconds before the link's destination, on links whose type is this page. */
export default function SplashEditorPage({ id }: { id?: number }) {
  return (
    <LoadPage kind="splash" id={id}>
      {(detail) => <SplashEditor id={id} initial={pick(BLANK, detail)} />}
    </LoadPage>
  );
}
