// The frame around every signed-in page: a skip link, the navigation of the account's role, the
// account menu, and the page itself in <main>. Below 900 px the navigation folds behind a menu button;
// the navigation ends with Account, since the header's e-mail link is hidden on phones. A buyer's frame
// also says which organisation the session acts for and the person's role there (with the organisation
// picker when they belong to more than one), offers only the pages that role may open, and holds the
// page back until that role is known.
import { useState, type ReactNode } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { ApiError } from '../api/errors';
import { useSession } from '../auth/session';
import { ErrorNote, Loading, Notice } from '../ui/Feedback';
import { Button } from '../ui/Button';
import { PageHeader } from '../ui/Page';
import { OrganisationPicker, RoleBadge, useOrganisationSwitch } from '../organisations/OrganisationPicker';
import { buyerNav } from '../organisations/permissions';
import { useActingAs, useOrganisations } from '../organisations/queries';
import { tokenSubject } from '../organisations/token';

interface NavItem {
  to: string;
  label: string;
  end?: boolean;
  className?: string;
}

const ADMIN_NAV: NavItem[] = [
  { to: '/admin', label: 'Platform', end: true },
  { to: '/admin/developers', label: 'Developers' },
  { to: '/admin/buyers', label: 'Buyers' },
  { to: '/admin/payouts', label: 'Payouts' },
  { to: '/admin/annotators', label: 'Annotators' },
  { to: '/admin/outbox', label: 'E-mail outbox' },
];

export function AppShell() {
  const { session } = useSession();
  return session?.role === 'admin' ? <Frame nav={ADMIN_NAV} accountPath="/admin/account" main={<Outlet />} /> : <BuyerFrame />;
}

function BuyerFrame() {
  const acting = useActingAs();
  const organisations = useOrganisations();
  const role = acting.data?.role;
  const several = (organisations.data?.length ?? 0) > 1;
  let main: ReactNode = <Outlet />;
  if (acting.isPending) main = <Loading label="Loading your organisation…" />;
  else if (acting.isError && (!acting.data || membershipEnded(acting.error))) main = <OrganisationProblem error={acting.error} />;
  // GET /auth/me answers no role for an API key only, which the dashboard never signs in with.
  else if (!acting.data) main = <ErrorNote error={new Error('This session has no role in the organisation. Log out, then log in again.')} />;
  return (
    <Frame
      nav={buyerNav(role)}
      accountPath="/account"
      picker={acting.data && several ? <OrganisationPicker acting={acting.data} /> : null}
      // With one organisation there is nothing to pick: the role shows beside the e-mail.
      role={acting.data && !several ? <RoleBadge role={acting.data.role} /> : null}
      email={acting.data?.email}
      main={main}
    />
  );
}

/** A 403 naming the organisation: the session acts for one that no longer counts the person a member. */
const membershipEnded = (error: unknown) => error instanceof ApiError && error.code === 'FORBIDDEN' && typeof error.details?.organisationId === 'string';

/**
 * GET /auth/me refused: most often the organisation the session acted for ended the person's
 * membership (403 naming it), from which the person's own organisation is one switch away.
 */
function OrganisationProblem({ error }: { error: unknown }) {
  const { session, signOut } = useSession();
  const switcher = useOrganisationSwitch();
  const ended = membershipEnded(error);
  const own = session ? tokenSubject(session.token) : undefined;
  if (!ended) return <ErrorNote error={error} />;
  return (
    <>
      <PageHeader title="No longer a member" />
      <Notice tone="warning">
        You are no longer a member of the organisation this session acted for: an owner or an admin removed you, and its tasks, money and settings are closed to
        you from now on.
      </Notice>
      <div className="actions actions-start">
        {own ? (
          <Button variant="primary" busy={switcher.isPending} onClick={() => switcher.mutate({ organisationId: own, actingFor: own })}>
            Back to your own organisation
          </Button>
        ) : null}
        <Button onClick={signOut}>Log out</Button>
      </div>
      <ErrorNote error={switcher.error} />
    </>
  );
}

interface FrameProps {
  nav: NavItem[];
  accountPath: string;
  main: ReactNode;
  picker?: ReactNode;
  role?: ReactNode;
  /** The person's e-mail as the service knows it (the session's until then). */
  email?: string | undefined;
}

function Frame({ nav, accountPath, main, picker, role, email }: FrameProps) {
  const { session, signOut } = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const items = [...nav, { to: accountPath, label: 'Account', className: 'nav-account' }];
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">
          <img src="/favicon.svg" alt="" width={24} height={24} /> <span className="brand-name">Concord</span>
          {session?.role === 'admin' ? <span className="badge badge-info">admin</span> : null}
        </span>
        {picker}
        <button type="button" className="menu-button" aria-expanded={menuOpen} aria-controls="primary-nav" onClick={() => setMenuOpen((open) => !open)}>
          Menu
        </button>
        <div className="account">
          <NavLink to={accountPath} className="account-email">
            {email ?? session?.email}
          </NavLink>
          {role}
          <button type="button" className="btn btn-ghost" onClick={signOut}>
            Log out
          </button>
        </div>
      </header>
      <nav id="primary-nav" className={`sidenav${menuOpen ? ' open' : ''}`} aria-label="Main">
        <ul>
          {items.map((item) => (
            <li key={item.to} className={item.className}>
              <NavLink to={item.to} end={item.end} onClick={() => setMenuOpen(false)}>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1} key={location.pathname}>
        {main}
      </main>
    </div>
  );
}
