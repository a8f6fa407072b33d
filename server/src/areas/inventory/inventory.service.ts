import { APPROVAL_STATUSES, INVENTORY_CATEGORIES, UNIT_CONDITIONS, UNIT_STATUSES, uuidv7 } from '@ops/shared';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, type FieldErrors, notFound, zodFieldErrors } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { unwrapData } from '../../http/body.ts';
import { addError, invalid, mergeErrors } from '../../http/errors.ts';
import { emptyToNull, emptyToUndefined, zOptText } from '../../http/zod.ts';
import './inventory.tables.ts';

/** Inventory writes (Part B 4.1): parts, their units and providers, with a change history per part. */

/** Case-insensitive match on a canonical list (`landing gear` is `Landing Gear`). */
const oneOf = <T extends readonly string[]>(values: T, label: string) =>
  z.preprocess((v) => {
    const x = emptyToUndefined(typeof v === 'string' ? v.trim() : v);
    if (typeof x !== 'string') return x;
    return values.find((c) => c.toLowerCase() === x.toLowerCase()) ?? x;
  }, z.enum(values as unknown as [string, ...string[]], { error: `${label}: one of ${values.join(', ')}` }).optional());
const optId = z.preprocess(
  emptyToNull,
  z.union([z.string(), z.number()]).transform(String).pipe(z.string().max(64)).nullable().optional(),
);

export const ZPart = z.object({
  id: z.preprocess(emptyToUndefined, z.string().max(64).optional()),
  part_number: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(60, 'At most 60 characters').optional()),
  name: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(180, 'At most 180 characters').optional()),
  mfr_name: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(120, 'At most 120 characters').optional()),
  category: oneOf(INVENTORY_CATEGORIES, 'Category'),
  approval_status: oneOf(APPROVAL_STATUSES, 'Approval status'),
  description: zOptText(5000),
});

export const ZProvider = z.object({
  name: zOptText(120),
  email: z.preprocess(emptyToNull, z.email('Invalid email address').max(254).nullable().optional()),
  phone: zOptText(40),
});

export const ZUnit = z.object({
  id: z.preprocess(emptyToUndefined, z.string().max(64).optional()),
  serial_number: zOptText(60),
  status: oneOf(UNIT_STATUSES, 'Status'),
  condition: oneOf(UNIT_CONDITIONS, 'Condition'),
  base_id: optId,
  aircraft_id: optId,
});

const PART_FIELDS = ['part_number', 'name', 'mfr_name', 'category', 'approval_status', 'description'] as const;

const obj = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/** History rows of one save share a second; ids a millisecond apart keep them in order. */
let lastHistoryMs = 0;
const historyId = () => {
  lastHistoryMs = Math.max(Date.now(), lastHistoryMs + 1);
  return uuidv7(lastHistoryMs);
};

async function history(trx: Kysely<DB>, actor: Actor, partId: string, action: string, fields: unknown) {
  await trx
    .insertInto('inventory_history')
    .values({
      id: historyId(),
      company_id: actor.companyId,
      part_id: partId,
      user_id: actor.userId,
      action,
      fields: fields === null ? null : JSON.stringify(fields),
      created: nowSeconds(),
    })
    .execute();
}

async function touchPart(uow: UnitOfWork, actor: Actor, partId: string, set: Record<string, unknown> = {}) {
  await uow.trx
    .updateTable('inventory_parts')
    .set({ ...set, modified: nowSeconds(), change_no: await uow.changeNo(actor.companyId, 'inventory_parts') })
    .where('company_id', '=', actor.companyId)
    .where('id', '=', partId)
    .execute();
}

