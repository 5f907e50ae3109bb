import type { MailMessage } from './mail.repository.ts';

export function welcomeMail(to: string, companyName: string, publicUrl: string): MailMessage {
  return {
    kind: 'WELCOME',
    to,
    subject: 'Welcome to Concord',
    body: [
      `Hello ${companyName},`,
      '',
      'Your Concord buyer account is ready. Top up your balance, post annotation tasks through the API',
      `(${publicUrl}/docs) and receive results by webhook or export them as training data.`,
      '',
      'Each task that reaches a result costs 20 cents; failed tasks cost nothing.',
      '',
      '— The Concord team',
    ].join('\n'),
  };
}

/** "2 December 2026, 08:34 UTC": a deadline a person reads, not an ISO timestamp. */
const readableUtc = (date: Date) =>
  `${date.toLocaleString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' })} UTC`;

export function developerInviteMail(to: string, appName: string, token: string, publicUrl: string, expiresAt: Date): MailMessage {
  return {
    kind: 'DEVELOPER_INVITE',
    to,
    subject: 'Your Concord developer account',
    body: [
      'Hello,',
      '',
      `A Concord developer account was created for your application "${appName}".`,
      'Your API key was handed to the administrator who created the account. To set a password, so you',
      `can log in and rotate the key yourself, open this single-use link before ${readableUtc(expiresAt)}:`,
      '',
      `  ${publicUrl}/developer/setup#token=${encodeURIComponent(token)}`,
      '',
      'or send the token to the API yourself, with POST /api/v1/dev/setup-password on this service:',
      '',
      `  {"token": "${token}", "password": "<8 to 128 characters>"}`,
      '',
      '— The Concord team',
    ].join('\n'),
  };
}

export function organisationInviteMail(
  to: string,
  invite: { organisationName: string; role: string; inviterEmail: string; token: string; expiresAt: Date },
  publicUrl: string,
): MailMessage {
  return {
    kind: 'ORGANISATION_INVITE',
    to,
    subject: `Join ${invite.organisationName} on Concord`,
    body: [
      'Hello,',
      '',
      `${invite.inviterEmail} invites you to ${invite.organisationName} on Concord, as ${invite.role}.`,
      `To accept, open this single-use link before ${readableUtc(invite.expiresAt)}:`,
      '',
      `  ${publicUrl}/invitation#token=${encodeURIComponent(invite.token)}`,
      '',
      'With a Concord buyer account under this address you join at once; without one, you choose a password',
      'there. Or send the token to the API yourself, with POST /api/v1/invitations/accept on this service:',
      '',
      `  {"token": "${invite.token}", "password": "<8 to 128 characters, only for a new account>"}`,
      '',
      'If you did not expect this, ignore it: nothing happens unless the link is used.',
      '',
      '— The Concord team',
    ].join('\n'),
  };
}

export function budgetLowMail(to: string, companyName: string, creditBalanceCents: number, publicUrl: string): MailMessage {
  return {
    kind: 'BUDGET_LOW',
    to,
    subject: 'Your Concord balance is below $5',
    body: [
      `Hello ${companyName},`,
      '',
      `Your Concord balance is now ${(creditBalanceCents / 100).toFixed(2)} USD, below the 5.00 USD threshold.`,
      'Tasks keep running while their budget is reserved, but new tasks need available credit.',
      `Top up from your dashboard: ${publicUrl}`,
      '',
      '— The Concord team',
    ].join('\n'),
  };
}

/** A spending cap refused work (budget.cap_reached): to the members who may raise it. */
export function budgetCapMail(
  to: string,
  companyName: string,
  cap: { scope: 'project' | 'organisation'; projectName: string | null; capCents: number; committedCents: number },
  publicUrl: string,
): MailMessage {
  const which = cap.scope === 'project' ? `The budget cap of project "${cap.projectName ?? ''}"` : "Your organisation's monthly spending cap";
  return {
    kind: 'BUDGET_CAP_REACHED',
    to,
    subject: cap.scope === 'project' ? `Project "${cap.projectName ?? ''}" reached its budget cap` : 'Your monthly spending cap is reached',
    body: [
      `Hello ${companyName},`,
      '',
      `${which} of ${(cap.capCents / 100).toFixed(2)} USD is reached: ${(cap.committedCents / 100).toFixed(2)} USD is committed`,
      'to tasks (reserved for open ones and charged for decided ones), and new tasks that would pass it are refused.',
      'Open tasks keep running. Raise or remove the cap on the Billing page to create more:',
      `${publicUrl}/billing`,
      '',
      '— The Concord team',
    ].join('\n'),
  };
}

/** extended retry policy: a configuration that failed for 3 days was switched off (README, Webhooks). */
export function webhookDisabledMail(
  to: string,
  companyName: string,
  config: { id: string; url: string; failingSince: Date },
  lastError: string,
  publicUrl: string,
): MailMessage {
  return {
    kind: 'WEBHOOK_DISABLED',
    to,
    subject: 'Concord disabled one of your webhooks',
    body: [
      `Hello ${companyName},`,
      '',
      `Every delivery to your webhook ${config.url} (configuration ${config.id}) has failed since`,
      `${readableUtc(config.failingSince)}, so after three days Concord has switched it off (last error: ${lastError}).`,
      'Events are still recorded: GET /api/v1/events lists those of the last 30 days, and the delivery log',
      'keeps every failed delivery, which you can send again once the endpoint answers.',
      '',
      `To resume, fix the endpoint, check it with POST /api/v1/webhooks/configs/${config.id}/test, then set`,
      `isActive back to true (PATCH /api/v1/webhooks/configs/${config.id}), or switch it back on from your dashboard:`,
      '',
      `  ${publicUrl}/webhooks/${encodeURIComponent(config.id)}`,
      '',
      '— The Concord team',
    ].join('\n'),
  };
}
