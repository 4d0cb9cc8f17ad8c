/**
 * The client address per-address session caps count (lib/net/trusted-proxies.ts): believed
 * from X-Forwarded-For only through trusted proxies, read from the right, so a client cannot
 * pick the address it is counted under by writing hops of its own.
 */
import type { IncomingMessage } from 'node:http';
import { expect } from 'chai';
import { TrustedProxies } from '../../lib/net/trusted-proxies.js';

function request(peer: string, forwardedFor?: string | string[]): IncomingMessage {
  return { socket: { remoteAddress: peer }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } } as unknown as IncomingMessage;
}

describe('TrustedProxies.clientAddress', () => {
  const proxies = new TrustedProxies(['10.0.0.0/8', '::1/128']);

  it('is the socket peer when no proxy is trusted, whatever the header says', () => {
    expect(new TrustedProxies([]).clientAddress(request('10.1.1.1', '203.0.113.5'))).to.equal('10.1.1.1');
    expect(proxies.clientAddress(request('198.51.100.7', '203.0.113.5'))).to.equal('198.51.100.7');
  });

  it('is the right-most hop that is not a trusted proxy; hops left of it are the client’s own claim', () => {
    expect(proxies.clientAddress(request('10.0.0.2', '203.0.113.5'))).to.equal('203.0.113.5');
    // The client wrote 1.2.3.4 itself; the first proxy appended the address it saw.
    expect(proxies.clientAddress(request('10.0.0.2', '1.2.3.4, 203.0.113.5, 10.0.0.9'))).to.equal('203.0.113.5');
    expect(proxies.clientAddress(request('10.0.0.2', ['1.2.3.4', '203.0.113.5']))).to.equal('203.0.113.5');
  });

  it('is the trusted peer itself without a header, or when every hop is a trusted proxy (the left-most then)', () => {
    expect(proxies.clientAddress(request('10.0.0.2'))).to.equal('10.0.0.2');
    expect(proxies.clientAddress(request('::ffff:10.0.0.2', '10.0.0.7, 10.0.0.8'))).to.equal('10.0.0.7');
  });

  it('stops at a hop that is not an address: the last one believed stands', () => {
    expect(proxies.clientAddress(request('10.0.0.2', 'unknown, 10.0.0.8'))).to.equal('10.0.0.8');
    expect(proxies.clientAddress(request('10.0.0.2', '203.0.113.5, garbage'))).to.equal('10.0.0.2');
  });

  it('reads IPv4-mapped IPv6 as IPv4 and IPv6 peers as IPv6', () => {
    expect(proxies.clientAddress(request('::ffff:198.51.100.7'))).to.equal('198.51.100.7');
    expect(proxies.clientAddress(request('::1', '2001:db8::5'))).to.equal('2001:db8::5');
  });
});
