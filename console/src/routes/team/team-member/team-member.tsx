import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link, useNavigate, useParams } from 'react-router';
import { unwrap } from '../../../api/api-error';
import { api } from '../../../api/client';
import { formErrorsOf } from '../../../api/field-errors';
import { useSession } from '../../../api/session';
import { type ApplicationPassword, applicationPasswordsQuery, type NewApplicationPassword, rolesQuery, type TeamRole, type TeamUser, teamKeys, teamUserQuery } from '../../../api/team';
import { ApplicationPasswordsTable } from '../../../components/application-passwords-table';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FieldError, invalid, useFocusFirstInvalid } from '../../../components/fields';
import { NameForm } from '../../../components/name-form';
import { Page } from '../../../components/page';
import { Empty, ErrorNotice, QueryView, Success } from '../../../components/status';
import { Time } from '../../../components/time';
import { NotFound } from '../../not-found/not-found';
import { RoleSelect } from '../team-list/team-list';
import { useT } from '../../../i18n/use-t';
import { invitationText, roleName } from '../team-model';

/** `/team/{id}`: one member: name, email and role, their invitation, removal, and their application passwords. */
export function TeamMemberScreen() {
  const id = Number(useParams().id);
  if (!Number.isInteger(id) || id <= 0) return <NotFound />;
  return <Member id={id} />;
}

function Member({ id }: { id: number }) {
  const t = useT();
  const user = useQuery(teamUserQuery(id));
  const [done, setDone] = useState<string | null>(null);
  return (
    <Page title={user.data ? user.data.display_name : t('team.member.title')}>
      <p>
        <Link to="/team">{t('team.member.back')}</Link>
      </p>
      {done && <Success>{done}</Success>}
      <QueryView query={user} what="status.loading.teamMember">
        {(member) => (
          <div className="stack">
            <EditMember key={`${member.id}-${member.role}-${member.email}`} member={member} onDone={setDone} />
            <Invitation member={member} onDone={setDone} />
            <ApplicationPasswords member={member} onDone={setDone} />
            <RemoveMember member={member} />
          </div>
        )}
      </QueryView>
    </Page>
  );
}

const EDIT_FIELDS = ['display_name', 'email', 'role'] as const;

function EditMember({ member, onDone }: { member: TeamUser; onDone: (message: string | null) => void }) {
  const t = useT();
  const queries = useQueryClient();
  const session = useSession();
  const roles = useQuery(rolesQuery);
  const [draft, setDraft] = useState({ display_name: member.display_name, email: member.email, role: member.role as TeamRole });
  const [confirming, setConfirming] = useState(false);
  const save = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.PATCH('/administration/users/{id}', {
          params: { path: { id: member.id } },
          body: { display_name: draft.display_name, email: draft.email, ...(draft.role !== member.role ? { role: draft.role } : {}) },
        }),
      ),
    onMutate: () => onDone(null),
    onSuccess: (user) => {
      setConfirming(false);
      // Your own new role ended your session too.
      if (user.role !== member.role && session.state.status === 'signed-in' && session.state.user.id === member.id) return session.expired();
      onDone(user.role !== member.role ? t('team.member.savedRole', { name: user.display_name, role: roleName(user.role, t) }) : t('team.member.saved'));
      return queries.invalidateQueries({ queryKey: teamKeys.all });
    },
    onError: () => setConfirming(false),
  });
  const errors = formErrorsOf(save.error, EDIT_FIELDS);
  useFocusFirstInvalid(save.error, errors.first, 'member');
  const assignable = roles.data?.filter((role) => role.assignable).map((role) => role.name) ?? [];
  const roleChanges = draft.role !== member.role;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // A new role signs them out everywhere: say so before doing it.
    if (roleChanges) setConfirming(true);
    else save.mutate();
  }

  return (
    <form className="card" aria-labelledby="member-title" noValidate onSubmit={submit}>
      <h2 id="member-title">{t('team.member.details')}</h2>
      <p>
        <FormattedMessage
          id="team.member.facts"
          values={{
            login: member.login,
            strong: (chunks) => <strong>{chunks}</strong>,
            since: <Time iso={member.created_at} />,
            signedIn: member.last_sign_in_at ? 'yes' : 'no',
            lastSignIn: member.last_sign_in_at ? <Time iso={member.last_sign_in_at} /> : '',
          }}
        />
      </p>
      {errors.notice && save.isError && <ErrorNotice error={save.error} />}
      <label className="field">
        <span className="field-label">{t('team.field.name')}</span>
        <input id="member-display_name" value={draft.display_name} maxLength={250} onChange={(event) => setDraft({ ...draft, display_name: event.target.value })} {...invalid(errors.fields.display_name, 'member-display_name')} />
        <FieldError id="member-display_name" message={errors.fields.display_name} />
      </label>
      <label className="field">
        <span className="field-label">{t('team.field.email')}</span>
        <input id="member-email" type="email" value={draft.email} maxLength={100} onChange={(event) => setDraft({ ...draft, email: event.target.value })} {...invalid(errors.fields.email, 'member-email')} />
        <FieldError id="member-email" message={errors.fields.email} />
      </label>
      <RoleSelect id="member-role" value={draft.role} roles={assignable.includes(member.role) ? assignable : [member.role, ...assignable]} error={errors.fields.role} onChange={(role) => setDraft({ ...draft, role })} />
      <button type="submit" className="button button-primary" disabled={save.isPending}>
        {t(save.isPending ? 'common.saving' : 'team.member.save')}
      </button>
      <ConfirmDialog
        open={confirming}
        title={t('team.member.roleConfirm', { name: member.display_name, role: roleName(draft.role, t) })}
        confirmLabel={t('team.member.changeRole')}
        busy={save.isPending}
        onConfirm={() => save.mutate()}
        onCancel={() => setConfirming(false)}
      >
        <p>{t('team.member.roleConsequence')}</p>
      </ConfirmDialog>
    </form>
  );
}

