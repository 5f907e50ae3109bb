// The signed-in account. The JWT lives in sessionStorage (never a cookie the API would accept), so the
// service's strict CSP still holds and no CSRF surface appears; closing the tab ends the session.
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { setCredential } from '../api/client';

export type Role = 'buyer' | 'admin';

export interface Session {
  token: string;
  role: Role;
  email: string;
}

interface SessionContextValue {
  session: Session | null;
  signIn: (session: Session) => void;
  signOut: () => void;
  replaceToken: (token: string) => void;
}

const STORAGE_KEY = 'concord.session';
const SessionContext = createContext<SessionContextValue | null>(null);

function readStored(): Session | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<Session>;
    if (typeof parsed.token === 'string' && (parsed.role === 'buyer' || parsed.role === 'admin') && typeof parsed.email === 'string') {
      return { token: parsed.token, role: parsed.role, email: parsed.email };
    }
  } catch {
    // An unreadable entry is treated as no session.
  }
  return null;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<Session | null>(() => readStored());

  const store = useCallback((next: Session | null) => {
    if (next) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    else sessionStorage.removeItem(STORAGE_KEY);
    setSession(next);
  }, []);

  const signOut = useCallback(() => {
    store(null);
    queryClient.clear();
  }, [store, queryClient]);

  // Keep the API client's credential in step during render, so the first queries already carry it.
  setCredential(session?.token ?? null, session ? signOut : null);

  const value = useMemo<SessionContextValue>(
    () => ({
      session,
      signIn: (next) => {
        queryClient.clear();
        store(next);
      },
      signOut,
      replaceToken: (token) => {
        if (session) store({ ...session, token });
      },
    }),
    [session, store, signOut, queryClient],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}
