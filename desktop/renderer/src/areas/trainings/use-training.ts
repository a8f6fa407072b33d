import {
  type CompanyFormats,
  formatDate,
  formatDateTime,
  formatTime,
  type MessageId,
  type Translate,
  translator,
} from '@ops/shared/i18n/index';
import { useMemo, useState } from 'react';
import { useCompany, useDocs, useSyncField, useWorkspace } from '../../hooks.ts';
import { useLocale } from '../../i18n.tsx';
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
  const pendingWrites = useSyncField('pendingWrites');
  const online = useSyncField('online');
  const [waiting, setWaiting] = useState<ReadonlySet<string>>(new Set());
  const pending = pendingWrites > 0 ? waiting : new Set<string>();
  const save = async <D extends { id: string; type: string }>(doc: D) => {
    setWaiting((w) => new Set([...w, doc.id]));
    await ws.client.save('training', doc as never);
  };
  return { save, pending, online };
}

/**
 * Dates and times in the company's formats and zone with the reader's language
 * (separators, AM/PM words, weekday names: issue 33).
 */
export function useTrainingFormats() {
  const { display } = useCompany();
  const { locale } = useLocale();
  return useMemo(() => {
    const f: CompanyFormats = {
      dateFormat: display.dateFormat,
      timeFormat: display.timeFormat,
      durationFormat: display.durationFormat,
      zone: display.companyZone,
    };
    const utcNoon = (iso: string) => Date.parse(`${iso}T12:00:00Z`) / 1000;
    return {
      date: (unix: number) => formatDate(unix, locale, f),
      dateTime: (unix: number) => formatDateTime(unix, locale, f),
      time: (unix: number) => formatTime(unix, locale, f),
      /** A calendar date `YYYY-MM-DD` (no zone). */
      day: (iso: string | null | undefined) => {
        if (!iso || !/^\d{4}-\d{2}-\d{2}$/.test(iso)) return iso ?? '';
        return formatDate(utcNoon(iso), locale, { ...f, zone: 'UTC' });
      },
      /** A week column's head: "Mon 24 Nov", "lun 24 nov". */
      weekday: (iso: string) =>
        new Date(`${iso}T12:00:00Z`).toLocaleDateString(locale === 'en' ? 'en-GB' : locale, {
          weekday: 'short',
          day: 'numeric',
          month: 'short',
          timeZone: 'UTC',
        }),
    };
  }, [display, locale]);
}

/** Display names of enrollment statuses (the codes stay in the data). */
export const ENROLLMENT_NAMES: Record<string, MessageId> = {
  ACTIVE: 'trainings.enrollACTIVE',
  COMPLETED: 'trainings.enrollCOMPLETED',
  STOPPED: 'trainings.enrollSTOPPED',
  FAILED: 'trainings.enrollFAILED',
  EXPELLED: 'trainings.enrollEXPELLED',
};

/**
 * The shared attendance rules' refusals (English, so the server and devices decide alike)
 * in the reader's language; ids listed so each is named, the English read from the catalogue.
 */
const RULE_TEXTS: MessageId[] = [
  'trainings.refTakeAttendance',
  'trainings.refSignedUnsignFirst',
  'trainings.refOnlyTeacherSigns',
  'trainings.refAlreadySigned',
  'trainings.refUnsign',
  'trainings.refNotSigned',
  'trainings.refAttended',
  'trainings.refAlreadyJustified',
  'trainings.refDeadlinePassed',
];
const english = translator('en');
const RULE_BY_ENGLISH = new Map(RULE_TEXTS.map((id) => [english(id), id]));
export function ruleText(text: string, t: Translate): string {
  const id = RULE_BY_ENGLISH.get(text);
  return id ? t(id) : text;
}
