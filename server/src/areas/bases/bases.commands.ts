import { maySetDefaultBase } from '@ops/shared/rules/bases/policy';
import { z } from 'zod';
import { CommandRejected, defineCommand } from '../../sync/index.ts';
import { setDefaultBase } from './bases.service.ts';

/** Server-decided: the company has exactly one default base, whatever devices did offline. */
export const setDefaultBaseCommand = defineCommand({
  name: 'base.set_default',
  args: z.object({ base_id: z.string().min(1).max(64) }),
  async run(_ctx, uow, actor, args) {
    if (!maySetDefaultBase(actor))
      throw new CommandRejected('Only managers can change the default base', { role: actor.role });
    const { previous } = await setDefaultBase(uow, actor, args.base_id);
    return { base_id: args.base_id, previous };
  },
});
