import { useQuery } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { CopyButton } from '../../lib/CopyButton.js';
import { ErrorNote, Loading, PageTitle } from '../../lib/ui.js';
import { getLink, linkKeys } from './api.js';
import './LinkForm.css';

/** The short URL as a QR code (an SVG to show, a PNG to download), drawn in the browser. */
function ShortQr({ url, alias }: { url: string; alias: string }) {
  const [images, setImages] = useState({ svg: '', png: '' });
  useEffect(() => {
    let live = true;
    const options = { margin: 2, errorCorrectionLevel: 'M' } as const;
    void Promise.all([QRCode.toString(url, { ...options, type: 'svg' }), QRCode.toDataURL(url, { ...options, width: 512 })]).then(
      ([svg, png]) => live && setImages({ svg, png }),
    );
    return () => {
      live = false;
    };
  }, [url]);
  if (!images.svg) return <div className="created-qr placeholder" aria-hidden="true" />;
  return (
    <figure className="created-qr">
      <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(images.svg)}`} alt={`QR code of ${url}`} width={176} height={176} />
      <figcaption>
        <a href={images.png} download={`${alias || 'link'}-qr.png`}>
          Download PNG
        </a>
      </figcaption>
    </figure>
  );
}

/** After a link is made: its short URL to copy, its QR code, and where to go next. Read back from the API, so a reload shows it too. */
export function LinkCreated({ id }: { id: number }) {
  const link = useQuery({ queryKey: linkKeys.detail(id), queryFn: () => getLink(id) });
  const details = link.data?.details;
  return (
    <>
      <PageTitle title="Link created" />
      <ErrorNote error={link.error} />
      {link.isPending && <Loading />}
      {details && (
        <section className="panel created" aria-label="Your new short link">
          <div className="created-text">
            <p className="muted">Your short link is ready to share:</p>
            <p className="created-url">
              <a href={details.shorturl} data-testid="short-url">
                {details.shorturl}
              </a>
              <CopyButton text={details.shorturl} />
            </p>
            <p className="muted small created-dest">
              Goes to <span>{details.longurl}</span>
            </p>
            <div className="actions">
              <Link href={`/links/${id}`} className="button">
                Open the link’s page
              </Link>
              <Link href="/links/new" className="button secondary">
                Create another
              </Link>
            </div>
          </div>
          <ShortQr url={details.shorturl} alias={details.custom} />
        </section>
      )}
    </>
  );
}
