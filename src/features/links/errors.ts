import { AppError, conflict, invalid, notFound } from '../../lib/errors.js';

export const LinkError = {
  notFound: () => notFound('Link'),
  aliasTaken: () => conflict('That alias is taken. Please choose another one.'),
  aliasInvalid: () => invalid('custom must be 3 to 64 letters, digits, dashes (-) or underscores (_).'),
  aliasReserved: (alias: string) => invalid(`"${alias}" is reserved by the service and cannot be used as an alias. Please choose another one.`),
  aliasesExhausted: () => new AppError('unavailable', 'Could not find a free random alias; please try again or send a custom alias.'),
  badType: (value: string, onUpdate: boolean) => invalid(onUpdate
    ? `Unknown type "${value}": on update use direct, frame, splash or the id of one of your splash pages.`
    : `Unknown type "${value}": use direct, frame, splash, the id of one of your splash pages or overlay-{id} for one of your overlays.`),
  unknownSplash: (id: number) => invalid(`type: there is no splash page with id ${id} in your account (see GET /api/splash).`),
  unknownOverlay: (id: number) => invalid(`type: there is no overlay with id ${id} in your account (see GET /api/overlay).`),
  badExpiry: () => invalid('expiry must be a timestamp written YYYY-MM-DD HH:MM:SS (UTC), or null / "" for none.'),
  badTargetName: (field: string, what: string) => invalid(`${field} must be ${what}.`),
  unknownPixel: (id: number) => invalid(`pixels: there is no pixel with id ${id} in your account (see GET /api/pixels).`),
  unknownCampaign: (id: number) => invalid(`campaign: there is no campaign with id ${id} in your account (see GET /api/campaigns).`),
  unknownChannel: (id: number) => invalid(`channel: there is no channel with id ${id} in your account (see GET /api/channels).`),
};
