// The project's budget cap on its page (GET /billing/caps, for a role with money:read; nothing for one
// without): what its tasks have committed of the cap, what a task past it meets and how many tasks it
// holds; set, changed or removed right here by a role with money:write (the others are told why), and
// every cap on Billing a link away.
import { Link } from 'react-router';
import { useState } from 'react';
import { CAP_ACTION_WORDS, heldWords, SPENDING_CAPS_ANCHOR } from '../billing/caps';
import { ProjectCapForm } from '../billing/CapForms';
import { CapMeter } from '../billing/CapMeter';
import { useSpendingCaps } from '../billing/queries';
import { taskListPath } from '../links';
import { Permitted, RoleNote, usePermission } from '../organisations/Permitted';
import { ErrorNote, Loading, Notice } from '../ui/Feedback';
import { formatCents } from '../ui/format';
import { Card } from '../ui/Page';

export function ProjectBudgetCap({ project }: { project: { id: string; name: string } }) {
  const readsMoney = usePermission('money:read').allowed;
  const caps = useSpendingCaps({ enabled: readsMoney });
  const [message, setMessage] = useState<string | null>(null);
  if (!readsMoney) return null;
  const cap = caps.data?.projects.find((entry) => entry.projectId === project.id);
  const monthly = caps.data?.monthly.capCents;
  return (
    <Card
      title="Budget cap"
      actions={
        <Link className="project-cap-link" to={`/billing#${SPENDING_CAPS_ANCHOR}`}>
          Every spending cap, on Billing
        </Link>
      }
    >
      {caps.isPending ? <Loading label="Loading the budget cap…" /> : null}
      <ErrorNote error={caps.error} />
      {caps.data ? (
        <div className="project-cap">
          <div className="project-cap-figures">
            {cap && cap.capCents !== null ? (
              <>
                <CapMeter committedCents={cap.committedCents} capCents={cap.capCents} action={cap.capAction} label={`${project.name}: budget cap used`} />
                <dl className="facts project-cap-facts">
                  <dt>Past the cap</dt>
                  <dd>
                    {CAP_ACTION_WORDS[cap.capAction].label}: <span className="project-cap-muted">{CAP_ACTION_WORDS[cap.capAction].description}</span>
                  </dd>
                  <dt>Held</dt>
                  <dd>
                    {cap.heldTasks > 0 ? (
                      <Link to={taskListPath({ projectId: project.id, status: 'PENDING' })}>{heldWords(cap.heldTasks)}</Link>
                    ) : (
                      heldWords(cap.heldTasks)
                    )}
                  </dd>
                </dl>
              </>
            ) : (
              <p className="project-cap-none">
                <strong>No budget cap.</strong> This project’s tasks are limited only by{' '}
                {monthly === null || monthly === undefined
                  ? 'the available balance (there is no monthly cap).'
                  : `the monthly cap (${formatCents(monthly)}) and the available balance.`}
              </p>
            )}
          </div>
          <div className="project-cap-form">
            <Permitted permission="money:write" fallback={<RoleNote permission="money:write" />}>
              <ProjectCapForm
                // A new start whenever the cap changes (here, on Billing or by another person).
                key={cap ? `${cap.capCents}-${cap.capAction}` : 'none'}
                project={project}
                current={cap}
                formLabel={`Budget cap of ${project.name}`}
                submitLabel={cap && cap.capCents !== null ? 'Change cap' : 'Set cap'}
                removable
                onSaved={setMessage}
              />
            </Permitted>
            {message ? <Notice tone="success">{message}</Notice> : null}
          </div>
        </div>
      ) : null}
    </Card>
  );
}
