/**
 * Runs right after express.json(): a body or query string with a prototype key (`__proto__`,
 * `constructor`, `prototype`) or nesting deeper than any call takes is answered 400 before a
 * handler, a schema or a logger walks it. JSON.parse itself copes with both; what came after it
 * did not (yup looked `__proto__` up as a field and recursed through 5,000 levels).
 */
import type { RequestHandler } from 'express';
import { assertSafeInput } from '@subshare/core';

export const inputGuard: RequestHandler = (req, _res, next) => {
  try {
    assertSafeInput(req.query);
    assertSafeInput(req.body);
    next();
  } catch (error) {
    next(error);
  }
};
