// The web app's routes and the query parameters pages pass each other.
// Part of the product numbers of the specification, written once (src/common/product/, one file
// a topic). Imported by the browser and the server, so nothing here may touch Node or DOM APIs.

export const routes = {
  home: '/',
  login: '/login',
  signup: '/signup',
  resetPassword: '/reset-password',
  terms: '/terms',
  privacy: '/privacy',
  contact: '/contact',
  tryOn: '/tryon',
  quiz: '/quiz',
  quizResults: '/quiz-results',
  dashboard: '/dashboard',
  myModels: '/my-models',
  category: '/category/:categoryId',
  bulkGenerate: '/bulk-generate',
  bulkGeneration: '/bulk-generation/:id',
  createModel: '/create-model',
  customPrompt: '/custom-prompt',
  examplePhotos: '/example-photos',
  uploadPhotos: '/upload-photos',
  validationResults: '/validation-results',
  selectGender: '/select-gender',
  nameModel: '/name-model',
  subscription: '/subscription',
  model: '/model/:id',
  buyCredits: '/buy-credits',
  generation: '/generations/:id',
  account: '/account',
  paymentSuccess: '/payment-success',
  // Both redirect to the dashboard's generated tab.
  history: '/history',
  generations: '/generations',
} as const;

export const paths = {
  category: (categoryId: string) => `/category/${encodeURIComponent(categoryId)}`,
  model: (id: string) => `/model/${encodeURIComponent(id)}`,
  generation: (id: string) => `/generations/${encodeURIComponent(id)}`,
  bulkGeneration: (id: string) => `/bulk-generation/${encodeURIComponent(id)}`,
} as const;

/** The signed-in routes (React Router patterns); anyone else is sent to /login and brought back. */
export const protectedRoutes = [
  routes.dashboard,
  routes.myModels,
  routes.category,
  routes.bulkGenerate,
  routes.bulkGeneration,
  routes.createModel,
  routes.customPrompt,
  routes.examplePhotos,
  routes.uploadPhotos,
  routes.validationResults,
  routes.selectGender,
  routes.nameModel,
  routes.subscription,
  routes.model,
  routes.buyCredits,
  routes.generation,
  routes.account,
  routes.paymentSuccess,
] as const;

export function isProtectedPath(pathname: string): boolean {
  return protectedRoutes.some((pattern) => {
    const source = pattern.replace(/:[A-Za-z]+/g, '[^/]+');
    return new RegExp(`^${source}/?$`).test(pathname);
  });
}

export const defaultRedirectAfterHowItWorks = routes.dashboard;

export const dashboardQuery = {
  main: ['generation', 'tryon'],
  sub: ['presets', 'custom', 'generated'],
  defaultMain: 'generation',
  defaultSub: 'presets',
} as const;

/**
 * Added to the address a checkout's Cancel returns to, so the page there can say the checkout was
 * left and nothing was charged (the provider itself says nothing).
 */
export const checkoutCancelled = { param: 'checkout', value: 'cancelled' } as const;

export function withCheckoutCancelled(path: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}${checkoutCancelled.param}=${checkoutCancelled.value}`;
}

export const subscriptionFrom = {
  customPrompt: 'custom-prompt',
  tryOn: 'tryon',
} as const;

export const signupOffer = {
  yearly: 'yearly',
} as const;
