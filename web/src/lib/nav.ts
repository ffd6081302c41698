/** One page of the dashboard, as the navigation and the command palette name it. */
export interface NavPage {
  href: string;
  label: string;
}

/** A top-level entry: a page of its own, or a group of pages that opens as a menu. */
export type NavEntry = NavPage | { label: string; pages: NavPage[] };

// Six entries fit one row at 1280 px where twelve wrapped; the groups follow Dub's and Bitly's sidebars.
export const NAV: NavEntry[] = [
  { href: '/', label: 'Overview' },
  { href: '/links', label: 'Links' },
  { href: '/qr', label: 'QR codes' },
  {
    label: 'Pages',
    pages: [
      { href: '/bio', label: 'Bio pages' },
      { href: '/splash', label: 'Splash pages' },
      { href: '/overlays', label: 'Overlays' },
    ],
  },
  {
    label: 'Campaigns & channels',
    pages: [
      { href: '/campaigns', label: 'Campaigns' },
      { href: '/channels', label: 'Channels' },
    ],
  },
  {
    label: 'Settings',
    pages: [
      { href: '/domains', label: 'Domains' },
      { href: '/pixels', label: 'Pixels' },
      { href: '/tags', label: 'Tags' },
      { href: '/transfer', label: 'Import/Export' },
      { href: '/webhooks', label: 'Webhooks' },
      { href: '/account', label: 'Account' },
    ],
  },
];

/** Every page the navigation reaches, in its order. */
export const NAV_PAGES: NavPage[] = NAV.flatMap((entry) => ('pages' in entry ? entry.pages : [entry]));

/** Whether the address is this page or one under it (a link's page is under Links). */
export function isCurrent(href: string, location: string): boolean {
  return href === '/' ? location === '/' : location === href || location.startsWith(`${href}/`);
}
