import { z } from 'zod';
import { accountMessages } from '../messages/account.ts';

export const tierSchema = z.enum(['none', 'basic', 'pro', 'premium', 'enterprise']);

export const subscriptionSchema = z.object({
  active: z.boolean(),
  tier: tierSchema,
  credits: z.number().int(),
  monthlyFreeTrainingsLeft: z.number().int(),
});

export const profileSchema = z.object({
  trainingInProgress: z.boolean(),
  selectedTrainingModelId: z.string().nullable(),
});

export const meResponseSchema = z.object({
  user: z.object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: z.enum(['user', 'admin']),
    createdAt: z.iso.datetime(),
  }),
  profile: profileSchema,
  subscription: subscriptionSchema,
});

export type Subscription = z.infer<typeof subscriptionSchema>;
export type Profile = z.infer<typeof profileSchema>;
export type MeResponse = z.infer<typeof meResponseSchema>;

/** `DELETE /api/account`: the word the user typed, so a stray request cannot delete an account. */
export const deleteAccountRequestSchema = z.object({
  confirm: z.literal(accountMessages.deleteAccount.confirmWord, {
    error: accountMessages.deleteAccount.confirmPrompt,
  }),
});
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequestSchema>;
