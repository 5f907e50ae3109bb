// Pages a buyer's browser sees around a checkout, reached by the deposit's unguessable checkout id, never
// by the deposit id (contract §6): whoever holds the checkout URL may see, pay or cancel, nobody else.
// GET /checkout/:checkoutId (any provider) shows a deposit's status: Stripe sends the buyer back there
// after paying or cancelling. The sandbox checkout (PAYMENT_PROVIDER=sandbox only):
// GET /sandbox/checkout/:checkoutId shows the deposit with Pay and Cancel buttons; POST …/pay and
// …/cancel build the signed confirmation a provider would send and hand its exact bytes to the same path
// as POST /api/v1/billing/providers/sandbox/webhook. An unknown id of any form is a plain 404.
import { Router, type Request, type Response } from 'express';
import type { DepositsService } from './deposits.service.ts';
import type { DepositRecord } from './deposits.repository.ts';
import { SANDBOX_SIGNATURE_HEADER, type SandboxProvider } from './sandbox.provider.ts';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** The deposit and, on the sandbox's own page, its Pay and Cancel buttons while it is PENDING. */
function page(deposit: DepositRecord, checkoutId: string, options: { sandbox: boolean; note?: string }): string {
  const id = escapeHtml(deposit.id);
  const action = `/sandbox/checkout/${encodeURIComponent(checkoutId)}`;
  const buttons = options.sandbox && deposit.status === 'PENDING';
  const note =
    options.note ?? (deposit.status === 'PENDING' && !options.sandbox ? 'Waiting for the payment provider to confirm; reload in a moment.' : undefined);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Concord checkout</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}button{font-size:1rem;padding:.5rem 1.5rem;margin-right:.5rem}</style>
</head><body>
<h1>${options.sandbox ? 'Sandbox checkout' : 'Your deposit'}</h1>
${options.sandbox ? '<p>No money moves here: this page stands in for a payment provider.</p>' : ''}
<dl><dt>Deposit</dt><dd>${id}</dd><dt>Amount</dt><dd>${dollars(deposit.amountCents)}</dd>
<dt>Bonus</dt><dd>${dollars(deposit.bonusCents)}</dd><dt>Status</dt><dd id="status">${deposit.status}</dd></dl>
${note ? `<p role="status">${escapeHtml(note)}</p>` : ''}
<p><a href="/billing/deposits/${encodeURIComponent(deposit.id)}" id="back">Back to your Concord dashboard</a></p>
${
  buttons
    ? `<form method="post" action="${action}/pay" style="display:inline"><button type="submit" id="pay">Pay ${dollars(deposit.amountCents)}</button></form>
<form method="post" action="${action}/cancel" style="display:inline"><button type="submit" id="cancel">Cancel</button></form>`
    : ''
}
</body></html>`;
}

export function checkoutPagesRouter(deposits: DepositsService, sandbox: SandboxProvider | null): Router {
  const router = Router();
  const notFound = (res: Response) => res.status(404).type('text/plain').send('Checkout not found');
  const show = async (req: Request<{ checkoutId: string }>, res: Response, options: { sandbox: boolean; note?: string }) => {
    const deposit = await deposits.findByCheckoutId(req.params.checkoutId);
    if (!deposit) return notFound(res);
    res.type('html').send(page(deposit, req.params.checkoutId, options));
  };
  router.get('/checkout/:checkoutId', (req, res) => show(req, res, { sandbox: false }));
  if (!sandbox) return router;
  router.get('/sandbox/checkout/:checkoutId', (req, res) => show(req, res, { sandbox: true }));
  for (const [action, type] of [
    ['pay', 'deposit.succeeded'],
    ['cancel', 'deposit.cancelled'],
  ] as const) {
    // The address bar after paying shows …/pay: reloading it, or opening it again, lands on the page.
    router.get(`/sandbox/checkout/:checkoutId/${action}`, (req: Request<{ checkoutId: string }>, res) => {
      res.redirect(303, `/sandbox/checkout/${encodeURIComponent(req.params.checkoutId)}`);
    });
    router.post(`/sandbox/checkout/:checkoutId/${action}`, async (req: Request<{ checkoutId: string }>, res) => {
      const deposit = await deposits.findByCheckoutId(req.params.checkoutId);
      if (!deposit) return notFound(res);
      const { body, signature } = sandbox.sign({ type, depositId: deposit.id });
      const result = await deposits.confirm('sandbox', body, { [SANDBOX_SIGNATURE_HEADER]: signature });
      const note = result === 'applied' ? (action === 'pay' ? 'Paid.' : 'Cancelled.') : 'This deposit was already decided.';
      await show(req, res, { sandbox: true, note });
    });
  }
  return router;
}
