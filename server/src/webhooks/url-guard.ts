import { lookup } from 'node:dns';
import type { LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import { PredgateError, isPredgateError } from '@predgate/core';

export interface UrlGuardOptions {
  /** Plain `http:` receivers; off in production, where receivers must use https. */
  allowHttp: boolean;
  /** Ranges (CIDR, or single addresses) the operator lets receivers live in although they are private, loopback or link-local. */
  allowedNetworks: readonly string[];
}

/** The longest receiver URL a subscription may name. */
export const maxUrlLength = 2_048;

/**
 * Where webhooks may be sent (the SSRF guard): https only unless the operator
 * allows http, and never to loopback, private, link-local, shared, multicast
 * or otherwise reserved addresses unless the operator allows that range. The
 * name is checked at subscription time and again at every connection: the
 * connection's own DNS lookup resolves every address, refuses if any is
 * blocked, and connects to the address it checked (no second lookup a
 * rebinding server could answer differently).
 */
export class UrlGuard {
  private readonly allowed = new BlockList();

  constructor(private readonly options: UrlGuardOptions) {
    for (const network of options.allowedNetworks) addRange(this.allowed, network);
  }

  /** A receiver URL's syntax, scheme and (when it is an address) address; VALIDATION_ERROR naming what is wrong. */
  checkUrl(text: string): URL {
    if (text.length > maxUrlLength) throw refused(`"url" must be at most ${maxUrlLength} characters`);
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw refused('"url" must be an absolute URL');
    }
    if (url.protocol !== 'https:' && !(this.options.allowHttp && url.protocol === 'http:')) {
      throw refused(`"url" must use https${this.options.allowHttp ? ' or http' : ''}`);
    }
    if (url.username || url.password) throw refused('"url" must not carry credentials');
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) !== 0) this.checkAddress(host);
    return url;
  }

  /** The URL's checks and, for a name, its DNS answer: every address it resolves to must be allowed. */
  async checkReceiver(text: string): Promise<URL> {
    const url = this.checkUrl(text);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) === 0) {
      await new Promise<void>((resolve, reject) =>
        this.lookup(host, { all: true }, (error) =>
          error ? reject(isPredgateError(error) ? error : refused(`${host} does not resolve: ${error.message}`)) : resolve(),
        ),
      );
    }
    return url;
  }

  /** The lookup the delivery connections use: every resolved address is checked before any is connected to. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    lookup(hostname, { all: true, family: typeof options === 'object' ? options.family : undefined }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      try {
        if (addresses.length === 0) throw refused(`${hostname} resolved to no address`);
        for (const address of addresses) this.checkAddress(address.address, hostname);
      } catch (refusal) {
        return callback(refusal as NodeJS.ErrnoException, '', 0);
      }
      const [first] = addresses;
      if (typeof options === 'object' && options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      return callback(null, first!.address, first!.family);
    });
  };

  checkAddress(address: string, hostname = address): void {
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (blocked.check(address, family) && !this.allowed.check(address, family)) {
      throw refused(`${hostname} resolves to ${address}, a private or reserved address; the operator can allow it (webhooks.allowedNetworks)`);
    }
  }
}

/** Special-purpose ranges (IANA registries) a public receiver never lives in. */
const blocked = new BlockList();
for (const range of [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/3',
  '::/127',
  '64:ff9b::/96',
  '100::/64',
  '2001::/23',
  '2001:db8::/32',
  '2002::/16',
  'fc00::/7',
  'fe80::/10',
  'ff00::/8',
]) {
  addRange(blocked, range);
}

function addRange(list: BlockList, range: string): void {
  const [address, prefix] = range.split('/');
  const type = isIP(address!) === 6 ? 'ipv6' : 'ipv4';
  if (prefix === undefined) list.addAddress(address!, type);
  else list.addSubnet(address!, Number(prefix), type);
}

function refused(message: string): PredgateError {
  return new PredgateError('VALIDATION_ERROR', message, { detail: { parameter: 'url' } });
}
