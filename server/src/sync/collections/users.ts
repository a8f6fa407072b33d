import { type UserDoc, usersCollection } from '@ops/shared';
import type { UsersTable } from '../../db/core-tables.ts';
import type { ServerCollection } from '../registry.ts';
import { tableSource } from '../table-source.ts';

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

export const usersServerCollection: ServerCollection<UserDoc> = {
  def: usersCollection,
  sources: [
    tableSource({
      tables: ['users'],
      alias: 'u',
      rows: usersCollection.rows,
      query: (db, companyId) => db.selectFrom('users as u').selectAll('u').where('u.company_id', '=', companyId),
      toDoc: toUserDoc,
    }),
  ],
};
