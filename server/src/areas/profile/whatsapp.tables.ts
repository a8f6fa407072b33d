export interface WhatsappVerificationsTable {
  id: string;
  company_id: string;
  user_id: string;
  identity_id: string;
  /** E.164 number the code went to. */
  phone: string;
  /** SHA-256 of `{id}:{code}`. */
  code_hash: string;
  attempts: number;
  expires: number;
  /** Set when the code is consumed (verified, voided by a newer code, or too many wrong tries). */
  used_at: number | null;
  /** Set when the code switched WhatsApp on. */
  verified_at: number | null;
  created: number;
}

declare module '../../db/schema.ts' {
  interface DB {
    whatsapp_verifications: WhatsappVerificationsTable;
  }
}
