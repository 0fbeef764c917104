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
  ['ff00::', 8],
  ['fd00:ec2::', 32],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** IPv4-mapped IPv6 (::ffff:10.0.0.1) is checked as the IPv4 address it maps. */
function unmapped(ip: string): [string, 'ipv4' | 'ipv6'] {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (m) return [m[1]!, 'ipv4'];
  return [ip, isIP(ip) === 6 ? 'ipv6' : 'ipv4'];
}

/** Why an address may not receive webhooks, or null when it may. Loopback only where allowed (local runtime). */
export function forbiddenReason(ip: string, allowLoopback: boolean): string | null {
  const [address, family] = unmapped(ip);
  if (loopback.check(address, family)) return allowLoopback ? null : 'loopback address';
  if (blocked.check(address, family)) return 'private, link-local or reserved address';
  return null;
}
