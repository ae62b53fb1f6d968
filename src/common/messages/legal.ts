// The terms of service and the privacy policy.
// The server and the web app import them from here, so a page downloads only the words it uses.

import { brand, contact as contactDetails } from '../product/brand.ts';
import { costs } from '../product/credits.ts';
import { offer as offerNumbers } from '../product/quiz.ts';
import { photoRange, plural } from './format.ts';

/** `messages.legal`: the terms of service and the privacy policy. */
export const legalMessages = {
  termsTitle: 'Terms of Service',
  privacyTitle: 'Privacy Policy',
  controller: `${contactDetails.companyLine}. Contact: ${contactDetails.infoEmail}`,
  lastUpdated: 'Last updated: November 21, 2026',
  contents: 'On this page',
  questions: 'Questions about this document?',
  writeToUs: 'Write to us at',
  terms: {
    intro: `These terms apply when you use ${brand.name}, the AI photo studio at this website. ${brand.name} is provided by ${contactDetails.companyLine} ("we", "us"). By creating an account or using the service you accept these terms. Please read them together with our Privacy Policy.`,
    sections: [
      {
        id: 'service',
        heading: '1. The service',
        paragraphs: [
          `${brand.name} lets you train a personal AI model on ${photoRange} photos of yourself and then create images of yourself from ready-made style presets or your own descriptions, and try on clothing virtually. Which features you can use depends on your plan.`,
          'AI-generated images are created automatically. They can differ from what you expected and may not always look exactly like you. We keep improving the service and may change, add or remove features; we tell you in advance when a change takes away something you pay for.',
        ],
      },
      {
        id: 'account',
        heading: '2. Your account',
        paragraphs: [
          'You need an account to use the studio. You must be at least 18 years old and give a working email address. Keep your password to yourself: you are responsible for what happens in your account, and you should tell us at once if you think someone else has used it.',
          'You can stop using the service at any time and delete your account yourself on the Account page.',
        ],
      },
      {
        id: 'photos',
        heading: '3. Your photos and AI processing',
        paragraphs: [
          'When you upload photos to create an AI model, you confirm that they show you. We check each photo automatically (for example, that it shows exactly one face and is sharp enough) and use the accepted photos to train an AI model that belongs to your account. Only you can use your model.',
          'We process your face photos only to provide the service to you: to check them, to train your model and to create the images you ask for. We never use them to train models for anyone else. Our Privacy Policy explains how long we keep them and how you can delete them.',
        ],
      },
      {
        id: 'acceptable-use',
        heading: '4. Acceptable use',
        paragraphs: ['You agree not to use the service to:'],
        list: [
          'create nude, sexual or otherwise NSFW images;',
          'upload photos of another person without their explicit consent, or photos of anyone under 18;',
          'impersonate someone, or create images meant to deceive, defame, harass or intimidate anyone;',
          'create content that is hateful, violent, illegal or infringes the rights of others;',
          'get around our safety filters, usage limits or payments, or copy, scrape or reverse-engineer the service.',
        ],
        after: [
          'Our safety filters block images that break these rules; a blocked image still uses its credit. We may suspend or close an account that breaks these terms.',
        ],
      },
      {
        id: 'credits',
        heading: '5. Credits and subscriptions',
        paragraphs: [
          'Plans are subscriptions paid in advance for each month (or for a year, for the yearly offer) and renew automatically until you cancel. You can cancel at any time from the Account page; the plan then stays active until the end of the period you have paid for.',
          `Creating an image uses ${plural(costs.creditsPerImage, 'credit')}. Training a new AI model uses your monthly free training when you have one left, otherwise ${costs.trainingCredits} credits. Your plan adds credits every month, and subscribers can buy extra credit packs. Credits never expire, have no cash value and cannot be transferred. If an image or try-on fails for a technical reason, its credit is returned to you.`,
          'Prices are shown before you pay and include the taxes we are required to charge. Payments are handled by our card payment processor.',
        ],
      },
      {
        id: 'refunds',
        heading: '6. Refunds and the money-back guarantee',
        paragraphs: [
          `If you are not happy with ${brand.name}, write to us within ${offerNumbers.moneyBackGuaranteeDays} days of your first payment and we will refund that payment in full, no questions asked. After that, payments are not refunded except where the law requires it.`,
          'Nothing in these terms limits the rights you have as a consumer under mandatory law.',
        ],
      },
      {
        id: 'ownership',
        heading: '7. Ownership and commercial use',
        paragraphs: [
          'Your photos remain yours. You allow us to store and process them only as far as needed to provide the service to you, and this permission ends when you delete them or your account.',
          'The images you create are yours to use, including for commercial purposes such as your website, profiles, marketing and print, as long as the use respects these terms and the law. The service itself, its software, design and style presets remain ours.',
        ],
      },
      {
        id: 'liability',
        heading: '8. Liability',
        paragraphs: [
          'We work to keep the service available and secure, but we provide it as it is and cannot promise that it is always available or free of errors. To the extent the law allows, we are not liable for indirect or consequential losses, and our total liability is limited to what you paid us in the 12 months before the claim.',
          'These limits do not apply to damage caused intentionally or through gross negligence, or where the law does not allow liability to be limited.',
        ],
      },
      {
        id: 'changes',
        heading: '9. Changes to these terms',
        paragraphs: [
          'If we change these terms in a way that matters to you, we tell you by email or in the app at least 30 days before the change takes effect. If you do not accept the change, you can cancel and delete your account before then.',
        ],
      },
      {
        id: 'law',
        heading: '10. Governing law',
        paragraphs: [
          'These terms are governed by the laws of Finland. Disputes are settled in the courts of Finland, unless mandatory consumer law gives you the right to go to a court where you live. As a consumer you can also take a dispute to the Finnish Consumer Disputes Board.',
        ],
      },
    ],
  },
  privacy: {
    intro: `This policy explains what personal data ${brand.name} collects, why, how long we keep it and what rights you have. We collect only what we need to run the service, and we never sell your data.`,
    sections: [
      {
        id: 'controller',
        heading: '1. Who is responsible',
        paragraphs: [
          `The controller of your personal data is ${contactDetails.companyLine}. For anything about your data, including the requests described below, write to ${contactDetails.infoEmail}.`,
        ],
      },
      {
        id: 'data',
        heading: '2. What we collect',
        paragraphs: [],
        list: [
          'Account details: your email address and name. Your password is stored only as a secure hash; if you sign in with Google we receive your name and email address from Google.',
          'Photos you upload to train your AI model or for virtual try-on, the AI model trained on them, the prompts you write and the images you create.',
          'Your plan, credit balance and payment records (amounts and dates, never your full card number).',
          'Technical data needed to keep your account secure: your session, IP address and browser type, and security logs.',
        ],
      },
      {
        id: 'face-photos',
        heading: '3. How we use your face photos',
        paragraphs: [
          'Your photos are used only to check them, to train your own AI model and to create the images you ask for. Your model belongs to your account and only you can use it. We never use your photos or your model to train models for other people or for our own purposes, and we never show them to anyone else.',
        ],
      },
      {
        id: 'purposes',
        heading: '4. Why we process your data',
        paragraphs: [
          'We process your data to provide the service you signed up for (our contract with you), to keep the service secure and prevent abuse (our legitimate interest), and to keep the accounting records the law requires (a legal obligation). Where the law asks for your consent, for example for processing your face photos, we ask for it, and you can withdraw it at any time by deleting the photos or your account.',
        ],
      },
      {
        id: 'retention',
        heading: '5. How long we keep it',
        list: [
          'Training photos are deleted once your AI model has been trained, unless you choose to keep them in your account.',
          'Your AI models, generated images and prompts are kept until you delete them or your account.',
          'Password reset links expire after one hour.',
          'Payment records are kept for as long as Finnish accounting law requires, without the photos or images of your account.',
        ],
        paragraphs: [],
      },
      {
        id: 'deletion',
        heading: '6. Deleting your data',
        paragraphs: [
          `You can delete your account yourself at any time on the Account page. This deletes your account, your AI models, your photos and your generated images straight away, and cancels an active subscription. You can also ask us to delete your data by writing to ${contactDetails.infoEmail}.`,
        ],
      },
      {
        id: 'payments',
        heading: '7. Payments',
        paragraphs: [
          'Payments are handled by our card payment processor, which receives your card details directly. We never see or store your full card number; we keep only what we need to know that you paid.',
        ],
      },
      {
        id: 'processors',
        heading: '8. Who else handles your data',
        paragraphs: [
          'We use carefully chosen providers for hosting, email delivery, payments and AI image processing. They process data only on our instructions and under data processing agreements. If data is transferred outside the EU and EEA, we rely on safeguards approved by the European Commission, such as its standard contractual clauses.',
          'Our AI image providers receive your training photos, your prompts and the photos you send for virtual try-on only to do that work. When you delete an AI model, or your account, we ask the provider that trained it to delete the trained model too; this can take a few minutes. The images our AI image provider makes are copied to our storage straight away, and it deletes its copy within an hour.',
          'Two things our providers do not let us delete sooner. Our AI image provider may keep the text of a request, such as your prompt, for up to 30 days. Our virtual try-on provider keeps the pictures it makes for up to 72 hours and offers no way to delete them earlier; of your photos it keeps only links, which stop working within an hour.',
        ],
      },
      {
        id: 'cookies',
        heading: '9. Cookies',
        paragraphs: [
          'We use a single session cookie to keep you signed in. It is essential for the service, cannot be read by scripts on the page and is removed when you sign out. We use no advertising or analytics cookies and do not track you across other sites.',
        ],
      },
      {
        id: 'rights',
        heading: '10. Your rights',
        paragraphs: [
          'Under the EU General Data Protection Regulation (GDPR) you have the right to:',
        ],
        list: [
          'get a copy of the personal data we hold about you;',
          'have incorrect data corrected;',
          'have your data deleted;',
          'restrict or object to how we process it;',
          'receive your data in a portable format;',
          'withdraw your consent at any time.',
        ],
        after: [
          `To use these rights, write to ${contactDetails.infoEmail}; we answer within one month. You can also complain to the Finnish Data Protection Ombudsman (tietosuoja.fi) or the data protection authority where you live.`,
        ],
      },
      {
        id: 'security',
        heading: '11. Security',
        paragraphs: [
          'Connections to the service are encrypted, passwords are stored only as secure hashes, and your photos and images are reached only through short-lived private links.',
        ],
      },
      {
        id: 'changes',
        heading: '12. Changes to this policy',
        paragraphs: [
          'If we change this policy in a way that matters to you, we tell you by email or in the app before the change takes effect.',
        ],
      },
    ],
  },
} as const;
