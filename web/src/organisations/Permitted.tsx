// What the caller's role lets them do, on the page: a page their role may not open says so instead of
// a wall of 403s (as does a page whose data the API refuses for a role changed meanwhile), and an action
// their role lacks is shown unavailable with the reason as its tooltip (aria-disabled rather than
// disabled, so it stays focusable and the reason is read out; pressed, on a phone where nothing hovers,
// it shows the reason beside it), or left out.
import { roleHas } from '@concord/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ComponentProps, type MouseEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '../ui/Button';
import { EmptyState, Loading } from '../ui/Feedback';
import { Card, PageHeader } from '../ui/Page';
import { allowance, deniedReason, type Allowance, type MemberRole, type Permission } from './permissions';
import { useActingAs } from './queries';

/** The caller's role in the organisation the session acts for; undefined until GET /auth/me answers. */
export const useRole = (): MemberRole | undefined => useActingAs().data?.role;

/** Whether the caller's role holds a permission, and the sentence that says why not. */
export const usePermission = (permission: Permission): Allowance => allowance(useRole(), permission);

/** A page only roles with `permission` may open; anyone else is told which role it takes. */
export function RequirePermission({ permission, children }: { permission: Permission; children: ReactNode }) {
  const role = useRole();
  if (role === undefined) return <Loading />;
  if (roleHas(role, permission)) return <>{children}</>;
  return <RoleDenied role={role} permission={permission} />;
}

/** What a page a role may not open shows instead: the role, the permission it lacks, and who can give it. */
export function RoleDenied({ role, permission }: { role: MemberRole; permission: Permission }) {
  const acting = useActingAs().data;
  return (
    <>
      <PageHeader title="Not available to your role" />
      <Card>
        <EmptyState title={`You are ${role === 'owner' || role === 'admin' ? 'an' : 'a'} ${role} in ${acting?.companyName ?? 'this organisation'}.`}>
          <p>{deniedReason(role, permission)}</p>
          <p>
            Ask an owner or an admin of the organisation to change your role, or go back to the <Link to="/">overview</Link>.
          </p>
        </EmptyState>
      </Card>
    </>
  );
}

/**
 * A page whose data the API refused for the caller's role (403 naming the permission and the role: it
 * changed since the page opened): says so as RequirePermission does, and asks for the role again, so the
 * navigation and every gate follow the new one.
 */
export function RoleRefusal({ refusal }: { refusal: { role: MemberRole; permission: Permission } }) {
  const client = useQueryClient();
  const { role, permission } = refusal;
  useEffect(() => {
    void client.invalidateQueries({ queryKey: ['me'] });
  }, [client, role, permission]);
  return <RoleDenied role={role} permission={permission} />;
}

/** Its children for roles with `permission`, else `fallback` (nothing by default). */
export function Permitted({ permission, children, fallback = null }: { permission: Permission; children: ReactNode; fallback?: ReactNode }) {
  return usePermission(permission).allowed ? <>{children}</> : <>{fallback}</>;
}

/**
 * An unavailable control and, once it is pressed, its reason in a bubble below it (on the side of the
 * screen the control is on, so the bubble stays on screen); leaving the control hides it.
 */
function Denied({
  reason,
  children,
}: {
  reason: string;
  children: (toggle: { onClick: (event: MouseEvent<HTMLElement>) => void; onBlur: () => void }) => ReactNode;
}) {
  const [side, setSide] = useState<'left' | 'right' | null>(null);
  const onClick = (event: MouseEvent<HTMLElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    setSide((shown) => (shown ? null : rect.left + rect.width / 2 > window.innerWidth / 2 ? 'right' : 'left'));
  };
  return (
    <span className="gated">
      {children({ onClick, onBlur: () => setSide(null) })}
      {side ? (
        <span className={`gated-reason gated-reason-${side}`} role="status">
          {reason}
        </span>
      ) : null}
    </span>
  );
}

/** A button that, for a role without `permission`, stays visible but unavailable, its tooltip naming the role. */
export function GatedButton({ permission, onClick, busy, className, ...rest }: ComponentProps<typeof Button> & { permission: Permission }) {
  const can = usePermission(permission);
  if (can.allowed) return <Button {...rest} className={className} onClick={onClick} busy={busy} />;
  return (
    <Denied reason={can.reason}>
      {(toggle) => (
        <Button {...rest} {...toggle} type="button" className={`btn-denied${className ? ` ${className}` : ''}`} aria-disabled="true" title={can.reason} />
      )}
    </Denied>
  );
}

/** A link styled as a button that, for a role without `permission`, is shown unavailable with the reason. */
export function GatedLink({ permission, to, className, children }: { permission: Permission; to: string; className: string; children: ReactNode }) {
  const can = usePermission(permission);
  if (can.allowed)
    return (
      <Link className={className} to={to}>
        {children}
      </Link>
    );
  return (
    <Denied reason={can.reason}>
      {(toggle) => (
        <a
          className={`${className} btn-denied`}
          role="link"
          aria-disabled="true"
          tabIndex={0}
          title={can.reason}
          {...toggle}
          onKeyDown={(event) => {
            if (event.key === 'Enter') event.currentTarget.click();
          }}
        >
          {children}
        </a>
      )}
    </Denied>
  );
}

/** Said where a form would be, for a role that may not send it. */
export function RoleNote({ permission }: { permission: Permission }) {
  const can = usePermission(permission);
  // Nothing while the role is still unknown (no reason to give yet).
  if (can.allowed || can.reason === '') return null;
  return (
    <p className="role-note" role="note">
      {can.reason}
    </p>
  );
}
