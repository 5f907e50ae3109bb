// The organisation the dashboard acts for, in the header: its name and the caller's role there, and, for
// a person in more than one, a menu of their organisations. Choosing one asks POST /auth/switch for a
// token acting for it, keeps that token as the session's, and refreshes every query; the page goes to the
// list it belongs to (an open project is the former organisation's), or to the overview where the role
// there may not open it.
import { useEffect, useId, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { describeError } from '../api/errors';
import { useSession } from '../auth/session';
import { landingAfterSwitch } from './permissions';
import { switchOrganisation, useOrganisations, type ActingAs, type Membership } from './queries';
import './organisations.css';

/** Acts for another organisation: the new token first, then every query again under it. */
export function useOrganisationSwitch() {
  const { replaceToken } = useSession();
  const client = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return useMutation({
    mutationFn: ({ organisationId, actingFor }: { organisationId: string; actingFor?: string }) => switchOrganisation(organisationId, actingFor),
    onSuccess: async ({ token, organisation }) => {
      replaceToken(token);
      navigate(landingAfterSwitch(pathname, organisation.role));
      await client.resetQueries();
    },
  });
}

/** The caller's role as a small badge ("admin"). */
export function RoleBadge({ role }: { role: string }) {
  return (
    <span className="badge badge-neutral role-badge" title={`Your role in this organisation: ${role}`}>
      {role}
    </span>
  );
}

export function OrganisationPicker({ acting }: { acting: ActingAs }) {
  const organisations = useOrganisations();
  const switcher = useOrganisationSwitch();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return undefined;
    const outside = (event: MouseEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener('mousedown', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('mousedown', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);

  const list = organisations.data ?? [];
  // One organisation: nothing to choose; the header shows the role beside the e-mail instead.
  if (list.length <= 1) return null;

  const choose = (organisation: Membership) => {
    if (organisation.id === acting.id) {
      setOpen(false);
      return;
    }
    switcher.mutate({ organisationId: organisation.id }, { onSuccess: () => setOpen(false) });
  };

  return (
    <div className="org-picker" ref={root}>
      <button ref={button} type="button" className="org-picker-button" aria-expanded={open} aria-controls={menuId} onClick={() => setOpen((value) => !value)}>
        {/* The name read out holds the visible text whole (WCAG 2.5.3), with what the button does around it. */}
        <span className="sr-only">Organisation: </span>
        <span className="org-picker-name">{acting.companyName}</span> <span className="org-picker-role">{acting.role}</span>
        <span className="sr-only">. Switch organisation</span>
        <span className="org-picker-chevron" aria-hidden="true">
          ▾
        </span>
      </button>
      {open ? (
        <div id={menuId} className="org-menu">
          <p className="org-menu-title">Act for</p>
          <ul>
            {list.map((organisation) => {
              const current = organisation.id === acting.id;
              const busy = switcher.isPending && switcher.variables?.organisationId === organisation.id;
              return (
                <li key={organisation.id}>
                  <button
                    type="button"
                    className={`org-menu-item${current ? ' current' : ''}`}
                    aria-current={current || undefined}
                    disabled={switcher.isPending}
                    onClick={() => choose(organisation)}
                  >
                    <span className="org-menu-check" aria-hidden="true">
                      {current ? '✓' : busy ? '…' : ''}
                    </span>
                    <span className="org-menu-name">
                      {organisation.name}
                      {organisation.personal ? <span className="org-menu-own"> · your own</span> : null}
                    </span>
                    <span className="badge badge-neutral">{organisation.role}</span>
                  </button>
                </li>
              );
            })}
          </ul>
          {switcher.error ? (
            <p className="error-note org-menu-error" role="alert">
              {describeError(switcher.error)}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
