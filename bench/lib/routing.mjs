// The rules scenario's routing as the stored column holds it (bench/seed.mjs stores it on the routed links,
// bench/route.mjs compiles it): six rules of six kinds, then a 3-way split. The query and date rules never match
// the bench's requests; the ip (203.0.113.9), browser (Firefox), language (fr-FR) and country (5.9.0.1, DE) rules
// take about 58 visits in 100, and the other 42 test all six and get a variant.
export const ROUTING = JSON.stringify({
  rules: [
    { conditions: [{ type: 'query', name: 'ref', value: 'newsletter' }], url: 'https://example.com/newsletter' },
    { conditions: [{ type: 'ip', value: '203.0.113.0/24' }], url: 'https://example.com/office' },
    { conditions: [{ type: 'date', after: '2999-01-01 00:00:00' }], url: 'https://example.com/future' },
    { conditions: [{ type: 'browser', value: 'firefox' }], url: 'https://example.com/firefox' },
    { conditions: [{ type: 'language', value: 'fr' }], url: 'https://example.fr/' },
    { conditions: [{ type: 'country', value: 'DE' }], url: 'https://example.de/' },
  ],
  split: [
    { url: 'https://example.com/a', weight: 50 },
    { url: 'https://example.com/b', weight: 30 },
    { url: 'https://example.com/c', weight: 20 },
  ],
});
