import type { FastifyBaseLogger } from 'fastify';
import type { MeResponse } from '../../../common/api/account.ts';
import { tierSchema } from '../../../common/api/account.ts';
import { unreadableSubscription } from '../../../common/product/credits.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Database, Executor } from '../../db/client.ts';
import type { RunPrepared } from '../../db/statement.ts';
import type { SessionUser } from '../auth/authenticate.ts';
import {
  createAccountRows,
  deleteUser,
  findAccountRows,
  findOrCreateProfile,
  findOrCreateSubscription,
} from './repository.ts';
import { userStoragePrefix } from './storage-keys.ts';

/** A tier this version does not know (an operator's typo in the row) shows as none. */
const tierOrNone = tierSchema.catch('none');

/**
 * A feature with a say in account deletion. `beforeDelete` runs inside the deletion's
 * transaction, before the user row (and everything cascading from it) goes: billing, for
 * instance, copies the records the law requires it to keep into rows that do not reference the
 * user. Throwing refuses the deletion; nothing has been deleted then.
 */
export interface AccountDeletionParticipant {
  name: string;
  beforeDelete(tx: Executor, userId: string): Promise<void>;
}

export interface AccountServiceDeps {
  db: Database;
  runPrepared: RunPrepared;
  storage: Storage;
  deletionParticipants?: readonly AccountDeletionParticipant[];
  logger?: FastifyBaseLogger;
}

/** Called when an account is made (Better Auth's hook): its profile and subscription rows. */
export const accountCreated = (db: Executor, userId: string) => createAccountRows(db, userId);

export function createAccountService({
  db,
  runPrepared,
  storage,
  deletionParticipants = [],
  logger,
}: AccountServiceDeps) {
  return {
    async me(user: SessionUser): Promise<MeResponse> {
      // One round trip when both rows are there (made at sign-up); else each on its own.
      const both = await findAccountRows(runPrepared, user.id).catch(() => undefined);
      const [profile, subscription] = both
        ? [both, both]
        : await Promise.all([
            findOrCreateProfile(db, user.id),
            // The specification: a subscription that cannot be read is logged and taken as none
            // (inactive, no tier, no credits), rather than failing the whole page.
            findOrCreateSubscription(db, user.id).catch((error: unknown) => {
              logger?.error({ err: error, userId: user.id }, 'subscription not readable');
              return unreadableSubscription;
            }),
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
          tier: tierOrNone.parse(subscription.tier),
          credits: subscription.credits,
          monthlyFreeTrainingsLeft: subscription.monthlyFreeTrainingsLeft,
        },
      };
    },

    /**
     * Deletes the account: the participants' say, the user's rows (sessions included, so every
     * device is signed out) and every file under the user's storage prefix.
     */
    async deleteAccount(userId: string): Promise<void> {
      const prefix = userStoragePrefix(userId);
      await db.transaction(async (tx) => {
        for (const participant of deletionParticipants) await participant.beforeDelete(tx, userId);
        await deleteUser(tx, userId);
        // Inside the transaction: if the files cannot be deleted, the rows stay too and the
        // user can try again, rather than files outliving an account nobody can reach.
        await storage.deletePrefix(prefix);
      });
      // A job that was still running for the user may have written a file meanwhile.
      await storage.deletePrefix(prefix).catch((error: unknown) => {
        logger?.error({ err: error, prefix }, 'files of a deleted account could not be removed');
      });
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
