// /members (owners and admins: members:write): the organisation's members with a role select each (an
// owner's role and the owner choice are an owner's to give; the founder stays an owner), removal behind
// a confirmation, the pending invitations with revocation, and the form that invites an address with a
// role (the link goes by e-mail, works once, for 7 days).
import { INVITATION_LIFETIME_DAYS, MAX_ORGANISATION_SEATS, MEMBER_ROLES, roleHas } from '@concord/contract';
import { useState, type FormEvent } from 'react';
import { ApiError, describeError } from '../api/errors';
import { mapFieldErrors } from '../api/fieldErrors';
import { useSession } from '../auth/session';
import { BreakableAddress } from '../ui/BreakableAddress';
import { Button } from '../ui/Button';
import { ConfirmButton, Dialog } from '../ui/Dialog';
import { EmptyState, ErrorNote, Loading, Notice } from '../ui/Feedback';
import { focusFirstInvalid, SelectField, TextField } from '../ui/Field';
import { Card, PageHeader } from '../ui/Page';
import { Table, type Column } from '../ui/Table';
import { formatDateTime } from '../ui/format';
import { useOrganisationSwitch } from './OrganisationPicker';
import { assignableRoles, memberChoice, removal, ROLE_LABELS, ROLE_SUMMARIES, type MemberRole } from './permissions';
import {
  useActingAs,
  useChangeRole,
  useInvitations,
  useInvite,
  useMembers,
  useRemoveMember,
  useRevokeInvitation,
  type ActingAs,
  type Invitation,
  type Member,
} from './queries';
import { tokenSubject } from './token';
import { inviteProblem, seatsLine } from './members';
import './organisations.css';

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export function MembersPage() {
  const acting = useActingAs();
  const members = useMembers();
  const invitations = useInvitations();
  const actor = acting.data;
  if (!actor) return <Loading />;
  const emails = new Map((members.data ?? []).map((member) => [member.accountId, member.email]));
  const inviter = (accountId: string | null) => (accountId ? (emails.get(accountId) ?? 'a former member') : '—');
  const seats = members.data && invitations.data ? seatsLine(members.data.length, invitations.data.length) : null;
  return (
    <>
      <PageHeader
        title="Members"
        description={
          <>
            The people who work in <strong>{actor.companyName}</strong>, one role each. You are {article(actor.role)} {actor.role}
            {actor.role === 'owner' ? '' : ': making, changing or removing an owner is an owner’s to do'}.
          </>
        }
      />
      <div className="grid-2 members-top">
        <Card title="Invite someone">
          <InviteForm actor={actor} />
        </Card>
        <Card title="What each role may do">
          <dl className="role-list">
            {MEMBER_ROLES.map((role) => (
              <div key={role}>
                <dt>
                  <span className="badge badge-neutral">{role}</span>
                </dt>
                <dd>{ROLE_SUMMARIES[role]}</dd>
              </div>
            ))}
          </dl>
        </Card>
      </div>
      <Card title="Members">
        {members.isPending ? <Loading label="Loading members…" /> : null}
        <ErrorNote error={members.error} />
        {members.data ? <MemberTable actor={actor} members={members.data} inviter={inviter} /> : null}
        {seats ? <p className="field-hint">{seats}</p> : null}
      </Card>
      <Card title="Pending invitations">
        {invitations.isPending ? <Loading label="Loading invitations…" /> : null}
        <ErrorNote error={invitations.error} />
        {invitations.data && invitations.data.length === 0 ? (
          <EmptyState title="No pending invitations">
            <p>An invitation shows here until its link is used, revoked or {INVITATION_LIFETIME_DAYS} days old.</p>
          </EmptyState>
        ) : null}
        {invitations.data && invitations.data.length > 0 ? <InvitationTable invitations={invitations.data} inviter={inviter} /> : null}
      </Card>
    </>
  );
}

