import { fields } from '@subshare/core/wire';

// The field rules live with the wire schemas in core (@subshare/core/wire); handlers not yet in the route table read them here.
export { validate as parse } from '@subshare/core';
export const { id } = fields;
