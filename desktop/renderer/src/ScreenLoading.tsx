import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import type { MessageId } from '@ops/shared/i18n/index';
import { useLocale, useT } from './i18n.tsx';

/** What each collection holds, in the words of the screens that show it. */
export const COLLECTION_LABELS: Record<string, MessageId> = {
  reference: 'shell.screenCompany',
  device: 'shell.syncDevice',
  people: 'shell.groupPeople',
  inbox: 'shell.syncInbox',
  files: 'shell.syncFiles',
  training: 'shell.groupTraining',
  safety: 'shell.screenSafety',
  bookings: 'shell.syncBookings',
  fleet: 'shell.syncFleet',
  flights: 'shell.flights',
};

type Report = (collection: string) => () => void;
const ReportContext = createContext<Report | null>(null);

/**
 * Called by `useDocs`: this screen reads `collection`, which is still in its first sync on this device. Every
 * screen reads through `useDocs`, so none can show "0 aircraft" as the truth while its records are coming.
 */
export function useReportLoading(collection: string, loading: boolean): void {
  const report = useContext(ReportContext);
  useEffect(() => (report && loading ? report(collection) : undefined), [report, collection, loading]);
}

/**
 * Around the current screen (the shell): a sentence above it naming the collections it reads that are still
 * loading; the sync bar shows their progress.
 */
export function ScreenLoading({ children }: { children: ReactNode }) {
  const [readers, setReaders] = useState<ReadonlyMap<string, number>>(new Map());
  const report = useCallback<Report>((collection) => {
    const add = (by: number) => setReaders((m) => new Map(m).set(collection, (m.get(collection) ?? 0) + by));
    add(1);
    return () => add(-1);
  }, []);
  const t = useT();
  const { locale } = useLocale();
  const loading = [...readers].filter(([, n]) => n > 0).map(([c]) => c);
  const list = new Intl.ListFormat(locale, { type: 'conjunction' }).format(
    loading.map((c) => (COLLECTION_LABELS[c] ? t(COLLECTION_LABELS[c]) : c)),
  );
  return (
    <ReportContext.Provider value={report}>
      {loading.length > 0 && (
        <p
          className="busy screen-loading"
          role="status"
          data-testid="screen-loading"
          data-collections={loading.join(' ')}
        >
          <span className="spinner" aria-hidden="true" />
          {t('shell.screenLoading', { list })}
        </p>
      )}
      {children}
    </ReportContext.Provider>
  );
}
