import { FormattedMessage, useIntl } from 'react-intl';
import { Route, Routes } from 'react-router';
import { MANAGE_WEBHOOKS } from '../../api/capabilities';
import { useSession } from '../../api/session';
import { Page } from '../../components/page';
import { NotFound } from '../not-found/not-found';
import { EndpointScreen } from './endpoint-detail';
import { EndpointListScreen } from './endpoint-list';

/** `/webhooks/*` (loaded when first opened): the endpoints outgoing events are sent to, and each one's log. */
export function WebhooksScreens() {
  const session = useSession();
  const intl = useIntl();
  if (!session.can(MANAGE_WEBHOOKS)) {
    return (
      <Page title={intl.formatMessage({ id: 'layout.nav.webhooks' })}>
        <p>
          <FormattedMessage id="webhooks.noAccess" values={{ capability: MANAGE_WEBHOOKS, code: (chunks) => <code>{chunks}</code> }} />
        </p>
      </Page>
    );
  }
  return (
    <Routes>
      <Route index element={<EndpointListScreen />} />
      <Route path=":id" element={<EndpointScreen />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
