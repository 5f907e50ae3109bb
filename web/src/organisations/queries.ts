// TanStack Query hooks of organisations: the organisation the session acts for and the caller's role
// there (GET /auth/me, under ['me'] with the balance), the organisations the person belongs to, and an
// organisation's members and pending invitations (keys start with 'members').
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../api/client';
import { fetchMe } from '../billing/balance';

export type CurrentBuyer = Schemas['CurrentBuyer'];
export type Membership = Schemas['Membership'];
export type Member = Schemas['Member'];
export type Invitation = Schemas['Invitation'];
export type MemberRole = Member['role'];

export const organisationKeys = {
  list: ['organisations'] as const,
};

export const memberKeys = {
  all: ['members'] as const,
  list: ['members', 'list'] as const,
  invitations: ['members', 'invitations'] as const,
};

/** The organisation acted for, with the person's role there: a password session always has one (an API key has none). */
export type ActingAs = Omit<CurrentBuyer, 'role'> & { role: MemberRole };

/** The organisation the session acts for, with the caller's own e-mail and role there. */
export function useActingAs() {
  return useQuery({
    queryKey: ['me'],
    queryFn: fetchMe,
    select: (me): ActingAs | undefined => {
      if (!('buyer' in me)) return undefined;
      const { role, ...buyer } = me.buyer;
      return role === null ? undefined : { ...buyer, role };
    },
  });
}

/** The organisations the person belongs to, their own first, with their role in each. */
export function useOrganisations() {
  return useQuery({
    queryKey: organisationKeys.list,
    queryFn: () => call(api.GET('/organisations')),
    select: (answer) => answer.organisations,
    staleTime: 60_000,
  });
}

/** A token acting for another organisation; the caller stores it and refreshes every query. */
export const switchOrganisation = (organisationId: string, actingFor?: string) =>
  call(
    api.POST('/auth/switch', {
      body: { organisationId },
      // A session whose organisation ended its membership is refused on every route, this one too, unless
      // the request names another organisation: the person's own, to get back to it.
      ...(actingFor ? { params: { header: { 'X-Concord-Organisation': actingFor } } } : {}),
    }),
  );

export function useMembers() {
  return useQuery({ queryKey: memberKeys.list, queryFn: () => call(api.GET('/members')), select: (answer) => answer.members });
}

export function useInvitations() {
  return useQuery({ queryKey: memberKeys.invitations, queryFn: () => call(api.GET('/invitations')), select: (answer) => answer.invitations });
}

/** Invites an address: inviting it again replaces its pending invitation, so a retry cannot leave two. */
export function useInvite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; role: MemberRole }) => call(api.POST('/invitations', { body })),
    onSettled: () => client.invalidateQueries({ queryKey: memberKeys.all }),
  });
}

export function useRevokeInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(api.DELETE('/invitations/{id}', { params: { path: { id } } })),
    onSettled: () => client.invalidateQueries({ queryKey: memberKeys.all }),
  });
}

/** Changes a member's role; the caller's own change refreshes what the dashboard lets them do. */
export function useChangeRole() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ accountId, role }: { accountId: string; role: MemberRole }) =>
      call(api.PATCH('/members/{accountId}', { params: { path: { accountId } }, body: { role } })),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: memberKeys.all });
      void client.invalidateQueries({ queryKey: ['me'] });
      void client.invalidateQueries({ queryKey: organisationKeys.list });
    },
  });
}

export function useRemoveMember() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (accountId: string) => call(api.DELETE('/members/{accountId}', { params: { path: { accountId } } })),
    onSettled: () => client.invalidateQueries({ queryKey: memberKeys.all }),
  });
}
