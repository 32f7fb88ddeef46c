import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { components } from '../../../clients/typescript/index';
import { ApiError, unwrap } from './api-error';
import { api, setNonce } from './client';

export type SignedInUser = components['schemas']['ConsoleUserDto'];

type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out'; reason?: SignedOutReason }
  | { status: 'signed-in'; user: SignedInUser; mustSetPassword: boolean };

/** Why the sign-in screen shows: the user signed out, or the session ended (the screen says it in the console's language). */
export type SignedOutReason = 'signed-out' | 'expired';

type SessionAnswer = components['schemas']['ConsoleSessionDto'];

/** The two-factor step a sign-in needs: the challenge of the 401 `checkout_two_factor_required` answer. */
export interface TwoFactorChallenge {
  challenge: string;
}

interface Session {
  state: SessionState;
  /** Signs in; resolves a challenge when two-factor sign-in is on (then `signInTwoFactor`). */
  signIn(login: string, password: string): Promise<TwoFactorChallenge | null>;
  signInTwoFactor(challenge: string, code: string): Promise<void>;
  /** The user set their account password (the forced set-password screen is done). */
  passwordSet(): void;
  signOut(): Promise<void>;
  /** The user's console language changed (saved on their account): the session's user says so from now on. */
  userLocaleChanged(locale: SignedInUser['locale']): void;
  /** Called when any request answers 401: the session ended elsewhere (signed out, password revoked, expired). */
  expired(): void;
  can(capability: string): boolean;
}

const SessionContext = createContext<Session | null>(null);

/**
 * The signed-in user. At load the console asks the service who is signed in (the cookie is sent by
 * the browser; the answer carries a fresh nonce); signing in exchanges a login and the account
 * password (or an application password), and a two-factor code when it is on, for a session
 * cookie and its nonce.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const queries = useQueryClient();

  useEffect(() => {
    let cancelled = false;
    api
      .GET('/auth/session')
      .then((result) => {
        if (cancelled) return;
        // 204: no live session (never signed in, signed out, expired): the sign-in screen.
        const session = unwrap(result);
        if (!session) return setState({ status: 'signed-out' });
        setNonce(session.nonce);
        setState({ status: 'signed-in', user: session.user, mustSetPassword: session.must_set_password });
      })
      .catch(() => !cancelled && setState({ status: 'signed-out' }));
    return () => {
      cancelled = true;
    };
  }, []);

  const opened = useCallback(
    (session: SessionAnswer) => {
      setNonce(session.nonce);
      queries.clear();
      setState({ status: 'signed-in', user: session.user, mustSetPassword: session.must_set_password });
    },
    [queries],
  );

  const signIn = useCallback(
    async (login: string, password: string): Promise<TwoFactorChallenge | null> => {
      try {
        opened(unwrap(await api.POST('/auth/session', { body: { login, password } })));
        return null;
      } catch (error) {
        if (error instanceof ApiError && error.code === 'checkout_two_factor_required' && typeof error.data.challenge === 'string') return { challenge: error.data.challenge };
        throw error;
      }
    },
    [opened],
  );

  const signInTwoFactor = useCallback(
    async (challenge: string, code: string) => opened(unwrap(await api.POST('/auth/session/two-factor', { body: { challenge, code } }))),
    [opened],
  );

  const passwordSet = useCallback(() => setState((current) => (current.status === 'signed-in' ? { ...current, mustSetPassword: false } : current)), []);

  const userLocaleChanged = useCallback(
    (locale: SignedInUser['locale']) => setState((current) => (current.status === 'signed-in' ? { ...current, user: { ...current.user, locale } } : current)),
    [],
  );

  const signOut = useCallback(async () => {
    try {
      await api.DELETE('/auth/session');
    } finally {
      setNonce(undefined);
      queries.clear();
      setState({ status: 'signed-out', reason: 'signed-out' });
    }
  }, [queries]);

  const expired = useCallback(() => {
    setNonce(undefined);
    queries.clear();
    setState({ status: 'signed-out', reason: 'expired' });
  }, [queries]);

  // Any request the session no longer covers (signed out elsewhere, password revoked, expired)
  // ends it here too: back to the sign-in screen, with nothing of the old session cached.
  useEffect(() => {
    const onQuery = queries.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error' && isSessionEnd(event.action.error)) expired();
    });
    const onMutation = queries.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error' && isSessionEnd(event.action.error)) expired();
    });
    return () => {
      onQuery();
      onMutation();
    };
  }, [queries, expired]);

  const value = useMemo<Session>(
    () => ({
      state,
      signIn,
      signInTwoFactor,
      passwordSet,
      signOut,
      expired,
      userLocaleChanged,
      can: (capability) => state.status === 'signed-in' && state.user.capabilities.includes(capability),
    }),
    [state, signIn, signInTwoFactor, passwordSet, signOut, expired, userLocaleChanged],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** True for the error of a request the session no longer covers. */
export function isSessionEnd(error: unknown): boolean {
  return error instanceof ApiError && error.isSignedOut;
}
