// A service's owner, contact, lifecycle and links as its page shows them. Only web and mail
// addresses become links: a record's `uri` may hold any scheme (`javascript:`), which a page
// must never make clickable.
import { isObject } from '../json/values.ts';

export interface Ownership {
  owner?: string;
  lifecycle?: string;
  contact?: { name?: string; email?: string; href?: string };
  links: { label: string; href: string }[];
  /** The description's `info.version`, its licence and terms of service (kept in the Service record's kvStorage: no field holds them). */
  apiVersion?: string;
  license?: { name: string; href?: string };
  terms?: string;
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
  const links = [...Object.entries(isObject(service['links']) ? service['links'] : {})
    .map(([name, url]) => ({ label: LINK_LABELS[name] ?? name, href: webAddress(url) })), externalDocsOf(service)]
    .filter((link): link is { label: string; href: string } => link?.href !== undefined)
    .filter((link, at, all) => all.findIndex((other) => other.href === link.href) === at);
  const owner = text(service['owner']);
  const lifecycle = text(service['lifecycle']);
  const hasContact = Object.values(shownContact).some((value) => value !== undefined);
  const about = aboutOf(service);
  return {
    ...(owner && { owner }), ...(lifecycle && { lifecycle }), ...(hasContact && { contact: shownContact }), links, ...about,
    any: owner !== undefined || lifecycle !== undefined || hasContact || links.length > 0 || Object.keys(about).length > 0,
  };
}

/** The description's own `externalDocs` (kept in the Service record's kvStorage), as a link named by its description. */
function externalDocsOf(service: Record<string, unknown>): { label: string; href: string | undefined } | undefined {
  const kept = isObject(service['kvStorage']) ? service['kvStorage'] : {};
  const docs = isObject(kept['externalDocs']) ? kept['externalDocs'] : undefined;
  return docs && { label: text(docs['description']) ?? LINK_LABELS['docs']!, href: webAddress(docs['url']) };
}

/** What the description's `info` says beyond the Service record's fields: the API's own version, its licence and terms. */
function aboutOf(service: Record<string, unknown>): Pick<Ownership, 'apiVersion' | 'license' | 'terms'> {
  const kept = isObject(service['kvStorage']) ? service['kvStorage'] : {};
  const info = isObject(kept['info']) ? kept['info'] : {};
  const license = isObject(info['license']) ? info['license'] : {};
  const [apiVersion, licenseName, terms] = [text(info['version']), text(license['name']), webAddress(info['termsOfService'])];
  const licenseHref = webAddress(license['url']) ?? (text(license['identifier']) && `https://spdx.org/licenses/${encodeURIComponent(String(license['identifier']))}.html`);
  return {
    ...(apiVersion && { apiVersion }),
    ...(licenseName && { license: { name: licenseName, ...(licenseHref && { href: licenseHref }) } }),
    ...(terms && { terms }),
  };
}
