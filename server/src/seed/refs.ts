/** Ids of seeded records by their natural keys, so later seed steps and tests can refer to them. */
export interface SeedRefs {
  companies: Record<'skyline' | 'harbor', string>;
  /** `email` → user id per company key, e.g. users.skyline['pilot@skyline.test']. */
  users: Record<'skyline' | 'harbor', Record<string, string>>;
  bases: Record<string, string>;
  aircraft: Record<string, string>;
  now: number;
}
