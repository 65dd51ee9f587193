// Where a subscription's URL may lead. By default only to public unicast addresses: a key holder
// must not make the catalog call into the network it runs in (cloud metadata, an admin port on
// loopback). Checked on the address actually connected to, in the socket's own `lookup`, so a
// name that resolves to a public address when the subscription is made and to a private one
// when it is delivered (DNS rebinding) is refused all the same.
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Why an address is refused; undefined when it may be reached. */
export function refusedAddress(address: string, allowPrivate: boolean): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  if (allowPrivate) return undefined;
  // `::ffff:10.0.0.1` is 10.0.0.1.
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  return range === 'unicast' ? undefined : `${address} is a ${range} address (WEBHOOK_ALLOW_PRIVATE=on allows it)`;
}

/** A `lookup` for http.request that resolves as usual and refuses every address the guard refuses. */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as dns.LookupAddress[];
      const refused = list.map(({ address }) => refusedAddress(address, allowPrivate)).find((reason) => reason !== undefined);
      if (refused) return callback(Object.assign(new Error(`refused: ${hostname} resolves to ${refused}`), { code: 'EREFUSED_ADDRESS' }), '', 0);
      if (options.all) return (callback as unknown as (error: null, addresses: dns.LookupAddress[]) => void)(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/** A URL a subscription may name: http or https, no credentials in it; its host, when an IP literal, checked here (no lookup runs for one). */
export function urlProblem(raw: string, allowPrivate: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http or https URL';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(host) ? refusedAddress(host, allowPrivate) : undefined;
}
