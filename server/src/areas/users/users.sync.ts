import { PEOPLE_TYPES, peopleCollection, type UserDoc, usersCollection } from '@ops/shared';
import type { UsersTable } from '../../db/core-tables.ts';
import { recordType } from '../../sync/registry.ts';
import { tableSource } from '../../sync/table-source.ts';

/** The columns a directory document needs (the users table has twice as many: secrets, notes, settings); besides the sync columns. */
const DOC_COLUMNS = [
  'id',
  'change_no',
  'deleted',
  'name',
  'surname',
  'user_group_id',
  'active',
  'pilot',
  'email',
  'email_status',
  'expiration',
  'phone',
  'phone2',
  'address',
  'city',
  'pc',
  'passport',
  'base_id',
  'supervisor_id',
  'photo',
  'color',
] as const satisfies readonly (keyof UsersTable)[];
type DocRow = Pick<UsersTable, (typeof DOC_COLUMNS)[number]>;

export const toUserDoc = (u: DocRow): UserDoc => ({
  id: u.id,
  name: u.name,
  surname: u.surname,
  user_group_id: u.user_group_id,
  active: !!u.active,
  pilot: !!u.pilot,
  email: u.email,
  email_status: u.email_status,
  expiration: u.expiration,
  phone: u.phone,
  phone2: u.phone2,
  address: u.address,
  city: u.city,
  pc: u.pc,
  passport: u.passport,
  base_id: u.base_id,
  supervisor_id: u.supervisor_id,
  photo: u.photo,
  color: u.color,
});

/** The company directory, the `user` record type of `people` (contact fields masked by `visibleUser`). */
export const userRecords = recordType<UserDoc>(peopleCollection, {
  types: [PEOPLE_TYPES.user],
  sources: [
    tableSource({
      tables: ['users'],
      alias: 'u',
      rows: usersCollection.rows,
      // Only what the document shows: a pull of the whole directory reads 100,000 rows (docs/sync.md, bench:sync).
      query: (db, companyId) =>
        db
          .selectFrom('users as u')
          .select(DOC_COLUMNS.map((c) => `u.${c}` as const))
          .where('u.company_id', '=', companyId),
      toDoc: toUserDoc,
    }),
  ],
});
