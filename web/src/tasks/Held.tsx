// Held tasks and spending caps in the tasks area: the mark of a held task (list and drawer), why a held
// task offers no changes, and what to do about a creation or a change a cap refused (402
// BUDGET_CAP_REACHED) — the link to the caps on Billing for a role that may change them, who can otherwise.
import { Link } from 'react-router';
import { ApiError } from '../api/errors';
import { SPENDING_CAPS_ANCHOR } from '../billing/caps';
import { usePermission } from '../organisations/Permitted';
import { rolesWith } from '../organisations/permissions';
import { HELD_EXPLANATION, HELD_LABEL, HELD_UNCHANGEABLE } from './held';

/**
 * The list's badge of a held task, in place of its PENDING (its full words for a screen reader and on
 * hover); `full`, the drawer's, beside the PENDING badge.
 */
export function HeldBadge({ full = false }: { full?: boolean }) {
  return (
    <span className="badge badge-warning task-held-badge" title={`${full ? HELD_LABEL : 'Pending, held by the budget cap'}. ${HELD_EXPLANATION}`}>
      {full ? (
        HELD_LABEL
      ) : (
        <>
          HELD<span className="sr-only"> (pending, held by the budget cap)</span>
        </>
      )}
    </span>
  );
}

const capsPath = `/billing#${SPENDING_CAPS_ANCHOR}`;

/** Where the caps are changed, for this role: a link, or who may. */
function CapsWhere({ what }: { what: string }) {
  const changesCaps = usePermission('money:write').allowed;
  if (changesCaps) return <Link to={capsPath}>{what}</Link>;
  return <>Only {rolesWith('money:write')} can change a cap: ask one of them</>;
}

/** Said where a held task's changes would be. */
export function HeldCannotChange() {
  return (
    <div className="task-held-note" role="note">
      <p>{HELD_UNCHANGEABLE}</p>
      <p>
        <CapsWhere what="Raise or remove the project’s cap on Billing" /> to release it.
      </p>
    </div>
  );
}

/** Beside a refusal by a spending cap: where to raise it (describeError has already said which cap and its figures). */
export function CapRefusalHelp({ error, instead }: { error: unknown; instead: string }) {
  if (!(error instanceof ApiError) || error.code !== 'BUDGET_CAP_REACHED') return null;
  return (
    <p className="task-form-help">
      <CapsWhere what="Open the spending caps on Billing" />, or {instead}.
    </p>
  );
}
