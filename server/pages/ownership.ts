// A service's owner, contact, lifecycle and links as its page shows them. Only web and mail
// addresses become links: a record's `uri` may hold any scheme (`javascript:`), which a page
// must never make clickable.
import { isObject } from '../json/values.ts';

export interface Ownership {
  owner?: string;
  lifecycle?: string;
  contact?: { name?: string; email?: string; href?: string };
  links: { label: string; href: string }[];
  /** Whether there is anything to show. */
  any: boolean;
}

const LINK_LABELS: Readonly<Record<string, string>> = { docs: 'Documentation', repository: 'Repository', chat: 'Chat' };

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The address, when it is a web address (http or https). */
export function webAddress(value: unknown): string | undefined {
  const address = text(value);
  if (address === undefined || !URL.canParse(address)) return undefined;
  return ['http:', 'https:'].includes(new URL(address).protocol) ? address : undefined;
}

export function ownershipOf(service: Record<string, unknown>): Ownership {
  const contact = isObject(service['contact']) ? service['contact'] : {};
  const shownContact = { name: text(contact['name']), email: text(contact['email']), href: webAddress(contact['url']) };
  const links = Object.entries(isObject(service['links']) ? service['links'] : {})
    .map(([name, url]) => ({ label: LINK_LABELS[name] ?? name, href: webAddress(url) }))
    .filter((link): link is { label: string; href: string } => link.href !== undefined);
  const owner = text(service['owner']);
  const lifecycle = text(service['lifecycle']);
  const hasContact = Object.values(shownContact).some((value) => value !== undefined);
  return {
    ...(owner && { owner }), ...(lifecycle && { lifecycle }), ...(hasContact && { contact: shownContact }), links,
    any: owner !== undefined || lifecycle !== undefined || hasContact || links.length > 0,
  };
}
