import type { MeResponse } from '../../../common/api/account.ts';
import { tierSchema } from '../../../common/api/account.ts';
import type { Database } from '../../db/client.ts';
import type { SessionUser } from '../../http/authenticate.ts';
import { findOrCreateProfile, findOrCreateSubscription } from './repository.ts';

export function createAccountService(db: Database) {
  return {
    async me(user: SessionUser): Promise<MeResponse> {
      const [profile, subscription] = await Promise.all([
        findOrCreateProfile(db, user.id),
        findOrCreateSubscription(db, user.id),
      ]);
      return {
        user: {
          id: user.id,
          email: user.email,
          name: user.name,
          role: user.role === 'admin' ? 'admin' : 'user',
          createdAt: user.createdAt.toISOString(),
        },
        profile: {
          trainingInProgress: profile.trainingInProgress,
          selectedTrainingModelId: profile.selectedTrainingModelId,
        },
        subscription: {
          active: subscription.active,
          tier: tierSchema.catch('none').parse(subscription.tier),
          credits: subscription.credits,
          monthlyFreeTrainingsLeft: subscription.monthlyFreeTrainingsLeft,
        },
      };
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
