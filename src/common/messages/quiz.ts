// The quiz's words and its yearly offer.
// The server and the web app import them from here, so a page downloads only the words it uses.

import { formatUsd } from '../product/money.ts';
import { yearlyOffer } from '../product/plans.ts';
import { offer as offerNumbers, quiz as quizNumbers } from '../product/quiz.ts';
import { photoRange } from './format.ts';
import { failedToCreateCheckoutSession } from './phrases.ts';

/** `messages.quiz`: the Real or AI? quiz and its results. */
export const quizMessages = {
  introTitle: 'Can you spot the AI?',
  introText: `We'll show you ${quizNumbers.imageCount} photos, one at a time. Decide for each one whether it is real or AI-generated.`,
  start: 'Start Quiz',
  question: 'Is this image real or AI-generated?',
  answerReal: 'Real',
  answerAi: 'AI-Generated',
  correct: 'Correct!',
  incorrect: 'Not quite!',
  revealAi: 'This image is AI-generated.',
  revealReal: 'This image is real.',
  progress: (n: number, m: number) => `Question ${n} of ${m}`,
  score: (correct: number, total: number) => `Score: ${correct} / ${total}`,
  complete: 'Quiz Complete!',
  redirecting: 'Redirecting to your results...',
  // Numbered by question, never by the stored order (which would give the answer away).
  imageAlt: (n: number) => `Quiz image ${n}`,
  shortcutHint: 'Tip: press R for Real or A for AI-Generated.',
  loadFailed: "We couldn't load the quiz images.",
  answerGroupLabel: 'Your answer',
  results: {
    title: 'Your Visual Detection Results',
    accuracy: (percentage: number) => `${percentage}%`,
    outOf: (correct: number, total: number) => `${correct} out of ${total} correct`,
    accuracyLabel: 'Accuracy',
    retake: 'Retake the quiz',
    showcaseAlt: 'An AI-generated portrait from the quiz',
    feedback: {
      low: "Don't worry: most people struggle to tell real photos from AI-generated ones. That's how realistic AI photos have become.",
      medium:
        'You have good detection skills! Still, some AI-generated photos fooled you, which shows how realistic they have become.',
      high: "Impressive! You're better than most at telling real photos from AI-generated ones.",
    },
    learnMore: 'Learn More About AI Photo Creation',
    salesTitle: 'AI photos this real can be of you',
    salesText: [
      'The images that fooled you were made with the same technology we use.',
      `Upload ${photoRange} photos of yourself, and in minutes your personal AI model creates professional headshots, creative portraits and social media photos that look like real photography.`,
      'No photographer, no studio, no waiting.',
    ],
    startCreatingUpper: 'START CREATING AI PHOTOS',
  },
} as const;

/** `messages.offer`: the quiz's yearly offer. */
export const offerMessages = {
  title: 'Exclusive offer',
  countdownLabel: 'Offer expires in',
  planTitle: yearlyOffer.title,
  price: `${formatUsd(yearlyOffer.priceUsd)}/year`,
  monthlyEquivalent: `${formatUsd(yearlyOffer.monthlyEquivalentUsd)}/month`,
  strikethrough: `${formatUsd(yearlyOffer.strikethroughYearlyUsd)}/year`,
  regularPrice: `Regular price ${formatUsd(yearlyOffer.regularMonthlyUsd)}/month`,
  savingsPercent: `Save ${yearlyOffer.savingsPercent}%`,
  savingsAmount: `${formatUsd(yearlyOffer.savingsUsd)} off`,
  creditsPerMonth: `${yearlyOffer.monthlyCredits} credits every month`,
  subtitle: 'A one-time price for quiz takers. Claim it before the timer runs out.',
  alreadySubscribed: (plan: string) => `You're on the ${plan} plan: everything is ready.`,
  goToDashboard: 'Go to your studio',
  creditsPerYear: `${yearlyOffer.creditsPerYear} credits a year`,
  billedYearly: 'Billed yearly',
  featuresHeading: 'Everything in Premium Yearly:',
  features: yearlyOffer.features,
  cta: 'Start Creating AI Photos',
  processing: 'Processing...',
  claims: [
    `${offerNumbers.moneyBackGuaranteeDays}-Day Money-Back Guarantee`,
    'Enterprise-Grade Security',
    '24/7 Support',
  ],
  failedToCreateCheckoutSession,
  requestFailed: 'An error occurred while processing your request',
} as const;
