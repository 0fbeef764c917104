import { forbiddenReason } from '../../../src/adapters/http/address-guard';

/**
 * IANA's IPv4 and IPv6 Special-Purpose Address Registries (iana.org/assignments/iana-ipv4-special-registry and
 * iana-ipv6-special-registry), every entry, plus the multicast blocks of their own registries. One address
 * inside each block, its first and its last; none may receive a webhook.
 */
const ipv4Special: [string, string, string][] = [
  ['0.0.0.0/8 "this network"', '0.1.2.3', '0.255.255.255'],
  ['10.0.0.0/8 private-use', '10.0.0.0', '10.255.255.255'],
  ['100.64.0.0/10 shared address space', '100.64.0.0', '100.127.255.255'],
  ['127.0.0.0/8 loopback', '127.0.0.0', '127.255.255.255'],
  ['169.254.0.0/16 link-local', '169.254.0.0', '169.254.255.255'],
  ['172.16.0.0/12 private-use', '172.16.0.0', '172.31.255.255'],
  ['192.0.0.0/24 IETF protocol assignments', '192.0.0.0', '192.0.0.255'],
  ['192.0.0.8/32 IPv4 dummy address', '192.0.0.8', '192.0.0.8'],
  ['192.0.0.170/32 NAT64/DNS64 discovery', '192.0.0.170', '192.0.0.171'],
  ['192.0.2.0/24 documentation (TEST-NET-1)', '192.0.2.0', '192.0.2.255'],
  ['192.31.196.0/24 AS112-v4', '192.31.196.0', '192.31.196.255'],
  ['192.52.193.0/24 AMT', '192.52.193.0', '192.52.193.255'],
  ['192.88.99.0/24 deprecated 6to4 relay anycast', '192.88.99.0', '192.88.99.255'],
  ['192.168.0.0/16 private-use', '192.168.0.0', '192.168.255.255'],
  ['192.175.48.0/24 direct delegation AS112', '192.175.48.0', '192.175.48.255'],
  ['198.18.0.0/15 benchmarking', '198.18.0.0', '198.19.255.255'],
  ['198.51.100.0/24 documentation (TEST-NET-2)', '198.51.100.0', '198.51.100.255'],
  ['203.0.113.0/24 documentation (TEST-NET-3)', '203.0.113.0', '203.0.113.255'],
  ['224.0.0.0/4 multicast', '224.0.0.0', '239.255.255.255'],
  ['240.0.0.0/4 reserved', '240.0.0.0', '255.255.255.254'],
  ['255.255.255.255/32 limited broadcast', '255.255.255.255', '255.255.255.255'],
];

const ipv6Special: [string, string, string][] = [
  ['::/128 unspecified', '::', '::'],
  ['::1/128 loopback', '::1', '::1'],
  ['64:ff9b:1::/48 local-use IPv4/IPv6 translation', '64:ff9b:1::', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff'],
  ['100::/64 discard-only', '100::', '100::ffff:ffff:ffff:ffff'],
  ['100:0:0:1::/64 dummy IPv6 prefix', '100:0:0:1::', '100::1:ffff:ffff:ffff:ffff'],
  ['2001::/23 IETF protocol assignments', '2001:1::1', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:2::/48 benchmarking', '2001:2::', '2001:2:0:ffff:ffff:ffff:ffff:ffff'],
  ['2001:3::/32 AMT', '2001:3::', '2001:3:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:4:112::/48 AS112-v6', '2001:4:112::', '2001:4:112:ffff:ffff:ffff:ffff:ffff'],
  ['2001:10::/28 deprecated ORCHID', '2001:10::', '2001:1f:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:20::/28 ORCHIDv2', '2001:20::', '2001:2f:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:30::/28 drone remote ID entity tags', '2001:30::', '2001:3f:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:db8::/32 documentation', '2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2620:4f:8000::/48 direct delegation AS112', '2620:4f:8000::', '2620:4f:8000:ffff:ffff:ffff:ffff:ffff'],
  ['3fff::/20 documentation', '3fff::', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['5f00::/16 segment routing SIDs', '5f00::', '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fc00::/7 unique-local', 'fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fd00:ec2::/32 the EC2 metadata service (inside fc00::/7)', 'fd00:ec2::254', 'fd00:ec2::254'],
  ['fe80::/10 link-local', 'fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fec0::/10 deprecated site-local', 'fec0::', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['ff00::/8 multicast', 'ff00::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
];

const hex = (ip: string) => {
  const [a, b, c, d] = ip.split('.').map(Number) as [number, number, number, number];
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)] as const;
};

/** Every IPv6 form that carries an IPv4 address and that the network would deliver to it. */
const carriers = (ip: string): [string, string][] => {
  const [hi, lo] = hex(ip);
  return [
    ['IPv4-mapped, dotted', `::ffff:${ip}`],
    ['IPv4-mapped, hex', `::ffff:${hi}:${lo}`],
    ['IPv4-mapped, expanded', `0:0:0:0:0:ffff:${ip}`],
    ['SIIT', `::ffff:0:${ip}`],
    ['NAT64', `64:ff9b::${ip}`],
    ['6to4', `2002:${hi}:${lo}::1`],
  ];
};

describe('address guard: IANA special-purpose registries', () => {
  describe.each(ipv4Special)('%s', (_block, first, last) => {
    it.each([first, last, ...carriers(first).map(([, form]) => form), ...carriers(last).map(([, form]) => form)])('refuses %s', (ip) => {
      expect(forbiddenReason(ip, false)).not.toBeNull();
    });
  });

  describe.each(ipv6Special)('%s', (_block, first, last) => {
    it.each([first, last])('refuses %s', (ip) => {
      expect(forbiddenReason(ip, false)).not.toBeNull();
    });
  });

  it('refuses a Teredo address whose client is a documentation address', () => {
    const [hi, lo] = hex('192.0.2.1');
    const inverted = (h: string) => (Number.parseInt(h, 16) ^ 0xffff).toString(16);
    expect(forbiddenReason(`2001:0:4136:e378:8000:63bf:${inverted(hi)}:${inverted(lo)}`, false)).not.toBeNull();
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '192.0.1.255',
    '192.0.3.0',
    '198.51.99.255',
    '203.0.112.255',
    '203.0.114.0',
    '2606:2800:220:1::1',
    '2a00:1450:4001:80b::200e',
    '2001:4860:4860::8888',
    '2001:db7:ffff::1',
    '2001:db9::1',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
  ])('lets the public address %s through', (ip) => {
    expect(forbiddenReason(ip, false)).toBeNull();
  });

  it('names the special-purpose block it refused', () => {
    expect(forbiddenReason('192.0.2.1', false)).toMatch(/special-purpose/);
    expect(forbiddenReason('2001:db8::1', false)).toMatch(/special-purpose/);
    expect(forbiddenReason('::ffff:203.0.113.9', false)).toMatch(/special-purpose/);
  });
});
