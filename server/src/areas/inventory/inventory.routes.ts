import { GATES } from '@ops/shared';
import { INVENTORY_PLANS } from '@ops/shared/rules/aircraft/policy';
import { inventoryGates } from '@ops/shared/rules/inventory/policy';
import { z } from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { zId } from '../../http/zod.ts';
import { unwrapData } from '../../http/body.ts';
import { invalid, parseOr400 } from '../../http/errors.ts';
import {
  availableParts,
  listParts,
  searchProviders,
  selectables,
  viewPart,
  viewProvider,
  ZIndex,
  ZProviderSearch,
} from './reads.service.ts';
import { deletePart, isUniqueViolation, savePart, ZPart, ZProvider, ZUnit } from './inventory.service.ts';
import {
  ZMaintenanceInventoryAvailable,
  ZMaintenanceInventoryIndex,
  ZMaintenanceInventorySelectables,
  ZMaintenanceInventoryView,
  ZMaintenanceInventoryEdit,
  ZMaintenanceInventoryDelete,
  ZMaintenanceInventoryProviders,
  ZMaintenanceInventoryProvider,
} from './inventory.responses.ts';

const plans = INVENTORY_PLANS;
const idParam = z.object({ id: zId });

// The service validates these bodies itself (its own field-error keys); they are documented through `bodyDoc`.
const ZDelete = z.object({ id: z.string({ error: 'Required' }).min(1, 'Required').max(64) });
/** A save: the part under `Inventory`, optionally a new provider and a unit. */
const ZSave = z.object({
  Inventory: ZPart.optional(),
  InventoryProvider: ZProvider.optional(),
  InventoryUnit: ZUnit.optional(),
});

/** Part B 4.1. Reads: any company user; edit: managers and mechanics; delete: managers (inventory/policy.ts). */
export const inventoryRoutes = [
  defineRoute({
    method: 'GET',
    path: '/maintenance/inventory/available.json',
    area: 'inventory',
    summary: 'Parts with a unit not on a work order, by name',
    access: { who: GATES.member, plans },
    response: ZMaintenanceInventoryAvailable,
    handler: ({ ctx, actor }) => availableParts(ctx.db, actor),
  }),
  defineRoute({
    method: 'POST',
    path: '/maintenance/inventory/index.json',
    bodyDoc: ZIndex,
    area: 'inventory',
    summary:
      'Parts, paginated: filters category, status (approval), name (part number, name, manufacturer), page, limit',
    access: { who: GATES.member, plans },
    response: ZMaintenanceInventoryIndex,
    handler: ({ ctx, actor, req }) => listParts(ctx.db, actor, req.body),
  }),
  defineRoute({
    method: 'GET',
    path: '/maintenance/inventory/selectables.json',
    area: 'inventory',
    summary: 'Allowed categories, approval statuses, unit statuses and conditions',
    access: { who: GATES.member, plans },
    response: ZMaintenanceInventorySelectables,
    handler: () => selectables(),
  }),
  defineRoute({
    method: 'GET',
    path: '/maintenance/inventory/view/:id.json',
    area: 'inventory',
    summary: 'A part with its units, providers and change history',
    access: { who: GATES.member, plans },
    params: idParam,
    response: ZMaintenanceInventoryView,
    handler: ({ ctx, actor, params }) => viewPart(ctx.db, actor, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/maintenance/inventory/edit.json',
    bodyDoc: ZSave,
    area: 'inventory',
    summary: 'Create (with a first unit) or edit a part: Inventory[...], InventoryProvider[name], InventoryUnit[...]',
    access: { who: inventoryGates.edit, plans },
    response: ZMaintenanceInventoryEdit,
    handler: async ({ ctx, actor, req }) => {
      try {
        const { id, created } = await ctx.tx((uow) => savePart(uow, actor, req.body));
        return { result: true, id, message: created ? 'Part created' : 'Part saved' };
      } catch (err) {
        // Two concurrent creates of one part number: the unique index decides.
        if (isUniqueViolation(err)) throw invalid({ part_number: ['Already used by another part of your company'] });
        throw err;
      }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/maintenance/inventory/delete.json',
    bodyDoc: ZDelete,
    area: 'inventory',
    summary: 'Delete a part (managers)',
    access: { who: inventoryGates.delete, plans },
    response: ZMaintenanceInventoryDelete,
    handler: async ({ ctx, actor, req }) => {
      const b = parseOr400(ZDelete, unwrapData(req.body));
      await ctx.tx((uow) => deletePart(uow, actor, b.id));
      return { result: true, message: 'Part deleted' };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/maintenance/inventory/providers.json',
    bodyDoc: ZProviderSearch,
    area: 'inventory',
    summary: 'Providers, searched by name, email or phone',
    access: { who: GATES.member, plans },
    response: ZMaintenanceInventoryProviders,
    handler: ({ ctx, actor, req }) => searchProviders(ctx.db, actor, req.body),
  }),
  defineRoute({
    method: 'GET',
    path: '/maintenance/inventory/provider/:id.json',
    area: 'inventory',
    summary: 'One provider with the parts it supplies',
    access: { who: GATES.member, plans },
    params: idParam,
    response: ZMaintenanceInventoryProvider,
    handler: ({ ctx, actor, params }) => viewProvider(ctx.db, actor, params.id),
  }),
];
