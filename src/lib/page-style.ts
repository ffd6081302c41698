/**
 * The one stylesheet of the public pages (password form, splash, overlay, bio, campaign list, site root,
 * errors). Every rule sits under `.rd-page` — the pages' <body> — so the dashboard can load the same sheet
 * from `/pages.css` for its live previews without it touching the dashboard's own elements. Colours and
 * font are the dashboard's (web/src/styles.css); dark mode follows the system.
 */
export const PAGE_STYLE_PATH = '/pages.css';

const COLOURS =
  '.rd-page{--bg:#f6f7f9;--surface:#fff;--text:#1b1f24;--muted:#59636e;--border:#d5d9de;--accent:#0b57d0;--accent-text:#fff;--danger:#b3261e}' +
  '@media (prefers-color-scheme:dark){.rd-page{--bg:#111418;--surface:#1b2026;--text:#e6e9ed;--muted:#a3acb6;--border:#39414a;' +
  '--accent:#8ab4f8;--accent-text:#0b1320;--danger:#f28b82}}';

const BASE =
  '.rd-page{color-scheme:light dark;margin:0;padding:2rem 1rem;min-height:100vh;box-sizing:border-box;background:var(--bg);color:var(--text);' +
  'font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}' +
  '.rd-page *,.rd-page *::before,.rd-page *::after{box-sizing:border-box}' +
  '.rd-page .sheet{max-width:36rem;margin:0 auto;background:var(--surface);border:1px solid var(--border);border-radius:8px;padding:1.5rem;overflow-wrap:anywhere}' +
  '.rd-page h1{font-size:1.6rem;line-height:1.25;margin:0 0 .75rem}.rd-page p{margin:0 0 .9rem}' +
  '.rd-page a{color:var(--accent)}.rd-page img{max-width:100%;height:auto}' +
  '.rd-page .muted,.rd-page .foot{color:var(--muted)}.rd-page .foot{font-size:.85rem;text-align:center;margin:1rem 0 0}' +
  '.rd-page .error{color:var(--danger);font-weight:500}' +
  '.rd-page :focus-visible{outline:3px solid #ff9f1c;outline-offset:2px}';

const CONTROLS =
  '.rd-page .btn,.rd-page button{display:inline-flex;align-items:center;justify-content:center;min-height:2.5rem;padding:.45rem 1.1rem;' +
  'border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-text);font:inherit;font-weight:600;' +
  'text-decoration:none;cursor:pointer}' +
  '.rd-page button.close{background:transparent;color:var(--accent)}' +
  '.rd-page label{display:block;font-weight:500;font-size:.95rem}' +
  '.rd-page input,.rd-page textarea{display:block;width:100%;margin:.3rem 0 .9rem;padding:.45rem .6rem;min-height:2.5rem;font:inherit;' +
  'color:var(--text);background:var(--surface);border:1px solid var(--border);border-radius:6px}';

const BIO =
  '.rd-page .bio{text-align:center}.rd-page .avatar{width:6rem;height:6rem;border-radius:50%;object-fit:cover;display:block;margin:0 auto 1rem}' +
  '.rd-page ul.links{list-style:none;margin:1.25rem 0 0;padding:0;display:grid;gap:.75rem}' +
  '.rd-page ul.links li{padding:.7rem 1rem;border:1px dashed var(--border);border-radius:8px;color:var(--muted)}' +
  '.rd-page ul.links li:has(>a){padding:0;border:0}' +
  '.rd-page ul.links a{display:block;padding:.75rem 1rem;border-radius:8px;background:var(--accent);color:var(--accent-text);' +
  'font-weight:600;text-align:center;text-decoration:none}.rd-page ul.links a:hover{filter:brightness(1.08)}';

const FRAMES =
  '.rd-page.full{padding:0;overflow:hidden}.rd-page iframe.full{border:0;width:100%;height:calc(100vh - 1.75rem);display:block;background:#fff}' +
  '.rd-page .bar{height:1.75rem;line-height:1.75rem;padding:0 .75rem;font-size:.8rem;text-align:right;background:var(--surface);' +
  'border-bottom:1px solid var(--border);overflow:hidden;white-space:nowrap}' +
  '.rd-page .box{position:fixed;left:1rem;right:1rem;bottom:1rem;max-width:34rem;margin:auto;background:var(--surface);color:var(--text);' +
  'padding:1.25rem 1.25rem 1rem;border:1px solid var(--border);border-radius:8px;box-shadow:0 4px 18px rgba(0,0,0,.35)}' +
  '.rd-page .box[hidden]{display:none}.rd-page .box .row{display:flex;flex-wrap:wrap;gap:.5rem;justify-content:flex-end}';

export const PAGE_STYLE = COLOURS + BASE + CONTROLS + BIO + FRAMES;
