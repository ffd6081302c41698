/** How a social network shows the link: its meta image, title and description, under the destination's host. */
export function SocialPreview({ url, title, description, image }: { url: string; title: string; description: string; image: string }) {
  let host = '';
  try {
    host = new URL(url).host;
  } catch {
    host = 'example.com';
  }
  const safeImage = /^https:\/\//i.test(image) ? image : '';
  return (
    <figure className="social-card" aria-label="Social card preview">
      {safeImage ? (
        <img src={safeImage} alt="" />
      ) : (
        <div className="social-image" aria-hidden="true">
          No image
        </div>
      )}
      <figcaption>
        <span className="muted small">{host}</span>
        <strong>{title || 'The page’s own title'}</strong>
        <span className="small">{description || 'The page’s own description.'}</span>
      </figcaption>
    </figure>
  );
}
