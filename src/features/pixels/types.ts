/** The spec's pixel types, in the order of its source list. */
export const PIXEL_TYPES = [
  'tagmanagerpixel',
  'analyticspixel',
  'socialnetworkpixel',
  'adspixel',
  'professionalnetworkpixel',
  'microblogpixel',
  'retargetingpixel',
  'questionsitepixel',
  'pinboard',
  'searchengine',
  'chatapp',
  'forum',
  'shortvideo',
] as const;

/** The provider identifiers older clients send, position for position with PIXEL_TYPES. */
const PROVIDER_TYPES = [
  'gtmpixel',
  'gapixel',
  'fbpixel',
  'adwordspixel',
  'linkedinpixel',
  'twitterpixel',
  'adrollpixel',
  'quorapixel',
  'pinterest',
  'bing',
  'snapchat',
  'reddit',
  'tiktok',
] as const;

export type PixelType = (typeof PIXEL_TYPES)[number];

const BY_NAME = new Map<string, PixelType>([
  ...PIXEL_TYPES.map((type) => [type, type] as const),
  ...PROVIDER_TYPES.map((provider, i) => [provider, PIXEL_TYPES[i]!] as const),
]);

/** The neutral type for a neutral or provider name (case-insensitive); undefined when unknown. */
export function neutralPixelType(value: string): PixelType | undefined {
  return BY_NAME.get(value.trim().toLowerCase());
}

/**
 * Tags are provider ids (G-XXXX, GTM-XXXX, 1234567890…). The public page embeds them in scripts and
 * URLs, so only characters no context can misread are accepted; the redirect side uses the same rule.
 */
export const PIXEL_TAG = /^[A-Za-z0-9_.:-]{1,128}$/;
