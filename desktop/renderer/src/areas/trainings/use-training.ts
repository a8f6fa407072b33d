import { useMemo, useState } from 'react';
import { useDocs, useSyncState, useWorkspace } from '../../hooks.ts';
import { groupTraining, type TrainingData } from './training-data.ts';

/** The whole local `training` collection, grouped by record type (works offline). */
export function useTraining(): TrainingData & { ready: boolean } {
  const { docs, ready } = useDocs<{ type: string } & Record<string, unknown>>('training');
  return useMemo(() => ({ ...groupTraining(docs), ready }), [docs, ready]);
}

/**
 * Saves a document of `training` on this device (pushed when online) and
 * remembers it as waiting until the device has nothing left to push.
 */
export function useTrainingSave() {
  const ws = useWorkspace();
  const sync = useSyncState();
  const [waiting, setWaiting] = useState<ReadonlySet<string>>(new Set());
  const pending = sync.pendingWrites > 0 ? waiting : new Set<string>();
  const save = async <D extends { id: string; type: string }>(doc: D) => {
    setWaiting((w) => new Set([...w, doc.id]));
    await ws.client.save('training', doc as never);
  };
  return { save, pending, online: sync.online };
}
