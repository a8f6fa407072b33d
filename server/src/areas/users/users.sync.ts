import { PEOPLE_TYPES, peopleCollection, type UserDoc, usersCollection } from '@ops/shared';
import type { UsersTable } from '../../db/core-tables.ts';
import { registerRecordType } from '../../sync/registry.ts';
import { tableSource } from '../../sync/table-source.ts';

export const toUserDoc = (u: UsersTable): UserDoc => ({
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
registerRecordType<UserDoc>(peopleCollection, {
  types: [PEOPLE_TYPES.user],
  sources: [
    tableSource({
      tables: ['users'],
      alias: 'u',
      rows: usersCollection.rows,
      query: (db, companyId) => db.selectFrom('users as u').selectAll('u').where('u.company_id', '=', companyId),
      toDoc: toUserDoc,
    }),
  ],
});
