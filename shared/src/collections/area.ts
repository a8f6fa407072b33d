import { type CollectionDef, type JsonSchemaProp, rowVisible, scopeFields, type Viewer } from './types.ts';

/**
 * An area collection: one RxDB collection carrying several record types of an
 * area, told apart by `type` (free RxDB opens at most 16 collections per
 * JavaScript context; see docs/sync.md for the budget).
 *
 * Each record type keeps its own definition (a `CollectionDef`: row scope,
 * field visibility, writable fields, push roles), the one REST presenters
 * use. The area collection is their flat union: every property of every type,
 * optional where a type lacks it, plus the `type` discriminator, with
 * compound indexes led by `type`. Row visibility is a `custom` scope that
 * dispatches to the record type's own scope, so there is still one definition.
 */

export interface AreaPart {
  /** The `type` values documents of this part carry (usually one; `personal` has two). */
  types: readonly string[];
  // biome-ignore lint/suspicious/noExplicitAny: record types of different document shapes
  def: CollectionDef<any>;
}

/** The `type` discriminator of an area collection. */
const TYPE_PROP: JsonSchemaProp = { type: 'string', maxLength: 32 };

type Types = JsonSchemaProp['type'];
const asList = (t: Types): string[] => (Array.isArray(t) ? [...t] : [t]);

/** One property for a name several types declare: identical, or widened to the union of the JSON types. */
function mergeProp(name: string, a: JsonSchemaProp, b: JsonSchemaProp): JsonSchemaProp {
  if (JSON.stringify(a) === JSON.stringify(b)) return a;
  const types = [...new Set([...asList(a.type), ...asList(b.type)])];
  const structural = types.filter((t) => t === 'object' || t === 'array');
  if (structural.length && JSON.stringify(a.items ?? null) !== JSON.stringify(b.items ?? null)) {
    throw new Error(`area collection: property ${name} has incompatible item schemas in two record types; rename one`);
  }
  const out: JsonSchemaProp = { type: (types.length === 1 ? types[0] : types) as Types };
  if (a.items) out.items = a.items;
  if (a.additionalProperties !== undefined || b.additionalProperties !== undefined) out.additionalProperties = true;
  return out;
}

export interface AreaCollectionDef<Doc extends { id: string; type: string }> extends CollectionDef<Doc> {
  /** The record types, each with its own definition. */
  parts: readonly AreaPart[];
  /** The definition of one record type (null for an unknown type). */
  partOf(type: unknown): CollectionDef<{ id: string }> | null;
}

/** A document of an area collection: `type` plus the fields of its record type. */
export type AreaDoc = { id: string; type: string } & Record<string, unknown>;

export function areaCollection(opts: {
  name: string;
  version: number;
  parts: readonly AreaPart[];
  indexes?: string[][];
}): AreaCollectionDef<AreaDoc> {
  const byType = new Map<string, CollectionDef<{ id: string }>>();
  const properties: Record<string, JsonSchemaProp> = { id: { type: 'string', maxLength: 64 }, type: TYPE_PROP };
  let common = null as Set<string> | null;
  for (const part of opts.parts) {
    for (const t of part.types) {
      if (byType.has(t)) throw new Error(`area collection ${opts.name}: type ${t} defined twice`);
      byType.set(t, part.def);
    }
    const props = part.def.schema.properties as Record<string, JsonSchemaProp>;
    for (const [name, prop] of Object.entries(props)) {
      if (name === 'id') continue;
      if (name === 'type') {
        // A part may carry `type` only as the discriminator (personal: certificate | schedule), an indexable string.
        if (prop.type !== 'string' || !prop.maxLength)
          throw new Error(`area collection ${opts.name}: part ${part.def.name} has its own \`type\` field; rename it`);
        continue;
      }
      properties[name] = properties[name] ? mergeProp(name, properties[name], prop) : prop;
    }
    const req = new Set<string>(part.def.schema.required as readonly string[]);
    common = common === null ? req : new Set([...common].filter((f) => req.has(f)));
  }
  const required = ['id', 'type', ...[...(common ?? [])].filter((f) => f !== 'id' && f !== 'type')];
  const partOf = (type: unknown) => (typeof type === 'string' ? (byType.get(type) ?? null) : null);
  const fields = [...new Set(['type', ...opts.parts.flatMap((p) => scopeFields(p.def.rows))])];
  return {
    name: opts.name,
    version: opts.version,
    parts: opts.parts,
    partOf,
    schema: {
      properties,
      required,
      indexes: [['type', 'id'], ...(opts.indexes ?? [])],
    } as AreaCollectionDef<AreaDoc>['schema'],
    rows: {
      kind: 'custom',
      fields,
      test: (row, viewer) => {
        const def = partOf(row.type);
        return def !== null && rowVisible(def.rows, row, viewer);
      },
    },
    visible(doc: AreaDoc, viewer: Viewer): AreaDoc {
      const def = partOf(doc.type);
      return def ? ({ ...def.visible(doc, viewer), type: doc.type } as AreaDoc) : doc;
    },
    writableFields: [...new Set(opts.parts.flatMap((p) => p.def.writableFields as readonly string[]))],
    canPush: (viewer) => opts.parts.some((p) => p.def.canPush(viewer)),
  };
}

/** The record-type definition of a document of any collection (the collection itself when it is not an area collection). */
export function recordDefOf(
  def: CollectionDef<{ id: string }>,
  doc: Record<string, unknown>,
): CollectionDef<{ id: string }> | null {
  const area = def as Partial<AreaCollectionDef<AreaDoc>>;
  return typeof area.partOf === 'function' ? area.partOf(doc.type) : def;
}
