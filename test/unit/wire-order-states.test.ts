import { expect } from 'chai';
import { ORDER_STATE } from '@subshare/core';
import * as wire from '@subshare/core/wire';

/**
 * wire/staff.ts writes the order states out (wire/ stays plain yup for the web), so this holds
 * that list to the orders module's ORDER_STATE: a state added there must be accepted by the
 * staff lists, the page counts and the CSV export too.
 */
describe('wire: the staff calls accept exactly the order states', () => {
  const states = new Set<number>(Object.values(ORDER_STATE));

  for (const [name, schema] of Object.entries({
    ordersByStateQuery: wire.staff.ordersByStateQuery,
    orderPagesQuery: wire.staff.orderPagesQuery,
    exportQuery: wire.staff.exportQuery,
  })) {
    it(`${name}: every ORDER_STATE and nothing else`, async () => {
      for (let state = -2; state <= Math.max(...states) + 2; state++) {
        expect(await schema.isValid({ state }), `state ${state}`).to.equal(states.has(state));
      }
    });
  }
});
