import { html, renderPage } from './html.js';
/** The public side's error pages: what a visitor sees where the API would answer its JSON envelope. */
export const NOT_FOUND_PAGE = renderPage({
    title: 'Not found · Redirectory',
    body: html `<h1>Not found</h1><p>There is no short link at this address.</p>`,
});
export function errorPage(status, message) {
    const title = status >= 500 ? 'Something went wrong' : 'Request not understood';
    return renderPage({ title: `${title} · Redirectory`, body: html `<h1>${title}</h1><p>${message}</p>` });
}
//# sourceMappingURL=error-pages.js.map