/** Finds a company provider by name (case-insensitive) or creates it; fills in missing contact details. */
async function linkProvider(uow: UnitOfWork, actor: Actor, partId: string, p: z.output<typeof ZProvider>) {
  const trx = uow.trx;
  const name = p.name?.trim();
  if (!name) return null;
  const now = nowSeconds();
  let provider = await trx
    .selectFrom('inventory_providers')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('deleted', '=', 0)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .orderBy('id')
    .executeTakeFirst();
  if (!provider) {
    provider = {
      id: uuidv7(),
      company_id: actor.companyId,
      name,
      email: p.email ?? null,
      phone: p.phone ?? null,
      deleted: 0,
      created: now,
      modified: now,
    };
    await trx.insertInto('inventory_providers').values(provider).execute();
  } else if ((p.email && !provider.email) || (p.phone && !provider.phone)) {
    await trx
      .updateTable('inventory_providers')
      .set({ email: provider.email ?? p.email ?? null, phone: provider.phone ?? p.phone ?? null, modified: now })
      .where('company_id', '=', actor.companyId)
      .where('id', '=', provider.id)
      .execute();
  }
  const linked = await trx
    .selectFrom('inventory_part_providers')
    .select('provider_id')
    .where('part_id', '=', partId)
    .where('provider_id', '=', provider.id)
    .executeTakeFirst();
  if (linked) return null;
  await trx
    .insertInto('inventory_part_providers')
    .values({ company_id: actor.companyId, part_id: partId, provider_id: provider.id, created: now })
    .execute();
  return { id: provider.id, name: provider.name };
}

async function checkUnitRefs(trx: Kysely<DB>, companyId: string, u: z.output<typeof ZUnit>, errors: FieldErrors) {
  if (u.base_id) {
    const b = await trx
      .selectFrom('bases')
      .select('id')
      .where('company_id', '=', companyId)
      .where('id', '=', u.base_id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!b) addError(errors, 'InventoryUnit.base_id', 'Unknown base');
  }
  if (u.aircraft_id) {
    const a = await trx
      .selectFrom('aircraft')
      .select('id')
      .where('company_id', '=', companyId)
      .where('id', '=', u.aircraft_id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!a) addError(errors, 'InventoryUnit.aircraft_id', 'Unknown aircraft');
  }
}

const hasUnitFields = (u: z.output<typeof ZUnit>) =>
  ['serial_number', 'status', 'condition', 'base_id', 'aircraft_id'].some(
    (k) => u[k as keyof typeof u] !== undefined && u[k as keyof typeof u] !== null,
  );

