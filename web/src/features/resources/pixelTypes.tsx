import { PIXEL_TYPES, type PixelType } from '../../../../src/features/pixels/types.js';

/** The provider behind each of the API's neutral pixel types (the spec replaced brand names by neutral words). */
const PROVIDERS: Record<PixelType, string> = {
  tagmanagerpixel: 'Google Tag Manager',
  analyticspixel: 'Google Analytics',
  socialnetworkpixel: 'Meta Pixel',
  adspixel: 'Google Ads',
  professionalnetworkpixel: 'LinkedIn Insight Tag',
  microblogpixel: 'X (Twitter) Pixel',
  retargetingpixel: 'AdRoll',
  questionsitepixel: 'Quora Pixel',
  pinboard: 'Pinterest Tag',
  searchengine: 'Microsoft Advertising (Bing UET)',
  chatapp: 'Snapchat Pixel',
  forum: 'Reddit Pixel',
  shortvideo: 'TikTok Pixel',
};

/** The dashboard's one list of pixel types: the API's value, in the server's order, with its provider's name. */
export const PIXEL_TYPE_OPTIONS = PIXEL_TYPES.map((value) => ({ value, label: `${PROVIDERS[value]} (${value})` }));

/** The provider's name of an API value; the value itself when it is not one we know. */
export const pixelProvider = (value: string) => PROVIDERS[value as PixelType] ?? value;

/** A pixel's type as a person reads it: the provider, with the API's value beside it. */
export function PixelTypeName({ value }: { value: string }) {
  const name = pixelProvider(value);
  return name === value ? (
    <code>{value}</code>
  ) : (
    <>
      {name} <span className="muted">({value})</span>
    </>
  );
}
