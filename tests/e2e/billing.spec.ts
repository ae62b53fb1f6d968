import { expect, test, type Page } from '@playwright/test';
import {
  expectNoSeriousA11yViolations,
  password,
  saveScreenshots,
  signUpInBrowser,
  uniqueEmail,
} from './support/people.ts';

// Plans, checkout, credits and the account area, through the built-in test-mode checkout
// (BILLING=local, the e2e server's default) and its test clock. Texts are written out (not
// imported from messages.ts) on purpose: the tests check what a person reads.

function planCard(page: Page, title: string) {
  return page.getByRole('article', { name: title, exact: true });
}

/** Advances the user's test subscription to its next renewal (or its end), as the server's clock. */
async function advanceTestClock(page: Page) {
  const origin = new URL(page.url()).origin;
  const response = await page.request.post('/api/billing/test-clock/advance', {
    headers: { origin },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { active: boolean; credits: number; tier: string };
}

/** From the plan page, through the test checkout, to the confirmed plan. */
async function subscribe(page: Page, plan: 'Basic' | 'Pro' | 'Premium', price: string) {
  await page.goto('/subscription');
  await planCard(page, plan).getByRole('button', { name: 'Select Plan' }).click();
  await expect(page).toHaveURL(/\/test-checkout\/[^/]+$/);
  await expect(page.getByRole('note', { name: 'TEST MODE' })).toBeVisible();
  await page.getByRole('button', { name: `Pay ${price}` }).click();
  await expect(page).toHaveURL(/\/payment-success\?session_id=/);
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible({
    timeout: 30_000,
  });
}

function subscriptionCard(page: Page) {
  return page.getByRole('region', { name: 'Subscription Status' });
}

async function expectFigure(page: Page, label: string, value: string) {
  const card = subscriptionCard(page);
  await expect(
    card.getByRole('definition').filter({ hasText: new RegExp(`^${value}$`) }),
  ).toBeVisible();
  await expect(card.getByRole('term').filter({ hasText: label })).toBeVisible();
}

test('a subscriber buys Basic, tops up credits, cancels and the plan ends at period end', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signUpInBrowser(page);

  await test.step('the plan page shows three plans', async () => {
    await page.goto('/subscription');
    await expect(page).toHaveTitle('Subscription Plans | Likeness');
    await expect(page.getByRole('heading', { level: 1, name: 'Subscription Plans' })).toBeVisible();
    await expect(page.getByText('Choose a plan to start using our AI models')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Back' })).toBeVisible();
    const pro = planCard(page, 'Pro');
    await expect(pro.getByText('MOST POPULAR')).toBeVisible();
    await expect(pro.getByText('$49')).toBeVisible();
    await expect(pro.getByText('/ month', { exact: true })).toBeVisible();
    await expect(pro.getByText('500 Credits / Month')).toBeVisible();
    await expect(pro.getByText('Includes:')).toBeVisible();
    await expect(planCard(page, 'Basic').getByText('50 Credits / Month')).toBeVisible();
    await expect(planCard(page, 'Premium').getByText('$79')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Select Plan' })).toHaveCount(3);
    await expectNoSeriousA11yViolations(page);
    await saveScreenshots(page, 'subscription');
  });

  await test.step('Basic through the test checkout', async () => {
    // Held back a moment, so the card's busy state can be seen.
    await page.route('**/api/billing/checkout', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await route.fallback();
    });
    await planCard(page, 'Basic').getByRole('button', { name: 'Select Plan' }).click();
    await expect(
      planCard(page, 'Basic').getByRole('button', { name: 'Processing...' }),
    ).toBeDisabled();
    await expect(page).toHaveURL(/\/test-checkout\/[^/]+$/);
    await expect(page.getByRole('note', { name: 'TEST MODE' })).toBeVisible();
    await expect(page.getByText('Basic', { exact: true })).toBeVisible();
    await expect(page.getByText('Billed monthly until you cancel')).toBeVisible();
    await expect(page.getByText('50 credits every month')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await saveScreenshots(page, 'test-checkout');
    await page.getByRole('button', { name: 'Pay $19' }).click();

    await expect(page).toHaveURL(/\/payment-success\?session_id=/);
    await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByText('Your Basic subscription is active.')).toBeVisible();
    await expect(page.getByText('50 credits are ready to use.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute(
      'href',
      '/dashboard',
    );
    await saveScreenshots(page, 'payment-success');
    await page.getByRole('link', { name: 'View Account' }).click();
  });

  await test.step('the account page shows the plan and its credits', async () => {
    await expect(page).toHaveURL('/account');
    const card = subscriptionCard(page);
    await expect(card.getByText('Plan: Basic', { exact: true })).toBeVisible();
    await expect(card.getByText('Active', { exact: true })).toBeVisible();
    await expectFigure(page, 'Credits', '50');
    await expectFigure(page, 'Free trainings left this month', '1');
    await expect(card.getByRole('button', { name: 'Manage Subscription' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'My AI Models' })).toHaveAttribute(
      'href',
      '/my-models',
    );
    // No plan cards for a subscriber.
    await expect(page.getByRole('button', { name: 'Select Plan' })).toHaveCount(0);
    await expect(
      page.getByRole('banner').getByRole('link', { name: 'Credit balance: 50 credits' }),
    ).toBeVisible();

    await card.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByText('Subscription status updated')).toBeVisible();

    // A subscriber's plan page.
    await page.goto('/subscription');
    await expect(page.getByText('Manage Your Subscription')).toBeVisible();
    await expect(page.getByText('You are currently on the Basic plan')).toBeVisible();
    await expect(
      planCard(page, 'Basic').getByRole('button', { name: 'Current Plan' }),
    ).toBeDisabled();
  });

  await test.step('the 200 pack adds 200 credits', async () => {
    await page.goto('/buy-credits');
    await expect(page.getByRole('heading', { level: 1, name: 'Buy Credits' })).toBeVisible();
    const packs = page.getByRole('article');
    await expect(packs).toHaveCount(4);
    const popular = page.getByRole('article', { name: '500 Credits' });
    await expect(popular.getByText('MOST POPULAR')).toBeVisible();
    await expect(popular.getByText('Save 22%')).toBeVisible();
    const small = page.getByRole('article', { name: '200 Credits' });
    await expect(small.getByText('$19')).toBeVisible();
    await expect(small.getByText('Regular price $25')).toBeAttached();
    await expectNoSeriousA11yViolations(page);
    await saveScreenshots(page, 'buy-credits');

    await small.getByRole('button', { name: 'Buy Now' }).click();
    await expect(page).toHaveURL(/\/test-checkout\//);
    await expect(page.getByText('200 Credits', { exact: true })).toBeVisible();
    await expect(page.getByText('One-time purchase')).toBeVisible();
    await page.getByRole('button', { name: 'Pay $19' }).click();

    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: 'Credits added' })).toBeVisible({
      timeout: 30_000,
    });
    await expect(dialog).toContainText('200 credits have been added to your account!');
    await expect(dialog).toContainText('Your new balance is 250 credits.');
    // The return's query string is gone, so a reload does not verify again.
    await expect(page).toHaveURL('/buy-credits');
    await saveScreenshots(page, 'buy-credits-added');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(
      page.getByRole('banner').getByRole('link', { name: 'Credit balance: 250 credits' }),
    ).toBeVisible();
  });

  await test.step('the account page lists both grants', async () => {
    await page.goto('/account');
    await expectFigure(page, 'Credits', '250');
    const history = page.getByRole('region', { name: 'Credit history' });
    const rows = history.getByRole('row');
    await expect(rows.filter({ hasText: 'Credit pack' })).toContainText('+200');
    await expect(rows.filter({ hasText: 'Credit pack' })).toContainText('250');
    await expect(rows.filter({ hasText: 'Plan credits' })).toContainText('+50');
    await expectNoSeriousA11yViolations(page);
    await saveScreenshots(page, 'account');
  });

  await test.step('cancelling in the test portal keeps the plan until the period ends', async () => {
    await subscriptionCard(page).getByRole('button', { name: 'Manage Subscription' }).click();
    await expect(page).toHaveURL(/\/test-portal\?return=/);
    await expect(page.getByRole('note', { name: 'TEST MODE' })).toBeVisible();
    await saveScreenshots(page, 'test-portal');
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect(page.getByRole('button', { name: 'Keep my subscription' })).toBeVisible();
    await page.getByRole('button', { name: 'Back to your account' }).click();

    await expect(page).toHaveURL('/account');
    const card = subscriptionCard(page);
    await expect(card.getByText('Active', { exact: true })).toBeVisible();
    await expect(card.getByText(/stays active until/)).toBeVisible();

    const after = await advanceTestClock(page);
    expect(after.active).toBe(false);
    await page.reload();
    await expect(card.getByText('Inactive', { exact: true })).toBeVisible();
    await expect(card.getByText('Plan: No active plan', { exact: true })).toBeVisible();
    // Credits bought stay; plans are offered again.
    await expectFigure(page, 'Credits', '250');
    await expect(page.getByRole('button', { name: 'Select Plan' })).toHaveCount(3);
  });
});

