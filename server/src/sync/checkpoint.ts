import { z } from 'zod';

export const ZCheckpoint = z.object({ seq: z.number().int().nonnegative(), id: z.string().max(64), fp: z.string().max(200) });
export type Checkpoint = z.infer<typeof ZCheckpoint>;

