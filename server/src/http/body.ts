/**
 * Form bodies arrive as `data[Model][field]` (CakePHP style) or `Model[field]`;
 * JSON clients send `{Model: {...}}`. Both reach the same shape.
 */
export function unwrapData(raw: unknown): Record<string, unknown> {
  const b = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const data = b.data;
  if (data && typeof data === 'object' && !Array.isArray(data)) return { ...b, ...(data as Record<string, unknown>) };
  return b;
}

/** `{a: 'x', b: 'y'}` (urlencoded `X[0][...]`, or `X[][...]` of objects) or an array: the list of rows. */
export function rowsOf(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.every(([k]) => /^\d+$/.test(k)))
      return entries.sort((a, b) => Number(a[0]) - Number(b[0])).map(([, x]) => x);
    return [v];
  }
  return [];
}
