// Pages of one role: anyone else is sent to that role's log-in, and comes back afterwards.
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession, type Role } from './session';

export function RequireRole({ role, children }: { role: Role; children: ReactNode }) {
  const { session } = useSession();
  const location = useLocation();
  if (session?.role === role) return <>{children}</>;
  const login = role === 'admin' ? '/admin/login' : '/login';
  return <Navigate to={login} replace state={{ from: location.pathname + location.search }} />;
}
