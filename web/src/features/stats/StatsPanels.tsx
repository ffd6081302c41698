import type { Counts } from '../../lib/types.js';
import { CountsTable } from './CountsTable.js';
import { WorldMap } from './WorldMap.js';

export interface LabelStats {
  topCountries: Counts;
  topReferrers: Counts;
  topBrowsers: Counts;
  topOs: Counts;
  socialCount: Record<string, number>;
}

/** The all-time label maps of a link or QR code: the map and table of countries, then referrers, browsers, OS, social. */
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
        <CountsTable title="Social networks" label="Network" counts={stats.socialCount} />
      </div>
    </>
  );
}
