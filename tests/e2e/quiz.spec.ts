import { mkdir } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { password, screenshotDir, signUpInBrowser, uniqueEmail } from './support/people.ts';

// The "real or AI?" quiz funnel: the quiz, its results stages, the countdown and the yearly
// offer, for visitors and signed-in users. Timers run on Playwright's clock, paused where a
// state must be seen before the next one replaces it. Texts are written out (not imported from
// messages.ts) on purpose: the tests check what a person reads.

/** The truth per picture, as the API tells it (the page never shows it before an answer). */
async function quizAnswers(page: Page): Promise<Map<string, boolean>> {
  const response = await page.request.get('/api/catalog/quiz-images');
  expect(response.status()).toBe(200);
  const { images } = (await response.json()) as { images: { id: string; isAi: boolean }[] };
  expect(images).toHaveLength(16);
  return new Map(images.map((image) => [image.id, image.isAi]));
}

/**
 * Stops the page's clock where it is, so timers fire only when the test says. The page's time
 * moves on between reading it and pausing (on a busy machine, past the margin): then again.
 */
async function pauseClock(page: Page) {
  for (let attempt = 1; ; attempt += 1) {
    const now = await page.evaluate(() => Date.now());
    try {
      await page.clock.pauseAt(now + 50 * attempt);
      return;
    } catch (error) {
      if (attempt === 5 || !String(error).includes('Cannot fast-forward to the past')) throw error;
    }
  }
}

