// What a visitor's browser sends, shared by both load generators (autocannon in load.mjs, wrk through
// wrk.lua), and the Zipf (s = 1) draw of aliases both use.

export const USER_AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
];
export const LANGUAGES = ['en-US,en;q=0.9', 'de-DE,de;q=0.9,en;q=0.5', 'fr-FR,fr;q=0.8', 'es;q=0.7,en;q=0.3', 'ja'];
// '' sends no Referer (a typed or bookmarked visit).
export const REFERERS = ['https://www.facebook.com/', 'https://t.co/abc', 'https://www.google.com/', '', 'https://news.example.org/story'];
export const IPS = ['8.8.8.8', '81.2.69.142', '5.9.0.1', '1.1.1.1', '203.0.113.9', '93.184.216.34'];

// Popularity rank k (0-based) is alias (k * SCRAMBLE) mod count: the hot links are spread over the table
// instead of being its first rows. A prime above every count used, so the map is a permutation.
export const SCRAMBLE = 999_983;

/** Draws alias numbers 0..count-1 with P(rank k) proportional to 1/(k+1). */
export function zipf(count) {
  const cumulative = new Float64Array(count);
  let total = 0;
  for (let k = 0; k < count; k++) cumulative[k] = total += 1 / (k + 1);
  return () => {
    const u = Math.random() * total;
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return (lo * SCRAMBLE) % count;
  };
}
