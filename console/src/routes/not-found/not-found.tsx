import { Link } from 'react-router';
import { Page } from '../../components/page';

export function NotFound() {
  return (
    <Page title="Page not found">
      <p>
        There is no such screen. <Link to="/">Back to the dashboard</Link>.
      </p>
    </Page>
  );
}
