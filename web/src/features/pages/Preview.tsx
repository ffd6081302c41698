import type { ReactNode } from 'react';

/** The stylesheet the server's public pages inline, served for these previews (src/lib/page-style.ts). */
const PAGE_STYLE = '/pages.css';

/** Like the server's check: only http(s) addresses become links or buttons. */
export const isHttp = (value: string) => /^https?:\/\/[^/\s]/i.test(value.trim());
/** Images only from https: the dashboard's CSP refuses others, and the public page would show them. */
const isHttpsImage = (value: string) => /^https:\/\/[^/\s]+\.[^/\s]+/i.test(value.trim());

/**
 * A public page as visitors will see it: the same sheet and markup classes as the server's templates
 * (src/features/redirect/pages), inert because it is a picture, not a page to use.
 */
function PreviewFrame({ full, children }: { full?: boolean; children: ReactNode }) {
  return (
    <figure className="page-preview">
      <link rel="stylesheet" href={PAGE_STYLE} precedence="default" />
      <figcaption className="muted small">Preview</figcaption>
      <div className={full ? 'rd-page full' : 'rd-page'} inert data-testid="preview">
        {full ? children : <div className="sheet">{children}</div>}
      </div>
    </figure>
  );
}

/** Paragraphs as the splash page splits them: at blank lines. */
const paragraphs = (text: string) => text.split(/\r?\n\s*\r?\n/).filter((p) => p.trim());

export function SplashPreview({ title, content, image }: { title: string; content: string; image: string }) {
  return (
    <PreviewFrame>
      <h1>{title || 'Just a moment'}</h1>
      {isHttpsImage(image) && (
        <p>
          <img src={image.trim()} alt="" />
        </p>
      )}
      {paragraphs(content).map((p, i) => (
        <p key={i}>{p}</p>
      ))}
      <p>
        Taking you to <a href="#go">example.com</a> in <span>5</span> seconds.
      </p>
      <p>
        <a className="btn" href="#go">
          Continue now
        </a>
      </p>
    </PreviewFrame>
  );
}

interface OverlayValues {
  type: string;
  message: string;
  button_text: string;
  button_link: string;
  email: string;
}

function OverlayBox({ type, message, button_text: text, button_link: link, email }: OverlayValues) {
  if (type === 'contact' && email.trim()) {
    return (
      <>
        <p>{message}</p>
        <form>
          <label htmlFor="preview-subject">Subject</label>
          <input id="preview-subject" />
          <label htmlFor="preview-body">Message</label>
          <textarea id="preview-body" rows={3} />
          <button className="btn" type="button">
            {text || 'Send'}
          </button>
        </form>
        <p>
          Or write to <a href="#mail">{email.trim()}</a>.
        </p>
      </>
    );
  }
  const label = text || (type === 'contact' ? 'Contact us' : 'Learn more');
  return (
    <>
      <p>{message}</p>
      {isHttp(link) && (
        <p>
          <a className="btn" href="#go">
            {label}
          </a>
        </p>
      )}
    </>
  );
}

export function OverlayPreview(values: OverlayValues) {
  return (
    <PreviewFrame full>
      <div className="bar">
        <a href="#go">Open the page</a>
      </div>
      <div className="stage">The page your link leads to</div>
      <div className="box" role="dialog" aria-label="Call to action">
        <OverlayBox {...values} />
        <p className="row">
          <button className="close" type="button">
            Close
          </button>
        </p>
      </div>
    </PreviewFrame>
  );
}

export function BioPreview({
  name,
  alias,
  description,
  avatar,
  links,
}: {
  name: string;
  alias: string;
  description: string;
  avatar: string;
  links: { title: string; url: string }[];
}) {
  return (
    <PreviewFrame>
      <div className="bio">
        {isHttpsImage(avatar) && <img className="avatar" src={avatar.trim()} alt="" />}
        <h1>{name || alias}</h1>
        {description && <p>{description}</p>}
      </div>
      <ul className="links">
        {links.map((l, i) => (
          <li key={i}>{isHttp(l.url) ? <a href="#go">{l.title || l.url}</a> : l.title || l.url}</li>
        ))}
      </ul>
    </PreviewFrame>
  );
}
