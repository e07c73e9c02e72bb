/**
 * The client's address behind the proxies TRUST_PROXY names. The setting is compiled here once,
 * with proxy-addr (Express's own), and given to Express as its `trust proxy` function, so
 * `req.ip` and the front door (front-door.ts) name the same address.
 */
import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';

export type TrustProxy = (address: string, hop: number) => boolean;

/** TRUST_PROXY as Express documents `trust proxy`: true, false, a number of hops, or addresses and subnets (`loopback`…). */
export function trustProxy(setting: boolean | number | string): TrustProxy {
  if (typeof setting === 'boolean') return () => setting;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return proxyAddr.compile(setting.split(',').map((entry) => entry.trim()));
}

export function clientAddress(req: IncomingMessage, trust: TrustProxy): string {
  return proxyAddr(req, trust);
}
