import { mayManageNews, mayReadArticle } from '../rules/news/policy.ts';
import { type CollectionDef, s, type Viewer } from './types.ts';

/**
 * Company news as clients keep it offline (Part A 2.5, 4.3). One document per
 * article; what a viewer may see of it is decided by `visibleNews`, shared with
 * the REST presenter.
 */
export interface NewsDoc {
  id: string;
  slug: string;
  name: string;
  category: string | null;
  content: string | null;
  base_id: string | null;
  /** Read acknowledgement by password required. */
  sign: boolean;
  /** Publication date and time (`YYYY-MM-DD HH:MM:SS`, company wall clock): the API's News.created. */
  created: string;
  /** Recipient roles (`user_group_id`); empty means everyone. */
  recipients: number[];
  /** Signers: every one for news managers, only the viewer otherwise. */
  signed_by: string[];
  /** The viewer signed it. */
  signed: boolean;
  /** The viewer is a recipient; when false every content field is blank and the client hides it. */
  for_me: boolean;
  modified: number;
}

/**
 * An article as `viewer` may see it. Not addressed to them: only the id and
 * publication date remain (the row still replicates so that a role change can
 * reveal or hide it). Signatures of others are only for news managers.
 */
export function visibleNews(doc: NewsDoc, viewer: Viewer): NewsDoc {
  const signed = doc.signed_by.includes(viewer.userId);
  if (!mayReadArticle(viewer, doc)) {
    return {
      ...doc,
      slug: '',
      name: '',
      category: null,
      content: null,
      base_id: null,
      sign: false,
      recipients: [],
      signed_by: [],
      signed: false,
      for_me: false,
    };
  }
  return {
    ...doc,
    recipients: mayManageNews(viewer) ? doc.recipients : [],
    signed_by: mayManageNews(viewer) ? doc.signed_by : signed ? [viewer.userId] : [],
    signed,
    for_me: true,
  };
}

export const newsCollection: CollectionDef<NewsDoc> = {
  name: 'news',
  version: 0,
  schema: {
    properties: {
      id: s.id,
      slug: s.reqStr,
      name: s.reqStr,
      category: s.str,
      content: s.str,
      base_id: s.str,
      sign: s.bool,
      created: s.reqStr,
      recipients: { type: 'array', items: { type: 'integer' } },
      signed_by: { type: 'array', items: { type: 'string' } },
      signed: s.bool,
      for_me: s.bool,
      modified: s.int,
    },
    required: ['id', 'slug', 'name', 'sign', 'created', 'recipients', 'signed_by', 'signed', 'for_me', 'modified'],
  },
  rows: { kind: 'company' },
  visible: visibleNews,
  // Signing needs the password, and editing is online manager work: read-only offline.
  writableFields: [],
  canPush: () => false,
};
