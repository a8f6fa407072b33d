/** Part A 2.9 pilot groups and their memberships (migration 0020). */
export interface PilotGroupsTable {
  id: string;
  company_id: string;
  name: string;
  color: string;
  created: number;
  modified: number;
}

export interface PilotGroupMembersTable {
  id: string;
  company_id: string;
  pilot_group_id: string;
  user_id: string;
  created: number;
}

declare module '../../db/schema.ts' {
  interface DB {
    pilot_groups: PilotGroupsTable;
    pilot_group_members: PilotGroupMembersTable;
  }
}
