/**
 * How `/docs` (Swagger UI) presents itself: titled "Redirectory API", our own mark instead of the
 * framework's logo and favicon, and the dashboard's accent in the top bar. All of it is served as files
 * of the docs' own origin, so its strict CSP needs no inline source.
 */
const MARK =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0b57d0"/>' +
  '<path d="M10 24V8h7a5 5 0 0 1 0 10h-7m7 0 5 6" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></svg>';

/** The top bar's logo: the mark and the words, drawn as one SVG (the UI puts it in an <img>). */
const WORDMARK =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 230 32" width="230" height="32">' +
  '<rect width="32" height="32" rx="7" fill="#fff"/><path d="M10 24V8h7a5 5 0 0 1 0 10h-7m7 0 5 6" fill="none" stroke="#0b57d0" ' +
  'stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/><text x="42" y="23" fill="#fff" ' +
  'font-family="system-ui,-apple-system,Segoe UI,Roboto,sans-serif" font-size="19" font-weight="700">Redirectory API</text></svg>';

const CSS =
  '.swagger-ui .topbar{background:#0b57d0;padding:8px 0}.swagger-ui .topbar .download-url-wrapper{display:none}' +
  '.swagger-ui .topbar-wrapper a{max-width:none}.swagger-ui .topbar-wrapper img{height:32px}';

export const DOCS_THEME = {
  title: 'Redirectory API',
  css: [{ filename: 'redirectory.css', content: CSS }],
  favicon: [{ filename: 'favicon.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content: MARK }],
};

export const DOCS_LOGO = { type: 'image/svg+xml', content: WORDMARK, href: '/docs', target: '_self' as const };

type Plugin = (system: unknown) => object;

/**
 * Swagger UI's plugins, sent to the browser as their source (the docs plugin serializes functions): its own
 * loader of the document, which a `plugins` list replaces, and a Logo that draws nothing, so the framework's
 * SVG (whose inline <style> the docs' CSP refuses) never renders; the initializer then puts our mark in.
 */
export const DOCS_UI_CONFIG: { plugins: Plugin[] } = {
  plugins: [
    (system) => (globalThis as unknown as { SwaggerUIBundle: { plugins: { DownloadUrl: Plugin } } }).SwaggerUIBundle.plugins.DownloadUrl(system),
    () => ({ components: { Logo: () => null } }),
  ],
};
