import { useEffect, useState } from 'react';
import QRCode from 'qrcode';

/** The code drawn in the browser as the fields change (the saved image is rendered by the server the same way). */
export function QrPreview({ payload, foreground, background, logo }: { payload: string; foreground: string; background: string; logo: string }) {
  const [svg, setSvg] = useState('');
  const [error, setError] = useState('');
  useEffect(() => {
    if (!payload) {
      setSvg('');
      return;
    }
    let live = true;
    QRCode.toString(payload, { type: 'svg', margin: 2, errorCorrectionLevel: logo ? 'H' : 'M', color: { dark: foreground, light: background } })
      .then((text) => live && (setSvg(text), setError('')))
      .catch((err: Error) => live && setError(err.message));
    return () => {
      live = false;
    };
  }, [payload, foreground, background, logo]);
  return (
    <figure className="qr-preview" aria-live="polite">
      {svg ? (
        <div className="qr-box">
          <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`} alt="Preview of the QR code" />
          {logo && <img className="qr-logo" src={logo} alt="" />}
        </div>
      ) : (
        <div className="qr-box empty">{error || 'Fill in the content to see the code'}</div>
      )}
      <figcaption className="muted small">Live preview</figcaption>
    </figure>
  );
}
