/** One-time links mailed to people (migration 0011). Only the SHA-256 of the token is stored. */
export interface EmailTokensTable {
  id: string;
  /** `activate` (new login: set a password) or `confirm` (prove an address). */
  purpose: string;
  identity_id: string | null;
  user_id: string | null;
  company_id: string | null;
  email: string;
  token_hash: string;
  expires: number;
  used_at: number | null;
  created: number;
}

declare module '../../db/schema.ts' {
  interface DB {
    email_tokens: EmailTokensTable;
  }
}
