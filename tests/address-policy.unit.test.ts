import { expect, it } from 'vitest';
import { classifyAddress, mayConnect } from '../src/lib/address-policy.js';

it('refuses private, link-local, metadata, CGNAT, multicast and unspecified addresses, IPv4 and IPv6', () => {
  const refused = [
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.100.100.200',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1',
    'ff02::1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '64:ff9b::a9fe:a9fe',
    '2002:c0a8:0101::1',
    '::10.0.0.1',
    '64:ff9b:1::a9fe:a9fe',
    '64:ff9b:1::808:808',
    '64:ff9b:1:ffff::1',
    '::ffff:0:a9fe:a9fe',
    '::ffff:0:10.0.0.1',
    '3fff::1',
    '3fff:fff:ffff::1',
    '5f00::1',
    '5f00:ffff::1',
    'not-an-ip',
  ];
  expect(refused.filter((ip) => mayConnect(ip, true))).toEqual([]);
  expect(refused.filter((ip) => classifyAddress(ip) !== 'private')).toEqual([]);
});

it('admits loopback only with the test flag, and public addresses always', () => {
  for (const ip of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1', '::ffff:0:127.0.0.1']) {
    expect([ip, mayConnect(ip, false)]).toEqual([ip, false]);
    expect([ip, mayConnect(ip, true)]).toEqual([ip, true]);
  }
  for (const ip of [
    '93.184.215.14',
    '8.8.8.8',
    '2606:4700::6810:84e5',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '::ffff:0:8.8.8.8',
    '3fff:1000::1',
    '5f01::1',
  ]) {
    expect([ip, mayConnect(ip, false)]).toEqual([ip, true]);
  }
});
