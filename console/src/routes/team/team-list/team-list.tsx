import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { unwrap } from '../../../api/api-error';
import { api } from '../../../api/client';
import { formErrorsOf } from '../../../api/field-errors';
import { rolesQuery, type TeamRole, type TeamUser, teamKeys, teamQuery } from '../../../api/team';
import { FieldError, invalid, useFocusFirstInvalid } from '../../../components/fields';
import { Page } from '../../../components/page';
import { Empty, ErrorNotice, QueryView, Success } from '../../../components/status';
import { TableScroll } from '../../../components/table-scroll';
import { Time } from '../../../components/time';
import { useT } from '../../../i18n/use-t';
import { invitationText, roleName, roleSummary } from '../team-model';

/** `/team`: who works in the console, with which role, when they last signed in, and who is still invited. */
export function TeamScreen() {
  const t = useT();
  const team = useQuery(teamQuery);
  const [done, setDone] = useState<string | null>(null);
  return (
    <Page title={t('team.title')}>
      {done && <Success>{done}</Success>}
      <div className="stack">
        <QueryView query={team} what="status.loading.team">
          {(users) => <Members users={users} />}
        </QueryView>
        <InviteForm onDone={setDone} />
      </div>
    </Page>
  );
}

function Members({ users }: { users: TeamUser[] }) {
  const t = useT();
  const pending = users.filter((user) => user.invitation?.status === 'pending').length;
  return (
    <section className="card" aria-labelledby="members-title">
      <h2 id="members-title">{t('team.members.title')}</h2>
      <p>{t('team.members.count', { members: users.length, pending })}</p>
      {users.length === 0 ? (
        <Empty>{t('team.members.empty')}</Empty>
      ) : (
        <TableScroll label={t('team.members.table')}>
          <table className="list-table">
            <caption className="visually-hidden">{t('team.members.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('team.column.member')}</th>
                <th scope="col">{t('team.column.role')}</th>
                <th scope="col">{t('team.column.lastSignIn')}</th>
                <th scope="col">{t('team.column.invitation')}</th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => (
                <tr key={user.id}>
                  <th scope="row">
                    <Link to={`/team/${user.id}`}>{user.display_name}</Link>
                    <span className="muted"> {user.login}</span>
                  </th>
                  <td data-label={t('team.column.role')}>{roleName(user.role, t)}</td>
                  <td data-label={t('team.column.lastSignIn')}>{user.last_sign_in_at ? <Time iso={user.last_sign_in_at} /> : t('team.never')}</td>
                  <td data-label={t('team.column.invitation')}>{invitationText(user.invitation, t)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}

const INVITE_FIELDS = ['login', 'email', 'display_name', 'role'] as const;

function InviteForm({ onDone }: { onDone: (message: string | null) => void }) {
  const t = useT();
  const queries = useQueryClient();
  const roles = useQuery(rolesQuery);
  const [draft, setDraft] = useState({ login: '', email: '', display_name: '', role: 'support' as TeamRole });
  const invite = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.POST('/administration/users', {
          body: { login: draft.login, email: draft.email, role: draft.role, ...(draft.display_name.trim() ? { display_name: draft.display_name.trim() } : {}) },
        }),
      ),
    onMutate: () => onDone(null),
    onSuccess: (user) => {
      onDone(t('team.invite.done', { name: user.display_name, email: user.email, role: roleName(user.role, t) }));
      setDraft({ login: '', email: '', display_name: '', role: draft.role });
      return queries.invalidateQueries({ queryKey: teamKeys.users });
    },
  });
  const errors = formErrorsOf(invite.error, INVITE_FIELDS);
  useFocusFirstInvalid(invite.error, errors.first, 'invite');
  const assignable = roles.data?.filter((role) => role.assignable) ?? [];

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    invite.mutate();
  }

  return (
    <form className="card" aria-labelledby="invite-title" noValidate onSubmit={submit}>
      <h2 id="invite-title">{t('team.invite.title')}</h2>
      <p>{t('team.invite.text')}</p>
      {errors.notice && invite.isError && <ErrorNotice error={invite.error} />}
      <label className="field">
        <span className="field-label">{t('team.field.login')}</span>
        <input id="invite-login" value={draft.login} maxLength={60} autoComplete="off" onChange={(event) => setDraft({ ...draft, login: event.target.value })} {...invalid(errors.fields.login, 'invite-login')} />
        <FieldError id="invite-login" message={errors.fields.login} />
      </label>
      <label className="field">
        <span className="field-label">{t('team.field.email')}</span>
        <input id="invite-email" type="email" value={draft.email} maxLength={100} autoComplete="off" onChange={(event) => setDraft({ ...draft, email: event.target.value })} {...invalid(errors.fields.email, 'invite-email')} />
        <FieldError id="invite-email" message={errors.fields.email} />
      </label>
      <label className="field">
        <span className="field-label">{t('team.field.nameOptional')}</span>
        <input
          id="invite-display_name"
          value={draft.display_name}
          maxLength={250}
          autoComplete="off"
          onChange={(event) => setDraft({ ...draft, display_name: event.target.value })}
          {...invalid(errors.fields.display_name, 'invite-display_name')}
        />
        <FieldError id="invite-display_name" message={errors.fields.display_name} />
      </label>
      <RoleSelect id="invite-role" value={draft.role} roles={assignable.map((role) => role.name)} error={errors.fields.role} onChange={(role) => setDraft({ ...draft, role })} />
      <button type="submit" className="button button-primary" disabled={invite.isPending}>
        {t(invite.isPending ? 'team.invite.sending' : 'team.invite.submit')}
      </button>
    </form>
  );
}

/** A role picker with what each role may do, for the invitation and the member's screen. */
export function RoleSelect({ id, value, roles, error, onChange }: { id: string; value: string; roles: string[]; error?: string; onChange: (role: TeamRole) => void }) {
  const t = useT();
  const options = roles.length > 0 ? roles : [value];
  return (
    <label className="field">
      <span className="field-label">{t('team.column.role')}</span>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as TeamRole)} aria-describedby={`${id}-help${error ? ` ${id}-error` : ''}`} aria-invalid={error ? true : undefined}>
        {options.map((role) => (
          <option key={role} value={role}>
            {roleName(role, t)}
          </option>
        ))}
      </select>
      <span className="field-help" id={`${id}-help`}>
        {roleSummary(value, t)}
      </span>
      <FieldError id={id} message={error} />
    </label>
  );
}
