import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { takeRefusedHosts } from './support/no-internet';

describe('the test run', () => {
  it('refuses a connection beyond the loopback address', async () => {
    // 192.0.2.1 is reserved for documentation; the guard refuses it before any packet is sent.
    const socket = new net.Socket();
    const failure = await new Promise<Error>((resolve) => {
      socket.once('error', resolve);
      socket.connect(443, '192.0.2.1');
    });
    expect(failure.message).toContain('Tests must not reach the internet');
    expect(takeRefusedHosts()).toEqual(['192.0.2.1']);
  });
});
