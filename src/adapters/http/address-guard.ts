import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where the list comes from: ipaddr.js's `range()` classifies an address against IANA's IPv4 and IPv6
 * Special-Purpose Address Registries (plus the multicast blocks and the deprecated site-local block); the
 * package is kept up to date with those registries, so the guard follows them by upgrading a dependency
 * rather than by editing a hand-kept table. A webhook may only go to an address ipaddr.js calls `unicast`:
 * every special-purpose block is refused, the globally reachable ones too (AS112, AMT, ORCHIDv2, drone
 * entity tags and the protocol anycasts inside 2001::/23 are services, never a customer's receiver).
 * The blocks that translate to an IPv4 address are judged by the address they carry instead (below).
 */
const TRANSLATIONS = new Set(['ipv4Mapped', 'rfc6145', 'rfc6052', '6to4', 'teredo']);

/**
 * Registry entries newer than the ipaddr.js release in the lockfile (checked against 2.5.0): 100:0:0:1::/64,
 * the dummy IPv6 prefix (added to the IPv6 registry in 2025). Remove an entry once `range()` names it.
 */
const NEWER_THAN_LIBRARY: [ipaddr.IPv6, number][] = [[ipaddr.IPv6.parse('100:0:0:1::'), 64]];

/** The eight 16-bit groups of an IPv6 address (any textual form, with or without a dotted IPv4 tail), or null. */
function ipv6Groups(ip: string): number[] | null {
  const text = ip.replace(/%.*$/, '');
  if (isIP(text) !== 6) return null;
  let head = text;
  const tail: number[] = [];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    head = text.slice(0, dotted.index);
    if (!head.endsWith('::')) head = head.slice(0, -1); // the ':' before the dotted part
  }
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const [left, right] = head.split('::') as [string, string | undefined];
  const l = parse(left);
  const r = [...(right === undefined ? [] : parse(right)), ...tail];
  if (right === undefined) return [...l, ...r].length === 8 ? [...l, ...r] : null;
  return [...l, ...new Array<number>(8 - l.length - r.length).fill(0), ...r];
}

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

/**
 * The IPv4 address an IPv6 address carries, where the network would deliver to it: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), SIIT (::ffff:0:a.b.c.d), NAT64 (64:ff9b::a.b.c.d),
 * 6to4 (2002:aabb:ccdd::) and Teredo (2001:0::, the client address inverted).
 */
function embeddedIpv4(ip: string): string | null {
  const g = ipv6Groups(ip);
  if (!g) return null;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [number, number, number, number, number, number, number, number];
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(5) && g5 === 0xffff) return v4(g6, g7); // ::ffff:0:0/96 IPv4-mapped
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return v4(g6, g7); // ::ffff:0:0:0/96 SIIT
  if (zeroTo(6) && (g6 !== 0 || g7 > 1)) return v4(g6, g7); // ::/96 IPv4-compatible (not :: or ::1)
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4(g6, g7); // 64:ff9b::/96 NAT64
  if (g0 === 0x2002) return v4(g1, g2); // 2002::/16 6to4
  if (g0 === 0x2001 && g1 === 0) return v4(g6 ^ 0xffff, g7 ^ 0xffff); // 2001::/32 Teredo
  return null;
}

/** The IPv4 range name of an address, or the IPv6 one (with the registry entries newer than the library). */
function rangeOf(ip: string): string {
  const address = ipaddr.parse(ip);
  if (address.kind() === 'ipv4') return address.range();
  const v6 = address as ipaddr.IPv6;
  if (NEWER_THAN_LIBRARY.some((cidr) => v6.match(cidr))) return 'reserved';
  return v6.range();
}

function checkIpv4(ip: string, allowLoopback: boolean): string | null {
  const range = rangeOf(ip);
  if (range === 'loopback') return allowLoopback ? null : 'loopback address';
  return range === 'unicast' ? null : `special-purpose address (${range})`;
}

/**
 * Why an address may not receive webhooks, or null when it may. Loopback only where allowed (local
 * runtime). An IPv6 address that carries an IPv4 address (mapped, compatible, SIIT, NAT64, 6to4,
 * Teredo) is judged by the IPv4 address it carries; a translation block whose IPv4 address cannot be
 * read off the address (the local-use NAT64 prefix 64:ff9b:1::/48) is refused.
 */
export function forbiddenReason(ip: string, allowLoopback: boolean): string | null {
  const text = ip.replace(/%.*$/, '');
  const family = isIP(text);
  if (family === 0) return 'not an IP address';
  if (family === 4) return checkIpv4(text, allowLoopback);
  const inner = embeddedIpv4(text);
  let range: string;
  try {
    range = rangeOf(text);
  } catch {
    return 'not an IP address'; // fail closed should the library read an address differently from Node
  }
  if (range === 'loopback') return allowLoopback ? null : 'loopback address';
  if (TRANSLATIONS.has(range)) return inner ? checkIpv4(inner, allowLoopback) : `special-purpose address (${range})`;
  if (range !== 'unicast') return `special-purpose address (${range})`;
  return inner ? checkIpv4(inner, allowLoopback) : null;
}
