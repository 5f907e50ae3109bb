// The signed-in account. The JWT lives in sessionStorage (never a cookie the API would accept), so the
// service's strict CSP still holds and no CSRF surface appears; closing the tab ends the session. A
// session the service ends (a 401 for its token: the password was changed elsewhere, or the token
// expired) leaves a mark the log-in page reads, so the person is told why they are there.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
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
  /** A new token for the same person: after a password change, or acting for another organisation. */
  replaceToken: (token: string) => void;
}

const STORAGE_KEY = 'concord.session';
const ENDED_KEY = 'concord.sessionEnded';
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
    sessionStorage.removeItem(ENDED_KEY);
    store(null);
    queryClient.clear();
  }, [store, queryClient]);

  /** The service refused the session's token: signed out, with a word for the log-in page. */
  const sessionEnded = useCallback(() => {
    signOut();
    sessionStorage.setItem(ENDED_KEY, '1');
  }, [signOut]);

  // Keep the API client's credential in step during render, so the first queries already carry it.
  setCredential(session?.token ?? null, session ? sessionEnded : null);

  const value = useMemo<SessionContextValue>(
    () => ({
      session,
      signIn: (next) => {
        sessionStorage.removeItem(ENDED_KEY);
        queryClient.clear();
        store(next);
      },
      signOut,
      replaceToken: (token) => {
        if (!session) return;
        // At once, not at the next render: a caller that refetches right after (a switch of
        // organisation) must already send the new token.
        setCredential(token, sessionEnded);
        store({ ...session, token });
      },
    }),
    [session, store, signOut, sessionEnded, queryClient],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/**
 * Whether this tab's last session was ended by the service rather than by "Log out". Read once by the
 * log-in page: the mark is removed once shown.
 */
export function useSessionEndedNotice(): boolean {
  const [ended] = useState(() => sessionStorage.getItem(ENDED_KEY) !== null);
  useEffect(() => {
    sessionStorage.removeItem(ENDED_KEY);
  }, []);
  return ended;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}