/** Part B 4.1 edit: creates (no `Inventory[id]`, with a first unit) or updates a part; validation errors list every field. */
export async function savePart(uow: UnitOfWork, actor: Actor, raw: unknown): Promise<{ id: string; created: boolean }> {
  const trx = uow.trx;
  const b = unwrapData(raw);
  const errors: FieldErrors = {};
  const parts = [
    ['', ZPart, obj(b.Inventory) ?? {}],
    ['InventoryProvider.', ZProvider, obj(b.InventoryProvider) ?? {}],
    ['InventoryUnit.', ZUnit, obj(b.InventoryUnit) ?? {}],
  ] as const;
  const out = parts.map(([prefix, schema, value]) => {
    const r = schema.safeParse(value);
    if (!r.success) mergeErrors(errors, prefix, zodFieldErrors(r.error));
    return r.success ? r.data : null;
  });
  const f = out[0] as z.output<typeof ZPart> | null;
  const provider = out[1] as z.output<typeof ZProvider> | null;
  const unit = out[2] as z.output<typeof ZUnit> | null;

  const existing = f?.id
    ? await trx
        .selectFrom('inventory_parts')
        .selectAll()
        .where('company_id', '=', actor.companyId)
        .where('id', '=', f.id)
        .where('deleted', '=', 0)
        .executeTakeFirst()
    : undefined;
  if (f?.id && !existing) throw notFound('Part not found');
  if (f && !existing)
    for (const k of ['part_number', 'name', 'mfr_name', 'category'] as const)
      if (!f[k]) addError(errors, k, 'Required');
  if (f?.part_number && f.part_number !== existing?.part_number) {
    const clash = await trx
      .selectFrom('inventory_parts')
      .select('id')
      .where('company_id', '=', actor.companyId)
      .where('part_number', '=', f.part_number)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (clash) addError(errors, 'part_number', 'Already used by another part of your company');
  }
  let unitRow: { id: string; part_id: string } | undefined;
  if (unit) {
    await checkUnitRefs(trx, actor.companyId, unit, errors);
    if (unit.id) {
      unitRow = existing
        ? await trx
            .selectFrom('inventory_units')
            .select(['id', 'part_id'])
            .where('company_id', '=', actor.companyId)
            .where('id', '=', unit.id)
            .where('part_id', '=', existing.id)
            .where('deleted', '=', 0)
            .executeTakeFirst()
        : undefined;
      if (!unitRow) addError(errors, 'InventoryUnit.id', 'Unknown unit of this part');
    }
  }
  if (Object.keys(errors).length || !f || !provider || !unit) throw invalid(errors);

  const now = nowSeconds();
  let id: string;
  let created = false;
  if (!existing) {
    id = uuidv7();
    created = true;
    await trx
      .insertInto('inventory_parts')
      .values({
        id,
        company_id: actor.companyId,
        change_no: await uow.changeNo(actor.companyId, 'inventory_parts'),
        deleted: 0,
        created: now,
        modified: now,
        user_id: actor.userId,
        part_number: f.part_number as string,
        name: f.name as string,
        mfr_name: f.mfr_name as string,
        category: f.category as string,
        approval_status: f.approval_status ?? 'Pending',
        description: f.description ?? null,
      })
      .execute();
    await history(
      trx,
      actor,
      id,
      'create',
      PART_FIELDS.map((k) => ({
        field: k,
        from: null,
        to: k === 'approval_status' ? (f.approval_status ?? 'Pending') : (f[k] ?? null),
      })),
    );
  } else {
    id = existing.id;
    const changes: Array<{ field: string; from: unknown; to: unknown }> = [];
    const set: Record<string, unknown> = {};
    for (const k of PART_FIELDS) {
      if (f[k] === undefined || f[k] === existing[k]) continue;
      set[k] = f[k];
      changes.push({ field: k, from: existing[k], to: f[k] });
    }
    if (changes.length) await history(trx, actor, id, 'edit', changes);
    await touchPart(uow, actor, id, set);
  }

  // Creating a part creates its first unit; on edit a unit block edits that unit (`id`) or adds one.
  if (created || unitRow || hasUnitFields(unit)) {
    const values = {
      serial_number: unit.serial_number ?? null,
      status: unit.status ?? 'IN_STOCK',
      condition: unit.condition ?? 'NEW',
      base_id: unit.base_id ?? null,
      aircraft_id: unit.aircraft_id ?? null,
    };
    if (unitRow) {
      const set: Record<string, unknown> = {};
      for (const k of ['serial_number', 'status', 'condition', 'base_id', 'aircraft_id'] as const)
        if (unit[k] !== undefined) set[k] = unit[k];
      await trx
        .updateTable('inventory_units')
        .set({ ...set, modified: now })
        .where('company_id', '=', actor.companyId)
        .where('id', '=', unitRow.id)
        .execute();
      await history(trx, actor, id, 'unit_edit', { unit_id: unitRow.id, ...set });
    } else {
      const unitId = uuidv7();
      await trx
        .insertInto('inventory_units')
        .values({
          id: unitId,
          company_id: actor.companyId,
          part_id: id,
          workorder_id: null,
          deleted: 0,
          created: now,
          modified: now,
          ...values,
        })
        .execute();
      if (!created) await history(trx, actor, id, 'unit_add', { unit_id: unitId, ...values });
    }
  }
  const linked = await linkProvider(uow, actor, id, provider);
  if (linked) await history(trx, actor, id, 'provider_link', linked);
  return { id, created };
}

/** Manager delete (docs/areas/fleet.md): refused while a unit is used by a work order. */
export async function deletePart(uow: UnitOfWork, actor: Actor, id: string): Promise<void> {
  const trx = uow.trx;
  const part = await trx
    .selectFrom('inventory_parts')
    .select('id')
    .where('company_id', '=', actor.companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!part) throw notFound('Part not found');
  const inUse = await trx
    .selectFrom('inventory_units')
    .select('id')
    .where('company_id', '=', actor.companyId)
    .where('part_id', '=', id)
    .where('deleted', '=', 0)
    .where('workorder_id', 'is not', null)
    .executeTakeFirst();
  if (inUse) throw badRequest('A unit of this part is used by a work order; release it first');
  await trx
    .updateTable('inventory_units')
    .set({ deleted: 1, modified: nowSeconds() })
    .where('company_id', '=', actor.companyId)
    .where('part_id', '=', id)
    .execute();
  await touchPart(uow, actor, id, { deleted: 1 });
  await history(trx, actor, id, 'delete', null);
}

/** PostgreSQL 23505 or SQLite UNIQUE: the partial unique index caught a concurrent duplicate part number. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || /UNIQUE constraint failed/.test(String(e?.message ?? ''));
}
