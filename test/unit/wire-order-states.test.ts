import { expect } from 'chai';
import { ORDER_STATE } from '@subshare/core';
import * as wire from '@subshare/core/wire';

/**
 * The order states are declared once (wire/enums.ts) and the staff schemas take them from there:
 * this holds the schemas to the orders module's ORDER_STATE, so a state added there is accepted
 * by the staff lists, the page counts and the CSV export too, and nothing else is.
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