async function screenshots(page: Page, name: string) {
  await mkdir(screenshotDir, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: `${screenshotDir}/quiz-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

function answerButton(page: Page, name: 'Real' | 'AI-Generated') {
  return page.getByRole('group', { name: 'Your answer' }).getByRole('button', { name });
}

/**
 * Plays the whole quiz, answering the first `rightAnswers` questions right and the rest wrong;
 * returns the order the pictures came in.
 */
async function playQuiz(
  page: Page,
  answers: Map<string, boolean>,
  rightAnswers: number,
  options: { screenshots?: boolean; keyboard?: boolean } = {},
): Promise<string[]> {
  const order: string[] = [];
  await page.getByRole('button', { name: 'Start Quiz' }).click();
  await expect(
    page.getByRole('heading', { name: 'Is this image real or AI-generated?' }),
  ).toBeVisible();
  await pauseClock(page);

  for (let n = 1; n <= 16; n += 1) {
    await expect(page.getByText(`Question ${n} of 16`)).toBeVisible();
    const figure = page.locator('figure[data-quiz-image-id]');
    const id = await figure.getAttribute('data-quiz-image-id');
    expect(id).toBeTruthy();
    expect(order).not.toContain(id);
    order.push(id!);
    const image = figure.getByRole('img', { name: `Quiz image ${n}`, exact: true });
    await expect(image).toBeVisible();
    // Sized before it loads: no layout shift.
    await expect(image).toHaveAttribute('width', /\d+/);
    await expect(image).toHaveAttribute('height', /\d+/);
    if (n === 1 && options.screenshots) await screenshots(page, 'question');

    const isAi = answers.get(id!)!;
    const right = n <= rightAnswers;
    const saysAi = right ? isAi : !isAi;
    if (options.keyboard) await page.keyboard.press(saysAi ? 'a' : 'r');
    else await answerButton(page, saysAi ? 'AI-Generated' : 'Real').click();

    await expect(page.getByText(right ? 'Correct!' : 'Not quite!', { exact: true })).toBeVisible();
    await expect(
      page.getByText(isAi ? 'This image is AI-generated.' : 'This image is real.'),
    ).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Score:' })).toHaveText(
      `Score: ${Math.min(n, rightAnswers)} / ${n}`,
    );
    if (n === 1 && options.screenshots) await screenshots(page, 'answered');

    // A second answer during the pause changes nothing.
    await answerButton(page, 'Real').dispatchEvent('click');
    await expect(page.getByText(`Score: ${Math.min(n, rightAnswers)} / ${n}`)).toBeVisible();

    await page.clock.runFor(1500);
  }
  return order;
}

test('/quiz-results without a stored score goes to the quiz', async ({ page }) => {
  await page.goto('/quiz-results');
  await expect(page).toHaveURL(/\/quiz$/);
  await expect(page.getByRole('button', { name: 'Start Quiz' })).toBeVisible();
});

test('a full quiz scores every answer, stores the score and gives the right feedback', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const answers = await quizAnswers(page);
  await page.clock.install();
  await page.goto('/quiz');
  await expect(page.getByRole('heading', { name: 'Can you spot the AI?' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start Quiz' })).toBeEnabled();
  await screenshots(page, 'intro');

  const firstOrder = await playQuiz(page, answers, 16, { screenshots: true });
  await expect(page.getByRole('heading', { name: 'Quiz Complete!' })).toBeVisible();
  await expect(page.getByText('Redirecting to your results...')).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('quizScore'))).toBe(
    JSON.stringify({ correct: 16, total: 16, percentage: 100 }),
  );
  await page.clock.runFor(2000);
  await expect(page).toHaveURL(/\/quiz-results$/);
  await page.clock.resume();

  await expect(page.getByRole('heading', { name: 'Your Visual Detection Results' })).toBeVisible();
  await expect(page.getByTestId('quiz-percentage')).toHaveText('100%');
  await expect(page.getByText('16 out of 16 correct')).toBeVisible();
  await expect(page.getByText(/Impressive! You're better than most/)).toBeVisible();

  // A retake is a new quiz: new order, and this time 5 of 16 (31%), answered by keyboard.
  await page.getByRole('link', { name: 'Retake the quiz' }).click();
  await expect(page).toHaveURL(/\/quiz$/);
  const secondOrder = await playQuiz(page, answers, 5, { keyboard: true });
  expect(secondOrder).not.toEqual(firstOrder);
  expect([...secondOrder].sort()).toEqual([...firstOrder].sort());
  await page.clock.runFor(2000);
  await expect(page).toHaveURL(/\/quiz-results$/);
  await page.clock.resume();
  expect(JSON.parse((await page.evaluate(() => sessionStorage.getItem('quizScore')))!)).toEqual({
    correct: 5,
    total: 16,
    percentage: 31,
  });
  await expect(page.getByTestId('quiz-percentage')).toHaveText('31%');
  await expect(page.getByText('5 out of 16 correct')).toBeVisible();
  await expect(page.getByText(/most people struggle/)).toBeVisible();
});

test('feedback thresholds: under 40%, 40 to under 70%, 70% and up', async ({ page }) => {
  await page.goto('/quiz');
  const cases = [
    { correct: 6, percentage: 38, text: /most people struggle/ },
    { correct: 7, percentage: 44, text: /You have good detection skills/ },
    { correct: 11, percentage: 69, text: /You have good detection skills/ },
    { correct: 12, percentage: 75, text: /Impressive! You're better than most/ },
  ];
  for (const { correct, percentage, text } of cases) {
    await page.evaluate((score) => sessionStorage.setItem('quizScore', JSON.stringify(score)), {
      correct,
      total: 16,
      percentage,
    });
    await page.goto('/quiz-results');
    await expect(page.getByTestId('quiz-percentage')).toHaveText(`${percentage}%`);
    await expect(page.getByText(`${correct} out of 16 correct`)).toBeVisible();
    await expect(page.getByText(text)).toBeVisible();
  }
});

/** Opens the results with a stored score and goes to the offer stage. */
async function openOffer(page: Page, options: { screenshots?: boolean; pause?: boolean } = {}) {
  if (page.url() === 'about:blank') await page.goto('/terms');
  await page.evaluate(() =>
    sessionStorage.setItem('quizScore', JSON.stringify({ correct: 9, total: 16, percentage: 56 })),
  );
  await page.goto('/quiz-results');
  await expect(page.getByText(/You have good detection skills/)).toBeVisible();
  if (options.screenshots) await screenshots(page, 'results-summary');
  await page.getByRole('button', { name: 'Learn More About AI Photo Creation' }).click();
  await expect(
    page.getByRole('heading', { name: 'AI photos this real can be of you' }),
  ).toBeVisible();
  if (options.screenshots) {
    await expect(
      page.getByRole('img', { name: 'An AI-generated portrait from the quiz' }),
    ).toHaveCount(3);
    await screenshots(page, 'results-sales');
  }
  if (options.pause) await pauseClock(page);
  await page.getByRole('button', { name: 'START CREATING AI PHOTOS' }).click();
  await expect(page.getByRole('heading', { name: 'Exclusive offer' })).toBeVisible();
}

test('the results advance to the offer, whose countdown stops at 0:00', async ({ page }) => {
  await page.clock.install();
  await openOffer(page, { screenshots: true, pause: true });

  const offer = page.getByRole('article', { name: 'Premium Yearly' });
  for (const figure of [
    '$59/year',
    '$468/year',
    '$4.92/month',
    'Regular price $39/month',
    'Save 87%',
    '$409 off',
    '200 credits every month (2400 credits a year)',
    '2400 AI detection credits per year',
    'Priority email support',
    'Extended detection history',
    'Priority access to new features',
    'Advanced detection algorithms',
  ]) {
    await expect(offer.getByText(figure, { exact: true })).toBeVisible();
  }
  await expect(offer.locator('s')).toHaveText('$468/year');
  for (const claim of [
    '30-Day Money-Back Guarantee',
    'Enterprise-Grade Security',
    '24/7 Support',
  ]) {
    await expect(page.getByText(claim, { exact: true })).toBeVisible();
  }
  await expect(offer.getByRole('button', { name: 'Start Creating AI Photos' })).toBeEnabled();

  const timer = page.getByRole('timer', { name: 'Offer expires in' });
  await expect(timer).toHaveText('15:00');
  await screenshots(page, 'results-offer');
  await page.clock.runFor(1000);
  await expect(timer).toHaveText('14:59');
  await page.clock.runFor(60_000);
  await expect(timer).toHaveText('13:59');
  await page.clock.runFor(16 * 60_000);
  await expect(timer).toHaveText('0:00');
  await page.clock.runFor(60_000);
  await expect(timer).toHaveText('0:00');
  // Nothing else happens at 0:00: the offer stays.
  await expect(offer.getByRole('button', { name: 'Start Creating AI Photos' })).toBeEnabled();

  // Back returns to the previous stage, not to the quiz.
  await page.clock.resume();
  await page.goBack();
  await expect(
    page.getByRole('heading', { name: 'AI photos this real can be of you' }),
  ).toBeVisible();
});

test('a visitor claiming the offer goes to sign up, with the results to come back to', async ({
  page,
}) => {
  await openOffer(page);
  await page.getByRole('button', { name: 'Start Creating AI Photos' }).click();
  await expect(page).toHaveURL(/\/signup\?offer=yearly$/);
  await expect(page.getByText('Limited time: $59/year (save 67%)')).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('redirectAfterAuth'))).toBe(
    '/quiz-results',
  );
});

test('a signed-in user claiming the offer goes straight to the yearly checkout', async ({
  page,
}) => {
  await signUpInBrowser(page);
  await openOffer(page);
  await page.getByRole('button', { name: 'Start Creating AI Photos' }).click();
  await expect(page).toHaveURL(/\/test-checkout\/[^/]+$/);
  await expect(page.getByText('Premium Yearly', { exact: true })).toBeVisible();
});

test('a failed offer checkout says so and the button can be used again', async ({ page }) => {
  await signUpInBrowser(page);
  await openOffer(page);
  const button = page.getByRole('button', { name: 'Start Creating AI Photos' });

  await page.route('**/api/billing/yearly-checkout', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: '{}' }),
  );
  await button.click();
  await expect(page.getByText('Failed to create checkout session')).toBeVisible();
  await expect(button).toBeEnabled();

  await page.unroute('**/api/billing/yearly-checkout');
  await page.route('**/api/billing/yearly-checkout', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'INTERNAL', message: 'Boom' } }),
    }),
  );
  await button.click();
  await expect(page.getByText('An error occurred while processing your request')).toBeVisible();
  await expect(button).toBeEnabled();
  await expect(page).toHaveURL(/\/quiz-results$/);
});

test('a visitor claims the offer, signs up, pays and is on Premium Yearly with 200 credits', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openOffer(page);
  await page.getByRole('button', { name: 'Start Creating AI Photos' }).click();
  await expect(page).toHaveURL(/\/signup\?offer=yearly$/);
  await page.getByRole('button', { name: 'Continue with email' }).click();
  await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('quiz-offer'));
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Claim Offer & Create Account' }).click();

  await expect(page).toHaveURL(/\/test-checkout\//);
  await page.getByRole('button', { name: 'Pay $59' }).click();
  // The payment page confirms the plan with its two ways on, and does not send the visitor back
  // to the offer just bought.
  await expect(page).toHaveURL(/\/payment-success\?session_id=/);
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByRole('link', { name: 'Go to Dashboard' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'View Account' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Continue where you left off' })).toHaveCount(0);
  await page.goto('/quiz-results');
  await expect(page.getByRole('heading', { name: 'Your Visual Detection Results' })).toBeVisible();

  const me = await page.request.get('/api/me');
  expect(me.status()).toBe(200);
  const { subscription } = (await me.json()) as {
    subscription: { active: boolean; tier: string; credits: number };
  };
  expect(subscription).toMatchObject({ active: true, tier: 'premium', credits: 200 });

  // Back on the results, the offer no longer sells the plan the visitor now has.
  await page.getByRole('button', { name: 'Learn More About AI Photo Creation' }).click();
  await page.getByRole('button', { name: 'START CREATING AI PHOTOS' }).click();
  await expect(page.getByText("You're on the Premium plan: everything is ready.")).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start Creating AI Photos' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Go to your studio' })).toHaveAttribute(
    'href',
    '/dashboard',
  );
});
