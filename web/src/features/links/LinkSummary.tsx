import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { HealthRow } from './HealthRow.js';
import { RoutingRows } from './RoutingSummary.js';
import './Routing.css';
import { CopyButton } from '../../lib/CopyButton.js';
import type { LinkDetailBody } from '../../lib/types.js';
import { formatDateTime, formatNumber, plural } from '../../lib/ui.js';
import { CHOICES_KEY, linkChoices, type LinkChoices } from './api.js';
import '../tags/TagChip.css';

type Details = LinkDetailBody['details'];

/** A UTC `YYYY-MM-DD HH:MM:SS` expiry that is already past. */
export function isExpired(expiry: string | null, now = Date.now()): boolean {
  if (!expiry) return false;
  const at = new Date(`${expiry.replace(' ', 'T')}Z`).getTime();
  return !Number.isNaN(at) && at <= now;
}

/** The redirect type in words: a splash or overlay by its name from the choices the form also uses. */
export function typeLabel(type: string, choices?: LinkChoices): string {
  if (type === 'direct') return 'Direct (302)';
  if (type === 'frame') return 'Frame';
  if (type === 'splash') return 'Splash (default page)';
  const overlay = /^overlay-(\d+)$/.exec(type);
  if (overlay) return `Overlay: ${choices?.overlays.find((o) => o.id === Number(overlay[1]))?.name ?? `#${overlay[1]}`}`;
  if (/^\d+$/.test(type)) return `Splash: ${choices?.splash.find((s) => s.id === Number(type))?.name ?? `#${type}`}`;
  return type;
}

const Row = ({ label, children, url = false }: { label: string; children: ReactNode; url?: boolean }) => (
  <div>
    <dt>{label}</dt>
    <dd className={url ? 'url' : undefined}>{children}</dd>
  </div>
);

const None = () => <span className="muted">None</span>;

/** Targets in the order the redirect tries them (device, language, country); shown whole, since the address tells them apart. */
function targetRows(details: Details): [string, string][] {
  return [
    ...details.devicetarget.map((t): [string, string] => [`Device ${t.device}`, t.link]),
    ...details.languagetarget.map((t): [string, string] => [`Language ${t.language}`, t.link]),
    ...details.geotarget.map((t): [string, string] => [`Country ${t.location}`, t.link]),
  ];
}

/** Everything a link is, as `GET /api/url/{id}` gives it, with ids named from the lists the form loads. */
export function LinkSummary({ details, totals }: { details: Details; totals: Pick<LinkDetailBody['data'], 'clicks' | 'uniqueClicks' | 'variants'> }) {
  const { data: choices } = useQuery({ queryKey: CHOICES_KEY, queryFn: linkChoices });
  const campaign = details.campaign ? choices?.campaigns.find((c) => c.id === details.campaign) : undefined;
  const channel = details.channel ? choices?.channels.find((c) => c.id === details.channel) : undefined;
  const pixels = details.pixels.map((id) => choices?.pixels.find((p) => p.id === id)?.name ?? `#${id}`);
  const expired = isExpired(details.expiry);
  return (
    <section className="panel summary">
      <dl>
        <Row label="Short link">
          <a href={details.shorturl}>{details.shorturl}</a> <CopyButton text={details.shorturl} />
        </Row>
        <Row label="Destination" url>
          <a href={details.longurl} rel="noreferrer">
            {details.longurl}
          </a>
        </Row>
        <Row label="Health">
          <HealthRow details={details} />
        </Row>
        {details.description && <Row label="Description">{details.description}</Row>}
        <Row label="Redirect type">{typeLabel(details.type, choices)}</Row>
        <Row label="Password">{details.password ? 'Yes, protected' : 'No'}</Row>
        <Row label="Created">{formatDateTime(details.date)}</Row>
        <Row label="Expires">
          {details.expiry ? formatDateTime(details.expiry) : 'Never'}
          {expired && (
            <>
              {' '}
              <span className="badge danger" data-testid="expired">
                Expired
              </span>
            </>
          )}
        </Row>
        {targetRows(details).map(([k, v]) => (
          <Row key={k} label={k}>
            {v}
          </Row>
        ))}
        <RoutingRows details={details} variants={totals.variants} />
        <Row label="Parameters">{details.parameters.length ? details.parameters.map((p) => `${p.name}=${p.value}`).join(' & ') : <None />}</Row>
        <Row label="Campaign">
          {details.campaign ? <Link href={`/links?campaign=${details.campaign}`}>{campaign?.name ?? `#${details.campaign}`}</Link> : <None />}
        </Row>
        <Row label="Channel">
          {details.channel ? <Link href={`/channels/${details.channel}`}>{channel?.name ?? `#${details.channel}`}</Link> : <None />}
        </Row>
        <Row label="Tags">
          {details.tags.length ? (
            <ul className="tag-chips">
              {details.tags.map((tag) => (
                <li key={tag}>
                  <Link href={`/links?tag=${encodeURIComponent(tag)}`} className="tag-chip" aria-label={`Links tagged ${tag}`}>
                    {tag}
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <None />
          )}
        </Row>
        <Row label="Pixels">{pixels.length ? pixels.join(', ') : <None />}</Row>
        {(details.metatitle || details.metadescription || details.metaimage) && (
          <Row label="Social card">{[details.metatitle, details.metadescription, details.metaimage].filter(Boolean).join(' · ')}</Row>
        )}
      </dl>
      <div className="totals">
        <p>
          <strong data-testid="total-clicks">{formatNumber(totals.clicks)}</strong> <span className="muted">{plural(totals.clicks, 'click')}</span>
        </p>
        <p>
          <strong>{formatNumber(totals.uniqueClicks)}</strong> <span className="muted">unique</span>
        </p>
      </div>
    </section>
  );
}
