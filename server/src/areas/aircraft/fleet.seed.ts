import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import type { SeedRefs } from '../../seed/refs.ts';
import type { SeedStep } from '../../seed/index.ts';
import { createReport, extendItem } from '../aircraft-reports/aircraft-reports.service.ts';
import { savePart } from '../inventory/inventory.service.ts';
import { createJob, saveWorkOrder } from '../maintenance-jobs/maintenance-jobs.service.ts';
import { savePlan } from '../maintenance-plans/maintenance-plans.service.ts';

/**
 * Demo fleet data (`SEED=demo` only), written through the same services as the
 * API so it obeys every rule: parts with units, a maintenance programme with
 * two plan actions for EC-ABC and EC-DEF, a job from the first action, and
 * technical log entries with MEL and CDL items. The fleet itself (aircraft,
 * models) is part of the fixtures (CONTRACT 3).
 */
function skylineActor(refs: SeedRefs, email: string, role: number, name: string, surname: string): Actor {
  return {
    userId: refs.users.skyline[email],
    identityId: null,
    companyId: refs.companies.skyline,
    role,
    email,
    name,
    surname,
    supervisorId: null,
    plan: 'premium',
    company: { name: 'Skyline Flight Academy', timezone: 'Europe/Madrid', flightTimezone: 'UTC', billingEnabled: true },
    credential: { kind: 'session', id: 'seed' },
  };
}

async function demo(uow: UnitOfWork, refs: SeedRefs): Promise<void> {
  const mechanic = skylineActor(refs, 'mechanic@skyline.test', 300, 'Marco', 'Mechanic');
  const ops = skylineActor(refs, 'ops@skyline.test', 105, 'Oscar', 'Ops');
  const abc = refs.aircraft['EC-ABC'];
  const def = refs.aircraft['EC-DEF'];
  const jet = refs.aircraft['EC-JET'];
  const base = refs.bases['Cuatro Vientos'];

  const filter = await savePart(uow, mechanic, {
    Inventory: {
      part_number: 'CH48110-1',
      name: 'Oil filter',
      mfr_name: 'Champion',
      category: 'Engine',
      approval_status: 'Certified',
    },
    InventoryProvider: { name: 'Aero Parts Madrid', email: 'sales@aeroparts.example', phone: '+34 910 000 000' },
    InventoryUnit: { serial_number: 'OF-2024-001', status: 'IN_STOCK', condition: 'NEW', base_id: base },
  });
  await savePart(uow, mechanic, {
    Inventory: { id: filter.id },
    InventoryUnit: { serial_number: 'OF-2024-002', condition: 'NEW', base_id: base },
  });
  await savePart(uow, mechanic, {
    Inventory: {
      part_number: 'REM38E',
      name: 'Spark plug',
      mfr_name: 'Tempest',
      category: 'Engine',
      approval_status: 'Approved',
    },
    InventoryProvider: { name: 'Aero Parts Madrid' },
    InventoryUnit: { serial_number: 'SP-7781', base_id: base },
  });
  await savePart(uow, mechanic, {
    Inventory: {
      part_number: 'A-1285-14',
      name: 'Anti-collision beacon',
      mfr_name: 'Whelen',
      category: 'Lighting',
      approval_status: 'Pending',
    },
    InventoryUnit: { serial_number: 'WH-55012', status: 'IN_REPAIR', condition: 'UNSERVICEABLE' },
  });

  const fifty = await savePlan(uow, ops, {
    MaintenancePlan: {
      name: '50 h inspection',
      description: 'Oil and filter change, general inspection',
      hours_interval: 50,
      repeat: 'NEVER',
      programme_name: 'Piston fleet AMP',
    },
    Aircraft: { Aircraft: [abc, def] },
    PlanWorkOrder: [
      { name: 'Engine oil and filter change', ata: '79', time: 1.5 },
      { name: 'Spark plugs inspection', ata: '74', time: 1 },
    ],
  });
  await savePlan(uow, ops, {
    MaintenancePlan: {
      name: '100 h / annual inspection',
      hours_interval: 100,
      repeat: 'YEAR',
      programme_name: 'Piston fleet AMP',
    },
    Aircraft: { Aircraft: [abc, def] },
    PlanWorkOrder: [
      { name: 'Airframe inspection', ata: '05', time: 6 },
      { name: 'Compression test', ata: '85', time: 1.5 },
    ],
  });

  const beacon = await createReport(uow, mechanic, {
    AircraftReport: {
      aircraft_id: abc,
      type: 'DEFECT',
      title: 'Beacon light intermittent',
      ata_chapter: '33',
      system: 'Lights',
      severity: 'MEDIUM',
    },
  });
  const job = await createJob(uow, mechanic, {
    Job: {
      aircraft_id: abc,
      maintenance_plan_id: fifty.id,
      start: refs.now + 5 * 86400,
      aircraft_report_ids: [beacon.id],
    },
  });
  await saveWorkOrder(uow, mechanic, {
    WorkOrder: { maintenance_job_id: job.id, name: 'Replace beacon', ata: '33', time: 0.5 },
  });

  await createReport(uow, mechanic, {
    AircraftReport: {
      aircraft_id: def,
      type: 'MEL',
      title: 'Right navigation light inoperative',
      ata_chapter: '33-40',
      severity: 'MEDIUM',
      status: 'DEFERRED',
    },
    MelItem: {
      category: 'C',
      mel_reference: '33-40-01',
      released_by: mechanic.userId,
      placard_fitted: true,
      procedures: 'O',
    },
    MelItemLimitation: [{ code: 'NO_NIGHT', note: 'Day operations only' }],
  });
  const vor = await createReport(uow, mechanic, {
    AircraftReport: {
      aircraft_id: jet,
      type: 'MEL',
      title: 'VOR 2 receiver inoperative',
      ata_chapter: '34-51',
      severity: 'LOW',
      status: 'DEFERRED',
    },
    MelItem: {
      category: 'B',
      mel_reference: '34-51-02',
      released_by: mechanic.userId,
      placard_fitted: true,
      procedures: 'MO',
    },
    MelItemLimitation: [{ code: 'NO_RNP_AR' }],
  });
  await extendItem(uow, ops, vor.id, {
    extended_until: (vor.expires ?? refs.now) + 2 * 86400,
    reason: 'Receiver on order, delivery in two days',
  });
  await createReport(uow, mechanic, {
    AircraftReport: {
      aircraft_id: jet,
      type: 'CDL',
      title: 'Static discharger missing, left aileron',
      ata_chapter: '23-60',
      severity: 'LOW',
      status: 'DEFERRED',
    },
    MelItem: { mel_reference: 'CDL 23-1', released_by: mechanic.userId },
  });
  await createReport(uow, mechanic, {
    AircraftReport: { aircraft_id: abc, type: 'SERVICING', title: 'Oil top-up 1 qt', status: 'CLOSED' },
  });
}

export const fleetSeedStep: SeedStep = { name: 'fleet', demo };
