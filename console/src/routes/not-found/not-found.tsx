import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { Page } from '../../components/page';

export function NotFound() {
  const intl = useIntl();
  return (
    <Page title={intl.formatMessage({ id: 'notFound.title' })}>
      <p>
        <FormattedMessage id="notFound.text" values={{ link: (chunks) => <Link to="/">{chunks}</Link> }} />
      </p>
    </Page>
  );
}
