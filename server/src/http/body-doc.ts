import { z } from 'zod';

/**
 * Documentation of a body whose fields come under a model name: `{Model: {...}}` in JSON,
 * `Model[field]` or `data[Model][field]` as form fields (the `data` wrapper is unwrapped first);
 * `flat` when the same fields are also accepted at the top level.
 */
export const underModel = (model: string, fields: z.ZodType, flat = false): z.ZodType => {
  const wrapped = z.object({ [model]: fields });
  return flat ? z.union([wrapped, fields]) : wrapped;
};
