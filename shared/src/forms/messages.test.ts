import { describe, expect, it } from 'vitest';
import { translator } from '../i18n/index.ts';
import { formMessage } from './messages.ts';
import { apiKeyForm, emailChangeForm, userForm, ZCompanySettingsForm, ZPasswordForm, ZProfileForm } from './office.ts';

/** Every message the schemas give for some bad input. */
function messagesOf(): string[] {
  const out = new Set<string>();
  const add = (r: { success: boolean; error?: { issues: { message: string }[] } }) => {
    for (const i of r.error?.issues ?? []) out.add(i.message);
  };
  add(ZPasswordForm.safeParse({ password: '', newpassword: 'short', newpasswordrepeat: '' }));
  add(
    ZProfileForm.safeParse({ UserDetail: { name: '', surname: '', phonecode: 'x', phone: '?', city: 'x'.repeat(81) } }),
  );
  add(emailChangeForm('a@b.co').safeParse({ new_email: 'a@b.co', new_email_repeat: 'c@d.co', password: '' }));
  add(userForm('2025-01-01').safeParse({ User: { user_group_id: 999, email: 'nope' } }));
  add(apiKeyForm('2025-01-01').safeParse({ name: '', user_id: '', expires: '2024-01-01' }));
  add(ZCompanySettingsForm.safeParse({}));
  return [...out];
}

describe('form messages in the reader language (issue 33)', () => {
  const seen = messagesOf();
  it('finds messages to check', () => expect(seen.length).toBeGreaterThan(8));

  it('leaves English byte for byte, and translates every schema message into Spanish, French and German', () => {
    const en = translator('en');
    for (const text of seen.filter((m) => !m.startsWith('Invalid') && !m.startsWith('Too '))) {
      expect(formMessage(text, en), text).toBe(text);
      for (const l of ['es', 'fr', 'de'] as const)
        expect(formMessage(text, translator(l)), `${l}: ${text}`).not.toBe(text);
    }
  });

  it('keeps the numbers of a message and passes unknown texts through', () => {
    expect(formMessage('At most 80 characters', translator('es'))).toBe('Como máximo 80 caracteres');
    expect(formMessage('At most 100000 characters', translator('en'))).toBe('At most 100000 characters');
    expect(formMessage('At most 24 hours', translator('de'))).toBe('Höchstens 24 Stunden');
    expect(formMessage('Something new', translator('fr'))).toBe('Something new');
  });
});
