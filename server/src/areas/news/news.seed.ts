import { uuidv7 } from '@ops/shared';
import { DateTime } from 'luxon';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { SeedStep } from '../../seed/index.ts';
import type { SeedRefs } from '../../seed/refs.ts';
import { slugify } from './news.service.ts';
import './news.tables.ts';

interface DemoArticle {
  company: 'skyline' | 'harbor' | null;
  name: string;
  category: string;
  content: string;
  daysAgo: number;
  sign?: boolean;
  recipients?: number[];
  base?: string;
  author?: string;
}

const ARTICLES: DemoArticle[] = [
  {
    company: null,
    name: 'Welcome to the operations platform',
    category: 'Platform',
    content: 'Flights, maintenance, training and safety in one place, online and offline.',
    daysAgo: 30,
  },
  {
    company: null,
    name: 'Offline mode for hangar tablets',
    category: 'Platform',
    content: 'Technical log entries made without a connection now sync when the tablet is back online.',
    daysAgo: 5,
  },
  {
    company: 'skyline',
    name: 'Updated operations manual, revision 12',
    category: 'Operations',
    content: 'Revision 12 of the operations manual is in force. Read chapter 8 (fuel policy) and sign to confirm.',
    daysAgo: 2,
    sign: true,
    author: 'ops@skyline.test',
  },
  {
    company: 'skyline',
    name: 'Solo flights: new weather minima for students',
    category: 'Training',
    content: 'From Monday, solo flights need a ceiling of at least 2500 ft and visibility of 8 km.',
    daysAgo: 4,
    sign: true,
    recipients: [150, 200],
    author: 'headtraining@skyline.test',
  },
  {
    company: 'skyline',
    name: 'Sabadell apron works',
    category: 'Bases',
    content: 'Stand 3 at Sabadell is closed until the end of the month.',
    daysAgo: 7,
    base: 'Sabadell',
    author: 'ops@skyline.test',
  },
  {
    company: 'harbor',
    name: 'Club barbecue on Saturday',
    category: 'Club',
    content: 'Bring a friend; the PA-28 is available for trial flights.',
    daysAgo: 3,
    author: 'admin@harbor.test',
  },
];

/** `SEED=demo`: news of both companies and the public platform feed; demo operating hours of Skyline. */
export const newsSeedStep: SeedStep = {
  name: 'news',
  async demo(uow: UnitOfWork, refs: SeedRefs) {
    for (const a of ARTICLES) {
      const companyId = a.company ? refs.companies[a.company] : null;
      const zone = a.company === 'harbor' ? 'America/New_York' : 'Europe/Madrid';
      const id = uuidv7();
      const published = DateTime.fromSeconds(refs.now - a.daysAgo * 86400, { zone })
        .set({ second: 0 })
        .toFormat('yyyy-MM-dd HH:mm:ss');
      await uow.trx
        .insertInto('news')
        .values({
          id,
          company_id: companyId,
          change_no: companyId ? await uow.changeNo(companyId, 'news') : 0,
          deleted: 0,
          created: refs.now,
          modified: refs.now,
          user_id: a.company && a.author ? (refs.users[a.company][a.author] ?? null) : null,
          base_id: a.base ? (refs.bases[a.base] ?? null) : null,
          slug: slugify(a.name),
          name: a.name,
          category: a.category,
          content: a.content,
          sign: a.sign ? 1 : 0,
          notification: 0,
          public: companyId ? 0 : 1,
          view_count: 0,
          published,
        })
        .execute();
      for (const role of a.recipients ?? []) {
        await uow.trx
          .insertInto('news_recipients')
          .values({ id: uuidv7(), company_id: companyId as string, news_id: id, user_group_id: role })
          .execute();
      }
    }
  },
};
