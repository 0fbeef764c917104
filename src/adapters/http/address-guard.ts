import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16], // link-local, including the instance metadata service 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10], // deprecated site-local
  ['ff00::', 8],
  ['fd00:ec2::', 32],
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): translates into the operator's own network
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

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

function check(address: string, family: 'ipv4' | 'ipv6', allowLoopback: boolean): string | null {
  if (loopback.check(address, family)) return allowLoopback ? null : 'loopback address';
  if (blocked.check(address, family)) return 'private, link-local or reserved address';
  return null;
}

/**
 * Why an address may not receive webhooks, or null when it may. Loopback only where allowed (local
 * runtime). An IPv6 address that carries an IPv4 address (mapped, compatible, SIIT, NAT64, 6to4,
 * Teredo) is refused when either the IPv6 form or the IPv4 address it carries is refused.
 */
export function forbiddenReason(ip: string, allowLoopback: boolean): string | null {
  const family = isIP(ip.replace(/%.*$/, ''));
  if (family === 0) return 'not an IP address';
  if (family === 4) return check(ip, 'ipv4', allowLoopback);
  const inner = embeddedIpv4(ip);
  const own = check(ip.replace(/%.*$/, ''), 'ipv6', allowLoopback);
  if (own) return own;
  return inner ? check(inner, 'ipv4', allowLoopback) : null;
}
