import { storageKey } from '../../adapters/storage/storage.ts';

/**
 * Every file that belongs to a user lives under this prefix (photos, zips, generated images,
 * try-ons), so deleting an account can remove all of them with one `deletePrefix`. Features
 * build their keys as `storageKey(userStoragePrefix(userId), ...)` or with `userStorageKey`.
 */
export function userStoragePrefix(userId: string): string {
  return `${storageKey('users', userId)}/`;
}

/** A key under the user's prefix, e.g. `users/{userId}/photos/{photoId}.jpg`. */
export function userStorageKey(userId: string, ...segments: string[]): string {
  return storageKey('users', userId, ...segments);
}