test('a renewal grants the plan credits again and resets the free training', async ({ page }) => {
  test.setTimeout(120_000);
  await signUpInBrowser(page);
  await subscribe(page, 'Basic', '$19');

  const renewed = await advanceTestClock(page);
  expect(renewed.active).toBe(true);
  expect(renewed.credits).toBe(100);

  await page.goto('/account');
  await expectFigure(page, 'Credits', '100');
  await expectFigure(page, 'Free trainings left this month', '1');
  const rows = page.getByRole('region', { name: 'Credit history' }).getByRole('row');
  await expect(rows.filter({ hasText: 'Plan credits' })).toHaveCount(2);
  await expect(rows.filter({ hasText: 'Plan credits' }).first()).toContainText('100');
});

test('the yearly offer goes from sign-up through checkout to Premium with 200 credits', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/signup?offer=yearly');
  await expect(page.getByText('Limited time: $59/year (save 67%)')).toBeVisible();
  await page.getByRole('button', { name: 'Continue with email' }).click();
  await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('yearly'));
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Claim Offer & Create Account' }).click();

  await expect(page).toHaveURL(/\/test-checkout\//);
  await expect(page.getByText('Premium Yearly', { exact: true })).toBeVisible();
  await expect(page.getByText('Billed yearly until you cancel')).toBeVisible();
  await expect(page.getByText('200 credits every month')).toBeVisible();
  await page.getByRole('button', { name: 'Pay $59' }).click();

  await expect(page).toHaveURL(/\/payment-success\?session_id=.+&offer=yearly/);
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByText('Your Premium Yearly subscription is active.')).toBeVisible();

  await page.goto('/account');
  const card = subscriptionCard(page);
  await expect(card.getByText('Plan: Premium Yearly', { exact: true })).toBeVisible();
  await expectFigure(page, 'Credits', '200');
});

