import { describe, expect, it } from 'vitest';
import { createSubnetMatcher, findInvalidSubnet } from './subnet';

describe('findInvalidSubnet', () => {
  it.each(['', '10.0.0.0/8', '192.168.1.7/32, 0.0.0.0/0', '2001:db8::/32,::1/128', '::ffff:10.0.0.0/104'])(
    'accepts %j',
    (list) => expect(findInvalidSubnet(list)).toBeNull(),
  );

  it.each([
    ['10.0.0.1', '10.0.0.1'],
    ['10.0.0.0/8,10.0.0.0/33', '10.0.0.0/33'],
    ['10.0.0.0/-1', '10.0.0.0/-1'],
    ['10.0.0.0/ 8', '10.0.0.0/ 8'],
    ['256.0.0.0/8', '256.0.0.0/8'],
    ['2001:db8::/129', '2001:db8::/129'],
    ['fe80::1%eth0/64', 'fe80::1%eth0/64'],
    ['example.com/24', 'example.com/24'],
  ])('names the bad entry of %j', (list, bad) => expect(findInvalidSubnet(list)).toBe(bad));
});

describe('createSubnetMatcher', () => {
  it('allows everyone when the list is empty', () => {
    expect(createSubnetMatcher('')('203.0.113.9')).toBe(true);
  });

  it('matches IPv4, IPv6 and IPv4-mapped addresses against the list', () => {
    const allowed = createSubnetMatcher('10.0.0.0/8, 2001:db8::/32');
    expect(allowed('10.200.3.4')).toBe(true);
    expect(allowed('::ffff:10.1.1.1')).toBe(true);
    expect(allowed('11.0.0.1')).toBe(false);
    expect(allowed('2001:db8:1::5')).toBe(true);
    expect(allowed('2001:db9::5')).toBe(false);
    expect(allowed('not an ip')).toBe(false);
  });
});
