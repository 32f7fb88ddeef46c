import { lazy, Suspense } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { CHECKOUT_SETTINGS } from './api/capabilities';
import { SessionProvider, useSession } from './api/session';
import { Layout } from './components/layout';
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
import { NoAccess } from './routes/session/no-access';
import { NotFound } from './routes/not-found/not-found';
import { PaymentDetailScreen } from './routes/payments/payment-detail/payment-detail';
import { PaymentsScreen } from './routes/payments/payment-list/payment-list';
import { SettingsScreens } from './routes/settings/settings';
import { SignIn } from './routes/session/sign-in';

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
        { index: true, element: <ConnectReturn><DashboardScreen /></ConnectReturn> },
        { path: 'gateways', element: <GatewaysScreen /> },
        { path: 'payments', element: <PaymentsScreen /> },
        { path: 'payments/:id', element: <PaymentDetailScreen /> },
        { path: 'events', element: <EventsScreen /> },
        { path: 'settings/*', element: <SettingsScreens /> },
        { path: 'webhooks/*', element: <Suspense fallback={<Loading what="webhooks" />}><WebhooksScreens /></Suspense> },
        { path: 'forms', element: <FormsScreen /> },
        { path: 'forms/new', element: <FormGalleryScreen /> },
        { path: 'account', element: <AccountScreen /> },
        { path: 'forms/:id', element: <Suspense fallback={<Loading what="the form builder" />}><FormBuilderScreen /></Suspense> },
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
  if (session.state.status === 'loading') return <Loading what="the console" />;
  if (session.state.status === 'signed-out') return <SignIn reason={session.state.reason} />;
  // Signed in with an application password and no account password yet: that comes first.
  if (session.state.mustSetPassword) return <ForcedSetPasswordScreen />;
  if (!session.can(CHECKOUT_SETTINGS)) return <NoAccess />;
  return <RouterProvider router={router} />;
}

export function App() {
  return (
    <SessionProvider>
      <Gate />
    </SessionProvider>
  );
}
