import { areaCollection } from './area.ts';
import { PERSONAL_TYPES, personalCollection } from './personal.ts';
import { usersCollection } from './users.ts';

/**
 * People: the company directory (`type: 'user'`, company scope, contact
 * fields masked by `visibleUser`) and the signed-in person's own records
 * (`certificate`, `schedule`, `account`: own scope). Mixed scopes, one collection.
 */
export const PEOPLE_TYPES = {
  user: 'user',
  certificate: 'certificate',
  schedule: 'schedule',
  account: 'account',
} as const;

export const peopleCollection = areaCollection({
  name: 'people',
  version: 0,
  parts: [
    { types: [PEOPLE_TYPES.user], def: usersCollection },
    { types: PERSONAL_TYPES, def: personalCollection },
  ],
});
