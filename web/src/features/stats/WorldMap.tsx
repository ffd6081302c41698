import { geoEqualEarth, geoPath } from 'd3-geo';
import { useEffect, useMemo, useState } from 'react';
import { feature } from 'topojson-client';
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import type { Topology, GeometryCollection } from 'topojson-specification';
import type { Counts } from '../../lib/types.js';

type Country = Feature<Geometry, { name: string }>;

/** world-atlas names that differ from the English names the server labels countries with (Intl.DisplayNames). */
const ALIASES: Record<string, string> = {
  'W. Sahara': 'Western Sahara',
  'United States of America': 'United States',
  'Dem. Rep. Congo': 'Congo - Kinshasa',
  'Dominican Rep.': 'Dominican Republic',
  'Falkland Is.': 'Falkland Islands',
  'Fr. S. Antarctic Lands': 'French Southern Territories',
  "Côte d'Ivoire": 'Côte d’Ivoire',
  'Central African Rep.': 'Central African Republic',
  Congo: 'Congo - Brazzaville',
  'Eq. Guinea': 'Equatorial Guinea',
  eSwatini: 'Eswatini',
  Palestine: 'Palestinian Territories',
  Myanmar: 'Myanmar (Burma)',
  Turkey: 'Türkiye',
  'Solomon Is.': 'Solomon Islands',
  'Bosnia and Herz.': 'Bosnia & Herzegovina',
  Macedonia: 'North Macedonia',
  'Trinidad and Tobago': 'Trinidad & Tobago',
  'S. Sudan': 'South Sudan',
};

const WIDTH = 960;
const HEIGHT = 470;

function useCountries(): Country[] | null {
  const [countries, setCountries] = useState<Country[] | null>(null);
  useEffect(() => {
    let live = true;
    // The outlines (~100 KB) are a chunk of their own, fetched when a map is first shown.
    void import('world-atlas/countries-110m.json').then((module) => {
      const topology = module.default as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>;
      const collection = feature(topology, topology.objects.countries) as FeatureCollection<Geometry, { name: string }>;
      if (live) setCountries(collection.features);
    });
    return () => {
      live = false;
    };
  }, []);
  return countries;
}

/** Countries shaded by their share of clicks; the table beside it carries the same numbers for everyone. */
export function WorldMap({ counts }: { counts: Counts }) {
  const countries = useCountries();
  const values = useMemo(() => new Map(Object.entries(counts || {}).map(([name, n]) => [name, Number(n)])), [counts]);
  const max = Math.max(1, ...values.values());
  const path = useMemo(() => geoPath(geoEqualEarth().fitSize([WIDTH, HEIGHT], { type: 'Sphere' })), []);
  if (!countries) return <div className="map placeholder" aria-hidden="true" />;
  return (
    <svg className="map" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label="World map of clicks by country">
      {countries.map((country, i) => {
        const name = country.properties.name;
        const n = values.get(ALIASES[name] ?? name) ?? 0;
        const share = n / max;
        return (
          <path key={i} d={path(country) ?? ''} className={n ? 'hit' : undefined} style={n ? { fillOpacity: 0.25 + 0.75 * share } : undefined}>
            <title>{`${ALIASES[name] ?? name}: ${n}`}</title>
          </path>
        );
      })}
    </svg>
  );
}
