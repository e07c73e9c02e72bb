/**
 * Probe-then-bind (test/support/ports.ts): a port another process takes between the probe and the
 * bind costs a retry on a new port, not the file.
 */
import net from 'node:net';
import { expect } from 'chai';
import { addressInUse, onFreePort, PORT_ATTEMPTS } from '../support/ports.js';

function bind(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

const close = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('ports for servers that must know their address first', () => {
  const opened: net.Server[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map(close));
  });

  it('binds on another port when the probed one is taken before the bind', async () => {
    const tried: number[] = [];
    const server = await onFreePort(async (port) => {
      tried.push(port);
      // Another process takes the port in the gap, the first time only.
      if (tried.length === 1) opened.push(await bind(port));
      return bind(port);
    });
    opened.push(server);
    expect(tried).to.have.length(2);
    expect((server.address() as net.AddressInfo).port).to.equal(tried[1]);
    expect(tried[1]).to.not.equal(tried[0]);
  });

  it('throws any other failure at once, and gives up after a few taken ports', async () => {
    let calls = 0;
    const refused = new Error('the server would not start');
    const failed = await onFreePort(async () => {
      calls += 1;
      throw refused;
    }).catch((error: unknown) => error);
    expect(failed).to.equal(refused);
    expect(calls).to.equal(1);

    calls = 0;
    const taken = await onFreePort(async (port) => {
      calls += 1;
      opened.push(await bind(port));
      return bind(port);
    }).catch((error: unknown) => error);
    expect(addressInUse(taken)).to.equal(true);
    expect(calls).to.equal(PORT_ATTEMPTS);
  });

  it("knows a taken port from Node's error and from a child process's words", () => {
    expect(addressInUse(Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:4000'), { code: 'EADDRINUSE' }))).to.equal(true);
    expect(addressInUse(new Error('dovecot exited: Fatal: bind(127.0.0.1, 4000) failed: Address already in use'))).to.equal(true);
    expect(addressInUse(new Error('connect ECONNREFUSED 127.0.0.1:4000'))).to.equal(false);
  });
});
