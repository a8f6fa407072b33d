import crypto from 'node:crypto';
import pg from 'pg';
import { PG_URL } from '../setup/dialects.ts';

/**
 * One session per device, for the company's users in turn (rows inserted: a login per device would take
 * minutes), so streams of different people and roles share a process and the credential re-check is real.
 */
export async function deviceSessions(schema: string, email: string, count: number): Promise<string[]> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`SET search_path TO "${schema}"`);
    const company = await client.query<{ company_id: string }>('SELECT company_id FROM users WHERE email = $1', [
      email,
    ]);
    const users = await client.query<{ id: string; identity_id: string }>(
      'SELECT id, identity_id FROM users WHERE company_id = $1 AND active = 1 AND deleted = 0 ORDER BY id',
      [company.rows[0]?.company_id],
    );
    const t = Math.floor(Date.now() / 1000);
    const tokens: string[] = [];
    for (let i = 0; i < count; i += 1000) {
      const rows: unknown[] = [];
      const marks: string[] = [];
      for (let k = i; k < Math.min(count, i + 1000); k++) {
        const u = users.rows[k % users.rows.length] as { id: string; identity_id: string };
        const token = crypto.randomBytes(24).toString('base64url');
        tokens.push(token);
        const hash = crypto.createHash('sha256').update(token).digest('hex');
        const b = rows.length;
        marks.push(`($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, $${b + 7}, $${b + 8}, 0)`);
        rows.push(crypto.randomUUID(), hash, u.identity_id, u.id, company.rows[0]?.company_id, t, t + 86_400, t);
      }
      await client.query(
        `INSERT INTO sessions (id, token_hash, identity_id, user_id, company_id, created, expires, last_seen, revoked) VALUES ${marks.join(', ')}`,
        rows,
      );
    }
    return tokens;
  } finally {
    await client.end();
  }
}
