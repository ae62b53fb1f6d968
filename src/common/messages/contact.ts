// The contact page's words.
// The server and the web app import them from here, so a page downloads only the words it uses.

import { contact as contactDetails } from '../product/brand.ts';

/** `messages.contact`: the contact page. */
export const contactMessages = {
  title: 'Contact Us',
  intro: 'Questions, feedback or help with your account? Write to us and we will reply soon.',
  emailLabel: 'Email us at',
  email: contactDetails.infoEmail,
  company: contactDetails.companyLine,
  replyTime: 'We reply to every message, usually within two business days.',
  privacyNote:
    'For privacy requests, such as a copy of your data or its deletion, write to the same address.',
  accountNote: 'Signed in? You can delete your account yourself on the Account page.',
} as const;
