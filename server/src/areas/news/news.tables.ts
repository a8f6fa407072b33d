import type { Bool } from '../../db/schema.ts';

/** News (Part A 2.5). `company_id` null with `public` 1 is the platform's public feed. */
export interface NewsTable {
  id: string;
  company_id: string | null;
  change_no: number;
  deleted: number;
  created: number;
  modified: number;
  user_id: string | null;
  base_id: string | null;
  slug: string;
  name: string;
  category: string | null;
  content: string | null;
  sign: Bool;
  notification: Bool;
  public: Bool;
  view_count: number;
  /** `YYYY-MM-DD HH:MM:SS`, company wall clock; presented as News.created. */
  published: string;
}

declare module '../../db/schema.ts' {
  interface DB {
    news: NewsTable;
    news_recipients: { id: string; company_id: string; news_id: string; user_group_id: number };
    news_signatures: { id: string; company_id: string; news_id: string; user_id: string; created: number };
  }
}
