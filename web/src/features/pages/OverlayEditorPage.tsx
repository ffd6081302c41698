import { Field } from '../../lib/ui.js';
import { EditorForm, LoadPage, pick, useFields } from './PageEditor.js';
import { OverlayPreview } from './Preview.js';

const BLANK = { type: 'message', name: '', message: '', button_text: '', button_link: '', email: '' };

function OverlayEditor({ id, initial }: { id?: number; initial: typeof BLANK }) {
  const [values, bind] = useFields(initial);
  const contact = values.type === 'contact';
  // A message overlay has no address to write to: it is sent empty so a former contact's address goes.
  const body = () => ({ ...values, email: contact ? values.email : '' });
  return (
    <EditorForm kind="overlay" id={id} body={body} preview={<OverlayPreview {...values} email={contact ? values.email : ''} />}>
      <Field id="overlay-type" label="Kind">
        <select id="overlay-type" {...bind('type')}>
          <option value="message">Message with a button</option>
          <option value="contact">Contact</option>
        </select>
      </Field>
      <Field id="overlay-name" label="Name" hint="For your lists and the link form; visitors do not see it.">
        <input id="overlay-name" required maxLength={100} aria-describedby="overlay-name-hint" {...bind('name')} />
      </Field>
      <Field id="overlay-message" label="Message">
        <textarea id="overlay-message" rows={3} maxLength={1000} {...bind('message')} />
      </Field>
      <Field id="overlay-button-text" label="Button text">
        <input id="overlay-button-text" maxLength={100} {...bind('button_text')} />
      </Field>
      {contact && (
        <Field id="overlay-email" label="E-mail address" hint="Visitors get a form that opens their own mail client, addressed to it.">
          <input id="overlay-email" type="email" aria-describedby="overlay-email-hint" {...bind('email')} />
        </Field>
      )}
      {!(contact && values.email.trim()) && (
        <Field id="overlay-button-link" label="Button link" hint="An http(s) address; without one no button is shown.">
          <input id="overlay-button-link" type="url" aria-describedby="overlay-button-link-hint" {...bind('button_link')} />
        </Field>
      )}
    </EditorForm>
  );
}

/** An overlay: a box over the framed destination of links whose type is this overlay. */
export default function OverlayEditorPage({ id }: { id?: number }) {
  return (
    <LoadPage kind="overlay" id={id}>
      {(detail) => <OverlayEditor id={id} initial={pick(BLANK, detail)} />}
    </LoadPage>
  );
}
