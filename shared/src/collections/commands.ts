import { type CollectionDef, s } from './types.ts';

/**
 * The command outbox. A client inserts a `pending` command while offline; the
 * server decides it once (idempotent by id) and writes the outcome back into
 * the same document, which replicates to the client.
 */
export type CommandStatus = 'pending' | 'accepted' | 'rejected';

export interface CommandDoc {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** When the person acted, on the client's clock (unix ms). */
  client_time: number;
  user_id: string | null;
  status: CommandStatus;
  reason: string | null;
  details: Record<string, unknown> | null;
  result: Record<string, unknown> | null;
  decided_at: number | null;
}

export const commandsCollection: CollectionDef<CommandDoc> = {
  name: 'commands',
  version: 0,
  schema: {
    properties: {
      id: s.id,
      name: { type: 'string', maxLength: 64 },
      args: { type: 'object', additionalProperties: true },
      client_time: { type: 'number' },
      user_id: s.str,
      status: { type: 'string', maxLength: 16, enum: ['pending', 'accepted', 'rejected'] },
      reason: s.str,
      details: s.json,
      result: s.json,
      decided_at: s.num,
    },
    required: ['id', 'name', 'args', 'client_time', 'status'],
  },
  rows: { kind: 'own', field: 'user_id' },
  visible: (doc) => doc,
  writableFields: ['name', 'args', 'client_time'],
  canPush: () => true,
};
