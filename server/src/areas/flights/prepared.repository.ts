import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/**
 * Compiled-SQL cache for hot queries whose shape repeats (the flights list).
 * Building and compiling a Kysely select with its joins and ~80 columns costs
 * more than running it on an indexed table, so each shape is compiled once
 * with sentinel values and later runs only substitute the parameters. The
 * sentinels make the substitution exact: every parameter is either a named
 * value or a constant the builder put there itself.
 */
type Entry = { sql: string; slots: Array<{ name: string } | { constant: unknown }> };

// Per database handle: tests run SQLite and PostgreSQL in one process, and their SQL differs.
const caches = new WeakMap<Kysely<DB>, Map<string, Entry>>();
const MAX_SHAPES = 200;
const SENTINEL = '\u0000ops-param:';

/** A value placeholder for `build`; pass the real value under `name` to `runPrepared`. */
export type Param = <T>(name: string) => T;

export async function runPrepared<Row>(
  db: Kysely<DB>,
  shape: string,
  build: (param: Param) => Compilable,
  values: Record<string, unknown>,
): Promise<Row[]> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let entry = cache.get(shape);
  if (!entry) {
    const compiled = build(<T>(name: string) => `${SENTINEL}${name}` as T).compile();
    entry = {
      sql: compiled.sql,
      slots: compiled.parameters.map((p) =>
        typeof p === 'string' && p.startsWith(SENTINEL) ? { name: p.slice(SENTINEL.length) } : { constant: p },
      ),
    };
    if (cache.size >= MAX_SHAPES) cache.delete(cache.keys().next().value as string);
    cache.set(shape, entry);
  }
  const parameters = entry.slots.map((s) => {
    if ('constant' in s) return s.constant;
    if (!(s.name in values)) throw new Error(`prepared query ${shape}: no value for ${s.name}`);
    return values[s.name];
  });
  const result = await db.executeQuery<Row>(CompiledQuery.raw(entry.sql, parameters));
  return result.rows;
}
