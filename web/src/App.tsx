// The route table: public log-in pages, the buyer's pages and the admin's pages, each area in its folder.
// A buyer's page that needs a permission (contract's ROLE_PERMISSIONS) says so to a role without it.
import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { AccountPage } from './auth/AccountPage';
import { AdminLoginPage, LoginPage, RegisterPage } from './auth/AuthPages';
import { DeveloperSetupPage } from './auth/DeveloperSetupPage';
import { RequireRole } from './auth/guards';
import { LiveEvents } from './events/LiveEvents';
import { AppShell } from './layout/AppShell';
import { NotFoundPage } from './layout/NotFoundPage';
import { OverviewPage } from './overview/OverviewPage';
import { BillingPage } from './billing/BillingPage';
import { DepositPage } from './billing/DepositPage';
import { TasksPage } from './tasks/TasksPage';
import { ImportPage } from './tasks/ImportPage';
import { ProjectsPage } from './projects/ProjectsPage';
import { ProjectPage } from './projects/ProjectPage';
import { GoldenTasksPage } from './golden/GoldenTasksPage';
import { ExportsPage } from './exports/ExportsPage';
import { WebhooksPage } from './webhooks/WebhooksPage';
import { WebhookPage } from './webhooks/WebhookPage';
import { ApiKeysPage } from './api-keys/ApiKeysPage';
import { AdminOverviewPage } from './admin/AdminOverviewPage';
import { DevelopersPage } from './admin/DevelopersPage';
import { BuyersPage } from './admin/BuyersPage';
import { PayoutsPage } from './admin/PayoutsPage';
import { AnnotatorsPage } from './admin/AnnotatorsPage';
import { OutboxPage } from './admin/OutboxPage';
import { InvitationPage } from './organisations/InvitationPage';
import { MembersPage } from './organisations/MembersPage';
import { AuditLogPage } from './audit/AuditLogPage';
import { RequirePermission } from './organisations/Permitted';
import { pagePermission } from './organisations/permissions';

/** A buyer's page behind the permission its path needs (organisations/permissions.ts, PAGE_PERMISSIONS). */
function page(path: string, element: ReactNode) {
  const permission = pagePermission(path);
  return { path, element: permission ? <RequirePermission permission={permission}>{element}</RequirePermission> : element };
}

const router = createBrowserRouter([
  { path: '/login', element: <LoginPage /> },
  { path: '/register', element: <RegisterPage /> },
  { path: '/admin/login', element: <AdminLoginPage /> },
  { path: '/developer/setup', element: <DeveloperSetupPage /> },
  { path: '/invitation', element: <InvitationPage /> },
  {
    path: '/admin',
    element: (
      <RequireRole role="admin">
        <AppShell />
      </RequireRole>
    ),
    children: [
      { index: true, element: <AdminOverviewPage /> },
      { path: 'developers', element: <DevelopersPage /> },
      { path: 'buyers', element: <BuyersPage /> },
      { path: 'payouts', element: <PayoutsPage /> },
      { path: 'annotators', element: <AnnotatorsPage /> },
      { path: 'outbox', element: <OutboxPage /> },
      { path: 'account', element: <AccountPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  {
    path: '/',
    element: (
      <RequireRole role="buyer">
        <LiveEvents />
        <AppShell />
      </RequireRole>
    ),
    children: [
      { index: true, element: <OverviewPage /> },
      page('tasks', <TasksPage />),
      page('import', <ImportPage />),
      page('projects', <ProjectsPage />),
      page('projects/:projectId', <ProjectPage />),
      page('golden-tasks', <GoldenTasksPage />),
      page('exports', <ExportsPage />),
      page('webhooks', <WebhooksPage />),
      page('webhooks/:webhookId', <WebhookPage />),
      page('api-keys', <ApiKeysPage />),
      page('billing', <BillingPage />),
      page('billing/deposits/:depositId', <DepositPage />),
      page('members', <MembersPage />),
      page('audit-log', <AuditLogPage />),
      { path: 'account', element: <AccountPage /> },
      { path: 'overview', element: <Navigate to="/" replace /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

export function App() {
  return <RouterProvider router={router} />;
}
