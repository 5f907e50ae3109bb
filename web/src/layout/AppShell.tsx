// The frame around every signed-in page: a skip link, the navigation of the account's role, the
// account menu, and the page itself in <main>. Below 900 px the navigation folds behind a menu button;
// the navigation ends with Account, since the header's e-mail link is hidden on phones.
import { useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { useSession } from '../auth/session';

interface NavItem {
  to: string;
  label: string;
  end?: boolean;
  className?: string;
}

const BUYER_NAV: NavItem[] = [
  { to: '/', label: 'Overview', end: true },
  { to: '/tasks', label: 'Tasks' },
  { to: '/import', label: 'Import' },
  { to: '/projects', label: 'Projects' },
  { to: '/golden-tasks', label: 'Golden tasks' },
  { to: '/exports', label: 'Exports' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/api-keys', label: 'API keys' },
  { to: '/billing', label: 'Billing' },
];

const ADMIN_NAV: NavItem[] = [
  { to: '/admin', label: 'Platform', end: true },
  { to: '/admin/developers', label: 'Developers' },
  { to: '/admin/buyers', label: 'Buyers' },
  { to: '/admin/payouts', label: 'Payouts' },
  { to: '/admin/annotators', label: 'Annotators' },
  { to: '/admin/outbox', label: 'E-mail outbox' },
];

export function AppShell() {
  const { session, signOut } = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const accountPath = session?.role === 'admin' ? '/admin/account' : '/account';
  const nav = [...(session?.role === 'admin' ? ADMIN_NAV : BUYER_NAV), { to: accountPath, label: 'Account', className: 'nav-account' }];
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">
          <img src="/favicon.svg" alt="" width={24} height={24} /> Concord
          {session?.role === 'admin' ? <span className="badge badge-info">admin</span> : null}
        </span>
        <button type="button" className="menu-button" aria-expanded={menuOpen} aria-controls="primary-nav" onClick={() => setMenuOpen((open) => !open)}>
          Menu
        </button>
        <div className="account">
          <NavLink to={accountPath} className="account-email">
            {session?.email}
          </NavLink>
          <button type="button" className="btn btn-ghost" onClick={signOut}>
            Log out
          </button>
        </div>
      </header>
      <nav id="primary-nav" className={`sidenav${menuOpen ? ' open' : ''}`} aria-label="Main">
        <ul>
          {nav.map((item) => (
            <li key={item.to} className={item.className}>
              <NavLink to={item.to} end={item.end} onClick={() => setMenuOpen(false)}>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1} key={location.pathname}>
        <Outlet />
      </main>
    </div>
  );
}
