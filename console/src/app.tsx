import { lazy, Suspense } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { CHECKOUT_SETTINGS } from './api/capabilities';
import { SessionProvider, useSession } from './api/session';
import { Layout } from './components/layout';
import { RouteError } from './components/route-error';
import { Loading } from './components/status';
import { DashboardScreen } from './screens/dashboard';
import { EventsScreen } from './screens/events';
import { ConnectReturn, GatewaysScreen } from './screens/gateways/gateways-screen';
import { FormGalleryScreen } from './screens/form-gallery';
import { FormsScreen } from './screens/forms';
import { NoAccess } from './screens/no-access';
import { NotFound } from './screens/not-found';
import { PaymentDetailScreen } from './screens/payment-detail';
import { PaymentsScreen } from './screens/payments';
import { SettingsScreens } from './screens/settings';
import { SignIn } from './screens/sign-in';

// The form builder is the heaviest screen: loaded when first opened.
const FormBuilderScreen = lazy(() => import('./screens/form-builder/index').then((module) => ({ default: module.FormBuilderScreen })));

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
        { path: 'forms', element: <FormsScreen /> },
        { path: 'forms/new', element: <FormGalleryScreen /> },
        { path: 'forms/:id', element: <Suspense fallback={<Loading what="the form builder" />}><FormBuilderScreen /></Suspense> },
        { path: '*', element: <NotFound /> },
      ],
    },
  ],
  { basename: '/admin' },
);

function Gate() {
  const session = useSession();
  if (session.state.status === 'loading') return <Loading what="the console" />;
  if (session.state.status === 'signed-out') return <SignIn reason={session.state.reason} />;
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