function Invitation({ member, onDone }: { member: TeamUser; onDone: (message: string | null) => void }) {
  const t = useT();
  const queries = useQueryClient();
  const resend = useMutation({
    mutationFn: async () => unwrap(await api.POST('/administration/users/{id}/invitation', { params: { path: { id: member.id } } })),
    onMutate: () => onDone(null),
    onSuccess: (user) => {
      onDone(t('team.invitation.resent', { email: user.email }));
      return queries.invalidateQueries({ queryKey: teamKeys.all });
    },
  });
  return (
    <section className="card" aria-labelledby="invitation-title">
      <h2 id="invitation-title">{t('team.column.invitation')}</h2>
      <p>{member.invitation ? invitationText(member.invitation, t) : t('team.invitation.none')}</p>
      {resend.isError && <ErrorNotice error={resend.error} />}
      <button type="button" className="button" disabled={resend.isPending} onClick={() => resend.mutate()}>
        {t(resend.isPending ? 'team.invitation.sending' : member.invitation ? 'team.invitation.sendNew' : 'team.invitation.send')}
      </button>
    </section>
  );
}

function ApplicationPasswords({ member, onDone }: { member: TeamUser; onDone: (message: string | null) => void }) {
  const t = useT();
  const queries = useQueryClient();
  const passwords = useQuery(applicationPasswordsQuery(member.id));
  const [name, setName] = useState('');
  const [created, setCreated] = useState<NewApplicationPassword | null>(null);
  const [revoking, setRevoking] = useState<ApplicationPassword | null>(null);
  const create = useMutation({
    mutationFn: async () => unwrap(await api.POST('/administration/users/{id}/application-passwords', { params: { path: { id: member.id } }, body: { name } })),
    onMutate: () => {
      onDone(null);
      setCreated(null);
    },
    onSuccess: (password) => {
      setCreated(password);
      setName('');
      return queries.invalidateQueries({ queryKey: teamKeys.passwords(member.id) });
    },
  });
  const revoke = useMutation({
    mutationFn: async (password: ApplicationPassword) =>
      unwrap(await api.DELETE('/administration/users/{id}/application-passwords/{uuid}', { params: { path: { id: member.id, uuid: password.uuid } } })),
    onMutate: () => onDone(null),
    onSuccess: (answer) => {
      setRevoking(null);
      onDone(t('account.applicationPasswords.revoked', { name: answer.previous.name }));
    },
    onError: () => setRevoking(null),
    onSettled: () => queries.invalidateQueries({ queryKey: teamKeys.passwords(member.id) }),
  });

  return (
    <section className="card" aria-labelledby="passwords-title">
      <h2 id="passwords-title">{t('team.passwords.title')}</h2>
      <p>{t('team.passwords.intro', { login: member.login })}</p>
      {created && (
        <div className="notice notice-success" role="status">
          <p className="notice-title">{t('team.passwords.new', { name: created.name })}</p>
          <p>
            {t('team.passwords.copyNow')} <code className="secret">{created.password}</code>
          </p>
        </div>
      )}
      {revoke.isError && <ErrorNotice error={revoke.error} />}
      <QueryView query={passwords} what="status.loading.applicationPasswords">
        {(list) =>
          list.length === 0 ? (
            <Empty>{t('team.passwords.empty')}</Empty>
          ) : (
            <ApplicationPasswordsTable
              passwords={list}
              caption={t('team.passwords.caption', { name: member.display_name })}
              label={t('team.passwords.title')}
              revoking={revoking}
              busy={revoke.isPending}
              onAskRevoke={setRevoking}
              onConfirmRevoke={(password) => revoke.mutate(password)}
              onCancelRevoke={() => setRevoking(null)}
              consequence={t('team.passwords.consequence')}
            />
          )
        }
      </QueryView>
      <NameForm
        prefix="password"
        field="name"
        title={t('team.passwords.create')}
        level={3}
        label={t('team.passwords.purpose')}
        maxLength={100}
        value={name}
        onChange={setName}
        onSubmit={() => create.mutate()}
        error={create.error}
        pending={create.isPending}
        submitLabel={t('team.passwords.submit')}
        pendingLabel={t('team.passwords.creating')}
      />
    </section>
  );
}

function RemoveMember({ member }: { member: TeamUser }) {
  const t = useT();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const session = useSession();
  const self = session.state.status === 'signed-in' && session.state.user.id === member.id;
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: async () => unwrap(await api.DELETE('/administration/users/{id}', { params: { path: { id: member.id } } })),
    onSuccess: async () => {
      setConfirming(false);
      await queries.invalidateQueries({ queryKey: teamKeys.users });
      if (self) session.expired();
      else void navigate('/team', { replace: true });
    },
    onError: () => setConfirming(false),
  });
  return (
    <section className="card" aria-labelledby="remove-title">
      <h2 id="remove-title">{t('team.remove.title')}</h2>
      <p>{self ? t('team.remove.self') : t('team.remove.other', { name: member.display_name })}</p>
      {remove.isError && <ErrorNotice error={remove.error} />}
      <button type="button" className="button button-danger" disabled={remove.isPending} onClick={() => setConfirming(true)}>
        {t('team.remove.button', { name: member.display_name })}
      </button>
      <ConfirmDialog
        open={confirming}
        title={t('team.remove.confirm', { name: member.display_name })}
        confirmLabel={t('team.remove.submit')}
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setConfirming(false)}
      >
        <p>{t('team.remove.consequence')}</p>
      </ConfirmDialog>
    </section>
  );
}