test('from custom prompts, Basic is not offered', async ({ page }) => {
  await signUpInBrowser(page);
  await page.goto('/subscription?from=custom-prompt');
  await expect(page.getByText('Choose Pro or Premium for Custom Prompts')).toBeVisible();
  await expect(
    planCard(page, 'Basic').getByRole('button', { name: 'No Custom Prompts' }),
  ).toBeDisabled();
  await expect(planCard(page, 'Pro').getByRole('button', { name: 'Select Plan' })).toBeEnabled();

  await page.goto('/subscription?from=tryon');
  await expect(page.getByText('Choose a plan to access Try-On feature')).toBeVisible();
});

test('a plan bought on the way to model creation offers to continue there', async ({ page }) => {
  await signUpInBrowser(page);
  await page.goto('/subscription?redirect=%2Fcreate-model');
  await planCard(page, 'Basic').getByRole('button', { name: 'Select Plan' }).click();
  await page.getByRole('button', { name: 'Pay $19' }).click();
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByRole('link', { name: 'Go to Dashboard' })).toBeVisible();
  await page.getByRole('link', { name: 'Continue where you left off' }).click();
  await expect(page).toHaveURL('/create-model');
});

test('a subscription check that fails says so and reads the plan again', async ({ page }) => {
  await signUpInBrowser(page);
  await page.route('**/api/billing/check-subscription', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'INTERNAL', message: 'Boom' } }),
    }),
  );

  await page.goto('/account');
  const reread = page.waitForRequest(
    (request) => request.method() === 'GET' && request.url().endsWith('/api/billing/subscription'),
  );
  await subscriptionCard(page).getByRole('button', { name: 'Refresh' }).click();
  await expect(
    subscriptionCard(page).getByText('Failed to check subscription status. Please try again.'),
  ).toBeVisible();
  await reread;

  // Back from a payment provider to the dashboard: the refresh 2 s later fails the same way.
  await page.goto('/dashboard?payment=success');
  await expect(
    page.locator('[data-sonner-toast]').filter({ hasText: 'Failed to check subscription status' }),
  ).toBeVisible({ timeout: 10_000 });
});

test('credit packs need a plan first', async ({ page }) => {
  await signUpInBrowser(page);
  await page.goto('/buy-credits');
  await expect(
    page.getByText('Please subscribe to a plan first before purchasing additional credits.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Buy Now' })).toHaveCount(0);
  await page.getByRole('link', { name: 'View plans' }).click();
  await expect(page).toHaveURL('/subscription');
  await saveScreenshots(page, 'subscription-no-plan');
});

test('the payment success page needs a session id', async ({ page }) => {
  await signUpInBrowser(page);
  await page.goto('/payment-success');
  await expect(page).toHaveURL('/account');
});
