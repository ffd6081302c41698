import type { Counts } from '../../lib/types.js';
import { CountsTable } from './CountsTable.js';
import { WorldMap } from './WorldMap.js';

export interface LabelStats {
  topCountries: Counts;
  topReferrers: Counts;
  topBrowsers: Counts;
  topOs: Counts;
  /** Links only (QR codes' statistics do not count them). */
  topDevices?: Counts;
  topLanguages?: Counts;
  socialCount: Record<string, number>;
}

const DEVICES: Record<string, string> = { desktop: 'Desktop', mobile: 'Mobile', tablet: 'Tablet', other: 'Other' };
const deviceName = (kind: string) => DEVICES[kind] ?? kind;

/** A language code in the viewer's own language ("French" for `fr`), the code itself when unknown. */
function languageName(code: string): string {
  if (code === 'Unknown') return code;
  try {
    return new Intl.DisplayNames(undefined, { type: 'language' }).of(code) ?? code;
  } catch {
    return code; // a code Intl does not accept
  }
}

// The API keeps `google` in a link's socialCount for its existing clients; Google is a search engine, not a network.
const networks = ({ google: _google, ...rest }: Record<string, number>) => rest;

/** The all-time label maps of a link or QR code: the map and table of countries, then referrers, browsers, OS, devices, languages, social. */
export function StatsPanels({ stats }: { stats: LabelStats }) {
  return (
    <>
      <section className="panel" aria-labelledby="map-h">
        <h2 id="map-h">Countries</h2>
        <WorldMap counts={stats.topCountries} />
      </section>
      <div className="grid">
        <CountsTable title="Top countries" label="Country" counts={stats.topCountries} />
        <CountsTable title="Referrers" label="Referrer" counts={stats.topReferrers} />
        <CountsTable title="Browsers" label="Browser" counts={stats.topBrowsers} />
        <CountsTable title="Operating systems" label="OS" counts={stats.topOs} />
        {'topDevices' in stats && <CountsTable title="Device types" label="Device" counts={stats.topDevices} name={deviceName} />}
        {'topLanguages' in stats && <CountsTable title="Languages" label="Language" counts={stats.topLanguages} name={languageName} />}
        <CountsTable title="Social networks" label="Network" counts={networks(stats.socialCount)} />
      </div>
    </>
  );
}