function MemberTable({ actor, members, inviter }: { actor: ActingAs; members: Member[]; inviter: (accountId: string | null) => string }) {
  const change = useChangeRole();
  const remove = useRemoveMember();
  const { session } = useSession();
  const backHome = useOrganisationSwitch();
  const [done, setDone] = useState<string | null>(null);
  // Changing one's own role may take away this very page: asked first.
  const [ownChange, setOwnChange] = useState<{ member: Member; role: MemberRole } | null>(null);

  const setRole = (member: Member, role: MemberRole) => {
    setDone(null);
    change.mutate({ accountId: member.accountId, role }, { onSuccess: () => setDone(`${member.email} is now ${article(role)} ${role}.`) });
  };

  const columns: Column<Member>[] = [
    {
      header: 'Member',
      cell: (member) => (
        <span className="member-cell">
          <span className="member-email">
            <BreakableAddress address={member.email} />
          </span>
          {member.founder ? (
            <span className="badge badge-info" title="The account the organisation was created with: it stays an owner">
              founder
            </span>
          ) : null}
          {sameAddress(member.email, actor.email) ? <span className="badge badge-success">you</span> : null}
        </span>
      ),
    },
    {
      header: 'Role',
      cell: (member) => {
        const choice = memberChoice(actor.role, member);
        const pending = change.isPending && change.variables?.accountId === member.accountId;
        if (!choice.editable)
          return (
            <span className="member-role-fixed" title={choice.reason}>
              {member.role}
              <span className="sr-only"> ({choice.reason})</span>
            </span>
          );
        return (
          <select
            className="member-role"
            aria-label={`Role of ${member.email}`}
            value={pending ? (change.variables?.role ?? member.role) : member.role}
            disabled={pending}
            onChange={(event) => {
              const role = event.currentTarget.value as MemberRole;
              if (sameAddress(member.email, actor.email)) setOwnChange({ member, role });
              else setRole(member, role);
            }}
          >
            {choice.options.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        );
      },
      nowrap: true,
    },
    { header: 'Invited by', cell: (member) => <span className="muted">{inviter(member.invitedBy)}</span>, wide: true },
    { header: 'Joined', cell: (member) => formatDateTime(member.joinedAt), wide: true, nowrap: true },
    {
      header: 'Actions',
      cell: (member) => {
        const can = removal(actor.role, member);
        if (!can.allowed)
          return (
            <span className="muted" title={can.reason}>
              —<span className="sr-only"> {can.reason}</span>
            </span>
          );
        const self = sameAddress(member.email, actor.email);
        return (
          <ConfirmButton
            label="Remove"
            accessibleLabel={`Remove ${member.email}`}
            title={self ? `Leave ${actor.companyName}?` : `Remove ${member.email}?`}
            confirmLabel={self ? 'Leave the organisation' : 'Remove member'}
            onConfirm={async () => {
              setDone(null);
              await remove.mutateAsync(member.accountId);
              if (self) {
                const own = session ? tokenSubject(session.token) : undefined;
                if (own) backHome.mutate({ organisationId: own, actingFor: own });
              } else setDone(`${member.email} is no longer a member of ${actor.companyName}.`);
            }}
            message={
              self ? (
                <p>You lose access to {actor.companyName} at once; the dashboard goes back to your own organisation. Only a new invitation brings you back.</p>
              ) : (
                <p>
                  {member.email} loses access to {actor.companyName} at once: every session and token of theirs stops acting for it. Their account and their own
                  organisation stay. You can invite them again later.
                </p>
              )
            }
          />
        );
      },
    },
  ];

  return (
    <>
      {done ? <Notice tone="success">{done}</Notice> : null}
      {change.error ? (
        <p className="error-note" role="alert">
          The role was not changed. {describeError(change.error)}
        </p>
      ) : null}
      <Table caption="Members" columns={columns} rows={members} rowKey={(member) => member.accountId} />
      <Dialog open={ownChange !== null} title="Change your own role?" onClose={() => setOwnChange(null)}>
        {ownChange ? (
          <>
            <p>
              You are about to make yourself {article(ownChange.role)} <strong>{ownChange.role}</strong> in {actor.companyName}.{' '}
              {roleHas(ownChange.role, 'members:write')
                ? ''
                : 'You will no longer manage members, and this page closes for you: only an owner or an admin can give your role back.'}
            </p>
            <div className="actions">
              <Button onClick={() => setOwnChange(null)}>Cancel</Button>
              <Button
                variant="danger"
                onClick={() => {
                  setRole(ownChange.member, ownChange.role);
                  setOwnChange(null);
                }}
              >
                Change my role
              </Button>
            </div>
          </>
        ) : null}
      </Dialog>
    </>
  );
}

const article = (role: MemberRole) => (role === 'owner' || role === 'admin' ? 'an' : 'a');

function InvitationTable({ invitations, inviter }: { invitations: Invitation[]; inviter: (accountId: string | null) => string }) {
  const revoke = useRevokeInvitation();
  const [revoked, setRevoked] = useState<string | null>(null);
  const columns: Column<Invitation>[] = [
    {
      header: 'E-mail',
      cell: (invitation) => (
        <>
          <span className="member-email">
            <BreakableAddress address={invitation.email} />
          </span>
          <span className="member-meta narrow-only">
            {invitation.role} · expires {formatDateTime(invitation.expiresAt)}
          </span>
        </>
      ),
    },
    { header: 'Role', cell: (invitation) => invitation.role, nowrap: true, wide: true },
    { header: 'Invited by', cell: (invitation) => <span className="muted">{inviter(invitation.invitedBy)}</span>, wide: true },
    { header: 'Sent', cell: (invitation) => formatDateTime(invitation.createdAt), wide: true, nowrap: true },
    { header: 'Expires', cell: (invitation) => formatDateTime(invitation.expiresAt), nowrap: true, wide: true },
    {
      header: 'Actions',
      cell: (invitation) => (
        <ConfirmButton
          label="Revoke"
          accessibleLabel={`Revoke the invitation of ${invitation.email}`}
          title="Revoke this invitation?"
          confirmLabel="Revoke invitation"
          onConfirm={async () => {
            setRevoked(null);
            await revoke.mutateAsync(invitation.id);
            setRevoked(invitation.email);
          }}
          message={<p>The link sent to {invitation.email} stops working at once. You can invite the address again later; it then gets a new link.</p>}
        />
      ),
    },
  ];
  return (
    <>
      {revoked ? <Notice tone="success">The invitation of {revoked} is revoked: its link no longer works.</Notice> : null}
      <Table caption="Pending invitations" columns={columns} rows={invitations} rowKey={(invitation) => invitation.id} />
    </>
  );
}

function InviteForm({ actor }: { actor: ActingAs }) {
  const invite = useInvite();
  const roles = assignableRoles(actor.role);
  const [role, setRole] = useState<MemberRole>('member');
  const [problem, setProblem] = useState<string | undefined>();
  const [sent, setSent] = useState<Invitation | null>(null);
  const apiErrors = mapFieldErrors(invite.error, { fields: ['email', 'role'] as const, codeFields: { ALREADY_MEMBER: 'email' } });
  const full = invite.error instanceof ApiError && invite.error.code === 'LIMIT_EXCEEDED';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const email = String(new FormData(formElement).get('email') ?? '').trim();
    const found = inviteProblem(email);
    setProblem(found);
    setSent(null);
    invite.reset();
    if (found) {
      focusFirstInvalid(formElement);
      return;
    }
    try {
      const result = await invite.mutateAsync({ email, role });
      formElement.reset();
      setSent(result.invitation);
    } catch {
      // Shown next to the field or below the form from invite.error.
      focusFirstInvalid(formElement);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Invite someone" className="invite-form">
      <TextField
        label="E-mail"
        name="email"
        type="email"
        autoComplete="off"
        required
        hint="Whoever opens the link joins with this address: an account of theirs, or a new one they make."
        error={problem ?? apiErrors.fields.email}
      />
      <SelectField
        label="Role"
        name="role"
        value={role}
        onChange={(event) => setRole(event.currentTarget.value as MemberRole)}
        options={roles.map((value) => ({ value, label: ROLE_LABELS[value] }))}
        hint={ROLE_SUMMARIES[role]}
        error={apiErrors.fields.role}
      />
      {full ? (
        <p className="error-note" role="alert">
          {actor.companyName} has {MAX_ORGANISATION_SEATS} members and pending invitations, the most an organisation can hold. Revoke an invitation or remove a
          member first.
        </p>
      ) : (
        <ErrorNote error={apiErrors.general} />
      )}
      {sent ? (
        <Notice tone="success">
          Invitation sent to {sent.email} as {sent.role}. The link in the e-mail works once, until {formatDateTime(sent.expiresAt)}; inviting the address again
          replaces it.
        </Notice>
      ) : null}
      <Button type="submit" variant="primary" busy={invite.isPending}>
        Send invitation
      </Button>
    </form>
  );
}
