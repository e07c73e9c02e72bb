import { expect } from 'chai';
import { useCluster } from '../support/cluster.js';
import { createPlatform } from '../support/shop.js';
import { waitFor } from '../support/wait.js';

/**
 * Issue 16: a catalog change made through one `serve` of a cluster (test/support/cluster.ts) is
 * served by the other within a second, both ways. A wall-clock limit, so in the serial lane
 * (.mocharc.serial.cjs): run after the parallel files, the machine is not loaded by the suite.
 */
describe('a cluster: a catalog change made through one serve reaches the other', function () {
  this.timeout(600_000);
  const cluster = useCluster();

  it('a catalog change made through one serve is served by the other within a second, both ways', async () => {
    const platform = await createPlatform();
    const admin = await cluster.admin();
    const [a, b] = cluster.serves as [(typeof cluster.serves)[0], (typeof cluster.serves)[0]];
    const statusOn = async (base: string) => (await fetch(`${base}/api/platform/getplatform?id=${platform.id}`)).status;
    expect(await statusOn(b.url), 'B serves the platform (and has it in memory)').to.equal(200);

    for (const isEnabled of [false, true]) {
      const answer = await fetch(`${a.url}/api/catalog/platform?id=${platform.id}`, { headers: { authorization: `Bearer ${admin.token}` } });
      const editable = (await answer.json()) as { version: number };
      const changed = await cluster.call(a.url, '/api/catalog/setenabled', admin, { id: platform.id, isEnabled, version: editable.version });
      expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
      const changedAt = Date.now();
      await waitFor(async () => (await statusOn(b.url)) === (isEnabled ? 200 : 404), {
        timeoutMs: 1_000,
        intervalMs: 10,
        what: `B serving the platform ${isEnabled ? 'shown' : 'hidden'} through A`,
      });
      expect(Date.now() - changedAt, `ms until B served the platform ${isEnabled ? 'shown' : 'hidden'}`).to.be.below(1_000);
    }
  });
});
