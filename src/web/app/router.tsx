import { Suspense, useMemo, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { dashboardQuery, routes } from '../../common/product/routes.ts';
import { PageNavigationProvider, type PageNavigation } from '../components/page-link.tsx';
import { PageLoading } from './layouts/page-outlet.tsx';
import { PlainLayout } from './layouts/plain-layout.tsx';
import { PublicLayout } from './layouts/public-layout.tsx';
import { lazyComponent, lazyPage } from './lazy-page.ts';
import { ScrollManager } from './scroll-manager.tsx';

/** Where the test-mode billing provider (BILLING=local) sends the browser; see local-billing.ts. */
const testModeRoutes = { checkout: '/test-checkout', portal: '/test-portal' } as const;

/** Where the operator's admin page lives. Not in `protectedRoutes`: visitors are not sent to login. */
const adminPath = '/admin';

// The signed-in frame (the guard, the studio's layout, the admin gate) is one chunk of its own:
// visitors of the public pages never need it.
const loadSignedInFrame = () => import('./signed-in-frame.ts');
const RequireAuth = lazyPage(loadSignedInFrame, 'RequireAuth');
const AppLayout = lazyPage(loadSignedInFrame, 'AppLayout');
const AdminLayout = lazyPage(loadSignedInFrame, 'AdminLayout');
const AdminGate = lazyComponent(async () => (await loadSignedInFrame()).AdminGate);

// The landing page has its own entry too (landing.tsx); here it is reached from inside the app.
const HomePage = lazyPage(() => import('../features/landing/pages/home-page.tsx'), 'HomePage');

const NotFoundPage = lazyPage(() => import('./not-found-page.tsx'), 'NotFoundPage');
const LoginPage = lazyPage(() => import('../features/auth/pages/login-page.tsx'), 'LoginPage');
const SignupPage = lazyPage(() => import('../features/auth/pages/signup-page.tsx'), 'SignupPage');
const ResetPasswordPage = lazyPage(
  () => import('../features/auth/pages/reset-password-page.tsx'),
  'ResetPasswordPage',
);
const TermsPage = lazyPage(() => import('../features/legal/pages/terms-page.tsx'), 'TermsPage');
const PrivacyPage = lazyPage(
  () => import('../features/legal/pages/privacy-page.tsx'),
  'PrivacyPage',
);
const ContactPage = lazyPage(
  () => import('../features/legal/pages/contact-page.tsx'),
  'ContactPage',
);
const QuizPage = lazyPage(() => import('../features/quiz/pages/quiz-page.tsx'), 'QuizPage');
const TryOnPage = lazyPage(() => import('../features/tryon/pages/tryon-page.tsx'), 'TryOnPage');
const QuizResultsPage = lazyPage(
  () => import('../features/quiz/pages/quiz-results-page.tsx'),
  'QuizResultsPage',
);
const DashboardPage = lazyPage(
  () => import('./dashboard/pages/dashboard-page.tsx'),
  'DashboardPage',
);
const CategoryPage = lazyPage(
  () => import('../features/catalog/pages/category-page.tsx'),
  'CategoryPage',
);
const ModelPage = lazyPage(() => import('../features/catalog/pages/model-page.tsx'), 'ModelPage');
const CreateModelPage = lazyPage(
  () => import('../features/studio/pages/create-model-page.tsx'),
  'CreateModelPage',
);
const ExamplePhotosPage = lazyPage(
  () => import('../features/studio/pages/example-photos-page.tsx'),
  'ExamplePhotosPage',
);
const UploadPhotosPage = lazyPage(
  () => import('../features/studio/pages/upload-photos-page.tsx'),
  'UploadPhotosPage',
);
const ValidationResultsPage = lazyPage(
  () => import('../features/studio/pages/validation-results-page.tsx'),
  'ValidationResultsPage',
);
const SelectGenderPage = lazyPage(
  () => import('../features/studio/pages/select-gender-page.tsx'),
  'SelectGenderPage',
);
const NameModelPage = lazyPage(
  () => import('../features/studio/pages/name-model-page.tsx'),
  'NameModelPage',
);
const MyModelsPage = lazyPage(
  () => import('../features/studio/pages/my-models-page.tsx'),
  'MyModelsPage',
);
const CustomPromptPage = lazyPage(
  () => import('../features/generation/pages/custom-prompt-page.tsx'),
  'CustomPromptPage',
);
const BulkGeneratePage = lazyPage(
  () => import('../features/generation/pages/bulk-generate-page.tsx'),
  'BulkGeneratePage',
);
const BulkGenerationPage = lazyPage(
  () => import('../features/generation/pages/bulk-generation-page.tsx'),
  'BulkGenerationPage',
);
const GenerationPage = lazyPage(
  () => import('../features/generation/pages/generation-page.tsx'),
  'GenerationPage',
);
const AdminPage = lazyPage(() => import('../features/admin/pages/admin-page.tsx'), 'AdminPage');
const AccountPage = lazyPage(
  () => import('../features/account/pages/account-page.tsx'),
  'AccountPage',
);
const SubscriptionPage = lazyPage(
  () => import('../features/billing/pages/subscription-page.tsx'),
  'SubscriptionPage',
);
const BuyCreditsPage = lazyPage(
  () => import('../features/billing/pages/buy-credits-page.tsx'),
  'BuyCreditsPage',
);
const PaymentSuccessPage = lazyPage(
  () => import('../features/billing/pages/payment-success-page.tsx'),
  'PaymentSuccessPage',
);
const TestCheckoutPage = lazyPage(
  () => import('../features/billing/pages/test-checkout-page.tsx'),
  'TestCheckoutPage',
);
const TestPortalPage = lazyPage(
  () => import('../features/billing/pages/test-portal-page.tsx'),
  'TestPortalPage',
);

/** /history and /generations: the dashboard's "generated" tab. */
const generatedTab = `${routes.dashboard}?main=${dashboardQuery.defaultMain}&sub=generated`;

/**
 * Every route of the app. Pages are declared here as they are built; until then their paths
 * fall through to the 404 page. Layouts are pathless parent routes:
 * - PublicLayout: landing, quiz, public try-on, 404.
 * - PlainLayout: auth screens, the static pages (terms, privacy, contact; the specification's
 *   "plain layout wrapper with the brand link for static pages") and payment returns.
 * - RequireAuth > AppLayout: the signed-in pages listed in `protectedRoutes` (product/routes.ts).
 */
export function AppRouter() {
  return (
    <BrowserRouter>
      <RouterNavigation>
        <AppRoutes />
      </RouterNavigation>
    </BrowserRouter>
  );
}

/** Page links (page-link.tsx) navigate through the router inside the app. */
function RouterNavigation({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const navigation = useMemo<PageNavigation>(
    () => ({ pathname, navigate: (to) => void navigate(to) }),
    [pathname, navigate],
  );
  return <PageNavigationProvider value={navigation}>{children}</PageNavigationProvider>;
}

function AppRoutes() {
  return (
    <>
      <ScrollManager />
      {/* While a lazily loaded layout arrives (the pages have their own boundary, in PageOutlet). */}
      <Suspense fallback={<PageLoading />}>
        <Routes>
          <Route element={<PublicLayout />}>
            <Route index element={<HomePage />} />
            <Route path={routes.quiz} element={<QuizPage />} />
            <Route path={routes.quizResults} element={<QuizResultsPage />} />
            <Route path={routes.tryOn} element={<TryOnPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Route>

          <Route element={<PlainLayout />}>
            <Route path={routes.login} element={<LoginPage />} />
            <Route path={routes.signup} element={<SignupPage />} />
            <Route path={routes.resetPassword} element={<ResetPasswordPage />} />
            <Route path={routes.terms} element={<TermsPage />} />
            <Route path={routes.privacy} element={<PrivacyPage />} />
            <Route path={routes.contact} element={<ContactPage />} />
          </Route>

          {/* Admins only; anyone else (signed out included) gets the ordinary 404 page. */}
          <Route element={<AdminLayout />}>
            <Route
              path={adminPath}
              element={<AdminGate page={<AdminPage />} notFound={<NotFoundPage />} />}
            />
          </Route>

          <Route path={routes.history} element={<Navigate to={generatedTab} replace />} />
          <Route path={routes.generations} element={<Navigate to={generatedTab} replace />} />

          <Route element={<RequireAuth />}>
            <Route element={<AppLayout />}>
              {/* Signed-in pages (dashboard, studio, account, billing) are declared here. */}
              <Route path={routes.dashboard} element={<DashboardPage />} />
              <Route path={routes.category} element={<CategoryPage />} />
              <Route path={routes.model} element={<ModelPage />} />
              <Route path={routes.createModel} element={<CreateModelPage />} />
              <Route path={routes.examplePhotos} element={<ExamplePhotosPage />} />
              <Route path={routes.uploadPhotos} element={<UploadPhotosPage />} />
              <Route path={routes.validationResults} element={<ValidationResultsPage />} />
              <Route path={routes.selectGender} element={<SelectGenderPage />} />
              <Route path={routes.nameModel} element={<NameModelPage />} />
              <Route path={routes.myModels} element={<MyModelsPage />} />
              <Route path={routes.customPrompt} element={<CustomPromptPage />} />
              <Route path={routes.bulkGenerate} element={<BulkGeneratePage />} />
              <Route path={routes.bulkGeneration} element={<BulkGenerationPage />} />
              <Route path={routes.generation} element={<GenerationPage />} />
              <Route path={routes.account} element={<AccountPage />} />
              <Route path={routes.subscription} element={<SubscriptionPage />} />
              <Route path={routes.buyCredits} element={<BuyCreditsPage />} />
            </Route>
            {/* Payment returns and the test-mode provider pages: quiet, nothing to wander off to. */}
            <Route element={<PlainLayout />}>
              <Route path={routes.paymentSuccess} element={<PaymentSuccessPage />} />
              {/* BILLING=local only; elsewhere their API answers 404 and the pages say so. */}
              <Route path={`${testModeRoutes.checkout}/:id`} element={<TestCheckoutPage />} />
              <Route path={testModeRoutes.portal} element={<TestPortalPage />} />
            </Route>
          </Route>
        </Routes>
      </Suspense>
    </>
  );
}
