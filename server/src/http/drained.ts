import type { Response } from 'express';

/** Resolves when the response takes more, or is closed: a client that went away never drains. */
export function drained(res: Response): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve(); // already closed: no event will come
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
