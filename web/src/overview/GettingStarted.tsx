// A first-time buyer's three steps, each with the link that does it; a balance already topped up says so.
// It is shown only while the account has no task, so the task step is never done yet.
import { Link } from 'react-router';

interface GettingStartedProps {
  hasBalance: boolean;
  /** "Deposits from $500.00 earn a 5 % bonus.", from GET /meta's first tier, when it is known. */
  bonusHint?: string | undefined;
}

export function GettingStarted({ hasBalance, bonusHint }: GettingStartedProps) {
  const done = <span className="badge badge-success ov-done">Done</span>;
  return (
    <section className="card ov-start" aria-labelledby="ov-start-title">
      <header className="card-header">
        <h2 id="ov-start-title">Get started in three steps</h2>
      </header>
      <ol className="ov-steps">
        <li>
          <p className="ov-step-title">Top up your balance {hasBalance ? done : null}</p>
          <p className="ov-step-text">Tasks reserve their maximum price from your available balance when you create them.{bonusHint ? ` ${bonusHint}` : ''}</p>
          <Link to="/billing">Add credits</Link>
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
          <p className="ov-step-title">Connect a webhook</p>
          <p className="ov-step-text">Get a signed POST when a task completes or fails, or when your balance runs low.</p>
          <Link to="/webhooks">Add a webhook</Link>
        </li>
      </ol>
    </section>
  );
}
