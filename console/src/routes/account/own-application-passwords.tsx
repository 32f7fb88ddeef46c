import { useT } from '../../i18n/use-t';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { accountKeys, ownApplicationPasswordsQuery, revokeOwnApplicationPassword } from '../../api/account';
import type { ApplicationPassword } from '../../api/team';
import { ApplicationPasswordsTable } from '../../components/application-passwords-table';
import { Empty, ErrorNotice, QueryView, Success } from '../../components/status';

/**
 * The account screen's "Your application passwords": every role lists its own and revokes them
 * (GET/DELETE /auth/application-passwords); creating one, or managing a teammate's, stays on the
 * team screen (administrators).
 */
export function OwnApplicationPasswords() {
  const t = useT();
  const queries = useQueryClient();
  const passwords = useQuery(ownApplicationPasswordsQuery);
  const [revoking, setRevoking] = useState<ApplicationPassword | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const revoke = useMutation({
    mutationFn: (password: ApplicationPassword) => revokeOwnApplicationPassword(password.uuid),
    onMutate: () => setDone(null),
    onSuccess: (answer) => {
      setRevoking(null);
      setDone(t('account.applicationPasswords.revoked', { name: answer.previous.name }));
    },
    onError: () => setRevoking(null),
    onSettled: () => queries.invalidateQueries({ queryKey: accountKeys.applicationPasswords }),
  });

  return (
    <section className="card" aria-labelledby="own-passwords-title">
      <h2 id="own-passwords-title">{t('account.applicationPasswords.title')}</h2>
      <p>{t('account.applicationPasswords.intro')}</p>
      {done && <Success>{done}</Success>}
      {revoke.isError && <ErrorNotice error={revoke.error} />}
      <QueryView query={passwords} what="status.loading.ownApplicationPasswords">
        {(list) =>
          list.length === 0 ? (
            <Empty>{t('account.applicationPasswords.empty')}</Empty>
          ) : (
            <ApplicationPasswordsTable
              passwords={list}
              caption={t('account.applicationPasswords.title')}
              label={t('account.applicationPasswords.title')}
              revoking={revoking}
              busy={revoke.isPending}
              onAskRevoke={setRevoking}
              onConfirmRevoke={(password) => revoke.mutate(password)}
              onCancelRevoke={() => setRevoking(null)}
              consequence={t('account.applicationPasswords.consequence')}
            />
          )
        }
      </QueryView>
    </section>
  );
}
