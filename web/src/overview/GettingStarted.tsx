// A first-time buyer's three steps, each with the link that does it. It is shown only while the account
// has no task, so the task step is never done yet. Until the balance is topped up, its "Add credits" is
// the page's one call to action: the page header and the low-balance warning stay quiet meanwhile.
import { Link } from 'react-router';
import { usePermission } from '../organisations/Permitted';
import { rolesWith } from '../organisations/permissions';

interface GettingStartedProps {
  /** Whether the caller's role may top up (money:write): otherwise the step says who can. */
  addsCredits: boolean;
  hasBalance: boolean;
  /** "Deposits from $500.00 earn a 5 % bonus.", from GET /meta's first tier, when it is known. */
  bonusHint?: string | undefined;
}

export function GettingStarted({ addsCredits, hasBalance, bonusHint }: GettingStartedProps) {
  const makesKeys = usePermission('keys:write').allowed;
  const addsWebhooks = usePermission('webhooks:write').allowed;
  return (
    <section className="card ov-start" aria-labelledby="ov-start-title">
      <header className="card-header">
        <h2 id="ov-start-title">Get started in three steps</h2>
      </header>
      <p className="ov-start-lead">Concord sends your tasks to a crowd of annotators and returns each label with its confidence, through one API.</p>
      <ol className="ov-steps">
        <li>
          <p className="ov-step-title">Add credits {hasBalance ? <span className="badge badge-success ov-done">Done</span> : null}</p>
          <p className="ov-step-text">Each task reserves its budget from your balance when you create it.{bonusHint ? ` ${bonusHint}` : ''}</p>
          {!addsCredits ? (
            <p className="ov-step-text muted">{`Your role cannot top up: ${rolesWith('money:write')} can.`}</p>
          ) : hasBalance ? (
            <Link to="/billing">Add more credits</Link>
          ) : (
            <Link to="/billing" className="btn btn-primary ov-btn-link">
              Add credits
            </Link>
          )}
        </li>
        <li>
          <p className="ov-step-title">Create or import tasks</p>
          <p className="ov-step-text">Send one task at a time, or upload a CSV of up to 5 MB. Annotators start answering at once.</p>
          <span className="ov-step-links">
            <Link to="/tasks">Create a task</Link>
            <Link to="/import">Import a CSV</Link>
          </span>
        </li>
        <li>
          <p className="ov-step-title">Connect your app</p>
          <p className="ov-step-text">An API key lets your servers send tasks; a webhook tells them when each one completes or fails.</p>
          <span className="ov-step-links">
            {makesKeys ? <Link to="/api-keys">Create an API key</Link> : null}
            {addsWebhooks ? <Link to="/webhooks">Add a webhook</Link> : null}
          </span>
        </li>
      </ol>
    </section>
  );
}
