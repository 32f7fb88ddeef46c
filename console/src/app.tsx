import { lazy, Suspense } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { CHECKOUT_SETTINGS, EDIT_FORMS, MANAGE_SETTINGS, MANAGE_USERS, MANAGE_WEBHOOKS, READ_PAYMENTS, VIEW_DASHBOARD } from './api/capabilities';
import { SessionProvider, useSession } from './api/session';
import { Layout } from './components/layout';
import { LocaleProvider } from './i18n/locale';
import { RouteError } from './components/route-error';
import { Loading } from './components/status';
import { DashboardScreen } from './routes/dashboard/dashboard';
import { EventsScreen } from './routes/events/event-list/event-list';
import { ConnectReturn, GatewaysScreen } from './routes/gateways/gateways-screen';
import { FormGalleryScreen } from './routes/forms/form-create/form-gallery';
import { FormsScreen } from './routes/forms/form-list/form-list';
import { AccountScreen } from './routes/account/account-screen';
import { ForcedSetPasswordScreen } from './routes/account/forced-set-password';
import { SetPasswordLinkScreen } from './routes/account/set-password-link';
import { Allowed, Home } from './routes/session/allowed';
import { NoAccess } from './routes/session/no-access';
import { NotFound } from './routes/not-found/not-found';
import { PaymentDetailScreen } from './routes/payments/payment-detail/payment-detail';
import { PaymentsScreen } from './routes/payments/payment-list/payment-list';
import { SettingsScreens } from './routes/settings/settings';
import { SignIn } from './routes/session/sign-in';
import { TeamMemberScreen } from './routes/team/team-member/team-member';
import { TeamScreen } from './routes/team/team-list/team-list';

// The form builder is the heaviest screen: loaded when first opened.
const FormBuilderScreen = lazy(() => import('./routes/forms/form-builder/index').then((module) => ({ default: module.FormBuilderScreen })));
// Webhooks: set up once and seldom opened, so kept out of the first load.
const WebhooksScreens = lazy(() => import('./routes/webhooks/webhooks-screens').then((module) => ({ default: module.WebhooksScreens })));

/** Client-side routes under /admin/ (the service answers every path there with this app). */
const router = createBrowserRouter(
  [
    {
      element: <Layout />,
      errorElement: <RouteError />,
      children: [
        { index: true, element: <Home capability={VIEW_DASHBOARD} dashboard={<ConnectReturn><DashboardScreen /></ConnectReturn>} /> },
        { path: 'gateways', element: <Allowed capability={MANAGE_SETTINGS}><GatewaysScreen /></Allowed> },
        { path: 'payments', element: <Allowed capability={READ_PAYMENTS}><PaymentsScreen /></Allowed> },
        { path: 'payments/:id', element: <Allowed capability={READ_PAYMENTS}><PaymentDetailScreen /></Allowed> },
        { path: 'events', element: <Allowed capability={READ_PAYMENTS}><EventsScreen /></Allowed> },
        { path: 'settings/*', element: <Allowed capability={MANAGE_SETTINGS}><SettingsScreens /></Allowed> },
        { path: 'forms', element: <Allowed capability={EDIT_FORMS}><FormsScreen /></Allowed> },
        { path: 'forms/new', element: <Allowed capability={EDIT_FORMS}><FormGalleryScreen /></Allowed> },
        {
          path: 'forms/:id',
          element: (
            <Allowed capability={EDIT_FORMS}>
              <Suspense fallback={<Loading what="status.loading.formBuilder" />}>
                <FormBuilderScreen />
              </Suspense>
            </Allowed>
          ),
        },
        { path: 'webhooks/*', element: <Allowed capability={MANAGE_WEBHOOKS}><Suspense fallback={<Loading what="status.loading.webhooks" />}><WebhooksScreens /></Suspense></Allowed> },
        { path: 'account', element: <AccountScreen /> },
        { path: 'team', element: <Allowed capability={MANAGE_USERS}><TeamScreen /></Allowed> },
        { path: 'team/:id', element: <Allowed capability={MANAGE_USERS}><TeamMemberScreen /></Allowed> },
        { path: '*', element: <NotFound /> },
      ],
    },
  ],
  { basename: '/admin' },
);

/** The screen of a set-password link (setup, invitation, reset): open whether or not someone is signed in. */
const SET_PASSWORD_PATH = '/admin/set-password';

function Gate() {
  const session = useSession();
  if (window.location.pathname.replace(/\/$/, '') === SET_PASSWORD_PATH) return <SetPasswordLinkScreen />;
  if (session.state.status === 'loading') return <Loading what="status.loading.console" />;
  if (session.state.status === 'signed-out') return <SignIn reason={session.state.reason} />;
  // Signed in with an application password and no account password yet: that comes first.
  if (session.state.mustSetPassword) return <ForcedSetPasswordScreen />;
  if (!session.can(CHECKOUT_SETTINGS)) return <NoAccess />;
  return <RouterProvider router={router} />;
}

export function App() {
  return (
    <SessionProvider>
      <LocaleProvider>
        <Gate />
      </LocaleProvider>
    </SessionProvider>
  );
}
