import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** A handler that returns the value to send as JSON (or undefined when it answered itself). */
export type JsonHandler = (req: Request, res: Response) => Promise<unknown> | unknown;

export function json(handler: JsonHandler): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const result = await handler(req, res);
      if (!res.headersSent && result !== undefined) res.json(result);
    } catch (error) {
      next(error);
    }
  };
}
