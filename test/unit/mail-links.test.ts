import { describe, expect, it } from 'vitest';
import { linksIn } from '../../src/modules/email/mail-links.ts';
import { budgetLowMail, developerInviteMail, welcomeMail } from '../../src/modules/email/mail.templates.ts';

describe('linksIn', () => {
  it('finds absolute http(s) URLs, without the punctuation or brackets around them, once each, in order', () => {
    const text = 'See (https://a.example/docs). Then http://b.example:3000/x?y=1&z=2, "https://c.example/q" and <https://a.example/docs>!';
    expect(linksIn(text)).toEqual(['https://a.example/docs', 'http://b.example:3000/x?y=1&z=2', 'https://c.example/q']);
  });

  it('ignores what is not an absolute http(s) URL', () => {
    expect(linksIn('ftp://files.example, www.example.com, /api/v1/dev/setup-password, https:// and mailto:x@example.com')).toEqual([]);
  });

  it("finds the links of the service's own mails", () => {
    const expires = new Date('2026-01-01T00:00:00.000Z');
    expect(linksIn(welcomeMail('a@example.test', 'Acme', 'http://localhost:3000').body)).toEqual(['http://localhost:3000/docs']);
    const invite = linksIn(developerInviteMail('a@example.test', 'App', 'tok', 'https://concord.example', expires).body);
    expect(invite).toEqual(['https://concord.example/developer/setup#token=tok']);
    expect(invite.every((link) => link.startsWith('https://concord.example/'))).toBe(true);
    expect(linksIn(budgetLowMail('a@example.test', 'Acme', 420, 'https://concord.example').body)).toEqual(['https://concord.example']);
  });
});
