import { BlockList, isIP } from 'node:net';
import { splitCommaList } from '@gatehouse/shared';

interface Cidr {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

function parseCidr(entry: string): Cidr | null {
  const slash = entry.indexOf('/');
  if (slash < 0) return null;
  const address = entry.slice(0, slash);
  const prefixText = entry.slice(slash + 1);
  // Zone ids (fe80::1%eth0) name an interface of one host, never a network a client can come from.
  if (address.includes('%') || !/^\d{1,3}$/.test(prefixText)) return null;
  const version = isIP(address);
  if (version === 0) return null;
  const prefix = Number(prefixText);
  if (prefix > (version === 4 ? 32 : 128)) return null;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** The first entry of a comma list that is not a valid IPv4/IPv6 CIDR, or null when all are. */
export function findInvalidSubnet(subnets: string): string | null {
  return splitCommaList(subnets).find((entry) => parseCidr(entry) === null) ?? null;
}

export function describeInvalidSubnet(entry: string): string {
  return `Invalid subnet "${entry}": use CIDR notation such as 192.168.1.0/24 or 2001:db8::/32`;
}

/**
 * A check of client addresses against a key's subnet list (for the relay). An empty list allows everyone.
 * IPv4-mapped IPv6 addresses (::ffff:10.0.0.1, as a dual-stack socket reports them) count as IPv4.
 */
export function createSubnetMatcher(subnets: string): (ip: string) => boolean {
  const cidrs = splitCommaList(subnets)
    .map(parseCidr)
    .filter((cidr): cidr is Cidr => cidr !== null);
  if (cidrs.length === 0) return () => true;
  const list = new BlockList();
  for (const cidr of cidrs) list.addSubnet(cidr.address, cidr.prefix, cidr.family);
  return (ip) => {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
    const address = mapped?.[1] ?? ip;
    const version = isIP(address);
    if (version === 0) return false;
    return list.check(address, version === 4 ? 'ipv4' : 'ipv6');
  };
}
